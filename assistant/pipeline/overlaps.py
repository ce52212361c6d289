"""Barge-in: speech over the reply is a turn begun beside it (an *overlap*); once it has
lasted the reply pauses, and its transcript decides what becomes of the reply."""

from __future__ import annotations

import logging
from typing import Callable

from assistant.events import EventType, State
from assistant.hear.bargein import Action, Overlap
from assistant.pipeline.interruptions import Interruptions
from assistant.pipeline.links import Linked
from assistant.pipeline.turn_book import TurnBook

log = logging.getLogger(__name__)


class Overlaps(Linked):
    """The turns begun over a reply, until their transcript settles them: the overlap takes
    the floor (stop: it is answered; hush: the reply just ends), or the reply resumes, or it
    ends where it paused."""

    def __init__(self, book: TurnBook, interruptions: Interruptions):
        self.book = book
        self.interruptions = interruptions
        self._overlaps: dict[int, Overlap] = {}
        """Turns begun over a reply, until they are settled."""

    def begin(self, overlap: Overlap) -> int:
        """Speech started over the reply: a turn listened to and transcribed beside it; its
        transcript decides what happens to the reply (:meth:`settle`)."""
        book = self.book
        with book.lock:
            turn = book.state.begin_overlap()
            self._overlaps = {turn: overlap}
            return book.open(turn)

    def get(self, turn_id: int) -> Overlap | None:
        """The barge-in state of a turn begun over a reply (None for other turns)."""
        return self._overlaps.get(turn_id)

    def holds(self, turn_id: int) -> bool:
        """The turn was begun over a reply and is not settled yet."""
        return turn_id in self._overlaps

    def forget(self) -> None:
        """A turn began as any turn does: no overlap is left to settle."""
        self._overlaps.clear()

    def pause_reply(self, turn_id: int, pause: Callable[[], bool]) -> None:
        """The overlap ``turn_id`` has lasted long enough: silence the reply (``pause``)."""
        book = self.book
        with book.lock:
            if turn_id in self._overlaps and book.state.overlap == turn_id and pause():
                book.bus.set_state(State.HEARING, turn_id)

    def settle_at_pause(self, turn_id: int, text: str) -> bool:
        """Words at a pause of the speech over the reply: where they already take the floor to be
        answered (a question, not a backchannel nor the reply's echo), settle the overlap now, so
        that the model reads them for the turn's end and its reply is begun as any turn's; else it
        is settled at the endpoint, on all its words. True when it took the floor."""
        overlap = self._overlaps.get(turn_id)
        if overlap is None or not text.strip() or self._links.overlap_action(overlap, text) is not Action.STOP:
            return False
        return self.settle(turn_id, text, Action.STOP)

    def settle(self, turn_id: int, text: str, action: Action | None = None) -> bool:
        """Decide what the speech over the reply does to it, from its transcript ``text`` (``action``:
        already decided from it). True when the overlap took the floor to be answered: its transcript
        is then to be answered as any turn's; False when there is nothing more to do."""
        book, state = self.book, self.book.state
        with book.lock:
            overlap = self._overlaps.pop(turn_id, None)
            if overlap is None:
                return False
            action = action or self._links.overlap_action(overlap, text)
            reply_turn = state.turn if state.overlap == turn_id else None
            if action in (Action.STOP, Action.HUSH):
                interrupted = state.take_floor(turn_id)
                if interrupted is not None:
                    self.interruptions.drop(interrupted, hearing=False)  # the overlap's words are being heard
                if not state.is_current(turn_id):
                    return False
                book.timeline(turn_id).set("barge_in", True)
                book.result(turn_id).transcript = text
            else:
                if not state.drop_overlap(turn_id) and state.is_current(turn_id):
                    state.finish(turn_id)  # the reply ended meanwhile: nothing to answer
                book.discard(turn_id)
        log.info("speech over the reply (%r): %s", text, action.value)
        if action is Action.STOP:
            book.bus.emit(EventType.SPEECH_START, turn_id)
            return True
        if action is Action.HUSH:
            book.bus.emit(EventType.SPEECH_START, turn_id)
            book.bus.emit(EventType.TRANSCRIPT, turn_id, text)
            book.finish(turn_id)
        elif reply_turn is not None and action is Action.RESUME:
            book.timeline(reply_turn).add("barge_in_resumed")
            self._links.resume()
            book.bus.set_state(State.SPEAKING, reply_turn)
        elif reply_turn is not None and action is Action.END:
            self._links.end_paused(reply_turn)
        return False
