"""Splits a token stream into speakable chunks: the first as early as a clause
boundary allows, later ones by sentence, so TTS starts on the first clause."""

from __future__ import annotations

import re

from assistant.config import ChunkerConfig

# Punctuation followed by whitespace: the next token has arrived, so "3.5" or "e.g."
# mid-word never splits.
_CLAUSE_END = re.compile(r"[,;:.!?\u2014)](?=\s)|[.!?](?=[\"'\u201d]\s)")
_SENTENCE_END = re.compile(r"[.!?][\"'\u201d)]*(?=\s)")
_MARKUP = re.compile(r"[*_#`~>|]+|\[(.*?)\]\(.*?\)")
_SPACES = re.compile(r"\s+")


def first_sentence_end(text: str) -> int:
    """Characters of ``text`` up to the end of its first sentence, where the chunker would
    end a chunk (all of it when the sentence has not ended)."""
    match = _SENTENCE_END.search(text)
    return match.end() if match else len(text)


def _is_emoji(ch: str) -> bool:
    code = ord(ch)
    return 0x2600 <= code <= 0x27BF or code >= 0x1F000


def speakable(text: str) -> str:
    """Remove markdown and emoji-like noise a voice would read out."""
    text = _MARKUP.sub(lambda m: m.group(1) or " ", text)
    text = "".join(ch for ch in text if ch.isprintable() and not _is_emoji(ch))
    return _SPACES.sub(" ", text).strip()


class Chunker:
    def __init__(self, config: ChunkerConfig):
        self.config = config
        self._buffer = ""
        self._released = 0
        self._pushed = 0

    def push(self, text: str) -> list[str]:
        """Add generated text; return the chunks now ready to speak."""
        self._buffer += text
        self._pushed += len(text)
        chunks = []
        while (chunk := self._next()) is not None:
            chunks.append(chunk)
        return chunks

    def end_with(self, text: str) -> list[str]:
        """End the reply as ``text`` (what was pushed so far, cut short, or with what
        was not pushed yet): the chunk of what of it was not released."""
        self._buffer = text[self._pushed - len(self._buffer):]
        return self.flush()

    def flush(self) -> list[str]:
        """End of the reply: whatever is left is the last chunk."""
        rest = speakable(self._buffer)
        self._buffer = ""
        if not rest:
            return []
        self._released += 1
        return [rest]

    def _next(self) -> str | None:
        cfg = self.config
        cut = None
        if self._released == 0:
            for match in _CLAUSE_END.finditer(self._buffer):
                if len(self._buffer[: match.end()].strip()) >= cfg.first_min_chars:
                    cut = match.end()
                    break
            if cut is None and len(self._buffer) >= cfg.first_max_chars:
                cut = self._buffer.rfind(" ", 0, cfg.first_max_chars) + 1 or None
        else:
            for match in _SENTENCE_END.finditer(self._buffer):
                if len(self._buffer[: match.end()].strip()) >= cfg.min_chars:
                    cut = match.end()
                    break
            if cut is None and len(self._buffer) >= 4 * cfg.min_chars:
                clause = [m.end() for m in _CLAUSE_END.finditer(self._buffer)]
                cut = clause[-1] if clause else self._buffer.rfind(" ") + 1 or None
        if not cut:
            return None
        chunk, self._buffer = speakable(self._buffer[:cut]), self._buffer[cut:]
        if not chunk:
            return self._next()
        self._released += 1
        return chunk
