"""What the conductor's parts call in the stages: every link is required, so a stage left
unwired is an error when the engine is wired, never a silent no-op mid-turn."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Callable

from assistant.events import State, WordsAtPause
from assistant.hear.bargein import Action, Overlap
from assistant.pipeline.stage import Stage


@dataclass(frozen=True)
class Links:
    """The stages the conductor sends to or flushes, and what it asks of them."""

    responder: Stage
    """Takes the words to answer, the commits and the history."""
    playback: Stage
    """Takes the commits (the held reply audio may play)."""
    hush: Callable[[], None]
    """Silence what is playing now."""
    reply_stages: tuple[Stage, ...]
    """The stages that make and play a reply: flushed when a speculative reply is dropped."""
    turn_stages: tuple[Stage, ...]
    """Every stage holding messages of a turn: flushed when the turn is interrupted."""
    idle_state: Callable[[], State]
    """The engine's state between turns (listening or idle)."""
    note_words: Callable[[WordsAtPause], None]
    """Tell the listener what is known of the words at a pause (it decides the endpoint)."""
    heard_reply: Callable[[int], str | None]
    """The text of a turn's reply the user heard when it was cut short; None when it
    sounded to its end."""
    overlap_action: Callable[[Overlap, str], Action]
    """What speech over a reply does to it, from its transcript."""
    resume: Callable[[], None]
    """Play on the paused reply."""
    end_paused: Callable[[int], None]
    """End the paused reply of ``turn`` where it paused."""

    def __post_init__(self) -> None:
        missing = [field.name for field in fields(self) if getattr(self, field.name) is None]
        if missing:
            raise TypeError(f"the conductor's links are not wired: {', '.join(missing)}")


class Linked:
    """A part of the conductor that calls into the stages: it is handed their :class:`Links`
    once the engine is wired (:meth:`connect`), and holds None until then."""

    _links: Links | None = None

    def connect(self, links: Links) -> None:
        self._links = links
