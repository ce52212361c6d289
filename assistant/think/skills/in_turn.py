"""Answers told in turn from a fixed list (a joke, a fun fact), so the next request hears the next one.

Moving on is the reply's effect: a reading at a pause and the one at the endpoint tell the same
one, and a dropped reading skips none.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Sequence

from assistant.think.skills import SkillReply


class InTurn:
    """How far each list (by its key) has been told."""

    def __init__(self, skill: str) -> None:
        self.skill = skill
        self._told: dict[Hashable, int] = {}
        self._lock = threading.Lock()

    def next(self, key: Hashable, texts: Sequence[str]) -> SkillReply:
        """The next of ``texts`` (the list ``key`` names), told once the turn is committed."""
        with self._lock:
            told = self._told.get(key, 0)

        def told_one() -> None:
            with self._lock:
                if self._told.get(key, 0) == told:  # the same reading taken twice moves on once
                    self._told[key] = told + 1

        return SkillReply(self.skill, texts[told % len(texts)], effect=told_one, next_one=True)
