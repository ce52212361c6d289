"""The turns' book: the :class:`~.turns.TurnState` behind one lock, each turn's result,
and the close of a turn (its end event, and the exchange the history keeps).

Every stage asks it the same questions (is this message live, what is this turn's
timeline) and ends turns through it (:meth:`TurnBook.finish`, :meth:`TurnBook.fail`).
"""

from __future__ import annotations

import threading

from assistant.events import EventType, Message, Remember, ReplyMessage, TurnResult, WordsAtPause
from assistant.think.said import unheard_rest
from assistant.timeline import Mark, Timeline
from assistant.pipeline.bus import EventBus
from assistant.pipeline.links import Linked
from assistant.pipeline.turns import TurnState

KEPT_RESULTS = 16
"""Results of this many past turns stay readable (the GUI's meter reads them late)."""


class TurnBook(Linked):
    """Thread-safe: stages call it from their own threads. The other parts of the
    conductor share its lock and its :class:`~.turns.TurnState`."""

    def __init__(self, bus: EventBus):
        self.bus = bus
        self.lock = threading.RLock()
        self.state = TurnState()
        self._results: dict[int, TurnResult] = {}

    # ------------------------------------------------------------ questions

    @property
    def current(self) -> int | None:
        return self.state.turn

    def is_current(self, turn_id: int) -> bool:
        return self.state.is_current(turn_id)

    def is_live(self, message: Message) -> bool:
        if isinstance(message, WordsAtPause) and message.turn_id == self.state.overlap:
            return True  # the words of speech over the reply
        if isinstance(message, ReplyMessage):
            return self.state.is_live(message.turn_id, message.attempt)
        return self.state.is_listened_to(message.turn_id)

    def is_listened_to(self, turn_id: int) -> bool:
        """The turn's speech is listened to: the current turn, or one spoken over its reply."""
        return self.state.is_listened_to(turn_id)

    def is_committed(self, turn_id: int) -> bool:
        state = self.state
        return state.is_current(turn_id) and state.committed

    def timeline(self, turn_id: int) -> Timeline:
        return self._results[turn_id].timeline

    def result(self, turn_id: int) -> TurnResult:
        return self._results[turn_id]

    # ------------------------------------------------------------ records

    def open(self, turn: int) -> int:
        """A result for a new turn (the oldest ones beyond :data:`KEPT_RESULTS` go)."""
        self._results[turn] = TurnResult(turn, Timeline(turn))
        for old in [t for t in self._results if t < turn - KEPT_RESULTS]:
            del self._results[old]
        return turn

    def discard(self, turn: int) -> None:
        """Forget a turn that never was one (speech over the reply that was not for it)."""
        del self._results[turn]

    def error(self, turn_id: int, text: str) -> None:
        with self.lock:
            if turn_id in self._results:
                self._results[turn_id].errors.append(text)
        self.bus.emit(EventType.ERROR, turn_id, text)

    # ------------------------------------------------------------ the end of a turn

    def finish(self, turn_id: int, at: float | None = None) -> None:
        with self.lock:
            if not self.state.finish(turn_id):
                return
        self.close(turn_id, at)

    def fail(self, turn_id: int, text: str) -> None:
        self.error(turn_id, text)
        self.finish(turn_id)

    def close(self, turn_id: int, at: float | None = None) -> None:
        """The turn is over (the state has moved on): its exchange goes into the history,
        then its end event."""
        result = self._results[turn_id]
        self._remember(result)
        result.timeline.mark(Mark.TURN_END, at)
        self.bus.emit(EventType.TURN_END, turn_id, result)
        self.bus.set_state(self._links.idle_state())

    def _remember(self, result: TurnResult) -> None:
        """Put the exchange in the history as the user heard it: a reply cut short up to
        its last chunk that began to sound, nothing of a reply never heard; and keep what was
        not heard of a reply cut short (said on "go on"), whoever's reply it was."""
        if not result.reply:
            return  # (a silent turn: "stop", "wait", no words) keeps the rest of the reply before it
        heard = self._links.heard_reply(result.turn_id)
        rest = unheard_rest(result.reply, heard) if heard is not None else ""
        if result.source != "llm" or not result.transcript:
            self._links.responder.send(Remember(result.turn_id, "", result.reply, rest))
            return
        if heard is not None:
            result.reply = heard
            result.timeline.set("reply_cut", True)
        elif result.interrupted and result.timeline.get(Mark.AUDIO_OUT_START) is None:
            return
        if result.reply:  # on the responder's thread: the LLM may still be busy with this turn
            self._links.responder.send(Remember(result.turn_id, result.transcript, result.reply, rest))
