"""Self-healing for unattended use: an engine watchdog, an app restarter, bounded logs.

:class:`EngineSupervisor` owns a running :class:`~assistant.pipeline.Engine`. Its
:meth:`~EngineSupervisor.check`, called every second or so, restarts the engine when a
stage's thread has died or one message has kept a stage busy longer than the limit; the
events of an abandoned engine never reach the listener. Too many restarts in a short
while mean the process itself is sick (say a native call hung holding the model's lock):
the supervisor gives up and the process exits with :data:`RESTART_EXIT_CODE`.

:class:`ProcessSupervisor` is the small parent process of ``assistant kiosk``: it runs
the app as a child, starts it again with backoff whenever it dies, and logs what the
child wrote to stderr (tracebacks, fatal-error dumps) to a rotating file.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import threading
import time
from collections import deque
from dataclasses import dataclass
from logging.handlers import RotatingFileHandler
from pathlib import Path
from typing import IO, Callable

from .config import KioskConfig, data_dir
from .events import Event
from .pipeline import Engine, Stage

log = logging.getLogger(__name__)

RESTART_EXIT_CODE = 75
"""The app exits with this code to be started again (its engine could not heal itself)."""
FINAL_EXIT_CODES = (0, 2)
"""Not restarted: the administrator left the kiosk (0), or the configuration is refused (2)."""

EngineFactory = Callable[[Callable[[Event], None]], Engine]
"""Builds a started engine that reports to the given listener."""


def stage_problem(stages: list[Stage], now: float, limit_s: float) -> str | None:
    """Why the engine must restart (a dead thread, a message running too long), or None."""
    for stage in stages:
        if not stage.alive:
            return f"the {stage.name} thread died"
        started = stage.busy_since
        if started is not None and now - started > limit_s:
            return f"the {stage.name} stage is stuck ({now - started:.1f} s on one message)"
    return None


def exit_for_restart(reason: str) -> None:
    """End the process at once, asking the parent supervisor for a fresh start."""
    log.critical("restarting the app: %s", reason)
    logging.shutdown()
    os._exit(RESTART_EXIT_CODE)


class EngineSupervisor:
    """Owns the current engine: replaces it when a stage dies or is stuck (:meth:`check`),
    or on request (:meth:`renew`), and passes on only the current engine's events, as
    (generation, event)."""

    def __init__(
        self,
        make_engine: EngineFactory,
        on_event: Callable[[int, Event], None],
        *,
        stage_timeout_s: float,
        max_restarts: int,
        window_s: float,
        on_restart: Callable[[str], None] | None = None,
        on_give_up: Callable[[str], None] = exit_for_restart,
        clock: Callable[[], float] = time.perf_counter,
    ):
        self.stage_timeout_s = stage_timeout_s
        self.max_restarts = max_restarts
        self.window_s = window_s
        self.restarts = 0
        """Engine restarts so far (not counting fresh engines asked for by :meth:`renew`)."""
        self.gave_up = False
        self._make_engine = make_engine
        self._on_event = on_event
        self._on_restart = on_restart
        self._on_give_up = on_give_up
        self._clock = clock
        self._recent: deque[float] = deque()
        self._lock = threading.RLock()
        self.generation = 1
        """Bumped with every new engine; events of older engines are dropped."""
        self.engine = make_engine(self._listener(self.generation))

    def _listener(self, generation: int) -> Callable[[Event], None]:
        def forward(event: Event) -> None:
            if generation == self.generation:
                self._on_event(generation, event)

        return forward

    def check(self) -> str | None:
        """Look at the stages once; restart the engine if one is dead or stuck.

        Returns the problem found, or None."""
        if self.gave_up:
            return None
        problem = stage_problem(self.engine.stages, self._clock(), self.stage_timeout_s)
        if problem is not None:
            self.restart(problem)
        return problem

    def restart(self, reason: str) -> None:
        """Replace a broken engine; give up (restart the app) if that keeps happening."""
        now = self._clock()
        self._recent.append(now)
        while self._recent and now - self._recent[0] > self.window_s:
            self._recent.popleft()
        if len(self._recent) > self.max_restarts:
            self.gave_up = True
            log.critical("engine restarted %d times in %.0f s; giving up: %s",
                         self.max_restarts, self.window_s, reason)
            self._on_give_up(reason)
            return
        log.error("restarting the engine: %s", reason)
        self.restarts += 1
        if self._on_restart is not None:
            self._on_restart(reason)
        self.renew()

    def renew(self) -> Engine:
        """Start a fresh engine; the old one is let go without waiting for its threads."""
        with self._lock:
            old = self.engine
            self.generation += 1
            _retire(old)
            self.engine = self._make_engine(self._listener(self.generation))
            return self.engine

    def close(self) -> None:
        with self._lock:
            self.generation += 1
            self.engine.close()


def _retire(engine: Engine, quiet_s: float = 3.0) -> None:
    """Stop ``engine`` on a thread of its own: the microphone and playback at once (the
    next engine shares the output), then the stages; a stuck stage is left behind."""
    quiet = threading.Event()

    def run() -> None:
        try:
            engine.stop_listening()
            engine.interrupt()
        finally:
            quiet.set()
        engine.close()

    threading.Thread(target=run, name="engine-retire", daemon=True).start()
    if not quiet.wait(quiet_s):
        log.warning("the old engine did not stop within %.0f s; left behind", quiet_s)


# ---------------------------------------------------------------- logs


def log_dir(kiosk: KioskConfig) -> Path:
    return Path(kiosk.log_dir) if kiosk.log_dir else data_dir() / "logs"


def rotating_handler(kiosk: KioskConfig, name: str) -> RotatingFileHandler:
    """A log file in :func:`log_dir` that rotates at ``log_max_bytes``, keeping ``log_backups`` old files."""
    folder = log_dir(kiosk)
    folder.mkdir(parents=True, exist_ok=True)
    handler = RotatingFileHandler(
        folder / name, maxBytes=kiosk.log_max_bytes, backupCount=kiosk.log_backups, encoding="utf-8"
    )
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    return handler


def log_to_file(kiosk: KioskConfig, name: str, level: int = logging.INFO) -> Path:
    """Send this process's log (and uncaught exceptions) to a rotating file only."""
    handler = rotating_handler(kiosk, name)
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    crash = logging.getLogger("assistant.crash")

    def thread_hook(args: threading.ExceptHookArgs) -> None:
        crash.critical("thread %s died", getattr(args.thread, "name", "?"),
                       exc_info=(args.exc_type, args.exc_value, args.exc_traceback))

    threading.excepthook = thread_hook
    return Path(handler.baseFilename)


# ---------------------------------------------------------------- the app process


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
