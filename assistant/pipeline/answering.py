"""From a turn's start to its commit: when a reply may be made, and when it may be heard.

A turn begins (interrupting a reply still on); its words at a pause go to the listener and
may be answered before the endpoint (speculation); the user speaking on drops that answer;
the commit releases the reply, and the reply's events held until then.
"""

from __future__ import annotations

from dataclasses import replace

from assistant.events import (
    Commit,
    Event,
    EventType,
    PartialText,
    ReplyMessage,
    State,
    TurnSignals,
    UserText,
    WordsAtPause,
)
from assistant.timeline import Mark
from assistant.pipeline.interruptions import Interruptions
from assistant.pipeline.links import Links
from assistant.pipeline.overlaps import Overlaps
from assistant.pipeline.turn_book import TurnBook
from assistant.pipeline.turns import ItemFate


class Answering:
    """Thread-safe: stages call it from their own threads."""

    def __init__(self, book: TurnBook, interruptions: Interruptions, overlaps: Overlaps,
                 prefill_partials: bool = True, punctuated: bool = False):
        self.book = book
        self.interruptions = interruptions
        self.overlaps = overlaps
        self._prefill_partials = prefill_partials
        self._punctuated = punctuated
        """The recognizer writes end marks (its words at a pause are weighed knowing that)."""
        self._links: Links | None = None

    def connect(self, links: Links) -> None:
        self._links = links

    # ------------------------------------------------------------ a turn begins

    def begin(self) -> int:
        """Start a turn; a reply still in progress is interrupted (barge-in)."""
        book = self.book
        with book.lock:
            begun = book.state.begin()
            if begun.interrupted is not None:
                self.interruptions.drop(begun.interrupted)
            self.overlaps.forget()
            return book.open(begun.turn)

    def begin_unasked(self) -> tuple[int, int] | None:
        """A turn nobody asked for (a timer ran out), committed at once and without a
        transcript: (turn, attempt), or None while another turn is on."""
        state = self.book.state
        with self.book.lock:
            if state.turn is not None:
                return None
            turn = self.begin()
            state.commit(turn)
            attempt = state.attempt
        self._links.playback.send(Commit(turn, attempt=attempt))
        return turn, attempt

    # ------------------------------------------------------------ transcripts

    def transcript(self, turn_id: int, text: str, least_word_p: float | None = None) -> None:
        """The final transcript, known at the endpoint (or typed): answer it (``least_word_p``:
        the recognizer's probability of its least sure word, None for typed words)."""
        if self.overlaps.holds(turn_id) and not self.overlaps.settle(turn_id, text):
            return  # speech over the reply that did not take the floor to be answered
        self._answer(turn_id, text, least_word_p)

    def _answer(self, turn_id: int, text: str, least_word_p: float | None = None) -> None:
        book = self.book
        if not book.is_current(turn_id):
            return
        book.result(turn_id).transcript = text
        if not text and book.timeline(turn_id).get(Mark.SPEECH_END) is None:  # (typed words are never empty)
            book.bus.emit(EventType.TRANSCRIPT, turn_id, text)
            book.error(turn_id, "nothing was understood; no reply")
            book.finish(turn_id)
            return
        self.commit(turn_id)
        self._links.responder.send(UserText(turn_id, text, attempt=book.state.attempt, least_word_p=least_word_p))

    def words_at_pause(self, turn_id: int, pause: int, text: str, answer: bool,
                       last_word_p: float | None = None, least_word_p: float | None = None) -> None:
        """The transcript at a pause: the listener weighs it for the end of the turn, and
        (``answer``) the reply to it starts before the endpoint. The responder then adds
        what it knows of the words (an instant phrase, the model's end-of-turn probability)."""
        book, links = self.book, self._links
        if self.overlaps.holds(turn_id) and not self.overlaps.settle_at_pause(turn_id, text):
            # its words end it as any turn's do; none is answered before it is settled
            if text:
                book.result(turn_id).transcript = text
            links.note_words(WordsAtPause(turn_id, pause, TurnSignals(text, awaiting_model=False)))
            return
        with book.lock:
            attempt = book.state.weigh(turn_id)
        if attempt is None:
            return
        awaiting = answer and bool(text)
        signals = TurnSignals(text, awaiting_model=awaiting, punctuated=self._punctuated, last_word_p=last_word_p)
        links.note_words(WordsAtPause(turn_id, pause, signals, attempt=attempt))
        if awaiting:
            self.speculate(turn_id, text, pause, last_word_p, least_word_p)

    def more_about_words(self, message: UserText, signals: TurnSignals) -> None:
        """What the responder knows of the words it was given at a pause."""
        if message.pause is not None and self.book.state.is_live(message.turn_id, message.attempt):
            signals = replace(signals, punctuated=self._punctuated)
            self._links.note_words(WordsAtPause(message.turn_id, message.pause, signals, attempt=message.attempt))

    def prefill(self, turn_id: int, partial: str) -> None:
        """The user's words so far: let the LLM evaluate them while the user speaks."""
        if self._prefill_partials and self.book.is_current(turn_id):
            self._links.responder.send(PartialText(turn_id, partial, attempt=self.book.state.attempt))

    # ------------------------------------------------------------ speculation and commit

    def speculate(self, turn_id: int, text: str, pause: int | None = None, last_word_p: float | None = None,
                  least_word_p: float | None = None) -> None:
        """A transcript at the first pause: start answering it before the endpoint."""
        if not text:
            return
        book = self.book
        if self.overlaps.holds(turn_id):  # not answered before it is settled
            book.result(turn_id).transcript = text
            return
        with book.lock:
            attempt = book.state.speculate(turn_id)
            if attempt is None:
                return
            book.result(turn_id).transcript = text
        self._links.responder.send(UserText(turn_id, text, attempt=attempt, pause=pause, last_word_p=last_word_p,
                                            least_word_p=least_word_p))

    def speak_on(self, turn_id: int) -> None:
        """The user spoke on after a pause: drop the speculative reply and all it produced."""
        if self._drop_reply(turn_id, Mark.STT_START, Mark.STT_FINAL):
            self.book.timeline(turn_id).add("speculation_dropped")

    def amend(self, turn_id: int, pause: int, text: str, answer: bool, last_word_p: float | None = None,
              least_word_p: float | None = None) -> bool:
        """The words at a pause read again as ``text`` (the second look was taken): the reply to the first
        reading is dropped, and ``text`` is weighed and answered in its place (the next attempt); False where
        the turn's end is decided already."""
        if not self._drop_reply(turn_id):
            return False
        self.words_at_pause(turn_id, pause, text, answer, last_word_p, least_word_p)
        return True

    def _drop_reply(self, turn_id: int, *marks: Mark) -> bool:
        """Drop the reply begun to the turn's words and all it produced (the next attempt starts; ``marks``
        go too); False where there is none to drop (the turn is not current, or committed)."""
        book = self.book
        with book.lock:
            if not book.state.speak_on(turn_id):
                return False
            for stage in self._links.reply_stages:
                stage.flush()
            timeline = book.timeline(turn_id)
            timeline.unmark(*marks, Mark.LLM_START, Mark.LLM_FIRST_TOKEN, Mark.LLM_END, Mark.FIRST_CHUNK,
                            Mark.TTS_FIRST_AUDIO)
            timeline.set("llm_paused_s", 0.0)
            timeline.set("prompt_eval_ms", 0.0)
            book.result(turn_id).reply = ""
        return True

    def commit(self, turn_id: int) -> None:
        """The endpoint confirmed the transcript: the reply may now be heard."""
        book = self.book
        if self.overlaps.holds(turn_id):
            text = book.result(turn_id).transcript
            if self.overlaps.settle(turn_id, text):
                self._answer(turn_id, text)
            return
        with book.lock:
            released = book.state.commit(turn_id)
            if released is None:
                return
            attempt = book.state.attempt
            book.bus.emit(EventType.TRANSCRIPT, turn_id, book.result(turn_id).transcript)
            book.bus.set_state(State.THINKING, turn_id)
            actions = []
            for item in released:
                if isinstance(item, Event):
                    book.bus.emit(item.type, item.turn_id, item.data)
                else:
                    actions.append(item)
        for action in actions:
            action()
        self._links.responder.send(Commit(turn_id, attempt=attempt))
        self._links.playback.send(Commit(turn_id, attempt=attempt))

    def emit_reply(self, message: ReplyMessage, type_: EventType, data) -> None:
        """Reply events of a speculative reply are held until its commit (or dropped)."""
        event = Event(type_, message.turn_id, data)
        with self.book.lock:
            if self.book.state.offer(message.turn_id, message.attempt, event) is ItemFate.NOW:
                self.book.bus.emit(type_, message.turn_id, data)
