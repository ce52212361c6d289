"""The transcription stage: speech audio in, transcripts (partial, at a pause, final) out."""

from __future__ import annotations

import logging
import re
import time
from typing import Callable

import numpy as np

from assistant.sound import Levels
from assistant.events import EarlySilence, EndOfSpeech, EventType, Message, SpeechAudio, SpeechResumed, SpeechStarted
from assistant.hear import second_look
from assistant.hear.end_of_turn import ends_on_a_final_ending
from assistant.hear.second_look import Look
from assistant.hear.stt import RATE, Stt, Utterance, WhisperUtterance
from assistant.hear.wake import Spotting, Verdict
from assistant.think.hangul import jamo
from assistant.timeline import Mark
from assistant.pipeline.bus import EventBus
from assistant.pipeline.answering import Answering
from assistant.pipeline.stage import Stage
from assistant.pipeline.turn_book import TurnBook
from assistant.pipeline.wake_gate import WakeListening

log = logging.getLogger(__name__)

RECHECK_AFTER_S = 0.5
"""At an endpoint the words at the pause did not settle (the turn detector waited because
they sounded unfinished), they are transcribed again when this much audio came after the
pause: the user may have said more, quietly, and the later words win."""

HEARD_AFTER_PAUSE_S = 0.064
"""Sound this soon after the pause began (two VAD frames) still belongs to its words."""

RECHECK_MAX_S = 15.0
"""...unless the utterance is longer than this: a long story is not transcribed twice."""

_WORDS = re.compile(r"[\w']+")


def same_words(a: str, b: str) -> bool:
    """The two transcripts say the same words (case and punctuation aside)."""
    return _WORDS.findall(a.lower()) == _WORDS.findall(b.lower())


def accounts_for(first: str, second: str) -> bool:
    """The second reading has at least :data:`~assistant.hear.second_look.LETTERS_MIN` of
    the first one's letters (jamo)."""
    return len(jamo(second)) >= second_look.LETTERS_MIN * len(jamo(first))


def taken(first: str, look: Look | None, wanted: Callable[[str], bool]) -> bool:
    """Whether the second look replaces ``first`` (which ``wanted`` did not take): see
    :mod:`assistant.hear.second_look` for the rules."""
    return (look is not None and look.text != first and look.support >= second_look.SUPPORT_MIN
            and accounts_for(first, look.text) and wanted(look.text))


def choose(first: str, look: Callable[[], Look | None], wanted: Callable[[str], bool]) -> tuple[str, Look | None]:
    """The transcript to answer, and the second look when one was made.

    ``wanted``: whether a skill or an instant reply takes a transcript; ``look`` makes the
    second look (only when the first reading is something ``wanted`` does not take)."""
    if not first.strip() or wanted(first):
        return first, None
    second = look()
    return (second.text if taken(first, second, wanted) else first), second


