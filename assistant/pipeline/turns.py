"""The turn state machine: which turn is current, which attempt at answering it, and
whether its transcript is final. Pure: no threads, no clocks, no engines; the
parts of the :mod:`~assistant.pipeline.conductor` drive it under one lock and act on
what it returns.

A spoken turn::

    IDLE --begin--> HEARING --speculate--> SPECULATING --commit--> COMMITTED --finish--> IDLE
                       ^                        |
                       +------- speak_on -------+   (attempt + 1: the speculative reply is dropped)

A typed turn goes from ``begin`` straight to ``commit``. ``begin`` while a turn is
current interrupts it. Speech over a reply that is playing is only a candidate: it is
begun as the *overlap* (:meth:`TurnState.begin_overlap`), listened to and transcribed while
the reply stays current, and then takes the floor (:meth:`TurnState.take_floor`, the reply
ends) or is dropped (:meth:`TurnState.drop_overlap`, the reply goes on). A reply that
ends by itself meanwhile hands the floor to the overlap. Reply items (events, actions) of an
attempt that is not committed yet are held by :meth:`TurnState.offer` and released by
:meth:`TurnState.commit`, or dropped when the attempt is.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any


class Phase(str, Enum):
    IDLE = "idle"
    HEARING = "hearing"
    """The user speaks; no reply may be heard."""
    SPECULATING = "speculating"
    """A reply to the words at a pause is being made; it is held until the commit."""
    COMMITTED = "committed"
    """The transcript is final: the reply may be heard."""


class ItemFate(str, Enum):
    """What becomes of a reply item offered to the turn state (:meth:`TurnState.offer`)."""

    NOW = "now"
    """The attempt is committed: act on the item at once."""
    HELD = "held"
    """Kept until the attempt is committed."""
    STALE = "stale"
    """The turn or the attempt is over: drop the item."""


@dataclass(frozen=True)
class Begun:
    turn: int
    interrupted: int | None
    """The turn the new one barged in on, if one was current."""


class TurnState:
    """One conversation's turns, one at a time."""

    def __init__(self) -> None:
        self.turn: int | None = None
        """The current turn, or None between turns."""
        self.attempt = 0
        """The attempt at answering the current turn; bumped when a speculative reply is dropped."""
        self.phase = Phase.IDLE
        self.overlap: int | None = None
        """A turn spoken over the current reply, not yet allowed to interrupt it."""
        self._last = 0
        self._held: list[Any] = []

    @property
    def committed(self) -> bool:
        return self.phase is Phase.COMMITTED

    def is_current(self, turn: int) -> bool:
        return turn == self.turn

    def is_live(self, turn: int, attempt: int) -> bool:
        return turn == self.turn and attempt == self.attempt

    def is_listened_to(self, turn: int) -> bool:
        """The turn's speech is listened to: the current turn, or the overlap."""
        return turn == self.turn or (turn is not None and turn == self.overlap)

    def begin(self) -> Begun:
        """A new turn (speech started, or text was typed)."""
        self.overlap = None
        interrupted = self.interrupt()
        self._last += 1
        self._listen_to(self._last)
        return Begun(self.turn, interrupted)

    def begin_overlap(self) -> int:
        """Speech started over the reply: a turn listened to beside it (a new overlap replaces
        an older one). With no turn current it is simply the current turn."""
        self._last += 1
        if self.turn is None:
            self._listen_to(self._last)
        else:
            self.overlap = self._last
        return self._last

    def take_floor(self, turn: int) -> int | None:
        """The overlap interrupts the reply and becomes the current turn (hearing); the
        turn it interrupted, or None (the overlap was already current, or is stale)."""
        if turn == self.overlap:
            interrupted = self.turn
            self.overlap = None
            self._listen_to(turn)
            return interrupted
        return None

    def drop_overlap(self, turn: int) -> bool:
        """The overlap had nothing to say; False when it was not the overlap."""
        if turn != self.overlap:
            return False
        self.overlap = None
        return True

    def _listen_to(self, turn: int) -> None:
        self.turn = turn
        self.attempt = 0
        self.phase = Phase.HEARING
        self._held.clear()

    def weigh(self, turn: int) -> int | None:
        """Words transcribed at a pause may still end the turn: the attempt they belong to, or
        None when the turn is not current or already committed (its end is decided)."""
        if not self.is_current(turn) or self.committed:
            return None
        return self.attempt

    def speculate(self, turn: int) -> int | None:
        """The words at a pause are answered before the endpoint; the attempt, or None
        when the turn is not current or already committed."""
        if not self.is_current(turn) or self.committed:
            return None
        self.phase = Phase.SPECULATING
        return self.attempt

    def speak_on(self, turn: int) -> bool:
        """The user spoke on after a pause: the reply made so far is dropped (its held
        items too) and the next attempt starts. False when there is nothing to drop."""
        if not self.is_current(turn) or self.committed:
            return False
        self.attempt += 1
        self.phase = Phase.HEARING
        self._held.clear()
        return True

    def commit(self, turn: int) -> list[Any] | None:
        """The transcript is final: the held items, in order, to act on now; None when
        the turn is not current or was committed before."""
        if not self.is_current(turn) or self.committed:
            return None
        self.phase = Phase.COMMITTED
        released, self._held = self._held, []
        return released

    def offer(self, turn: int, attempt: int, item: Any) -> ItemFate:
        """An item of a reply: act on it now, or it is held until the commit, or it is stale."""
        if not self.is_live(turn, attempt):
            return ItemFate.STALE
        if self.committed:
            return ItemFate.NOW
        self._held.append(item)
        return ItemFate.HELD

    def finish(self, turn: int) -> bool:
        """The turn ended (answered, or nothing to answer); False when it was not current."""
        if not self.is_current(turn):
            return False
        self._end()
        return True

    def interrupt(self) -> int | None:
        """End the current turn at once; the turn ended, or None when there was none."""
        turn = self.turn
        if turn is not None:
            self._end()
        return turn

    def _end(self) -> None:
        """The current turn is over; an overlap spoken beside it becomes current."""
        self.turn = None
        self.phase = Phase.IDLE
        self._held.clear()
        if self.overlap is not None:
            overlap, self.overlap = self.overlap, None
            self._listen_to(overlap)
