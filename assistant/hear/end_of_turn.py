"""When the user has finished: the end-of-turn decision, pure and clock-free.

At each pause the detector is told what the user said so far (the transcript at the
pause, the language model's probability that the turn ends after those words, whether
they are an instant-reply phrase) and how long the silence has lasted; it commits the
turn early when the words are complete and waits up to a maximum when they are not:

- words that end on a word that needs a continuation ("of", "and", "the", "um") or
  trail off ("...", ",") are unfinished: wait ``max_ms``;
- an instant-reply phrase is complete (checked first: "thank you" ends on a pronoun);
- otherwise the model decides: its end-of-turn probability (on the words without
  Whisper's punctuation, which Whisper adds to fragments too) at or above
  ``complete_log10`` is complete, below ``unfinished_log10`` unfinished, in between unsure;
  words the recognizer may have completed with a made-up word (no end mark from Whisper, a
  made-up object "for it", a last word it was unsure of) need ``bare_complete_log10``;
- complete words that ask or request something (a question, "tell me...", "set a
  timer...") end the turn after ``complete_ms``; a complete statement waits
  ``statement_ms``, since someone telling a story ends sentences without being done.

``fixed`` mode keeps the plain silence endpoint: the detector never commits early.
Like :class:`~assistant.hear.vad.Endpointer`, it is fed numbers and returns decisions, so its
tests are lists in, decisions out.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import Enum

from assistant.config import Config, TurnConfig, check_section
from assistant.events import TurnSignals

CONTINUATIONS = frozenset(
    "a an the of to for with and or but nor about in on at from by into onto than as "
    "my your his her their our its this these those some any every no "
    "is are was were be been am do does did can could would should will shall may might must "
    "um uh er erm hmm ah like so because if then that which who whose whom what where when how why "
    "very really just i we they he she it's i'm you're we're they're let's".split()
)
"""Last words after which a sentence is not over ("what is the capital of …")."""

REQUEST_STARTS = frozenset(
    "what who whom whose where when why how which is are was were am do does did can could would will "
    "should shall may might have has isn't aren't don't doesn't didn't can't won't "
    "tell set remind give play turn show stop start call open find make help read say let please "
    "explain describe define translate count check wake put add cancel pause resume repeat name list "
    "hello hi hey thanks thank goodbye bye".split()
)
"""First words of a sentence that asks or requests something of the assistant."""
QUESTION_WORDS = frozenset("what who whom whose where when why how which".split())
"""...of which these also start statements ("when it rained, we waited")."""

ASKING_SECOND_WORDS = frozenset(
    "is are was were am do does did can could would will should shall may might have has "
    "isn't aren't wasn't don't doesn't didn't can't won't many much far long old big often".split()
)
"""Second words that make a sentence with a question word a question, with or without its
"?" ("how many days are in a week.", "what is..."; "when it rained, ..." is not one)."""

WHO_WORDS = frozenset("who whom whose".split())
"""A sentence that opens with one of these asks ("who painted the Mona Lisa."): a statement
does not begin so."""
WHAT_WORDS = frozenset("what which".split())
SUBJECTS = frozenset("i you we they he she it this that there".split())
"""After "what"/"which", these begin a clause ("what I like is tea"), anything else a
question ("what happened", "which bus goes to town")."""
QUESTION_TAIL_WORDS = 4
"""A sentence this short after a question is the rest of it, split by Whisper at a pause
("What is the best way to? Learn French.")."""
MADE_UP_OBJECTS = frozenset("it them this that".split())
PREPOSITIONS = frozenset("for about with to of on in at from into".split())
"""Whisper ends a fragment that stops on a preposition with a made-up object ("Set a timer
for it.", "Can you give me a recipe for it?"): the words need a surer model then."""

_WORD = re.compile(r"[\w']+")
_TRAILING_OFF = re.compile(r"(\.\.\.|…|,|-|—|:)\s*$")
_END_MARK = re.compile(r"[.?!]\W*$")
_END_PUNCTUATION = re.compile(r"[\s.?!,;:…\"'—-]+$")


class TurnCall(str, Enum):
    """The call on the end of the turn, from the words at a pause."""

    COMPLETE = "complete"
    UNSURE = "unsure"
    UNFINISHED = "unfinished"
    NO_WORDS = "no words yet"
    FIXED = "fixed silence"


@dataclass(frozen=True)
class Judgement:
    call: TurnCall
    wait_ms: float
    """Silence after which the turn is over, given the words so far."""
    reason: str


@dataclass(frozen=True)
class Decision:
    """The turn is over."""

    call: TurnCall
    silence_ms: float
    """Silence when the decision was made."""
    reason: str

    def describe(self) -> str:
        return f"{self.call.value} at {self.silence_ms:.0f} ms of silence"


def longest_silence_ms(config: Config) -> int:
    """The longest silence after speech before a turn is over, whatever was said."""
    return config.turn.max_ms if config.turn.mode == "semantic" else config.vad.endpoint_ms


def words_for_model(transcript: str) -> str:
    """The words without their final punctuation (what the model is asked about)."""
    return _END_PUNCTUATION.sub("", transcript.strip())


def last_word(transcript: str) -> str:
    words = _WORD.findall(transcript.lower())
    return words[-1] if words else ""


# ------------------------------------------------------------ what the words say


def ends_on_a_word_that_cannot_end(transcript: str) -> bool:
    """The last word needs a continuation ("of", "and", "the", "um")."""
    return last_word(transcript) in CONTINUATIONS


def trails_off(transcript: str) -> bool:
    """The words end on "...", a comma, a dash or a colon."""
    return _TRAILING_OFF.search(transcript) is not None


def has_an_end_mark(text: str) -> bool:
    """The text ends with ".", "?" or "!" (maybe before a closing quote)."""
    return _END_MARK.search(text) is not None


def ends_with_a_question_mark(text: str) -> bool:
    return text.endswith("?")


def says_please(text: str) -> bool:
    return "please" in text.lower()


def is_unpunctuated(text: str) -> bool:
    """No end mark or comma anywhere (a recognizer that does not punctuate)."""
    return re.search(r"[.!?,]", text) is None


def opens_with_a_request_word(words: list[str]) -> bool:
    """The sentence's first word may ask or request something (:data:`REQUEST_STARTS`)."""
    return bool(words) and words[0] in REQUEST_STARTS


def opens_with_a_question_word(words: list[str]) -> bool:
    """The first word is a question word ("what", "when", "how"...), which starts statements
    too ("when it rained, ...")."""
    return bool(words) and words[0] in QUESTION_WORDS


def opens_with_who(words: list[str]) -> bool:
    """The first word is "who", "whom" or "whose": no statement begins so."""
    return bool(words) and words[0] in WHO_WORDS


def opens_with_what_and_no_subject(words: list[str]) -> bool:
    """The sentence opens with "what" or "which" and then anything but a subject: a question
    ("what happened"), not a clause ("what I like is tea")."""
    return len(words) > 1 and words[0] in WHAT_WORDS and words[1] not in SUBJECTS


def second_word_asks(words: list[str]) -> bool:
    """The word after the first makes a question word ask ("how many", "what is")."""
    return len(words) > 1 and words[1] in ASKING_SECOND_WORDS


def is_the_short_rest_of_a_question(sentences: list[str]) -> bool:
    """The last sentence is short, ends with a mark and follows a question: the rest of
    the question, split by Whisper at a pause ("What is the best way to? Learn French.")."""
    if len(sentences) < 2:
        return False
    before, last = sentences[-2], sentences[-1]
    return (ends_with_a_question_mark(before) and has_an_end_mark(last)
            and len(_WORD.findall(last)) <= QUESTION_TAIL_WORDS)


def asks(transcript: str) -> bool:
    """The last sentence is a question or a request (not a statement), or a short rest of
    the question before it."""
    text = transcript.strip()
    if ends_with_a_question_mark(text) or says_please(text):
        return True
    sentences = re.split(r"(?<=[.!?])\s+", text)
    return sentence_asks(sentences[-1], text) or is_the_short_rest_of_a_question(sentences)


def sentence_asks(sentence: str, text: str) -> bool:
    """``sentence`` (the last of ``text``) asks or requests something, whatever its mark."""
    words = _WORD.findall(sentence.lower())
    if not opens_with_a_request_word(words):
        return False
    if opens_with_who(words) or opens_with_what_and_no_subject(words):
        return True
    if not opens_with_a_question_word(words) or second_word_asks(words):
        return True
    # Otherwise, with punctuation (Whisper), a question ends with "?": "when the rain stopped, we..." does not ask.
    return is_unpunctuated(text)


def ends_on_a_made_up_object(transcript: str) -> bool:
    """The words end on a preposition and a pronoun Whisper may have made up ("for it")."""
    words = _WORD.findall(transcript.lower())
    return len(words) >= 3 and words[-1] in MADE_UP_OBJECTS and words[-2] in PREPOSITIONS


# ------------------------------------------------------------ what the recognizer and the model say


def recognizer_was_unsure_of_the_last_word(signals: TurnSignals, config: TurnConfig) -> bool:
    """The recognizer gave its last word a probability below ``unsure_word_p``."""
    return signals.last_word_p is not None and signals.last_word_p < config.unsure_word_p


def punctuating_recognizer_left_no_end_mark(signals: TurnSignals, text: str) -> bool:
    """A recognizer that writes end marks (Whisper) wrote none: the words may be a fragment."""
    return signals.punctuated and not has_an_end_mark(text)


def recognizer_may_have_made_up_words(signals: TurnSignals, text: str, config: TurnConfig) -> bool:
    """The recognizer may have completed a fragment with a made-up word: the model must
    be surer (``bare_complete_log10``) before the words count as complete."""
    return (punctuating_recognizer_left_no_end_mark(signals, text) or ends_on_a_made_up_object(text)
            or recognizer_was_unsure_of_the_last_word(signals, config))


def model_is_confident(log10: float, config: TurnConfig, words_may_be_made_up: bool) -> bool:
    """The model's end-of-turn probability (log10) reaches the threshold for complete words
    (the higher one when ``words_may_be_made_up``)."""
    return log10 >= (config.bare_complete_log10 if words_may_be_made_up else config.complete_log10)


def model_expects_more(log10: float, config: TurnConfig) -> bool:
    """The model's end-of-turn probability (log10) is below the unfinished threshold."""
    return log10 < config.unfinished_log10


# ------------------------------------------------------------ the judgement


def judge(signals: TurnSignals | None, config: TurnConfig, fixed_ms: float = 300.0, words: bool = True) -> Judgement:
    """How long to wait for more, given the words at the pause (``fixed_ms`` in fixed mode;
    ``words=False`` leaves the decision to the model alone, for comparison)."""
    if config.mode == "fixed":
        return Judgement(TurnCall.FIXED, fixed_ms, "fixed silence")
    if signals is None:
        return Judgement(TurnCall.NO_WORDS, config.max_ms, "no transcript yet")
    text = signals.transcript.strip()
    if not text:
        return Judgement(TurnCall.UNFINISHED, config.max_ms, "no words transcribed")
    if not words:
        return _by_model(signals, config, "?")
    if signals.instant:
        return Judgement(TurnCall.COMPLETE, config.complete_ms, "an instant-reply phrase")
    if ends_on_a_word_that_cannot_end(text):
        return Judgement(TurnCall.UNFINISHED, config.max_ms, f"ends with '{last_word(text)}'")
    if trails_off(text):
        return Judgement(TurnCall.UNFINISHED, config.max_ms, "trails off")
    return _by_model(signals, config, text)


def _by_model(signals: TurnSignals, config: TurnConfig, text: str) -> Judgement:
    if signals.end_of_turn is None:
        if signals.awaiting_model:
            return Judgement(TurnCall.UNSURE, config.max_ms, "waiting for the model")
        return _complete(config, text, "whole words")
    log10 = math.log10(max(signals.end_of_turn, 1e-12))
    about = f"end of turn 10^{log10:.1f}"
    if recognizer_was_unsure_of_the_last_word(signals, config):
        about += f", last word recognized at p {signals.last_word_p:.2f}"
    if model_is_confident(log10, config, recognizer_may_have_made_up_words(signals, text, config)):
        return _complete(config, text, about)
    if model_expects_more(log10, config):
        return Judgement(TurnCall.UNFINISHED, config.max_ms, about)
    return Judgement(TurnCall.UNSURE, config.unsure_ms, about)


def _complete(config: TurnConfig, text: str, reason: str) -> Judgement:
    if asks(text):
        return Judgement(TurnCall.COMPLETE, config.complete_ms, reason)
    return Judgement(TurnCall.COMPLETE, max(config.complete_ms, config.statement_ms), f"{reason}, a statement")


class TurnDetector:
    """The decision for one stream of speech, pause by pause.

    Call :meth:`pause` when a pause starts, :meth:`note_words`
    whenever more is known about the words (the transcript, then the model's
    probability), :meth:`update` with the silence so far (it returns the decision once
    the turn is over), and :meth:`resume` when the user speaks on.
    """

    def __init__(self, config: TurnConfig, fixed_ms: float = 300.0):
        check_section(config)
        self.config = config
        self.fixed_ms = fixed_ms
        self.reset()

    def reset(self) -> None:
        self._paused = False
        self._signals: TurnSignals | None = None

    @property
    def signals(self) -> TurnSignals | None:
        return self._signals

    def pause(self) -> None:
        self._paused = True
        self._signals = None

    def resume(self) -> None:
        self._paused = False
        self._signals = None

    def note_words(self, signals: TurnSignals) -> None:
        """What is known about the words of the current pause. The latest wins, except
        that words still awaiting the model never replace what the model said of them."""
        if not self._paused:
            return
        known = self._signals
        if signals.awaiting_model and known is not None and not known.awaiting_model:
            return
        self._signals = signals

    def judgement(self) -> Judgement:
        return judge(self._signals, self.config, self.fixed_ms)

    def update(self, silence_s: float) -> Decision | None:
        """The decision once ``silence_s`` of silence is enough, else None."""
        if not self._paused:
            return None
        judgement = self.judgement()
        silence_ms = silence_s * 1000.0
        if silence_ms + 1e-6 < judgement.wait_ms:
            return None
        self._paused = False
        return Decision(judgement.call, silence_ms, judgement.reason)
