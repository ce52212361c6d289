"""The wake phrase: hands-free answers only the words that begin with it.

While waiting, the start of each utterance is transcribed by the recognizer already loaded
(a few times, as more of it is heard, up to ``wake.spot_s``) and its first words are compared
with the phrase letter by letter: "Hey, Assistant!" and "hey assistant" are the same letters,
and a misheard one ("hey assistent") costs little. Everything here is thread-free and
clock-free: times are passed in (seconds of speech, or the capture clock).

- :class:`WakePhrase` finds the phrase at the start of a transcript and what follows it;
- :class:`Spotting` decides, for one utterance, when to transcribe and when the phrase is
  heard (``WOKE``), cannot be any more (``MISS``), or may still come (``WAIT``);
- :class:`WakeGate` says whether speech starting now needs the phrase: not within a turn it
  woke, nor for ``follow_up_s`` after that turn's reply.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Callable

from rapidfuzz import fuzz

from assistant.config import WakeConfig

_WORD = re.compile(r"\S+")
_NOT_LETTERS = re.compile(r"[\W_]+")
_EDGE = " \t,.!?;:-–—…'\""

SKIP_PENALTY = 8.0
"""A word before the phrase ("oh, hey assistant") costs this much of the score, where one may come."""
SKIPPED_WORDS = 0
"""How many words may come before the phrase: none. One let "The assistant", "Okay, assistant" and
"I'm the assistant" in (all the false accepts of the first round's bench)."""
FIRST_WORD_SLACK = 10.0
"""The score is at most the first word's own (letters alike with the phrase's first word) plus this
much: letter by letter the whole of "The assistant" or "Okay, assistant" is 88-92 like "hey
assistant", their first word 57-67."""
MISS_AFTER_LETTERS = 2.0
"""A transcript with this many times the phrase's letters that does not begin with it never will."""
FIRST_SPOT_S = 0.4
"""Speech shorter than this holds no phrase worth transcribing."""
FLOOR = 1.0
"""``by = probability``: a phrase probability (0-100) this low after ``FLOOR_AFTER_S`` of speech will
not become the phrase (the utterance is let go: it costs no more looks)."""
FLOOR_AFTER_S = 1.0
STRIP_SLACK = 15.0
"""The final transcript (of the whole utterance) loses the phrase at this much below ``wake.score``:
the phrase was heard already, the longer audio may be written a little differently."""


def plain_letters(text: str) -> str:
    """Lower-case letters and digits only: "Hey, Assistant!" → "heyassistant"."""
    return _NOT_LETTERS.sub("", text.casefold())


@dataclass(frozen=True)
class Found:
    score: float
    """0-100: how alike the start of the transcript and the phrase are."""
    said: str
    """The words taken for the phrase, as the recognizer wrote them."""
    rest: str
    """The transcript after the phrase (what the user asked)."""


class WakePhrase:
    """The phrase and how to find it at the start of a transcript. ``letters`` spells a text
    for comparison (:func:`plain_letters`; Korean is better compared as its jamo)."""

    def __init__(self, phrase: str, score: float = 80.0, letters: Callable[[str], str] = plain_letters,
                 skipped_words: int = SKIPPED_WORDS):
        self.phrase = " ".join(phrase.split())
        self.skipped_words = skipped_words
        self.score = score
        self.letters = letters
        self.target = letters(self.phrase)
        self.first = letters(self.phrase.split()[0]) if self.phrase else ""
        self.words = max(1, len(self.phrase.split()))

    def best(self, text: str) -> Found | None:
        """The start of ``text`` most like the phrase (None for no words)."""
        spans = [(m.start(), m.end()) for m in _WORD.finditer(text)]
        best: Found | None = None
        for skip in range(min(self.skipped_words, len(spans) - 1) + 1):
            for count in range(1, self.words + 3):
                if skip + count > len(spans):
                    break
                start, end = spans[skip][0], spans[skip + count - 1][1]
                said = text[start:end]
                score = fuzz.ratio(self.letters(said), self.target) - SKIP_PENALTY * skip
                if self.words > 1:
                    first = fuzz.ratio(self.letters(text[spans[skip][0] : spans[skip][1]]), self.first)
                    score = min(score, first + FIRST_WORD_SLACK)
                if best is None or score > best.score:
                    best = Found(round(score, 1), said.strip(_EDGE), text[end:].lstrip(_EDGE))
        return best

    def find(self, text: str, slack: float = 0.0) -> Found | None:
        """The phrase at the start of ``text`` and what follows it, or None."""
        found = self.best(text)
        return found if found is not None and found.score >= self.score - slack else None

    def strip(self, text: str) -> str:
        """``text`` without the phrase it begins with (itself if it does not)."""
        found = self.find(text, slack=STRIP_SLACK)
        return text if found is None else found.rest

    def too_long(self, text: str) -> bool:
        """So many letters that more audio cannot turn their start into the phrase."""
        return len(self.letters(text)) >= MISS_AFTER_LETTERS * max(4, len(self.target))


class Verdict(str, Enum):
    WOKE = "woke"
    WAIT = "wait"
    MISS = "miss"


def wake_threshold(config: WakeConfig, by: str | None = None) -> float:
    """The score (0-100) that wakes, told ``by`` (``config.by`` unless given): the model's own
    (``model``), else the phrase's probability (``model+probability`` scores a look by its
    probability once the model has let it through: a Korean phrase's own, :meth:`WakeConfig.phrase_probability`)."""
    return config.model if (by or config.by) == "model" else config.phrase_probability()


class Spotting:
    """One utterance heard while waiting: when to transcribe it, and what each transcript says."""

    def __init__(self, phrase: WakePhrase, config: WakeConfig, by: str | None = None):
        """``by``: how the scores given are made, where not as ``config.by`` says (the phrase's model
        still training: by probability meanwhile)."""
        self.phrase = phrase
        self.config = config
        by = by or config.by
        self.threshold = wake_threshold(config, by)
        self.floor = FLOOR if by == "probability" else 0.0
        """A look costs the model ways a few ms: they look at the whole ``spot_s``."""
        self.step_s = config.spot_every_ms / 1000
        self.next_s = max(FIRST_SPOT_S, self.step_s)
        self.spots = 0
        self.best: Found | None = None
        """The best match so far (its score is reported)."""

    def due(self, speech_s: float) -> bool:
        """Transcribe now: ``speech_s`` of the utterance heard, a step after the last look."""
        return speech_s >= self.next_s

    def hear(self, text: str, speech_s: float, final: bool = False,
             probability: float | None = None) -> tuple[Verdict, Found | None]:
        """A transcript of the first ``speech_s`` seconds (``final``: the utterance paused or
        ended, or ``spot_s`` is reached: no more audio will be looked at). With ``probability``
        (0-100: the recognizer's own of the phrase, ``by = probability``, or the phrase's model's,
        ``by = model``, or the probability where the model let the look through, ``model+probability``)
        that decides, and ``text`` (which may be '' below the threshold) only gives the words taken for it."""
        self.spots += 1
        self.next_s = speech_s + self.step_s - 1e-6
        if probability is not None:
            return self._hear_probability(text, speech_s, final, probability)
        found = self.phrase.best(text)
        if found is not None and (self.best is None or found.score > self.best.score):
            self.best = found
        if found is not None and found.score >= self.phrase.score:
            return Verdict.WOKE, found
        if final or speech_s >= self.config.spot_s or self.phrase.too_long(text):
            return Verdict.MISS, found
        return Verdict.WAIT, found

    def _hear_probability(self, text: str, speech_s: float, final: bool, probability: float):
        words = self.phrase.find(text, slack=STRIP_SLACK) if text else None
        found = Found(round(probability, 2), words.said if words else self.phrase.phrase, words.rest if words else "")
        if self.best is None or found.score > self.best.score:
            self.best = found
        if probability >= self.threshold:
            return Verdict.WOKE, found
        if final or speech_s >= self.config.spot_s or (probability < self.floor and speech_s >= FLOOR_AFTER_S):
            return Verdict.MISS, found
        return Verdict.WAIT, found


class WakeGate:
    """Whether speech needs the phrase: waiting until it is heard, then awake for the turn it
    begins and ``follow_up_s`` after each reply (on the capture clock)."""

    def __init__(self, follow_up_s: float):
        self.follow_up_s = follow_up_s
        self._awake: set[int] = set()
        """Turns on that needed no phrase or said it (the one the phrase began, follow-ups)."""
        self._until: float | None = None
        """End of the follow-up window; None: no window open."""
        self._closing = False
        """A turn ended: the window opens at the next look at the clock."""

    def waiting(self, at: float) -> bool:
        """Speech starting at ``at`` needs the phrase."""
        self.tick(at)
        return not self._awake and self._until is None

    @property
    def asleep(self) -> bool:
        """No turn is awake and no follow-up window is open or about to open."""
        return not self._awake and self._until is None and not self._closing

    def woke(self, turn_id: int) -> None:
        """The phrase was heard (or speech began within the window): the turn is on."""
        self._awake.add(turn_id)
        self._until = None

    def turn_over(self, turn_id: int) -> None:
        """A turn ended (its reply was heard): the follow-up window opens if it was awake."""
        if turn_id in self._awake:
            self._awake.discard(turn_id)
            self._closing = True

    def open_window(self) -> None:
        """The follow-up window opens at the next look at the clock, as after a reply."""
        self._closing = True

    def tick(self, at: float) -> bool:
        """The clock moved to ``at``: True when the assistant just went back to waiting."""
        if self._closing:
            self._closing = False
            if not self._awake:
                self._until = at + self.follow_up_s
        if not self._awake and self._until is not None and at > self._until:
            self._until = None
            return True
        return False
