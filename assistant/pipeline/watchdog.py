"""The engine watchdog: an engine whose stage died or hangs is replaced, or the app is.

:class:`EngineSupervisor` owns a running :class:`~assistant.pipeline.Engine`. Its
:meth:`~EngineSupervisor.check`, called several times a second, looks at every stage
(the listen stage included):

- a stage whose thread died, or that made no progress for the limit outside a model
  call, gets a fresh engine on the same models (the stuck thread is left behind, its
  events no longer reach the listener);
- a stage that made no progress for the limit *inside* a model call (STT, LLM, TTS, VAD)
  may hold that model (the LLM's lock, a CTranslate2 or onnxruntime worker) for good, so a
  fresh engine on the same models could hang at once: the process itself is restarted.

Giving up ends the process with :data:`RESTART_EXIT_CODE`, for the parent process
(:mod:`assistant.commands.kiosk.restarter`) to start it again at once; so does a run of engine
restarts in a short while (the process itself is sick).

:class:`AudioWatch` watches the audio threads (the speaker's writer, the microphone) of
every engine, whatever runs it: what a device says of itself (lost, back) becomes an
:attr:`~assistant.events.EventType.DEVICE` event the screen shows, the log, and an error
of the turn whose reply the speaker cut short; a thread that died or hangs in the driver
is restarted; the frames the microphone dropped are counted in the turn they belong to.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable

from assistant.events import Event, EventType
from assistant.machine import devices
from assistant.pipeline import Engine, Stage
from assistant.sound import AudioDevice, DeviceStatus

log = logging.getLogger(__name__)

RESTART_EXIT_CODE = 75
"""The app exits with this code to be started again (its engine could not heal itself)."""

EngineFactory = Callable[[Callable[[Event], None]], Engine]
"""Builds a started engine that reports to the given listener."""


def ignore(*_args: Any) -> None:
    """Where a report goes that nobody asked for (an optional callback left out)."""


@dataclass(frozen=True)
class Problem:
    reason: str
    in_model: bool = False
    """The stage hangs inside a model call: only a fresh process is sure to work."""


def stage_problem(stages: list[Stage], now: float, limit_s: float) -> Problem | None:
    """Why the engine must restart (a dead thread, no progress for ``limit_s``), or None."""
    for stage in stages:
        if not stage.alive:
            return Problem(f"the {stage.name} thread died")
        stuck = stage.stuck_for(now)
        if stuck > limit_s:
            in_model = stage.in_model_since is not None
            where = " inside a model call" if in_model else ""
            return Problem(f"the {stage.name} stage is stuck ({stuck:.1f} s without progress{where})", in_model)
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
        on_give_up: Callable[[str], None] | None = None,
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
        self._on_restart = on_restart or ignore
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
        with self._lock:  # not the engine being replaced: its stages are stopping
            if self.gave_up:
                return None
            problem = stage_problem(self.engine.stages, self._clock(), self.stage_timeout_s)
            if problem is None:
                return None
            if problem.in_model:
                self.give_up(f"{problem.reason}; the model may be held, so the app starts afresh")
            else:
                self.restart(problem.reason)
            return problem.reason

    def restart(self, reason: str) -> None:
        """Replace a broken engine; give up (restart the app) if that keeps happening."""
        now = self._clock()
        self._recent.append(now)
        while self._recent and now - self._recent[0] > self.window_s:
            self._recent.popleft()
        if len(self._recent) > self.max_restarts:
            log.critical("engine restarted %d times in %.0f s", self.max_restarts, self.window_s)
            self.give_up(reason)
            return
        log.error("restarting the engine: %s", reason)
        self.restarts += 1
        self._on_restart(reason)
        self.renew()

    def give_up(self, reason: str) -> None:
        """The engine cannot heal in this process: hand over to ``on_give_up`` (by default
        :func:`exit_for_restart`: the app exits to be started afresh)."""
        self.gave_up = True
        log.critical("giving up on this process: %s", reason)
        (self._on_give_up or exit_for_restart)(reason)

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


# ------------------------------------------------------------------ audio threads

STALL_S = 1.0
"""A call into an audio device (a 20 ms block written, a stream opened) blocked this long hangs."""
DROPS_HELD_S = 2.0
"""Microphone frames dropped while no turn runs go to a turn that begins within this time
(the speech they held starts the turn only once the listener caught up)."""
_checking = threading.Lock()
"""One look at the devices at a time: two engines' watches (a kiosk renewing its engine)
must not both restart the same hung thread."""


class AudioWatch:
    """Looks at every open audio device for ``engine`` (:meth:`check`, from a thread of its
    own that :meth:`start` begins and that ends with the engine's stages)."""

    def __init__(self, engine: Engine, *, interval_s: float = 0.1, stall_s: float = STALL_S,
                 devices_open: Callable[[], list[AudioDevice]] = devices.open_devices,
                 clock: Callable[[], float] = time.perf_counter):
        self.engine = engine
        self.interval_s = interval_s
        self.stall_s = stall_s
        self._devices = devices_open
        self._clock = clock
        self._told: dict[int, tuple[DeviceStatus | None, int]] = {}
        """Of each device (by id): the status last reported, and its losses counted then."""
        self._held = (0, 0.0)
        """Dropped frames not yet counted in a turn, and when the last of them was dropped."""
        self._thread = threading.Thread(target=self._run, name="audio-watch", daemon=True)

    def start(self) -> "AudioWatch":
        self._thread.start()
        return self

    def _run(self) -> None:
        time.sleep(self.interval_s)
        while any(stage.alive for stage in self.engine.stages):  # the engine was closed, or is dead
            try:
                self.check()
            except Exception:  # the watch must go on
                log.exception("watching the audio devices failed")
            time.sleep(self.interval_s)

    def check(self) -> list[DeviceStatus]:
        """One look at each device: restart a dead or hung thread, report what changed
        (returned), count dropped frames."""
        reported = []
        with _checking:
            now = self._clock()
            open_now = self._devices()
            for device in open_now:
                stuck = device.stuck_for(now)
                if not device.alive:
                    device.restart(f"the {device.kind} thread died")
                elif stuck > self.stall_s:
                    device.restart(f"the {device.kind} hangs in its driver ({stuck:.1f} s in one call)")
                reported += self._news(device)
                self._count_dropped(device.take_dropped(), now)
            still_open = {id(device) for device in open_now}
            self._told = {key: told for key, told in self._told.items() if key in still_open}
        for status in reported:
            self._report(status)
        return reported

    def _news(self, device: AudioDevice) -> list[DeviceStatus]:
        """What changed since the last look: a loss (even one already over), a return."""
        key = id(device)
        told, seen = self._told.get(key, (None, 0))
        news = []
        if device.losses > seen and device.last_loss is not None and device.last_loss != told:
            news.append(device.last_loss)
            told = device.last_loss
        status = device.status()
        if status != told and (told is not None or not status.working):  # a device that opens working is no news
            news.append(status)
            told = status
        self._told[key] = (told, device.losses)
        return news

    def _report(self, status: DeviceStatus) -> None:
        """Tell the engine's listeners (the device has said it in the log already)."""
        engine = self.engine
        turn = engine.turns.current
        engine.bus.emit(EventType.DEVICE, turn or 0, status)
        if status.device == "speaker" and not status.working and turn is not None:
            engine.turns.error(turn, status.text)  # the reply it cut short is shown, not heard

    def _count_dropped(self, count: int, now: float) -> None:
        held, since = self._held
        if count:
            held, since = held + count, now
        if not held:
            return
        turn = self.engine.turns.current
        if turn is not None:
            try:
                self.engine.turns.timeline(turn).add("frames_dropped", held)
            except KeyError:  # the turn is already forgotten
                pass
            held = 0
        elif now - since > DROPS_HELD_S:
            held = 0
        self._held = (held, since)


def watch_audio(engine: Engine) -> AudioWatch:
    """Watch the audio devices for ``engine`` until it closes."""
    return AudioWatch(engine).start()
