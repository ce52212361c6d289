import os

from assistant.offline import netns

netns.enter_if_asked()  # before any import starts a thread (see netns)

from assistant.machine import native_probe  # noqa: E402

if probe_model := os.environ.get(native_probe.PROBE_ENV):
    # A child started by native_probe to try this llama.cpp build on this CPU.
    raise SystemExit(native_probe.run_child(probe_model))

from assistant.commands.cli import main  # noqa: E402

raise SystemExit(main())
