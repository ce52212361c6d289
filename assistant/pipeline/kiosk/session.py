"""The kiosk's engine side (no Qt): a supervised engine that forgets each visitor and a
microphone that is reopened when it is lost.

:class:`KioskSession` runs one watch thread. Every ``watchdog_interval_s`` it lets the
:class:`~assistant.pipeline.watchdog.EngineSupervisor` look at the stages, keeps the microphone
open (hands-free) and, once nobody has spoken for ``idle_reset_s``, forgets the visitor:
a fresh engine (the old one's turns and queued audio go with it), ``llm.reset()`` (the
history, and the KV cache back to the system prompt), the visitor's timers and alarms,
and freed memory handed back to the system.
"""

from __future__ import annotations

import logging
import threading
import time
from enum import Enum
from typing import Any, Callable, Iterator

import numpy as np

from assistant.sound import AudioIn, AudioOut, DeviceStatus, LiveMicrophone
from assistant.config import Config
from assistant.events import Event, EventType, State
from assistant.think.conversation import Llm
from assistant.pipeline.session import LoadedModels, build_engine
from assistant.pipeline.watchdog import EngineFactory, EngineSupervisor, ignore
from assistant.pipeline.kiosk.memory import release_memory, resident_mb
from assistant.pipeline.kiosk.transcripts import TranscriptLog

log = logging.getLogger(__name__)

MIC_RETRY_S = 10.0
"""Wait before a lost or missing microphone is tried again; doubled after each failure."""
MIC_RETRY_MAX_S = 300.0
MIC_SILENT_S = 5.0
"""An open microphone that delivers nothing this long is lost (it watches itself for 2 s
and reopens; this catches one stuck inside the audio driver)."""
TAP_LISTEN_S = 8.0
"""After a tap, how long the microphone waits for the visitor to start speaking."""
VISITOR_EVENTS = frozenset({
    EventType.SPEECH_START, EventType.PARTIAL_TRANSCRIPT, EventType.TRANSCRIPT, EventType.REPLY_TEXT,
    EventType.AUDIO_START, EventType.TURN_END,
})
"""Events that mean someone is using the kiosk (state changes alone do not)."""


class KioskStatus(str, Enum):
    READY = "ready"
    RESTARTING = "restarting"
    """The engine is being replaced ("one moment")."""
    NO_MICROPHONE = "no microphone"


class _WatchedSource:
    """An audio input that notes when it delivers and when it ends, and what it says of
    itself (a :class:`~assistant.hear.microphone.MicSource` reopens a lost device on its own)."""

    def __init__(self, source: AudioIn, clock: Callable[[], float]):
        self.source = source
        self.clock = clock
        self.last_frame = clock()
        """When the latest frame arrived (or the source was opened)."""
        self.rate = source.rate
        self.frame_samples = source.frame_samples
        self.live = False
        """At least one frame arrived: the device works."""
        self.stopped = False
        """Stopped on purpose (not lost)."""
        self.error = ""
        """Why the source ended by itself, if it said."""
        self.ended = threading.Event()
        self._losses_seen = 0

    @property
    def watches(self) -> AudioIn:
        """The source watched: its devices, not the watch, are the room the echo goes through."""
        return self.source

    def frames(self) -> Iterator[tuple[np.ndarray, float]]:
        try:
            for item in self.source.frames():
                self.live = True
                self.last_frame = self.clock()
                yield item
        except Exception as exc:
            self.error = str(exc)
            raise
        finally:
            self.ended.set()

    def stop(self) -> None:
        self.stopped = True
        self.source.stop()

    @property
    def device(self) -> LiveMicrophone | None:
        """The source as a microphone that looks after its device, or None (a WAV, a fake)."""
        return self.source if isinstance(self.source, LiveMicrophone) else None

    def status(self) -> DeviceStatus | None:
        """What the device says of itself (None: a source that does not say)."""
        return self.device.status() if self.device is not None else None

    def new_loss(self) -> DeviceStatus | None:
        """What the device said when lost, if it was lost since the last call (and maybe is back)."""
        device = self.device
        if device is None or device.losses <= self._losses_seen:
            return None
        self._losses_seen = device.losses
        return device.last_loss

    def quiet_for(self, now: float) -> float:
        """Seconds without a sign of life: a frame, or (a source that looks after its
        device) a look for one. Long means stuck inside the audio driver."""
        heartbeat = self.device.heartbeat if self.device is not None else None
        seen = self.last_frame if heartbeat is None else max(self.last_frame, self.clock() - (time.perf_counter() - heartbeat))
        return now - seen


