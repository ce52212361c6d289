"""A second look at an utterance that no skill and no instant reply took.

Whisper base barely understands some voices' Korean (eSpeak NG's robotic ``ko`` heard
"치킨, 멸치, 혜요" for "지금 몇 시예요"). Given the skills' words before the audio (its
initial prompt, the way ``initial_prompt`` and ``hotwords`` give faster-whisper words),
it reads the same audio again with those words in mind ("지금 몇 시예요?"). A prompt
also makes Whisper write what it was given when it hears little (a copy of the prompt
for an arithmetic question), so the second reading is taken only when

- the first reading is something (a guard dropped nothing) that no skill and no instant
  reply takes, and the second one is taken by one;
- without the prompt, Whisper finds the second reading about as likely as its own: its
  tokens' mean log probability under the plain decoder at most :data:`SUPPORT_MIN` below
  the first reading's (the *support*; a copied prompt scores far lower);
- it accounts for the speech the first one heard: at least :data:`LETTERS_MIN` of its
  letters (jamo), so a reading that stopped early ("안녕히 가요" for "안녕이라는 노래
  알아요", heard first "안녕히 간 놈의 아래요") is not taken.

The prompt gives words, never numbers: a number in an answer comes from the audio.
The figures (docs/korean-stt.md) were tuned on the corpus's tune half only. The choice is
made where the skills are known: :func:`assistant.pipeline.transcription.choose`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from assistant.hear.word_odds import least_word_probability

HINTS = {"ko": "지금 몇 시예요? 타이머 맞춰 주세요. 더하기, 빼기, 곱하기, 나누기. 킬로미터는 몇 마일이에요?",
         "en": "What time is it? Set a timer. Plus, minus, times, divided by. How many miles is a kilometer?"}
"""The words given before a second look, per language ("auto" in ``stt.hint_words``):
the skills' own words, no number (the English ones the Korean ones' own, not chosen on any set)."""
SUPPORT_MIN = -0.5
"""The lowest support (mean log probability per token under the plain decoder, the
second reading's minus the first's) of a second reading that is taken."""
LETTERS_MIN = 0.75
"""The second reading has at least this share of the first one's letters."""
LOOK_WITHIN_S = 0.25
"""A second look at a pause's reading is begun only this soon after the pause was taken up:
it takes about as long as a greedy first reading (180 ms on a 2-core machine), and one
begun later ends after the 500 ms a Korean turn the model cannot read waits on silence
(``turn.unsure_ms``), where it delayed the reply by 115 to 245 ms. The reading after the
endpoint is never looked at again (the user waits for it)."""


@dataclass(frozen=True)
class Look:
    """The utterance read again with the hint words before it."""

    text: str
    support: float
    """Its tokens' mean log probability under the plain decoder minus the first reading's
    (0: as likely; below :data:`SUPPORT_MIN`: the prompt's words more than the audio's)."""


def hint_words(setting: str, language: str) -> str:
    """The words given before a second look: ``auto`` is the language's (:data:`HINTS`),
    anything else is used as written ('' is none: no second look)."""
    return HINTS.get(language, "") if setting == "auto" else setting.strip()


@dataclass
class Decoding:
    """What a short-window transcription keeps for a second look at the same audio."""

    encoded: Any
    """The encoder's output (a CTranslate2 StorageView)."""
    tokens: list[int]
    text: str
    window: int
    seconds: float
    probabilities: list[float] | None = None
    """Each token's probability under the plain prompt, where the transcription needed them."""
    pieces: list[str] = field(default_factory=list)
    """Each token's text..."""
    odds: list[float] = field(default_factory=list)
    """...and the decoder's probability of it (where known: else empty)."""

    @property
    def least_word_p(self) -> float | None:
        """The decoder's probability of the least sure word (:func:`~assistant.hear.word_odds.least_word_probability`)."""
        return least_word_probability(self.pieces, self.odds)


def mean_log_probability(probabilities: list[float]) -> float:
    """The mean log probability of a reading's tokens (-inf for none)."""
    if not probabilities:
        return -math.inf
    return float(np.mean(np.log(np.maximum(np.asarray(probabilities, dtype=np.float64), 1e-9))))
