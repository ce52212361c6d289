"""Hands-free with a wake phrase: which utterances become turns.

While the assistant waits, an utterance begins a turn nobody sees (no speech-start event,
no state change); the transcription stage transcribes its start a few times
(:class:`~assistant.hear.wake.Spotting`) and asks here what the words say. The phrase heard:
the turn shows (the wake event, "hearing you", a chime if the user paused after it) and goes on
as any turn, the phrase taken out of its words. Anything else: the turn is forgotten without a
trace. Speech over a reply is never gated (a "stop" needs no phrase), nor push-to-talk, tap-to-talk
or typing, nor a follow-up within ``wake.follow_up_s`` after a reply.
"""

from __future__ import annotations

import logging
import threading
from typing import Callable

import numpy as np

from assistant.config import WakeConfig
from assistant.events import Event, EventType, State, WakeHeard
from assistant.hear.wake import STRIP_SLACK, Found, Spotting, Verdict, WakeGate, WakePhrase, plain_letters, wake_threshold
from assistant.timeline import Mark
from assistant.pipeline.bus import EventBus
from assistant.pipeline.turn_book import TurnBook

log = logging.getLogger(__name__)


class WakeListening:
    """Thread-safe: the listen stage asks at each speech start and frame, the transcription
    stage at each look at an utterance's start."""

    def __init__(self, config: WakeConfig, book: TurnBook, bus: EventBus,
                 letters: Callable[[str], str] = plain_letters, chime: Callable[[], None] | None = None,
                 scorer=None):
        self.config = config
        self.scorer = scorer
        """The score (0-100) of the phrase at the start of some audio: the recognizer's probability
        (:class:`~assistant.hear.wake_score.PhraseProbability`) or the phrase's model
        (:class:`~assistant.hear.wake_model.ModelScorer`, once trained: :meth:`use`); None: by letters."""
        self.book = book
        self.bus = bus
        self.phrase = WakePhrase(config.phrase, config.score, letters) if config.phrase.strip() else None
        self.chime = chime if config.chime else None
        self.gate = WakeGate(config.follow_up_s)
        self.on = False
        """Listening hands-free for the phrase (push-to-talk is not)."""
        self._lock = threading.Lock()
        self._spotting: dict[int, Spotting] = {}
        self._woken: set[int] = set()
        """Turns the phrase began: their words lose it."""
        bus.add_listener(self._on_event)

    def use(self, scorer) -> None:
        """Score the phrase with ``scorer`` from the next utterance on (the phrase's model, trained)."""
        with self._lock:
            self.scorer = scorer

    @property
    def by(self) -> str:
        """How the phrase is told now (a model still training: by probability meanwhile)."""
        scorer = self.scorer
        return "letters" if scorer is None else scorer.by

    @property
    def threshold(self) -> float:
        """The score that wakes, as the phrase is told now."""
        return wake_threshold(self.config, self.by)

    def start(self, await_phrase: bool) -> None:
        """Listening begins: for the phrase (when one is set and ``await_phrase``) or not."""
        with self._lock:
            self.on = await_phrase and self.phrase is not None
            self.gate = WakeGate(self.config.follow_up_s)
            self._spotting.clear()

    def stop(self) -> None:
        with self._lock:
            self.on = False
            self._spotting.clear()

    @property
    def waiting(self) -> bool:
        """Nothing is answered until the phrase is heard (as the idle state shows it)."""
        with self._lock:
            return self.on and self.gate.asleep

    def follow_up(self) -> None:
        """Speech within ``follow_up_s`` from now needs no phrase."""
        with self._lock:
            self.gate.open_window()

    # ------------------------------------------------------------ the listen stage

    def speech_start(self, turn_id: int, at: float) -> bool:
        """Speech began a turn at ``at`` (capture clock): True when it must say the phrase
        first (its start is spotted; nothing of it shows until then)."""
        with self._lock:
            if not self.on:
                return False
            if not self.gate.waiting(at):
                self.gate.woke(turn_id)
                return False
            self._spotting[turn_id] = Spotting(self.phrase, self.config, by=self.by)
        self.book.timeline(turn_id).set("wake_waiting", True)
        return True

    def tick(self, at: float) -> None:
        """A frame captured at ``at``: the follow-up window may close."""
        with self._lock:
            closed = self.on and self.gate.tick(at)
        if closed:
            log.info("no follow-up: waiting for the wake phrase")
            self.bus.set_state(State.WAITING)

    # ------------------------------------------------------------ the transcription stage

    def spotting(self, turn_id: int) -> Spotting | None:
        with self._lock:
            return self._spotting.get(turn_id)

    def probability(self, audio: np.ndarray) -> float | None:
        """The phrase's probability at the start of ``audio`` (None: told by letters)."""
        return self.scorer(audio) if self.scorer is not None else None

    def phrase_words(self, audio: np.ndarray) -> str:
        """The words of a look whose score woke: the phrase, then what Whisper decodes on from it."""
        rest = self.scorer.after_phrase(audio)
        return f"{self.phrase.phrase}, {rest}" if rest else self.phrase.phrase

    def words(self, text: str, audio: Callable[[], np.ndarray]) -> str:
        """The transcript of a turn the phrase woke, with the phrase at its start: a voice the
        recognizer mishears ("Can you see it's done? What is the weather like?") is decoded on from
        the phrase forced at the start."""
        if self.scorer is None or self.phrase is None or self.phrase.find(text, slack=STRIP_SLACK):
            return text
        return self.phrase_words(audio())

    def heard(self, turn_id: int, text: str, speech_s: float, audio_end: float, final: bool = False,
              paused: bool = False, probability: float | None = None) -> Verdict:
        """The words of the first ``speech_s`` of a spotted utterance (its last sample captured at
        ``audio_end``); ``final``: no more of it will be looked at, ``paused``: the user stopped
        after these words; ``probability``: the phrase's (``wake.by = probability``)."""
        with self._lock:
            spotting = self._spotting.get(turn_id)
            if spotting is None:
                return Verdict.MISS
            verdict, found = spotting.hear(text, speech_s, final, probability)
            if verdict is not Verdict.WAIT:
                del self._spotting[turn_id]
            if verdict is Verdict.WOKE:
                self.gate.woke(turn_id)
                self._woken.add(turn_id)
        timeline = self.book.timeline(turn_id)
        timeline.set("wake_spots", spotting.spots)
        if verdict is Verdict.WOKE:
            self._wake(turn_id, found, audio_end, chime=paused and not found.rest)
        elif verdict is Verdict.MISS:
            best = spotting.best
            log.info("no wake phrase in %r (best %.0f): not a turn", text, best.score if best else 0)
            self._forget(turn_id)
        return verdict

    def woke(self, turn_id: int) -> bool:
        """The phrase began the turn."""
        with self._lock:
            return turn_id in self._woken

    def strip(self, turn_id: int, text: str, audio: Callable[[], np.ndarray] | None = None) -> str:
        """The words of a turn without the phrase that began it (``audio``: the turn's, to decode
        on from the phrase where the words do not begin with it)."""
        with self._lock:
            woken = turn_id in self._woken
        if not woken or self.phrase is None:
            return text
        return self.phrase.strip(self.words(text, audio) if audio is not None else text)

    def least_word_p(self, heard: str, kept: str, utterance: object) -> float | None:
        """The recognizer's probability of the least sure word of ``kept``, the words of a woken turn
        without its phrase (``heard``: the transcript they came from; ``utterance``: the recognizer's):
        the phrase's own words do not count (a voice Whisper hears badly makes them the least sure)."""
        if heard.rstrip().endswith(kept.strip()):
            after = getattr(utterance, "least_word_p_after", None)
            return after(len(heard.strip()) - len(kept.strip())) if after is not None else None
        return getattr(self.scorer, "least_word_p", None)  # decoded on from the phrase forced at the start

    def _wake(self, turn_id: int, found: Found, audio_end: float, chime: bool) -> None:
        timeline = self.book.timeline(turn_id)
        now = timeline.mark(Mark.WAKE)
        latency_ms = round(max(0.0, now - audio_end) * 1000, 1)
        timeline.set("wake_score", found.score)
        timeline.set("wake_by", self.by)  # how it was told (a model still training: by probability)
        timeline.set("wake_ms", latency_ms)
        log.info("wake phrase heard as %r (score %.0f, %.0f ms after its audio)", found.said, found.score, latency_ms)
        self.bus.emit(EventType.WAKE, turn_id, WakeHeard(found.score, found.said, latency_ms))
        self.bus.emit(EventType.SPEECH_START, turn_id)
        self.bus.set_state(State.HEARING, turn_id)
        if chime and self.chime is not None:
            self.chime()

    def _forget(self, turn_id: int) -> None:
        """The utterance was not for the assistant: its turn never was one."""
        book = self.book
        with book.lock:
            if book.state.finish(turn_id):
                book.discard(turn_id)

    def _on_event(self, event: Event) -> None:
        if event.type is EventType.TURN_END:
            with self._lock:
                self.gate.turn_over(event.turn_id)
                self._woken.discard(event.turn_id)
