"""What the window's and the kiosk's controllers share: the loaded engines, the speaker
(closed here only if opened here), instant replies, the skills (made once: their timers
outlive engine rebuilds; kept where the place keeps them, :meth:`EngineHost.timers_path`), the bridge that carries engine events to the GUI thread, and
the worker thread for slow calls."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QObject, Qt, Signal

from assistant.config import Config
from assistant.pipeline.session import (
    AudioOut,
    LoadedModels,
    Replies,
    Skills,
    Timers,
    desktop_timers,
    open_speaker,
    silent_output,
)

from ui.bridge import EngineBridge, Worker

log = logging.getLogger(__name__)


class EngineHost(QObject):
    ready = Signal()
    """An engine is running (the window's: at start, and after each applied settings change)."""
    load_failed = Signal(str)
    """The engine could not start: why."""

    def __init__(
        self,
        config: Config,
        engines: LoadedModels | None = None,
        output: AudioOut | None = None,
        parent: QObject | None = None,
    ):
        super().__init__(parent)
        self.config = config
        self.engines = engines
        """Loaded on the worker thread when not given."""
        self.output = output
        self._own_output = output is None
        """The speaker is opened (and closed) here; a given output belongs to the caller."""
        self.bridge = EngineBridge(self)
        """Its ``event`` signal carries (engine generation, Event) of the current engine."""
        self.worker = Worker(self)
        self.skills: Skills | None = None

    def connect_screen(self, on_event: Callable[[int, object], None], on_ready: Callable[[], None],
                       on_load_failed: Callable[[str], None]) -> None:
        """Show on a screen what every host reports: the current engine's events, an engine
        running, and why none could start (queued: the slots run on the GUI thread)."""
        queued = Qt.ConnectionType.QueuedConnection
        self.bridge.event.connect(on_event, queued)
        self.ready.connect(on_ready, queued)
        self.load_failed.connect(on_load_failed, queued)

    def open_speaker(self, config: Config) -> AudioOut:
        """The configured speaker, or a silent sink (replies are then only shown) after
        :meth:`no_speaker` has heard why."""
        try:
            return open_speaker(config)
        except Exception as exc:  # PortAudio errors are not all AudioError
            self.no_speaker(exc)
            return silent_output(config)

    def no_speaker(self, exc: Exception) -> None:
        log.warning("no speaker (%s); replies are shown only", exc)

    def instant_replies(self, config: Config, engines: LoadedModels, output: AudioOut) -> Replies | None:
        """The phrase table with its audio rendered, or None (the LLM still answers)
        after :meth:`no_instant_replies` has heard why."""
        from assistant.pipeline.session import make_replies

        try:
            return make_replies(config, engines.tts, output.rate)
        except Exception as exc:  # instant replies are an optimisation
            log.exception("instant replies unavailable")
            self.no_instant_replies(exc)
            return None

    def no_instant_replies(self, exc: Exception) -> None:
        pass

    def skills_for(self, config: Config, replies: Replies | None, output: AudioOut) -> Skills | None:
        """The skills, made at the first call and again only when their settings change;
        None when they are off or cannot start (the LLM still answers)."""
        from assistant.pipeline.session import make_skills

        if self.skills is not None and self.skills.config == config.skills:
            if replies is not None:
                self.skills.use_reply_audio(replies.audio)
            return self.skills
        self.close_skills()
        try:
            self.skills = make_skills(config, replies, output.rate, self.timers_path())
        except Exception as exc:  # skills are an addition; the engine runs without them
            log.exception("skills unavailable")
            self.no_instant_replies(exc)
        return self.skills

    def timers_path(self) -> Path | None:
        """Where this place keeps its timers: the desktop's file (None: in memory)."""
        return desktop_timers()

    def timers(self) -> Timers | None:
        """The running timers and alarms, for the screen (None without skills)."""
        skills = self.skills
        return skills.timers if skills is not None else None

    def stopwatch(self):
        """The stopwatch, for the screen (None without skills or with it turned off)."""
        skills = self.skills
        return skills.get("stopwatch") if skills is not None else None

    def close_skills(self) -> None:
        skills, self.skills = self.skills, None
        if skills is not None:
            skills.close()

    def close_output(self) -> None:
        """Close the speaker if it was opened here."""
        if self._own_output and self.output is not None:
            self.output.close()
