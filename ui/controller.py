"""Owns the running engine for the window: loading, audio devices, the microphone and
settings changes. Slow calls run on the :class:`~ui.bridge.Worker` thread; the GUI
thread only calls what returns at once (``submit_text``, ``interrupt``, releasing the
microphone) and hears back through signals.
"""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import Qt, Signal

from assistant import config as config_mod
from assistant.sound import AudioError, AudioOut, DeviceStatus
from assistant.config import Config
from assistant.events import Event, EventType
from assistant.machine.devices import check_device
from assistant.pipeline import Engine
from assistant.pipeline.session import (
    LoadedModels,
    build_engine,
    load_models,
    open_microphone,
    reload_models,
    silent_output,
    use_system_prompt,
    utterance_tail_ms,
)

from ui.host import EngineHost
from ui.mic import MicGate
from ui.status import device_problem, offload_text
from ui.validation import SettingsError, reloads, validate

log = logging.getLogger(__name__)


def audio_problems(config: Config) -> tuple[str | None, str | None]:
    """(microphone problem, speaker problem); None where the device is there."""
    problems: list[str | None] = []
    for kind, device in (("input", config.audio.input_device), ("output", config.audio.output_device)):
        try:
            check_device(kind, device)
            problems.append(None)
        except AudioError as exc:
            problems.append(device_problem(str(exc)))
    return problems[0], problems[1]


