"""Instant replies: short fixed phrases answered without the language model."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np


@dataclass(frozen=True)
class InstantReply:
    """What the instant-reply table answers for a transcript."""

    text: str
    """What to say ('' for a silent action)."""
    action: str | None = None
    """``stop``, ``repeat``, ``louder``, ``quieter`` or None."""
    audio: np.ndarray | None = None
    """Prerendered audio at the output rate, when it is ready."""


class Replies(Protocol):
    def lookup(self, transcript: str) -> InstantReply | None: ...


def load_replies(config, tts, output_rate: int) -> Replies | None:
    """Placeholder until the phrase table lands: no instant replies."""
    return None
