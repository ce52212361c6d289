"""The kiosk's parent process: the app is started again with backoff until it exits
cleanly or its configuration is refused, and stops when asked."""

from __future__ import annotations

import logging
import sys
import threading
import time
from pathlib import Path

from assistant.commands.kiosk.restarter import ProcessSupervisor, RestartPolicy
from assistant.pipeline.waiting import wait_until

def counting_child(tmp_path: Path, codes: list[int]) -> list[str]:
    """A child that exits with codes[n] on its n-th start and says so on stderr."""
    counter = tmp_path / "starts"
    script = (
        "import pathlib, sys\n"
        f"p = pathlib.Path({str(counter)!r})\n"
        "n = int(p.read_text()) if p.exists() else 0\n"
        "p.write_text(str(n + 1))\n"
        f"codes = {codes!r}\n"
        "print(f'start {n} exits {codes[n]}', file=sys.stderr)\n"
        "sys.exit(codes[n])\n"
    )
    return [sys.executable, "-c", script]


def test_the_app_is_restarted_with_backoff_until_it_exits_cleanly(tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    supervisor = ProcessSupervisor(counting_child(tmp_path, [1, 3, 0]), RestartPolicy(0.05, 30.0))
    assert supervisor.run() == 0
    assert supervisor.starts == 3
    assert supervisor.waits == [0.05, 0.1], "the wait doubles after each quick failure"
    app_lines = [r.getMessage() for r in caplog.records if r.name == "assistant.app"]
    assert app_lines == ["start 0 exits 1", "start 1 exits 3", "start 2 exits 0"]


def test_the_backoff_starts_over_after_a_long_run(tmp_path):
    slow_crash = [sys.executable, "-c", "import sys, time; time.sleep(0.4); sys.exit(1)"]
    supervisor = ProcessSupervisor(slow_crash, RestartPolicy(0.05, 0.1))
    runner = threading.Thread(target=supervisor.run)
    runner.start()
    assert wait_until(lambda: len(supervisor.waits) >= 3, timeout=30)
    supervisor.request_stop()
    runner.join(timeout=15)
    assert supervisor.waits[:3] == [0.0, 0.0, 0.0], "an app that ran a while is started again at once"


def test_a_refused_config_is_not_restarted_over_and_over(tmp_path):
    supervisor = ProcessSupervisor(counting_child(tmp_path, [2, 0]), RestartPolicy(0.05, 0.1))
    assert supervisor.run() == 2
    assert supervisor.starts == 1


def test_stopping_the_supervisor_ends_the_app(tmp_path):
    supervisor = ProcessSupervisor([sys.executable, "-c", "import time; time.sleep(60)"], RestartPolicy(0.05, 0.1))
    codes = []
    runner = threading.Thread(target=lambda: codes.append(supervisor.run()))
    runner.start()
    assert wait_until(lambda: supervisor.starts == 1 and supervisor._child is not None)
    time.sleep(0.2)
    supervisor.request_stop()
    runner.join(timeout=10)
    assert codes == [0] and supervisor._child.returncode is not None




def test_an_app_that_asks_for_a_fresh_start_gets_it_at_once(tmp_path):
    supervisor = ProcessSupervisor(counting_child(tmp_path, [75, 75, 0]), RestartPolicy(0.05, 30.0))
    assert supervisor.run() == 0
    assert supervisor.waits == [0.0, 0.05], "at once, then the backoff if it keeps asking"


BEATING_CHILD = """
import pathlib, sys, time
from assistant.pipeline.heartbeat import Heartbeat
from assistant.commands.kiosk.restarter import dump_stacks_when_asked
dump_stacks_when_asked()
counter = pathlib.Path(sys.argv[1])
n = int(counter.read_text()) if counter.exists() else 0
counter.write_text(str(n + 1))
beat = Heartbeat.from_environment()
print("standard output now goes to the log", flush=True)
for i in range(6):
    time.sleep(0.1 if i else 0)
    beat.beat()
if n == 0:
    print(f"hung at {time.perf_counter()}", file=sys.stderr, flush=True)
    def frozen_here():
        time.sleep(60)  # the GUI thread stops beating

    frozen_here()
sys.exit(0)
"""


def test_an_app_whose_gui_thread_stops_beating_is_restarted(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    command = [sys.executable, "-c", BEATING_CHILD, str(tmp_path / "starts")]
    supervisor = ProcessSupervisor(command, RestartPolicy(0.05, 30.0, gui_timeout_s=0.5, kill_grace_s=0.5))
    assert supervisor.run() == 0
    assert supervisor.starts == 2 and len(supervisor.hangs) == 1
    lines = [r.getMessage() for r in caplog.records]
    hung_at = float(next(line for line in lines if line.startswith("hung at")).split()[-1])
    print(f"\nGUI thread silent: found hung {supervisor.hangs[0] - hung_at:.2f} s after its last beat (limit 0.5 s)")
    assert "standard output now goes to the log" in lines  # the heartbeat pipe carries beats only
    assert any("GUI thread is not responding" in line for line in lines)
    assert supervisor.hangs[0] - hung_at >= 0.45  # the last beat was just before "hung at"
    hung, killed = (next(i for i, line in enumerate(lines) if what in line)
                    for what in ("GUI thread is not responding", "exited with signal SIGKILL"))
    assert any("in frozen_here" in line for line in lines[hung:killed]), "the hung app's stacks, logged before its end"
