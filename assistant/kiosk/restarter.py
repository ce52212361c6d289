"""The small parent process of ``assistant kiosk``: it runs the app as a child, starts it
again with backoff whenever it dies, and logs what the child wrote to stderr (tracebacks,
fatal-error dumps) to a rotating file."""

from __future__ import annotations

import logging
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from typing import IO

log = logging.getLogger(__name__)

FINAL_EXIT_CODES = (0, 2)
"""Not restarted: the administrator left the kiosk (0), or the configuration is refused (2)."""


@dataclass(frozen=True)
class RestartPolicy:
    backoff_s: float = 1.0
    """Wait before the first restart; doubled after each quick failure."""
    backoff_max_s: float = 60.0
    """The longest wait; a run longer than this starts the backoff over."""


def describe_exit(code: int) -> str:
    if code < 0:
        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"code {code}"


class ProcessSupervisor:
    """Runs ``command`` and starts it again whenever it dies, until it exits 0 or 2, or
    :meth:`request_stop` is called."""

    STOP_GRACE_S = 10.0
    """After a stop request, how long the app may take to quit before it is killed."""

    def __init__(self, command: list[str], policy: RestartPolicy, env: dict[str, str] | None = None):
        self.command = command
        self.policy = policy
        self.env = env
        self.starts = 0
        self.waits: list[float] = []
        """The backoff waited before each restart."""
        self._stop = threading.Event()
        self._child: subprocess.Popen | None = None

    def run(self) -> int:
        backoff = self.policy.backoff_s
        while not self._stop.is_set():
            started = time.perf_counter()
            code = self._run_child()
            ran = time.perf_counter() - started
            if self._stop.is_set():
                log.info("stopped; the app exited with %s", describe_exit(code))
                return 0
            if code in FINAL_EXIT_CODES:
                log.info("the app exited with %s; not restarted", describe_exit(code))
                return code
            if ran > self.policy.backoff_max_s:
                backoff = self.policy.backoff_s
            log.error("the app exited with %s after %.1f s; starting it again in %.1f s",
                      describe_exit(code), ran, backoff)
            self.waits.append(backoff)
            self._stop.wait(backoff)
            backoff = min(backoff * 2, self.policy.backoff_max_s)
        return 0

    def _run_child(self) -> int:
        self.starts += 1
        child = subprocess.Popen(
            self.command, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, env=self.env,
            text=True, errors="replace",
        )
        self._child = child
        pump = threading.Thread(target=_log_lines, args=(child.stderr,), name="app-stderr", daemon=True)
        pump.start()
        stopping_since: float | None = None
        while True:
            try:
                code = child.wait(timeout=0.5)
                break
            except subprocess.TimeoutExpired:
                if not self._stop.is_set():
                    continue
                stopping_since = stopping_since or time.perf_counter()
                if time.perf_counter() - stopping_since > self.STOP_GRACE_S:
                    child.kill()
        pump.join(timeout=2)
        return code

    def request_stop(self) -> None:
        """End the app and the supervision (safe in a signal handler: it only signals)."""
        self._stop.set()
        child = self._child
        if child is not None and child.returncode is None:
            try:
                child.terminate()
            except OSError:
                pass


def _log_lines(stream: IO[str] | None) -> None:
    if stream is None:
        return
    app = logging.getLogger("assistant.app")
    for line in stream:
        if line.strip():
            app.warning("%s", line.rstrip()[:2000])
