"""The stages' view of the turns: the :class:`~.turns.TurnState` behind one lock, the
turns' results, reply events held until the commit, and the flushing of stages when a
turn or an attempt is dropped."""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, replace
from typing import Callable

from assistant.hear.bargein import Action, Overlap
from assistant.events import TurnSignals
from assistant.events import (
    Commit,
    Event,
    EventType,
    Message,
    PartialText,
    Remember,
    ReplyMessage,
    State,
    TurnResult,
    UserText,
    WordsAtPause,
)
from assistant.timeline import Mark, Timeline
from assistant.pipeline.bus import EventBus
from assistant.pipeline.stage import Stage
from assistant.pipeline.turns import ItemFate, TurnState

log = logging.getLogger(__name__)

KEPT_RESULTS = 16
"""Results of this many past turns stay readable (the GUI's meter reads them late)."""


@dataclass(frozen=True)
class Links:
    """The stages the conductor sends to or flushes."""

    responder: Stage
    playback: Stage
    hush: Callable[[], None]
    """Silence what is playing now."""
    answering: tuple[Stage, ...]
    """The stages that make and play a reply: flushed when a speculative reply is dropped."""
    turn_stages: tuple[Stage, ...]
    """Every stage holding messages of a turn: flushed when the turn is interrupted."""
    idle_state: Callable[[], State]
    """The engine's state between turns (listening or idle)."""
    hear_words: Callable[[WordsAtPause], None] = lambda message: None
    """Tell the listener what is known of the words at a pause (it decides the endpoint)."""
    heard: Callable[[int], str | None] = lambda turn: None
    """The text of a turn's reply the user heard when it was cut short; None when it
    sounded to its end."""
    verdict: Callable[[Overlap, str], Action] = lambda overlap, text: Action.STOP
    """What speech heard over a reply does to it, from its transcript."""
    resume: Callable[[], None] = lambda: None
    """Play on the paused reply."""
    end_paused: Callable[[int], None] = lambda turn: None
    """End the paused reply of ``turn`` where it paused."""


