"""Commands: the entry points. ``assistant`` and its subcommands (:mod:`.cli`), ``doctor``
and ``models`` (:mod:`.doctor`), the benchmark (:mod:`.bench`), the kiosk
(:mod:`.kiosk`), ``--self-test`` (:mod:`.selftest`) and the window's launcher
(:mod:`.launcher`, the one module that reaches ``ui/``).

In: command-line options (:mod:`.options`). Out: a running session, a report, an exit
status. Nothing imports this package but the console script and the launcher."""
