"""The engine's one progress callback, fanned out to its listeners."""

from __future__ import annotations

import logging
from typing import Callable

from assistant.events import Event, EventType, State

log = logging.getLogger(__name__)

Listener = Callable[[Event], None]


class EventBus:
    """Delivers events to every listener, on the thread that emits them; also keeps the
    engine's :class:`~assistant.events.State`."""

    def __init__(self, listener: Listener | None = None):
        self._listeners: list[Listener] = [listener] if listener else []
        self.state = State.IDLE

    def add_listener(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def emit(self, type_: EventType, turn_id: int = 0, data=None) -> None:
        event = Event(type_, turn_id, data)
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:  # a broken listener must not break a turn
                log.exception("event listener failed")

    def set_state(self, state: State, turn_id: int = 0) -> None:
        if state != self.state:
            self.state = state
            self.emit(EventType.STATE, turn_id, state)