class Controller(EngineHost):
    loading = Signal(str)
    """What is being loaded; '' when done."""
    audio_checked = Signal(object, object)
    """(microphone problem, speaker problem): str, or None when the device works."""
    mic_changed = Signal(str)
    """``off``, ``push-to-talk``, ``hands-free`` or ``unavailable`` (see ui.status.MIC_TEXT)."""
    applied = Signal(object)
    refused = Signal(str)
    notice = Signal(str)
    """Something the user should know that stops nothing (e.g. a broken phrase table)."""
    _mic_finished = Signal(object)

    def __init__(self, *host_args, config_path: Path | None = None, **host_kwargs):
        """``host_args``: those of :class:`~ui.host.EngineHost`; ``config_path``: where
        applied settings are saved (None: the platform's config file)."""
        super().__init__(*host_args, **host_kwargs)
        self.config_path = config_path
        self.engine: Engine | None = None
        self.generation = 0
        self.mic_mode = "off"
        self.offload = ("", "")
        """Where the LLM's layers run: (short, detailed), from ui.status.offload_text."""
        self.mic_problem: str | None = None
        self.speaker_problem: str | None = None
        self._gate: MicGate | None = None
        self._want_mic = False
        self._detach_pending = False
        self.bridge.event.connect(self._on_event, Qt.ConnectionType.QueuedConnection)
        self._mic_finished.connect(self._on_mic_finished, Qt.ConnectionType.QueuedConnection)

    # ------------------------------------------------------------ start and stop

    def start(self) -> None:
        self.loading.emit("checking audio devices")
        self.worker.submit("starting", self._start)

    def _start(self) -> None:
        self.mic_problem, self.speaker_problem = audio_problems(self.config)
        self.audio_checked.emit(self.mic_problem, self.speaker_problem)
        try:
            if self.engines is None:
                self.engines = load_models(self.config, progress=self._progress())
            if self.output is None:
                self.output = self._open_output(self.config)
            self.offload = offload_text(self.engines.llm, self.config)
            self._build_engine(self.config)
        except Exception as exc:  # shown in the window; settings can pick other models
            log.exception("loading failed")
            self.loading.emit("")
            self.load_failed.emit(str(exc))
            return
        self.loading.emit("")
        self.ready.emit()

    def _progress(self):
        """load_models reports each model as it starts loading (in parallel): name them all."""
        names: list[str] = []

        def report(text: str) -> None:
            names.append(text.removeprefix("loading "))
            self.loading.emit(f"loading {', '.join(names)}")

        return report

    def _open_output(self, config: Config) -> AudioOut:
        if self.speaker_problem is None:
            return self.open_speaker(config)
        return silent_output(config)

    def no_speaker(self, exc: Exception) -> None:
        self.speaker_problem = device_problem(str(exc))
        self.audio_checked.emit(self.mic_problem, self.speaker_problem)

    def no_instant_replies(self, exc: Exception) -> None:
        self.notice.emit(f"Instant replies are off: {exc}")

    def _build_engine(self, config: Config) -> None:
        replies = self.instant_replies(config, self.engines, self.output)
        skills = self.skills_for(config, replies, self.output)
        self.generation += 1
        self.engine = build_engine(
            config, self.engines, self.output, replies=replies, skills=skills,
            on_event=self.bridge.listener(self.generation),
        )

    def _close_engine(self) -> None:
        engine, self.engine = self.engine, None
        gate, self._gate = self._gate, None
        self._detach_pending = False
        if engine is not None:
            engine.close()  # stops listening (and the gate) too
        elif gate is not None:
            gate.stop()

    def close(self) -> None:
        """Stop everything (blocks until the engine's threads end: used when quitting)."""
        self._want_mic = False
        self.worker.shutdown()  # drops queued work, waits for the running task
        self._close_engine()
        self.close_skills()
        self.close_output()

    # ------------------------------------------------------------ what the GUI calls

    def submit_text(self, text: str) -> int | None:
        """Ask a typed question. Returns at once: the engine only queues the turn."""
        if self.engine is None or not text.strip():
            return None
        return self.engine.submit_text(text)

    def interrupt(self) -> None:
        """Stop the reply now: generation, synthesis and playback (returns at once)."""
        if self.engine is not None:
            self.engine.interrupt()

    def press_to_talk(self) -> None:
        self._want_mic = True
        self.worker.submit("opening the microphone", self._open_mic, "push-to-talk")

    def release_to_talk(self) -> None:
        """End push-to-talk: what was said so far is answered."""
        self._want_mic = False
        if self._gate is not None:
            self._gate.release()

    def set_hands_free(self, on: bool) -> None:
        if on:
            self._want_mic = True
            self.worker.submit("opening the microphone", self._open_mic, "hands-free")
        else:
            self.release_to_talk()

    # ------------------------------------------------------------ microphone

    def _open_mic(self, mode: str) -> None:
        engine = self.engine
        if engine is None or not self._want_mic:
            return
        if self._gate is not None:
            if not self._gate.finished:
                return
            self._detach(self._gate)  # the previous press's reply is still playing
        try:
            source = open_microphone(self.config)
        except AudioError as exc:
            self.mic_problem = device_problem(str(exc))
            self.audio_checked.emit(self.mic_problem, self.speaker_problem)
            self.mic_mode = "unavailable"
            self.mic_changed.emit(self.mic_mode)
            return
        gate = MicGate(source, tail_ms=utterance_tail_ms(self.config))
        gate.on_finished = lambda: self._mic_finished.emit(gate)
        self._gate = gate
        engine.listen(gate, await_phrase=mode == "hands-free")  # push-to-talk needs no wake phrase
        self.mic_mode = mode
        self.mic_changed.emit(mode)
        if not self._want_mic:  # released while the microphone was opening
            gate.release()

    def _on_mic_finished(self, gate: MicGate) -> None:
        if gate is not self._gate:
            return
        self.mic_mode = "off"
        self.mic_changed.emit("off")
        if self.engine is not None and self.engine.busy:
            self._detach_pending = True  # detach when the reply to the last words ends
        else:
            self.worker.submit("closing the microphone", self._detach, gate)

    def _detach(self, gate: MicGate) -> None:
        if gate is self._gate and self.engine is not None:
            self._gate = None
            self._detach_pending = False
            self.engine.stop_listening()

    def _on_event(self, generation: int, event: Event) -> None:
        if generation == self.generation and event.type is EventType.DEVICE:
            self._on_device(event.data)
        if generation != self.generation or event.type is not EventType.TURN_END:
            return
        if self._detach_pending and self._gate is not None and self.engine is not None and not self.engine.busy:
            self._detach_pending = False
            self.worker.submit("closing the microphone", self._detach, self._gate)

    def _on_device(self, status: DeviceStatus) -> None:
        """A speaker or microphone was lost, or is back: the banner says so (the engine
        opens it again by itself)."""
        problem = None if status.working else status.text[:1].upper() + status.text[1:] + "."
        if status.device == "speaker":
            self.speaker_problem = problem
        else:
            self.mic_problem = problem
        self.audio_checked.emit(self.mic_problem, self.speaker_problem)

    # ------------------------------------------------------------ settings

    def apply(self, new: Config) -> str | None:
        """Check ``new`` and apply it on the worker; returns why it is refused, or None.

        Models that fail to load are refused later (the ``refused`` signal); either way
        the previous settings and engines stay.
        """
        try:
            validate(new)
        except SettingsError as exc:
            return str(exc)
        self.loading.emit("applying settings")
        self.worker.submit("applying the settings", self._apply, new)
        return None

    def _apply(self, new: Config) -> None:
        old = self.config
        changed = reloads(old, new) if self.engines is not None else {"all"}
        output = self.output
        try:
            engines, output = self._load_changed(new, changed)
            llm = engines.llm
            if llm.count_tokens(new.llm.system_prompt) > new.llm.n_ctx // 2:
                raise SettingsError(f"the system prompt is too long for a {new.llm.n_ctx}-token context")
            config_mod.save(new, self.config_path)
        except Exception as exc:  # anything: the old engines keep running
            log.warning("settings refused: %s", exc)
            if output is not self.output:
                output.close()
            self.loading.emit("")
            self.refused.emit(f"Settings not applied: {exc}")
            return
        resume = self.mic_mode == "hands-free" and self._want_mic
        self._close_engine()
        if "system_prompt" in changed:
            use_system_prompt(engines.llm, new.llm.system_prompt)
        if output is not self.output and self._own_output and self.output is not None:
            self.output.close()
        self.config, self.engines, self.output = new, engines, output
        if "llm" in changed or "all" in changed:
            self.offload = offload_text(engines.llm, new)
        self._build_engine(new)
        self.loading.emit("")
        self.applied.emit(new)
        self.ready.emit()
        if resume:
            self._open_mic("hands-free")  # on the new engine (and the new microphone, if it changed)
        else:
            self.mic_mode = "off"
            self.mic_changed.emit("off")

    def _load_changed(self, new: Config, changed: set[str]) -> tuple[LoadedModels, AudioOut]:
        progress = self._progress() if "all" in changed else self.loading.emit
        engines = reload_models(self.engines, new, changed, progress)
        self.mic_problem, speaker_problem = audio_problems(new)
        output = self.output
        if self._own_output and (output is None or "output" in changed):
            self.speaker_problem = speaker_problem
            output = self._open_output(new)
        self.audio_checked.emit(self.mic_problem, self.speaker_problem)
        return engines, output
