"""Interruptions: a turn cut off at once, its stages flushed and the output hushed."""

from __future__ import annotations

from assistant.pipeline.links import Linked
from assistant.pipeline.turn_book import TurnBook


class Interruptions(Linked):
    """Drops a turn that is still on: whatever its stages hold is flushed, what plays is
    silenced, and the turn closes as interrupted."""

    def __init__(self, book: TurnBook):
        self.book = book

    def interrupt(self) -> None:
        """Stop the current turn at once: generation, synthesis and playback."""
        book = self.book
        with book.lock:
            turn = book.state.interrupt()
            if turn is None:
                return
            self.drop(turn, close=False)
        book.close(turn)

    def drop(self, turn: int, close: bool = True, hearing: bool = True) -> None:
        """Flush every stage of ``turn``, hush the output and mark the turn interrupted
        (the state has already moved on); ``close``: close the turn now. ``hearing=False``
        leaves the transcription stage alone: what it holds is the words of the turn that
        interrupts (speech over the reply), not the interrupted turn's."""
        links = self._links
        for stage in links.turn_stages if hearing else links.reply_stages:
            stage.flush()
        links.hush()
        self.book.result(turn).interrupted = True
        if close:
            self.book.close(turn)
