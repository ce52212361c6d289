"""From engine threads to the GUI thread: Qt signals, queued.

The engine calls its listeners on its own worker threads. :class:`EngineBridge` turns
each call into a signal; Qt queues it to the GUI thread, so slots only ever paint.
:class:`Worker` runs slow calls (loading models, opening the microphone, joining
threads) on one background thread, in order, and reports failures as a signal.
"""

from __future__ import annotations

import logging
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable

from PySide6.QtCore import QObject, Signal

from assistant.events import Event

log = logging.getLogger(__name__)


class EngineBridge(QObject):
    event = Signal(int, object)
    """(engine generation, Event). A new generation starts whenever the engine is rebuilt."""

    def listener(self, generation: int) -> Callable[[Event], None]:
        def forward(event: Event) -> None:
            self.event.emit(generation, event)

        return forward


class Worker(QObject):
    failed = Signal(str, str)
    """(what was being done, the error message)."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ui-worker")

    def submit(self, what: str, fn: Callable[..., Any], *args: Any) -> Future:
        def guarded() -> Any:
            try:
                return fn(*args)
            except Exception as exc:  # reported to the user; the app keeps running
                log.exception("%s failed", what)
                self.failed.emit(what, str(exc) or type(exc).__name__)
                return None

        return self._pool.submit(guarded)

    def shutdown(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
