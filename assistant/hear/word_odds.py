"""How sure Whisper was of the words it wrote, from the probability of each token it chose:
its last word (the end of turn: a word made up to end a fragment is an unsure one) and its
least sure word (a question it misheard holds one: docs/tuning.md, "Misheard words")."""

from __future__ import annotations

import math
import re

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


def token_probabilities(tokens: list[int], logits) -> list[float]:
    """The probability the decoder gave each token it wrote (``logits``: its scores at each
    step; as many as there are scores for)."""
    odds = []
    for step in range(min(len(tokens), len(logits))):
        scores = np.asarray(logits[step], dtype=np.float64)
        top = scores.max()
        odds.append(math.exp(scores[tokens[step]] - top) / float(np.exp(scores - top).sum()))
    return odds


def last_word_probability(pieces: list[str], probabilities: list[float]) -> float | None:
    """How sure Whisper was of the last word it wrote: the lowest probability among its
    tokens (``pieces`` their text, ``probabilities`` each token's, punctuation after the word
    left out; None where they do not reach it). A word made up to end a fragment is an unsure
    one: "What is the biggest animal in the, um" is written "...in the hum?" with "hum" at 0.25."""
    steps = _last_word(pieces)
    if steps is None or len(probabilities) < steps.stop:
        return None
    return min(probabilities[step] for step in steps)


def least_word_probability(pieces: list[str], probabilities: list[float]) -> float | None:
    """How sure Whisper was of its least sure word: each word's lowest token probability, the
    lowest of them (punctuation left out; None: no word, or not every token's probability). A
    question it misheard has one ("How many lanterns does a spider have?"), a word it heard
    right seldom does (docs/tuning.md: "Misheard words")."""
    if len(probabilities) < len(pieces):
        return None
    said = [p for p, piece in zip(probabilities, pieces) if not _PUNCTUATION_ONLY.match(piece)]
    return min(said) if said else None
