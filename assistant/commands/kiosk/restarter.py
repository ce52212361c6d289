"""The small parent process of ``assistant kiosk``: it runs the app as a child, starts it
again whenever it dies or its GUI thread stops beating (:mod:`assistant.pipeline.heartbeat`), and
logs what the child wrote to stderr (tracebacks, fatal-error dumps) to a rotating file.

An app that ran a while, that asks for a fresh start (:data:`RESTART_EXIT_CODE`, its
watchdog gave up) or that was ended because it hung, is started again at once; quick failures in a row wait ``backoff_s``,
doubled each time up to ``backoff_max_s``. A hung app is asked to dump its
threads' stacks (SIGUSR1, which ``faulthandler`` answers even when Python is frozen, into a
file of the supervisor's: no pipe or shared signal in the way), then killed, and the stacks
are logged.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from assistant.pipeline import heartbeat
from assistant.pipeline.watchdog import RESTART_EXIT_CODE

log = logging.getLogger(__name__)

STACKS_ENV = "ASSISTANT_STACKS_FILE"
"""Set by the supervisor: the file a hung app writes its threads' stacks to when asked."""
STACKS_SIGNAL = getattr(signal, "SIGUSR1", None)
"""The request for the stacks (none on Windows: a hung app is killed without them)."""

FINAL_EXIT_CODES = (0, 2)
"""Not restarted: the administrator left the kiosk (0), or the configuration is refused (2)."""


@dataclass(frozen=True)
class RestartPolicy:
    backoff_s: float = 1.0
    """Wait before a restart after a quick failure; doubled after each one."""
    backoff_max_s: float = 60.0
    """The longest wait; a run longer than this is restarted at once and starts the backoff over."""
    gui_timeout_s: float | None = None
    """Restart the app when its GUI thread sends no heartbeat for this long; None: not watched."""
    startup_s: float = 60.0
    """How long a new app may take to send its first heartbeat."""
    kill_grace_s: float = 2.0
    """After asking a hung app for its stacks, the longest before it is killed (it is killed
    as soon as they are written)."""


def describe_exit(code: int) -> str:
    if code < 0:
        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"code {code}"


KEPT = 100
"""Restarts and hangs remembered (a kiosk is supervised for weeks)."""


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
        """The backoff waited before each restart (the latest :data:`KEPT`)."""
        self.hangs: list[float] = []
        """When (perf_counter) the app was found hung, its GUI thread silent (the latest :data:`KEPT`)."""
        self.heartbeats: heartbeat.HeartbeatMonitor | None = None
        """The current app's heartbeat, when watched."""
        self._stop = threading.Event()
        self._child: subprocess.Popen | None = None
        self._ended_hung = False

    def run(self) -> int:
        backoff = self.policy.backoff_s
        quick_before = False
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
            quick = ran <= self.policy.backoff_max_s
            if not quick:  # it ran a while: not a crash loop
                wait, backoff = 0.0, self.policy.backoff_s
            elif (code == RESTART_EXIT_CODE or self._ended_hung) and not quick_before:  # a fresh start, not a crash
                wait = 0.0
            else:
                wait, backoff = backoff, min(backoff * 2, self.policy.backoff_max_s)
            quick_before = quick
            log.error("the app exited with %s after %.1f s; starting it again in %.1f s",
                      describe_exit(code), ran, wait)
            self.waits.append(wait)
            del self.waits[:-KEPT]
            self._stop.wait(wait)
        return 0

    def _run_child(self) -> int:
        self.starts += 1
        watched = self.policy.gui_timeout_s is not None
        env = dict(os.environ if self.env is None else self.env)
        stacks = StacksFile() if watched else None
        if stacks is not None:
            env[heartbeat.ENV] = "stdout"
            env[STACKS_ENV] = str(stacks.path)
        try:
            return self._watch(subprocess.Popen(
                self.command, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
                stdout=subprocess.PIPE if watched else None,
            ), stacks)
        finally:
            if stacks is not None:
                stacks.log_and_remove()

    def _watch(self, child: subprocess.Popen, stacks: StacksFile | None) -> int:
        policy = self.policy
        watched = policy.gui_timeout_s is not None
        self._child = child
        pump = threading.Thread(target=_log_lines, args=(child.stderr,), name="app-stderr", daemon=True)
        pump.start()
        beats = heartbeat.HeartbeatMonitor(child.stdout) if watched else None
        self.heartbeats = beats
        stopping_since: float | None = None
        hung_since: float | None = None
        self._ended_hung = False
        while True:
            try:
                code = child.wait(timeout=0.1 if watched else 0.5)
                break
            except subprocess.TimeoutExpired:
                now = time.perf_counter()
                if hung_since is not None:
                    if now - hung_since > policy.kill_grace_s or (stacks is not None and stacks.written(now)):
                        child.kill()
                    continue
                if beats is not None and (problem := beats.problem(policy.gui_timeout_s, policy.startup_s)):
                    log.error("%s; restarting it", problem)
                    self.hangs.append(now)
                    del self.hangs[:-KEPT]
                    hung_since = now
                    self._ended_hung = True
                    _ask_for_stacks(child)
                    continue
                if not self._stop.is_set():
                    continue
                stopping_since = stopping_since or now
                if now - stopping_since > self.STOP_GRACE_S:
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


def _ask_for_stacks(child: subprocess.Popen) -> None:
    """:data:`STACKS_SIGNAL`: ``faulthandler`` in the app writes every thread's stack to the
    stacks file (:func:`dump_stacks_when_asked`); where there is no such signal, it is killed."""
    try:
        if STACKS_SIGNAL is not None:
            child.send_signal(STACKS_SIGNAL)
        else:
            child.kill()
    except OSError:
        pass


class StacksFile:
    """Where one app run writes its threads' stacks when asked (:func:`dump_stacks_when_asked`)."""

    QUIET_S = 0.2
    """The stacks are all there once the file has grown and then not changed this long."""

    def __init__(self) -> None:
        handle, name = tempfile.mkstemp(prefix="assistant-stacks-", suffix=".txt")
        os.close(handle)
        self.path = Path(name)
        self._size, self._since = 0, 0.0

    def written(self, now: float) -> bool:
        try:
            size = self.path.stat().st_size
        except OSError:
            return False
        if size != self._size:
            self._size, self._since = size, now
            return False
        return size > 0 and now - self._since >= self.QUIET_S

    def log_and_remove(self) -> None:
        try:
            with self.path.open("rb") as f:
                _log_lines(f)
        except OSError:
            pass
        self.path.unlink(missing_ok=True)


_stacks_file: IO[str] | None = None


def dump_stacks_when_asked() -> None:
    """The app's side: when the supervisor named a stacks file, answer its request by
    writing every thread's stack there (the handler needs no working Python thread)."""
    global _stacks_file
    name = os.environ.pop(STACKS_ENV, "")
    if not name or STACKS_SIGNAL is None:
        return
    import faulthandler

    try:
        _stacks_file = open(name, "w")  # noqa: SIM115 - open for the life of the app
    except OSError as exc:
        log.warning("no stacks file for the supervisor (%s)", exc)
        return
    faulthandler.register(STACKS_SIGNAL, file=_stacks_file, all_threads=True, chain=False)


def _log_lines(stream: IO[bytes] | None) -> None:
    if stream is None:
        return
    app = logging.getLogger("assistant.app")
    for raw in stream:
        line = raw.decode("utf-8", errors="replace").rstrip()
        if line.strip():
            app.warning("%s", line[:2000])