class Conductor:
    """Thread-safe: stages call it from their own threads."""

    def __init__(self, bus: EventBus, prefill_partials: bool = True, punctuated: bool = False):
        self.bus = bus
        self._prefill_partials = prefill_partials
        self._punctuated = punctuated
        """The recognizer writes end marks (its words at a pause are weighed knowing that)."""
        self._lock = threading.RLock()
        self._state = TurnState()
        self._results: dict[int, TurnResult] = {}
        self._overlaps: dict[int, Overlap] = {}
        """Turns begun over a reply, until their verdict."""
        self._links: Links | None = None

    def connect(self, links: Links) -> None:
        self._links = links

    # ------------------------------------------------------------ questions

    @property
    def current(self) -> int | None:
        return self._state.turn

    def is_current(self, turn_id: int) -> bool:
        return self._state.is_current(turn_id)

    def is_live(self, message: Message) -> bool:
        if isinstance(message, WordsAtPause) and message.turn_id == self._state.overlap:
            return True  # the words of speech heard over the reply
        if isinstance(message, ReplyMessage):
            return self._state.is_live(message.turn_id, message.attempt)
        return self._state.is_listened_to(message.turn_id)

    def is_heard(self, turn_id: int) -> bool:
        """The turn's speech is listened to: the current turn, or one heard over its reply."""
        return self._state.is_listened_to(turn_id)

    def is_committed(self, turn_id: int) -> bool:
        state = self._state
        return state.is_current(turn_id) and state.committed

    def timeline(self, turn_id: int) -> Timeline:
        return self._results[turn_id].timeline

    def result(self, turn_id: int) -> TurnResult:
        return self._results[turn_id]

    # ------------------------------------------------------------ a turn's life

    def begin(self) -> int:
        """Start a turn; a reply still in progress is interrupted (barge-in)."""
        with self._lock:
            begun = self._state.begin()
            if begun.interrupted is not None:
                self._drop_turn(begun.interrupted)
            self._overlaps.clear()
            return self._open(begun.turn)

    def begin_overlap(self, overlap: Overlap) -> int:
        """Speech started over the reply: a turn heard and transcribed beside it; its
        transcript decides what happens to the reply (:meth:`_settle`)."""
        with self._lock:
            turn = self._state.begin_overlap()
            self._overlaps = {turn: overlap}
            return self._open(turn)

    def overlap(self, turn_id: int) -> Overlap | None:
        """The barge-in state of a turn begun over a reply (None for other turns)."""
        return self._overlaps.get(turn_id)

    def _open(self, turn: int) -> int:
        self._results[turn] = TurnResult(turn, Timeline(turn))
        for old in [t for t in self._results if t < turn - KEPT_RESULTS]:
            del self._results[old]
        return turn

    def interrupt(self) -> None:
        """Stop the current turn at once: generation, synthesis and playback."""
        with self._lock:
            turn = self._state.interrupt()
            if turn is None:
                return
            self._drop_turn(turn, close=False)
        self._close(turn)

    def begin_unasked(self) -> tuple[int, int] | None:
        """A turn nobody asked for (a timer ran out), committed at once and without a
        transcript: (turn, attempt), or None while another turn is on."""
        with self._lock:
            if self._state.turn is not None:
                return None
            turn = self.begin()
            self._state.commit(turn)
            attempt = self._state.attempt
        self._links.playback.send(Commit(turn, attempt=attempt))
        return turn, attempt

    def _drop_turn(self, turn: int, close: bool = True) -> None:
        links = self._links
        for stage in links.turn_stages:
            stage.flush()
        links.hush()
        self._results[turn].interrupted = True
        if close:
            self._close(turn)

    def finish(self, turn_id: int, at: float | None = None) -> None:
        with self._lock:
            if not self._state.finish(turn_id):
                return
        self._close(turn_id, at)

    def error(self, turn_id: int, text: str) -> None:
        with self._lock:
            if turn_id in self._results:
                self._results[turn_id].errors.append(text)
        self.bus.emit(EventType.ERROR, turn_id, text)

    def fail(self, turn_id: int, text: str) -> None:
        self.error(turn_id, text)
        self.finish(turn_id)

    def _close(self, turn_id: int, at: float | None = None) -> None:
        result = self._results[turn_id]
        self._remember(result)
        result.timeline.mark(Mark.TURN_END, at)
        self.bus.emit(EventType.TURN_END, turn_id, result)
        self.bus.set_state(self._links.idle_state())

    def _remember(self, result: TurnResult) -> None:
        """Put the exchange in the history as the user heard it: a reply cut short up to
        its last chunk that began to sound, nothing of a reply never heard."""
        if result.source != "llm" or not result.transcript:
            return
        heard = self._links.heard(result.turn_id)
        if heard is not None:
            result.reply = heard
            result.timeline.set("reply_cut", True)
        elif result.interrupted and result.timeline.get(Mark.AUDIO_OUT_START) is None:
            return
        if result.reply:  # on the responder's thread: the LLM may still be busy with this turn
            self._links.responder.send(Remember(result.turn_id, result.transcript, result.reply))

    # ------------------------------------------------------------ transcripts

    def transcript(self, turn_id: int, text: str) -> None:
        """The final transcript, known at the endpoint (or typed): answer it."""
        if turn_id in self._overlaps:
            self._settle(turn_id, text)
            return
        if not self.is_current(turn_id):
            return
        self.result(turn_id).transcript = text
        if not text:
            self.bus.emit(EventType.TRANSCRIPT, turn_id, text)
            self.error(turn_id, "nothing was understood; no reply")
            self.finish(turn_id)
            return
        self.commit(turn_id)
        self._links.responder.send(UserText(turn_id, text, attempt=self._state.attempt))

    def words_at_pause(self, turn_id: int, pause: int, text: str, answer: bool,
                       last_word_p: float | None = None) -> None:
        """The transcript at a pause: the listener weighs it for the end of the turn, and
        (``answer``) the reply to it starts before the endpoint. The responder then adds
        what it knows of the words (an instant phrase, the model's end-of-turn probability)."""
        if turn_id in self._overlaps:  # its words end it as any turn's do; none is answered before the verdict
            if text:
                self.result(turn_id).transcript = text
            self._links.hear_words(WordsAtPause(turn_id, pause, TurnSignals(text, awaiting_model=False)))
            return
        with self._lock:
            attempt = self._state.weigh(turn_id)
        if attempt is None:
            return
        awaiting = answer and bool(text)
        signals = TurnSignals(text, awaiting_model=awaiting, punctuated=self._punctuated, last_word_p=last_word_p)
        self._links.hear_words(WordsAtPause(turn_id, pause, signals, attempt=attempt))
        if awaiting:
            self.speculate(turn_id, text, pause, last_word_p)

    def more_about_words(self, message: UserText, signals: TurnSignals) -> None:
        """What the responder knows of the words it was given at a pause."""
        if message.pause is not None and self._state.is_live(message.turn_id, message.attempt):
            signals = replace(signals, punctuated=self._punctuated)
            self._links.hear_words(WordsAtPause(message.turn_id, message.pause, signals, attempt=message.attempt))

    def speculate(self, turn_id: int, text: str, pause: int | None = None, last_word_p: float | None = None) -> None:
        """A transcript at the first pause: start answering it before the endpoint."""
        if not text:
            return
        if turn_id in self._overlaps:  # not answered before its verdict
            self.result(turn_id).transcript = text
            return
        with self._lock:
            attempt = self._state.speculate(turn_id)
            if attempt is None:
                return
            self.result(turn_id).transcript = text
        self._links.responder.send(UserText(turn_id, text, attempt=attempt, pause=pause, last_word_p=last_word_p))

    def prefill(self, turn_id: int, partial: str) -> None:
        """The user's words so far: let the LLM evaluate them while the user speaks."""
        if self._prefill_partials and self.is_current(turn_id):
            self._links.responder.send(PartialText(turn_id, partial, attempt=self._state.attempt))

    def speak_on(self, turn_id: int) -> None:
        """The user spoke on after a pause: drop the speculative reply and all it produced."""
        with self._lock:
            if not self._state.speak_on(turn_id):
                return
            for stage in self._links.answering:
                stage.flush()
            timeline = self.timeline(turn_id)
            timeline.unmark(Mark.STT_START, Mark.STT_FINAL, Mark.LLM_START, Mark.LLM_FIRST_TOKEN,
                            Mark.LLM_END, Mark.FIRST_CHUNK, Mark.TTS_FIRST_AUDIO)
            timeline.add("speculation_dropped")
            timeline.set("llm_paused_s", 0.0)
            self.result(turn_id).reply = ""

    def commit(self, turn_id: int) -> None:
        """The endpoint confirmed the transcript: the reply may now be heard."""
        if turn_id in self._overlaps:
            self._settle(turn_id, self.result(turn_id).transcript)
            return
        with self._lock:
            released = self._state.commit(turn_id)
            if released is None:
                return
            attempt = self._state.attempt
            self.bus.emit(EventType.TRANSCRIPT, turn_id, self.result(turn_id).transcript)
            self.bus.set_state(State.THINKING, turn_id)
            actions = []
            for item in released:
                if isinstance(item, Event):
                    self.bus.emit(item.type, item.turn_id, item.data)
                else:
                    actions.append(item)
        for action in actions:
            action()
        self._links.responder.send(Commit(turn_id, attempt=attempt))
        self._links.playback.send(Commit(turn_id, attempt=attempt))

    # ------------------------------------------------------------ barge-in

    def pause_reply(self, turn_id: int, pause: Callable[[], bool]) -> None:
        """The overlap ``turn_id`` has lasted long enough: silence the reply (``pause``)."""
        with self._lock:
            if turn_id in self._overlaps and self._state.overlap == turn_id and pause():
                self.bus.set_state(State.HEARING, turn_id)

    def _settle(self, turn_id: int, text: str) -> None:
        """The verdict on speech heard over the reply, from its transcript."""
        with self._lock:
            overlap = self._overlaps.pop(turn_id, None)
            if overlap is None:
                return
            action = self._links.verdict(overlap, text)
            reply_turn = self._state.turn if self._state.overlap == turn_id else None
            if action in (Action.STOP, Action.HUSH):
                interrupted = self._state.take_floor(turn_id)
                if interrupted is not None:
                    self._drop_turn(interrupted)
                if not self._state.is_current(turn_id):
                    return
                self.timeline(turn_id).set("barge_in", True)
                self.result(turn_id).transcript = text
            else:
                if not self._state.drop_overlap(turn_id) and self._state.is_current(turn_id):
                    self._state.finish(turn_id)  # the reply ended meanwhile: nothing to answer
                del self._results[turn_id]
        log.info("speech over the reply (%r): %s", text, action.value)
        if action is Action.STOP:
            self.bus.emit(EventType.SPEECH_START, turn_id)
            self.transcript(turn_id, text)
        elif action is Action.HUSH:
            self.bus.emit(EventType.SPEECH_START, turn_id)
            self.bus.emit(EventType.TRANSCRIPT, turn_id, text)
            self.finish(turn_id)
        elif reply_turn is not None and action is Action.RESUME:
            self.timeline(reply_turn).add("barge_in_resumed")
            self._links.resume()
            self.bus.set_state(State.SPEAKING, reply_turn)
        elif reply_turn is not None and action is Action.END:
            self._links.end_paused(reply_turn)

    # ------------------------------------------------------------ replies

    def emit_reply(self, message: ReplyMessage, type_: EventType, data) -> None:
        """Reply events of a speculative reply are held until its commit (or dropped)."""
        event = Event(type_, message.turn_id, data)
        with self._lock:
            if self._state.offer(message.turn_id, message.attempt, event) is ItemFate.NOW:
                self.bus.emit(type_, message.turn_id, data)
