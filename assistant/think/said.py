"""What an answer found without the model says, for the actions that say something else: "repeat" says the last
answer again, "go on" the rest of a reply cut short (:func:`unheard_rest`); shared by the instant replies and the
skills' replies."""

from __future__ import annotations

import re

import numpy as np

_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")
_SENTENCE_STARTS = re.compile(r"[.!?]\s+")

SAID_ELSEWHERE = ("repeat", "recall", "continue")
"""Actions whose words are not their own text (so its audio made ahead is not theirs)."""


class Said:
    """Mixed into a reply that has ``text``, ``action`` and ``audio``."""

    text: str
    action: str | None
    audio: np.ndarray | None

    def words(self, last_reply: str, unheard: str = "") -> str:
        """What to say: the last answer again for ``repeat``, the rest of a reply cut short for ``continue`` (when
        there is one), else the reply's own text."""
        if self.action == "repeat" and last_reply:
            return last_reply
        if self.action == "continue" and unheard:
            return unheard
        return self.text

    @property
    def prerecorded(self) -> np.ndarray | None:
        """Audio to play as it is; None when the words must be synthesized (those of another answer)."""
        return None if self.action in SAID_ELSEWHERE else self.audio


def unheard_rest(reply: str, heard: str) -> str:
    """What is left to say of ``reply`` when the user heard ``heard`` of it (the text of the chunks that began to
    sound): from the start of the last sentence that began (it may have been cut in the middle) to the last
    sentence that ends ('' when nothing is left)."""
    full, said = " ".join(reply.split()), " ".join(heard.split())
    if not said or full == said or not full.startswith(said):
        return ""  # (all of it began to sound, or it is another reply)
    starts = [m.end() for m in _SENTENCE_STARTS.finditer(said)]
    rest = full[starts[-1] if starts else 0 :]
    ends = [m.end() for m in _SENTENCE_END.finditer(rest)]
    return rest[: ends[-1]] if ends else ""
