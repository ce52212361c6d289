"""The kiosk's parent process: the app is started again with backoff until it exits
cleanly or its configuration is refused, and stops when asked."""

from __future__ import annotations

import logging
import sys
import threading
import time
from pathlib import Path

from assistant.kiosk.restarter import ProcessSupervisor, RestartPolicy
from assistant.waiting import wait_until

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
    assert supervisor.waits[:3] == [0.05, 0.05, 0.05]


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


