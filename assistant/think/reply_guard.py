"""Stops a reply that loops, drifts into another language or runs on.

Small models do all three: "The capital is Paris. The capital is Paris. The capital…",
"Le Grand Paris… L'aujour d'hébè, la femme de France", or a paragraph where one
sentence was asked for. The first sentence passes as it is generated (the first sound
must not wait); every later sentence is held until it is complete and checked, so a
sentence that repeats an earlier one, is not in the expected language, or is one too
many is never spoken: the reply ends at the last good sentence. Holding a later
sentence costs nothing audible, since the sentences before it are still being spoken.
Inside the first sentence, a phrase said three times in a row ends the reply.

A Korean reply (``reply_language = "ko"``) must be Korean from its first words: a model
that passes the vocabulary check can still answer a garbled transcript in English
(Qwen2.5-Coder-0.5B: "I'm sorry, but I can't assist with that."). So the first two words
are held (the chunker waits longer than that for its first chunk anyway); when neither
has Hangul in it, nothing of the reply is said and :data:`KOREAN_INSTEAD` is, in Korean.
A later sentence with no Hangul is not said.

A small model's reply that only repeats one of its prompt's example answers
(:mod:`.copy_guard`) is held until that is known and, if so, not said either: the model
does not know, and :data:`DONT_KNOW` (naming a bigger model where there is one) says so.
"""

from __future__ import annotations

import re
from typing import Callable, Iterator

from rapidfuzz import fuzz

from assistant.think.copy_guard import ExampleCopy
from assistant.think.hedge import dont_know_words
from assistant.think.misheard import NOT_HEARD
from assistant.writing import has_hangul

MAX_SENTENCES = 3
"""A spoken answer is one or two sentences; the fourth is never said."""
SAME_SENTENCE = 85.0
"""Similarity (0-100) above which a sentence repeats an earlier one."""

_SENTENCE_END = re.compile(r"[.!?…](?:[\"')\]]*)\s+")
_LOOP = re.compile(r"\b((?:\w+\W+){1,6}?)\1{2,}", re.IGNORECASE)
_ENGLISH = frozenset("the a an is are was of and to in it you that for on with this be as at by or i".split())
_FOREIGN = frozenset(
    "le la les des est une et du dans pour qui sont el los las es que y por una del con der die das und ist "
    "nicht ein eine mit il di che non per sono gli della".split()
)


KOREAN_INSTEAD = NOT_HEARD["ko"]
"""Said instead of a Korean reply that begins in another language ("Sorry, I did not catch
that. Please say it again."): the usual cause is a transcript the model could not read."""
_LETTER_WORD = re.compile(r"\S*[^\W\d_]\S*")


def korean_start(text: str, complete: bool = False) -> bool | None:
    """Whether a reply that begins ``text`` is Korean: one of its first two words with
    letters has Hangul in it. None while too little is known (``complete``: all of it)."""
    words = _LETTER_WORD.findall(text)
    if not complete:
        words = [w for w, end in zip(words, _word_ends(text)) if end < len(text)]  # the last may go on
    if any(has_hangul(w) for w in words[:2]):
        return True
    if len(words) >= 2 or complete:
        return not words  # no letters at all: nothing to judge
    return None


def _word_ends(text: str) -> list[int]:
    return [m.end() for m in _LETTER_WORD.finditer(text)]


def drifts_from_korean(sentence: str) -> bool:
    """A sentence with letters and no Hangul among them."""
    return bool(re.search(r"[^\W\d_]", sentence)) and not has_hangul(sentence)


def drifts_from_english(sentence: str) -> bool:
    """More foreign than English function words, or mostly letters outside ASCII."""
    words = re.findall(r"[^\W\d_]+", sentence.casefold())
    if not words:
        return False
    foreign = sum(w in _FOREIGN for w in words)
    english = sum(w in _ENGLISH for w in words)
    letters = "".join(words)
    non_ascii = sum(not c.isascii() for c in letters) / len(letters)
    return (foreign >= 2 and foreign > english) or non_ascii > 0.3


