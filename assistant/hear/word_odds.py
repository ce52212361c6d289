"""How sure Whisper was of the words it wrote, from the probability of each token it chose:
its last word (the end of turn: a word made up to end a fragment is an unsure one) and its
least sure word (a question it misheard holds one: docs/tuning.md, "Misheard words")."""

from __future__ import annotations

import math
import re
from typing import Callable

import numpy as np

_PUNCTUATION_ONLY = re.compile(r"^[\W_]*$")


def _last_word(pieces: list[str]) -> range | None:
    """The steps of the last word among ``pieces`` (punctuation after it left out)."""
    end = len(pieces)
    while end > 0 and _PUNCTUATION_ONLY.match(pieces[end - 1]):
        end -= 1
    if end == 0:
        return None
    start = end - 1
    while start > 0 and not pieces[start].startswith(" "):
        start -= 1
    return range(start, end)


def token_probability(tokens: list[int], logits, step: int) -> float:
    """The probability the decoder gave the token it wrote at ``step`` (``logits``: its scores at each step)."""
    scores = np.asarray(logits[step], dtype=np.float64)
    top = scores.max()
    return math.exp(scores[tokens[step]] - top) / float(np.exp(scores - top).sum())


def last_word_probability(pieces: list[str], tokens: list[int], logits) -> float | None:
    """How sure Whisper was of the last word it wrote: the lowest probability among its
    tokens (``pieces`` their text, ``logits`` the decoder's scores at each step, punctuation
    after the word left out). A word made up to end a fragment is an unsure one: "What is
    the biggest animal in the, um" is written "...in the hum?" with "hum" at 0.25."""
    steps = _last_word(pieces)
    if steps is None or len(logits) < steps.stop:
        return None
    return min(token_probability(tokens, logits, step) for step in steps)


def least_word_probability(pieces: list[str], probability: Callable[[int], float]) -> float | None:
    """How sure Whisper was of its least sure word: each word's lowest token probability
    (``probability(step)``), the lowest of them (punctuation left out; None: no word). A
    question it misheard has one ("How many lanterns does a spider have?"), a word it heard
    right seldom does (docs/tuning.md: "Misheard words")."""
    lowest = None
    for step, piece in enumerate(pieces):
        if not _PUNCTUATION_ONLY.match(piece):
            p = probability(step)
            lowest = p if lowest is None else min(lowest, p)
    return lowest


def last_word_from_probabilities(pieces: list[str], probabilities: list[float]) -> float | None:
    """:func:`last_word_probability` from each token's probability (the decoder's pass over a beam's words)."""
    steps = _last_word(pieces)
    if steps is None or len(probabilities) < steps.stop:
        return None
    return min(probabilities[step] for step in steps)
