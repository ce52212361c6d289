"""The kiosk's engine, seen from the screen: loads the models on the worker thread, then
runs an :class:`assistant.pipeline.kiosk.session.KioskSession` and turns what it reports into signals."""

from __future__ import annotations

import logging
from typing import Callable

from PySide6.QtCore import Signal

from assistant.sound import AudioIn
from assistant.config import Config
from assistant.pipeline.kiosk.session import KioskSession, engine_factory
from assistant.pipeline.session import load_models, open_microphone

from ui.host import EngineHost

log = logging.getLogger(__name__)

SourceOpener = Callable[[], AudioIn]


def microphone(config: Config) -> SourceOpener:
    def open_source() -> AudioIn:
        return open_microphone(config)

    return open_source


class KioskController(EngineHost):
    status = Signal(object, str)
    """(assistant.pipeline.kiosk.session.KioskStatus, reason)."""
    visitor_forgotten = Signal()

    def __init__(self, *host_args, open_source: SourceOpener | None = None, **host_kwargs):
        """``host_args``: those of :class:`~ui.host.EngineHost`; ``open_source`` opens the
        microphone (None: no microphone)."""
        super().__init__(*host_args, **host_kwargs)
        self.open_source = open_source
        self.session: KioskSession | None = None

    def timers_path(self) -> None:
        """A visitor's timers are theirs: in memory, gone when the visitor is forgotten."""
        return None

    def start(self) -> None:
        self.worker.submit("starting the kiosk", self._start)

    def _start(self) -> None:
        try:
            if self.engines is None:
                self.engines = load_models(self.config)
            if self.output is None:
                self.output = self.open_speaker(self.config)
            replies = self.instant_replies(self.config, self.engines, self.output)
            skills = self.skills_for(self.config, replies, self.output)
            make_engine = engine_factory(self.config, self.engines, self.output, replies, skills)
            self.session = KioskSession(
                self.config, self.engines.llm, make_engine, open_source=self.open_source,
                on_event=self.bridge.event.emit, on_status=self.status.emit,
                on_reset=self.visitor_forgotten.emit,
            )
            self.session.start()
        except Exception as exc:  # shown as "out of order"; the details go to the log
            log.exception("the kiosk could not start")
            self.load_failed.emit(str(exc))
            return
        self.ready.emit()

    @property
    def generation(self) -> int:
        return self.session.supervisor.generation if self.session else 0

    def tap(self) -> None:
        """The big button: stop the reply, or listen for one question."""
        if self.session is not None:
            self.session.tap()

    def close(self) -> None:
        self.worker.shutdown()
        if self.session is not None:
            self.session.close()
            self.session = None
        self.close_skills()
        self.close_output()