class ReplyGuard:
    """Feed it the reply's pieces; it yields what may be said and stops when it must."""

    def __init__(
        self,
        language: str = "en",
        max_sentences: int = MAX_SENTENCES,
        examples: list[tuple[str, str]] | None = None,
        question: str = "",
        bigger_model: str = "",
    ):
        self.language = language
        self.max_sentences = max_sentences
        self.stopped: str | None = None
        """Why the reply was cut ('loop', 'repeat', 'language', 'too long', 'copy'), or None."""
        self.replaced = False
        """Whether words of the guard's own were said instead of the model's."""
        self._copy = ExampleCopy(examples or [], question)
        self._bigger_model = bigger_model
        self._said = 0
        """Characters of the first sentence already let through."""
        self._sentences: list[str] = []
        self._first_done = False
        self._held = ""
        self._first = ""
        self._unchecked = language == "ko"
        """The first words are held until it is known whether they are Korean."""

    def filter(self, pieces: Iterator[str], cut_off: Callable[[], bool] = lambda: False) -> Iterator[str]:
        """The pieces that may be said. ``cut_off()`` tells, at the end, whether the
        model was stopped by the token limit: then an unfinished last sentence is dropped."""
        try:
            for piece in pieces:
                for text in self._push(piece):
                    yield text
                if self.stopped:
                    return
            if self._unchecked:  # the whole reply was shorter than two words
                self._unchecked = False
                if self._first.strip():
                    yield self._first if korean_start(self._first, complete=True) else self._instead()
                return
            if not self._first_done and self._said < len(self._first):  # held to the end
                yield self._dont_know() if self._copy.see(self._first, complete=True) else self._first[self._said :]
                return
            tail = self._held.strip()
            if tail and not (cut_off() and self._sentences) and self._acceptable(tail):
                yield self._held
        finally:
            close = getattr(pieces, "close", None)
            if close is not None:
                close()

    def stream(self, pieces: Iterator[str], stats, limit: int) -> Iterator[str]:
        """:meth:`filter` over a backend's reply of at most ``limit`` tokens, counted in
        ``stats`` (a :class:`~.conversation.GenerationStats`); its ``replaced`` is set before
        the words of the guard's own are given, so that they are never hedged."""
        texts = self.filter(pieces, lambda: stats.tokens >= limit)
        try:
            for text in texts:
                if self.replaced:
                    stats.replaced = self.stopped or ""
                yield text
        finally:
            texts.close()

    def _instead(self) -> str:
        self.stopped, self.replaced = "language", True
        return KOREAN_INSTEAD

    def _dont_know(self) -> str:
        self.stopped, self.replaced = "copy", True
        return dont_know_words(self.language, self._bigger_model)

    def _push(self, piece: str) -> list[str]:
        if not self._first_done:
            self._first += piece
            if _LOOP.search(self._first):
                self.stopped = "loop"
                return []
            if self._unchecked:
                korean = korean_start(self._first, complete=bool(_SENTENCE_END.search(self._first)))
                if korean is None:
                    return []
                self._unchecked = False
                if not korean:
                    return [self._instead()]
            end = _SENTENCE_END.search(self._first)
            if self._copy.verdict is None:
                sentence = self._first[: end.end()] if end else self._first
                copied = self._copy.see(sentence, complete=end is not None)
                if copied is None:
                    return []
                if copied:
                    return [self._dont_know()]
            piece, self._said = self._first[self._said :], len(self._first)  # with any words held until now
            if end is None:
                return [piece]
            self._first_done = True
            self._sentences.append(self._first[: end.end()].strip())
            self._held = self._first[end.end():]
            said = piece[: len(piece) - len(self._held)] if self._held else piece
            return [said] + self._release()
        self._held += piece
        return self._release()

    def _release(self) -> list[str]:
        """Complete held sentences that pass, in order; stops at the first that fails."""
        out = []
        while not self.stopped:
            end = _SENTENCE_END.search(self._held)
            if end is None:
                break
            sentence, self._held = self._held[: end.end()], self._held[end.end():]
            if not self._acceptable(sentence.strip()):
                break
            self._sentences.append(sentence.strip())
            out.append(sentence)
        return out

    def _acceptable(self, sentence: str) -> bool:
        if len(self._sentences) >= self.max_sentences:
            self.stopped = "too long"
        elif any(fuzz.ratio(sentence.casefold(), s.casefold()) >= SAME_SENTENCE for s in self._sentences):
            self.stopped = "repeat"
        elif _LOOP.search(sentence + " "):
            self.stopped = "loop"
        elif self.language == "en" and drifts_from_english(sentence):
            self.stopped = "language"
        elif self.language == "ko" and drifts_from_korean(sentence):
            self.stopped = "language"
        return not self.stopped