class TranscriptionStage(Stage):
    """Feeds the utterance to STT as it is spoken; transcribes at a pause (for the
    end-of-turn decision and, ``speculative``, to start the reply) or at the endpoint."""

    name = "stt"

    def __init__(self, turns: TurnBook, answering: Answering, bus: EventBus, stt: Stt, speculative: bool,
                 at_pauses: bool = False, wake: WakeListening | None = None,
                 wanted: Callable[[str], bool] | None = None, language: str = "en"):
        super().__init__(turns)
        self.wanted = wanted
        """Whether a skill or an instant reply takes a transcript: one that none takes is
        read again with the hint words where the recognizer can (:mod:`assistant.hear.second_look`)."""
        self.language = language
        """The words' language: where its grammar ends a turn on the words alone (Korean's sentence-final
        endings), a second look comes before the words are weighed, not beside."""
        self.answering = answering
        self.bus = bus
        self.stt = stt
        self.speculative = speculative
        self.at_pauses = at_pauses or speculative
        """Transcribe at pauses: the reply starts there, or the turn detector weighs the words."""
        self._utterance: Utterance | None = None
        self._speculated: str | None = None
        """The words being answered before the endpoint (None: none, '' is not an answer)."""
        self._paused = False
        """A transcript was made at the current pause (its marks are the turn's, for now)."""
        self._fed_s = 0.0
        self._fed_at_pause_s = 0.0
        self._levels = Levels(RATE)
        self.wake = wake
        self._spot: Spotting | None = None
        """The utterance began while waiting for the wake phrase: its start is looked at."""
        self._preroll_s = 0.0
        self._partial = ""
        self._pause_taken = 0.0
        """When the current pause's reading was begun."""
        self._least_word_p: float | None = None
        """The recognizer's probability of the latest transcription's least sure word (a wake
        phrase's words left out)."""
        self._speculated_look: tuple[Look, bool] | None = None
        """The second look at the words being answered before the endpoint, and whether it was taken (the
        words after it are read once, hurried, never looked at again)."""

    def process(self, message: Message) -> None:
        answering, turn = self.answering, message.turn_id
        if isinstance(message, SpeechStarted):
            self._utterance = self.stt.utterance()
            self._speculated, self._paused, self._fed_s, self._partial = None, False, 0.0, ""
            self._levels = Levels(RATE)
            self._spot = self.wake.spotting(turn) if self.wake else None
            self._preroll_s = message.preroll.size / RATE
            self._feed(turn, message.preroll)
        elif self._utterance is None:
            return
        elif isinstance(message, SpeechAudio):
            self._feed(turn, message.pcm)
        elif self._spot is not None and not isinstance(message, SpeechResumed) and not self._look(
                turn, paused=True, final=isinstance(message, EndOfSpeech)):
            return  # no phrase (yet): nothing of the utterance is weighed or answered
        elif isinstance(message, EarlySilence) and self.at_pauses:
            if self.inbox.holds(SpeechResumed, EndOfSpeech):
                return  # the pause is over already: its words would come too late to matter
            self._pause_taken = time.perf_counter()
            text = self._transcribe(turn)
            self._speculated_look = None
            # Words whose own ending may end the turn at once leave no time beside them: looked at first.
            first = ends_on_a_final_ending(text, self.language) is not None
            if first:
                text, self._speculated_look = self._looked_at(turn, text)
            self._paused, self._fed_at_pause_s = True, self._fed_s
            self._speculated = text if self.speculative and text else None
            utterance = self._utterance
            last_word_p = utterance.last_word_p if utterance else None
            answering.words_at_pause(turn, message.pause, text, answer=self.speculative,
                                     last_word_p=last_word_p, least_word_p=self._least_word_p)
            if not first:
                self._read_again(turn, message.pause, text, last_word_p)
        elif isinstance(message, SpeechResumed):
            if self._paused:
                self._speculated, self._paused = None, False
                answering.speak_on(turn)
        elif isinstance(message, EndOfSpeech):
            self._end(turn, message.settled)

    def _end(self, turn: int, settled: bool) -> None:
        turns, text = self.turns, self._speculated
        timeline = turns.timeline(turn)
        recheck = self._fed_s - self._fed_at_pause_s > RECHECK_AFTER_S and self._fed_s <= RECHECK_MAX_S
        if text is not None and not settled and recheck and self._heard_after_pause():
            at_pause = timeline.get(Mark.STT_START), timeline.get(Mark.STT_FINAL)
            again = self._transcribe(turn, hurried=True)
            timeline.set("rechecked", True)
            # The later words win over the pause's; nothing (a guard dropped a loop) never erases them.
            if again and not same_words(again, text):
                marks = timeline.get(Mark.STT_START), timeline.get(Mark.STT_FINAL)
                self.answering.speak_on(turn)  # drops the reply to the pause's words (and its marks)
                timeline.mark(Mark.STT_START, marks[0])
                timeline.mark(Mark.STT_FINAL, marks[1])
                timeline.set("recheck_changed", True)
                self._final(turn, again)
                return
            timeline.unmark(Mark.STT_START, Mark.STT_FINAL)  # the reply is to the pause's transcription
            timeline.mark(Mark.STT_START, at_pause[0])
            timeline.mark(Mark.STT_FINAL, at_pause[1])
        if text is not None:
            self._utterance = None
            timeline.set("speculative", True)
            self._note_look(turn, self._speculated_look)
            self.answering.commit(turn)
            return
        self._final(turn, self._transcribe(turn, hurried=True))

    def _heard_after_pause(self) -> bool:
        """Something audible came after the pause's words (said quietly, below the VAD): only
        then can a second transcription find more. Silence transcribed again only delays."""
        last = self._levels.last_audible_s()
        return last is not None and last > self._fed_at_pause_s + HEARD_AFTER_PAUSE_S

    def _final(self, turn: int, text: str) -> None:
        least_word_p = self._least_word_p
        self._utterance = None
        self.turns.timeline(turn).set("speculative", False)
        if not text and self.wake and self.wake.woke(turn):
            self.turns.finish(turn)  # the phrase alone: the follow-up window opens for the question
            return
        self.answering.transcript(turn, text, least_word_p)

    def _transcribe(self, turn: int, hurried: bool = False) -> str:
        """The utterance's words. ``hurried``: after the endpoint, when the user waits for
        them: the recognizer's fastest reading (Whisper: greedy, no second look)."""
        hurry = getattr(self._utterance, "hurry", None)
        if hurried and hurry is not None:
            hurry()
        timeline = self.turns.timeline(turn)
        timeline.unmark(Mark.STT_START, Mark.STT_FINAL)  # the answered words' transcription counts
        timeline.mark(Mark.STT_START)
        with self.model_call():
            heard = self._utterance.transcribe()
            text = self.wake.strip(turn, heard, self._audio) if self.wake else heard
            self._least_word_p = (self.wake.least_word_p(heard, text, self._utterance) if text != heard
                                  else getattr(self._utterance, "least_word_p", None))
        timeline.mark(Mark.STT_FINAL)
        return text

    def _read_again(self, turn: int, pause: int, text: str, last_word_p: float | None) -> None:
        """The second look at a pause's words, made while the first reading is weighed and answered (the
        look here, the model's reading of the first words on the responder's thread, side by side): where
        the look is taken, the reply to the first words is dropped and the new ones are weighed and
        answered in its place (:meth:`Answering.amend`). A reading no look is made for waits for nothing."""
        with self.model_call():
            chosen, seen = self._look_again(turn, text)
        if seen is None or chosen == text:
            self._speculated_look = seen
            return
        self._speculated_look = (seen[0], False)
        if self.inbox.holds(SpeechResumed, EndOfSpeech):
            return  # the pause ended while it was read: the user spoke on, or the turn ends on the first words
        if self.answering.amend(turn, pause, chosen, answer=self.speculative, last_word_p=last_word_p,
                                least_word_p=self._least_word_p):
            self._reading_ends(turn)  # (the look is part of the reading that is answered)
            self._speculated = chosen if self.speculative else None
            self._speculated_look = seen

    def _looked_at(self, turn: int, text: str) -> tuple[str, tuple[Look, bool] | None]:
        """:meth:`_look_again`, counted in the reading (``stt_final`` after it) where one was made."""
        with self.model_call():
            chosen, seen = self._look_again(turn, text)
        if seen is not None:
            self._reading_ends(turn)
        return chosen, seen

    def _reading_ends(self, turn: int) -> None:
        timeline = self.turns.timeline(turn)
        timeline.unmark(Mark.STT_FINAL)
        timeline.mark(Mark.STT_FINAL)

    def _look_again(self, turn: int, text: str) -> tuple[str, tuple[Look, bool] | None]:
        """``text``, or the second look's reading when a skill or a reply takes that one
        and not ``text`` (not in a turn the wake phrase began: the phrase is in its audio);
        and (the look, whether it was taken) when one was made."""
        look = getattr(self._utterance, "second_look", None)
        if self.wanted is None or look is None or not getattr(self.stt, "looks_again", True):
            return text, None
        if self.wake is not None and self.wake.woke(turn):
            return text, None
        if self.inbox.holds(SpeechResumed, EndOfSpeech):
            return text, None  # the pause is over: the user spoke on, or waits for the endpoint's reading
        if time.perf_counter() - self._pause_taken > second_look.LOOK_WITHIN_S:
            return text, None  # it would end after the turn could: the reply would wait for it
        chosen, seen = choose(text, look, self.wanted)
        if seen is None:
            return chosen, None
        if chosen != text:
            log.info("heard %r, read again with the hint words as %r (support %.2f)", text, chosen, seen.support)
        return chosen, (seen, chosen != text)

    def _note_look(self, turn: int, seen: tuple[Look, bool] | None) -> None:
        """The answered transcript's second look, in the turn's counts."""
        if seen is not None:
            timeline = self.turns.timeline(turn)
            timeline.set("second_look_support", seen[0].support)
            timeline.set("second_look_taken", seen[1])

    def _audio(self) -> np.ndarray:
        return self._utterance.audio() if isinstance(self._utterance, WhisperUtterance) else np.zeros(0, np.float32)

    def _look(self, turn: int, paused: bool = False, final: bool = False) -> bool:
        """Look for the wake phrase in the utterance so far: True once it is heard. Without it
        (and no more to look at) the utterance is dropped."""
        speech_s = self._fed_s - self._preroll_s
        probability = None
        if self.stt.streaming:
            text = self._partial
        else:
            with self.model_call():
                if self.wake.scorer is None:
                    text = self._utterance.transcribe()
                else:  # the words only once the phrase is heard: the phrase, and Whisper on from it
                    audio = self._audio()
                    probability = self.wake.probability(audio)
                    heard = probability >= self.wake.threshold
                    # the words after it are wanted at a pause (said alone: the chime), else at the end
                    text = (self.wake.phrase_words(audio) if paused else self.wake.phrase.phrase) if heard else ""
        audio_end = self.turns.timeline(turn).get(Mark.SPEECH_START) + speech_s
        verdict = self.wake.heard(turn, text, speech_s, audio_end, final=final, paused=paused, probability=probability)
        if verdict is Verdict.WAIT:
            return False
        self._spot = None
        if verdict is Verdict.MISS:
            self._utterance = None
            return False
        return True

    def _feed(self, turn: int, pcm: np.ndarray) -> None:
        self._fed_s += pcm.size / RATE
        self._levels.feed(pcm)
        with self.model_call():
            partial = self._utterance.feed(pcm) if self._utterance else None
        if self._spot is not None:
            self._partial = partial or self._partial
            if self._spot.due(self._fed_s - self._preroll_s) and not self.inbox.holds(SpeechAudio):
                self._look(turn)  # (with more audio waiting, the look is at the newest: no backlog)
            return  # nothing of it shows before the phrase
        if partial:
            self.bus.emit(EventType.PARTIAL_TRANSCRIPT, turn, partial)
            self.answering.prefill(turn, partial)
