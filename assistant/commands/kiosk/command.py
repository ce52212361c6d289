"""``assistant kiosk``: the locked configuration, the supervised app process and the soak run."""

from __future__ import annotations

import argparse
import faulthandler
import logging
import signal
import sys
from dataclasses import replace
from pathlib import Path

from assistant.pipeline import heartbeat
from assistant.commands import launcher
from assistant import resources
from assistant import offline
from assistant.config import Config
from assistant.pipeline.kiosk.logs import log_to_file
from assistant.pipeline.kiosk.memory import limit_arenas
from assistant.commands.options import add_command, add_echo_path, config_from_args
from assistant.commands.kiosk.restarter import ProcessSupervisor, RestartPolicy, dump_stacks_when_asked

log = logging.getLogger(__name__)


def kiosk_config(config: Config) -> Config:
    """``config`` with kiosk mode on."""
    return replace(config, kiosk=replace(config.kiosk, enabled=True))


def add_parser(sub) -> argparse.ArgumentParser:
    """Register ``kiosk`` on the CLI's subparsers."""
    parser = add_command(
        sub, "kiosk", "an unattended public screen: full screen, locked, offline, restarts itself",
        "Runs the kiosk app full screen under a supervisor that starts it again if it dies. "
        "Settings come from the (locked) config file only; an invalid file is refused with the key named. "
        "--soak runs spoken turns through the kiosk engine headlessly and reports memory and threads. "
        "How an administrator leaves: press the exit keys (kiosk.exit_keys, default Ctrl+Alt+Shift+E); "
        "when kiosk.admin_pin is set, the PIN pad opens and the PIN leaves, and on a touch screen five "
        "taps within 3 s in the top-left corner open the PIN pad too. Closing the window, Esc, Alt+F4 and "
        "other shortcuts do nothing. See docs/kiosk.md.",
    )
    parser.add_argument("--no-supervisor", action="store_true",
                        help="run the app in this process (nothing restarts it if it dies)")
    parser.add_argument("--app", action="store_true", help=argparse.SUPPRESS)  # the supervised child
    soak = parser.add_argument_group("soak run (no screen)")
    soak.add_argument("--soak", type=int, metavar="TURNS", help="run TURNS spoken questions through the kiosk engine")
    soak.add_argument("--input", type=Path, nargs="+", help="question WAVs, used in turn (default: short synthesized questions)")
    soak.add_argument("--report", type=Path, help="write the soak figures as JSON here")
    add_echo_path(soak, "soak in real time with the replies coming back into the microphone through the room "
                        "simulation (e.g. 40,0.5), as on a loudspeaker")
    parser.set_defaults(func=run_kiosk)
    return parser


def run_kiosk(args: argparse.Namespace) -> int:
    limit_arenas()  # before any engine thread allocates: a day of turns stays level (memory.py)
    config = kiosk_config(config_from_args(args))
    if getattr(args, "soak", None):
        from assistant.commands.kiosk.soak import run_soak_command

        return run_soak_command(config, args)
    argv = getattr(args, "argv", sys.argv[1:])
    network = offline.secure(config, argv)  # in its own network namespace: the app inherits it
    if getattr(args, "app", False) or getattr(args, "no_supervisor", False):
        return run_app(config, supervised=getattr(args, "app", False))
    return supervise(config, argv, in_kiosk_command=getattr(args, "command", None) == "kiosk", network=network)


def run_app(config: Config, supervised: bool = False) -> int:
    """The kiosk window in this process: logs to a rotating file, offline (:func:`run_kiosk`)."""
    beat = heartbeat.Heartbeat.from_environment()  # before anything else writes to standard output
    path = log_to_file(config.kiosk, "kiosk.log")
    faulthandler.enable()  # a native crash dumps the Python stacks to stderr: the supervisor's log
    dump_stacks_when_asked()  # a hung app's stacks, for the supervisor to log
    if not supervised:
        print(f"kiosk: logging to {path}", file=sys.stderr)
    log.info("%s", offline.guarantee().describe())
    return launcher.run_kiosk_window(config, beat)


def child_command(argv: list[str], in_kiosk_command: bool) -> list[str]:
    """How the supervisor starts the app: this program again, as ``kiosk --app``."""
    return [*resources.own_command(), *argv, *([] if in_kiosk_command else ["kiosk"]), "--app"]


def supervise(config: Config, argv: list[str], in_kiosk_command: bool, network: offline.Guarantee) -> int:
    """Run the app as a child process and start it again whenever it dies."""
    path = log_to_file(config.kiosk, "supervisor.log")
    print(f"kiosk: supervising the app; logs in {path.parent}", file=sys.stderr)
    print(f"kiosk: {network.describe()}", file=sys.stderr)
    log.info("%s", network.describe())
    k = config.kiosk
    supervisor = ProcessSupervisor(child_command(argv, in_kiosk_command),
                                   RestartPolicy(k.restart_backoff_s, k.restart_backoff_max_s, k.gui_timeout_s),
                                   env=resources.child_env())
    for sig in (signal.SIGTERM, signal.SIGINT, getattr(signal, "SIGHUP", None)):
        if sig is not None:
            signal.signal(sig, lambda *_: supervisor.request_stop())
    return supervisor.run()