def engine_factory(
    config: Config, engines: LoadedModels, output: AudioOut, replies: Any = None, skills: Any = None
) -> EngineFactory:
    def make(listener: Callable[[Event], None]):
        return build_engine(config, engines, output, replies=replies, skills=skills, on_event=listener)

    return make


class KioskSession:
    """A supervised engine for one visitor at a time (see the module docstring).

    ``open_source`` opens the microphone (raising when there is none); ``on_event``
    receives (engine generation, event) of the current engine only; ``on_status`` a
    :class:`KioskStatus` and a reason; ``on_reset`` is called once a visitor is forgotten.
    """

    def __init__(
        self,
        config: Config,
        llm: Llm,
        make_engine: EngineFactory,
        *,
        open_source: Callable[[], AudioIn] | None = None,
        on_event: Callable[[int, Event], None] | None = None,
        on_status: Callable[[KioskStatus, str], None] | None = None,
        on_reset: Callable[[], None] | None = None,
        on_give_up: Callable[[str], None] | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ):
        self.config = config
        self.kiosk = config.kiosk
        self.llm = llm
        self.resets = 0
        self.status = KioskStatus.READY
        self._make_engine = make_engine
        self._open_source = open_source
        self._on_event = on_event or ignore
        self._on_status = on_status or ignore
        self._on_reset = on_reset or ignore
        self._clock = clock
        self._source: _WatchedSource | None = None
        self._mic_retry_at = 0.0
        self._mic_retry_s = MIC_RETRY_S
        self._tap_requested = False
        self._tap_deadline: float | None = None
        self._tap_turn_ended = False
        self._visitor = False
        self._last_activity = clock()
        self._transcripts = TranscriptLog(self.kiosk) if self.kiosk.store_transcripts else None
        self._wake = threading.Event()
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._run, name="kiosk-watch", daemon=True)
        self.supervisor = EngineSupervisor(
            self._new_engine, self._forward,
            stage_timeout_s=self.kiosk.stage_timeout_s, max_restarts=self.kiosk.engine_restarts,
            window_s=self.kiosk.restart_window_s, on_restart=self._restarting, on_give_up=on_give_up, clock=clock,
        )

    @property
    def engine(self):
        return self.supervisor.engine

    def start(self) -> None:
        self._thread.start()

    def close(self) -> None:
        self._closed.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        self.supervisor.close()
        if self._transcripts is not None:
            self._transcripts.close()

    # ------------------------------------------------------------ what the screen calls

    def tap(self) -> None:
        """The on-screen button: stops a reply in progress, else listens for one question
        (hands-free already listens). Returns at once."""
        engine = self.engine
        if engine.state in (State.THINKING, State.SPEAKING):
            engine.interrupt()
            return
        if self.kiosk.hands_free:
            engine.wake_now()  # with a wake phrase, the tap stands for it
        else:
            self._tap_requested = True
            self._wake.set()

    def forget_visitor(self) -> None:
        """Forget the conversation now: a fresh engine, the LLM history and KV cache, the
        visitor's timers, the transcript's visitor."""
        self._visitor = False
        skills = self.engine.skills
        if skills is not None:
            skills.forget_visitor()
        self.supervisor.renew()
        self.llm.reset()
        release_memory()
        if self._transcripts is not None:
            self._transcripts.new_visitor()
        self.resets += 1
        log.info("the visitor was forgotten (reset %d)", self.resets)
        self._on_reset()
        memory_mb = resident_mb()
        if self.kiosk.max_memory_mb and memory_mb > self.kiosk.max_memory_mb:
            self.supervisor.give_up(f"{memory_mb:.0f} MB resident, above kiosk.max_memory_mb = {self.kiosk.max_memory_mb}")

    # ------------------------------------------------------------ engines and events

    def _new_engine(self, listener: Callable[[Event], None]):
        engine = self._make_engine(listener)
        self._source = None
        self._tap_deadline = None
        if self.kiosk.hands_free:
            self._listen(engine)
        return engine

    def _forward(self, generation: int, event: Event) -> None:
        if event.type in VISITOR_EVENTS:
            self._last_activity = self._clock()
            if event.type in (EventType.SPEECH_START, EventType.TRANSCRIPT):
                self._visitor = True
                self._tap_deadline = None
        if event.type is EventType.TURN_END:
            self._tap_turn_ended = True
            if self._transcripts is not None:
                self._transcripts.write(event.data)
        self._on_event(generation, event)

    def _set_status(self, status: KioskStatus, reason: str = "") -> None:
        if status is not self.status:
            self.status = status
            self._on_status(status, reason)

    def _restarting(self, reason: str) -> None:
        self._set_status(KioskStatus.RESTARTING, reason)

    # ------------------------------------------------------------ the watch thread

    def _run(self) -> None:
        while not self._closed.is_set():
            self._wake.wait(self.kiosk.watchdog_interval_s)
            self._wake.clear()
            if self._closed.is_set():
                return
            try:
                self.tick()
            except Exception:  # the watch must go on
                log.exception("kiosk watch failed")

    def tick(self) -> None:
        """One look: stages, microphone, tap, idle visitor."""
        if self.supervisor.check() is not None:
            if not self.supervisor.gave_up:
                self._set_status(KioskStatus.READY)
            return
        engine = self.engine
        now = self._clock()
        self._keep_listening(engine, now)
        if self._visitor and not engine.busy and now - self._last_activity >= self.kiosk.idle_reset_s:
            self.forget_visitor()

    def _listen(self, engine) -> None:
        if self._open_source is None:
            return
        try:
            source = _WatchedSource(self._open_source(), self._clock)
        except Exception as exc:  # no device now; tried again later
            self._mic_failed(str(exc))
            return
        self._source = source
        engine.listen(source, await_phrase=self.kiosk.hands_free)  # a tap's question needs no wake phrase

    def _mic_failed(self, reason: str) -> None:
        level = logging.INFO if self.status is KioskStatus.NO_MICROPHONE else logging.WARNING
        log.log(level, "no microphone (%s); trying again in %.0f s", reason, self._mic_retry_s)
        self._mic_retry_at = self._clock() + self._mic_retry_s
        self._mic_retry_s = min(self._mic_retry_s * 2, MIC_RETRY_MAX_S)
        self._set_status(KioskStatus.NO_MICROPHONE, reason)

    def _stop_listening(self, engine) -> None:
        if self._source is not None:
            self._source.stop()
            self._source = None
        engine.stop_listening()

    def _keep_listening(self, engine, now: float) -> None:
        source = self._source
        silent = source is not None and not source.stopped and source.quiet_for(now) > MIC_SILENT_S
        loss = source.new_loss() if source is not None else None
        device = loss or (source.status() if source is not None else None)
        if source is not None and (source.ended.is_set() or silent) and not source.stopped:
            self._source = None
            self._mic_failed((source.error or "the microphone stopped") if source.ended.is_set() else
                             f"the microphone sent nothing for {now - source.last_frame:.0f} s")
            source.stop()
            engine.stop_listening()
        elif device is not None and not device.working:  # lost: it is opened again as soon as it is back
            self._set_status(KioskStatus.NO_MICROPHONE, device.text)
        elif source is not None and source.live and self.status is KioskStatus.NO_MICROPHONE:
            self._mic_retry_s = MIC_RETRY_S
            self._set_status(KioskStatus.READY)
        if self.kiosk.hands_free:
            if self._source is None and now >= self._mic_retry_at:
                self._listen(engine)
            return
        if self._tap_requested:
            self._tap_requested = False
            if self._source is None:
                self._tap_turn_ended = False
                self._listen(engine)
            self._tap_deadline = now + TAP_LISTEN_S
        elif self._source is not None and not engine.busy and (
            self._tap_turn_ended or (self._tap_deadline is not None and now > self._tap_deadline)
        ):
            self._stop_listening(engine)  # the question was answered, or none came
