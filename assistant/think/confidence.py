"""How sure the model is of its answer, from the probabilities of the tokens it chose.

A small model says a wrong country as fluently as a right one, but not as surely: the
probability it gave the token it chose is lower where it guessed. :class:`TokenOdds`
is a llama.cpp logits processor that keeps, as the reply streams, the probability of
every token the model chose (no second pass: it sees each distribution once, before the
sampler). :func:`words` joins tokens into words; the answer's *content* words (not
"the", "is", punctuation) carry what the model could get wrong, and the confidence of a
sentence is the probability of its least likely content word that does not repeat the
question (:func:`sentence_confidence`). On the quality questions' tuning half that told
wrong answers from right ones better than the geometric mean, the first new word or the
tokens' entropy (docs/quality.md).

Below the threshold the model was calibrated for (``assistant bench --quality
--calibrate``) the reply ends with the sentence being said and a short hedge
(:mod:`assistant.think.hedge`).
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass

import numpy as np

FUNCTION_WORDS = frozenset("""
a an the this that these those it its it's they them their there here he she his her him we us our you your i me my
is are was were be been being am do does did done has have had having will would shall should can could may might must
of in on at to for from by with about as into onto over under than then so and or but nor not no yes if when while
what which who whom whose where why how all any some each every both either neither many much more most less least
very too also just only even still quite really usually often always sometimes called known one
""".split())
"""English words that only hold a sentence together; the model is sure of them whether or
not it knows the answer. Words of other scripts are all content words."""

_WORD = re.compile(r"\w", re.UNICODE)
_SENTENCE_END = re.compile(r"[.!?]")
_BREAKS = set(".,;:!?()[]\"\u201c\u201d")


@dataclass(frozen=True)
class Word:
    text: str
    p: float
    """Probability of the whole word: the product of its tokens'."""
    content: bool
    spaced: bool = True
    """Whether white space comes before it (after "3." a "5" does not start a sentence)."""


class TokenOdds:
    """A logits processor (``Llama.create_completion(logits_processor=[...])``) that
    records the probability of each chosen token. Call :meth:`begin` with the prompt's
    length before each generation.

    Called before the sampler picks token *k*, it holds the distribution of token *k*
    until the next call, which finds the chosen token in the context (at the prompt's
    length plus *k*, also with drafted tokens) and keeps its probability. The chosen
    token is read from the model's input, so penalties and sampling need not be
    repeated here. Costs one log-sum-exp over the vocabulary a token (measured in
    ``assistant bench --quality``: ``confidence_us_per_token``)."""

    def __init__(self, detokenize) -> None:
        self._detokenize = detokenize
        self.tokens: list[tuple[bytes, float]] = []
        self.seconds = 0.0
        self._prompt = 0
        self._calls = 0
        self._last: np.ndarray | None = None
        self._lse = 0.0

    def begin(self, prompt_tokens: int) -> None:
        self.tokens = []
        self.seconds = 0.0
        self._prompt = prompt_tokens
        self._calls = 0
        self._last = None

    def __call__(self, input_ids, scores):
        start = time.perf_counter()
        if self._last is not None:
            at = self._prompt + self._calls - 1
            if at < len(input_ids):
                self._keep(int(input_ids[at]))
        top = float(scores.max())
        self._lse = top + math.log(float(np.exp(scores - top, dtype=np.float32).sum()))
        self._last = scores.copy()
        self._calls += 1
        self.seconds += time.perf_counter() - start
        return scores

    def _keep(self, token: int) -> None:
        p = math.exp(float(self._last[token]) - self._lse) if 0 <= token < len(self._last) else 0.0
        self.tokens.append((self._detokenize(token), p))

    @property
    def us_per_token(self) -> float | None:
        return 1e6 * self.seconds / self._calls if self._calls else None

    def words(self) -> list[Word]:
        return words(self.tokens)


def words(tokens: list[tuple[bytes, float]]) -> list[Word]:
    """The chosen tokens joined into words (a token starting with a space, or
    punctuation, starts a new one), each with the product of its tokens' probabilities."""
    out: list[Word] = []
    raw, p = b"", 1.0

    def close() -> None:
        text = raw.decode("utf-8", errors="ignore")
        if text.strip():
            out.append(Word(text.strip(), p, is_content(text.strip()), spaced=text[:1].isspace() or not out))

    for piece, q in tokens:
        text = piece.decode("utf-8", errors="ignore")
        if raw and (text[:1].isspace() or text[:1] in _BREAKS):
            close()
            raw, p = b"", 1.0
        raw += piece
        p *= q
    if raw:
        close()
    return out


def is_content(word: str) -> bool:
    """Whether a word says something the model could get wrong."""
    bare = word.strip(".,;:!?\"'()[]").lower()
    return bool(bare) and bool(_WORD.search(bare)) and bare not in FUNCTION_WORDS


def first_sentence(found: list[Word]) -> tuple[list[Word], bool]:
    """The words of the reply's first sentence, and whether it has ended."""
    for i, word in enumerate(found[:-1]):
        if _SENTENCE_END.search(word.text[-1:]) and found[i + 1].spaced:
            return found[: i + 1], True
    return found, False


def sentence_confidence(found: list[Word], question: str = "") -> float | None:
    """The probability of the least likely content word that does not echo the question
    ("France" in "The capital of France is Paris" says nothing the model could get
    wrong); None when there is none."""
    asked = [_bare(w) for w in question.split()]
    content = [w.p for w in found if w.content and not any(echoes(_bare(w.text), a) for a in asked)]
    return min(content) if content else None


def _bare(word: str) -> str:
    return re.sub(r"\W", "", word.lower())


def echoes(word: str, asked: str) -> bool:
    """The same word, or the same stem ("drinks", "drink")."""
    if not word or not asked:
        return False
    if word == asked:
        return True
    short = min(len(word), len(asked))
    return short >= 4 and word[:short] == asked[:short] or short >= 5 and word[:5] == asked[:5]
