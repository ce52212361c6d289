"""Typed messages between stages and the events the engine reports.

Stages exchange frozen messages tagged with a ``turn_id``; a stage drops any message
whose turn is no longer current. The engine reports progress through one callback
taking an :class:`Event` (the GUI, CLI and benchmark all listen to the same stream).
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

import numpy as np

from .timeline import Timeline


class State(str, Enum):
    LOADING = "loading"
    IDLE = "idle"
    LISTENING = "listening"
    HEARING = "hearing you"
    THINKING = "thinking"
    SPEAKING = "speaking"


class EventType(str, Enum):
    STATE = "state"
    """data: State"""
    SPEECH_START = "speech_start"
    PARTIAL_TRANSCRIPT = "partial_transcript"
    """data: str, the transcript so far (streaming STT only)"""
    TRANSCRIPT = "transcript"
    """data: str, the final transcript ('' when nothing was understood)"""
    REPLY_TEXT = "reply_text"
    """data: str, a piece of the reply as it is generated"""
    REPLY_CHUNK = "reply_chunk"
    """data: str, a chunk handed to TTS"""
    AUDIO_START = "audio_start"
    TURN_END = "turn_end"
    """data: TurnResult"""
    ERROR = "error"
    """data: str, a message for the user; the engine stays usable"""


@dataclass(frozen=True)
class Event:
    type: EventType
    turn_id: int = 0
    data: Any = None


@dataclass
class TurnResult:
    turn_id: int
    timeline: Timeline
    transcript: str = ""
    reply: str = ""
    source: str = ""
    """``llm``, ``cache``, ``skill``, or '' when no reply was given."""
    skill: str = ""
    """The skill that answered (``timers``, ``arithmetic``…) when ``source`` is ``skill``."""
    interrupted: bool = False
    errors: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn_id,
            "transcript": self.transcript,
            "reply": self.reply,
            "source": self.source,
            "skill": self.skill,
            "interrupted": self.interrupted,
            "errors": self.errors,
            "marks_ms": self.timeline.marks_ms(),
            "latency_ms": self.timeline.latency_ms(),
            "counts": dict(self.timeline.counts),
        }


# ------------------------------------------------------------------ stage messages


@dataclass(frozen=True)
class Message:
    turn_id: int


@dataclass(frozen=True)
class SpeechStarted(Message):
    preroll: np.ndarray


@dataclass(frozen=True)
class SpeechAudio(Message):
    pcm: np.ndarray


@dataclass(frozen=True)
class EarlySilence(Message):
    pass


@dataclass(frozen=True)
class SpeechResumed(Message):
    pass


@dataclass(frozen=True)
class EndOfSpeech(Message):
    pass


@dataclass(frozen=True)
class ReplyMessage(Message):
    """A message of one attempt at answering a turn.

    A reply may start speculatively at the first pause; if the user speaks on, the
    engine bumps the turn's attempt and every message of the old attempt is dropped.
    """

    attempt: int = field(default=0, kw_only=True)


@dataclass(frozen=True)
class UserText(ReplyMessage):
    text: str


@dataclass(frozen=True)
class PartialText(ReplyMessage):
    """The user's words so far, while they still speak (streaming STT only)."""

    text: str


@dataclass(frozen=True)
class SpeakText(ReplyMessage):
    text: str
    done: threading.Event | None = field(default=None, kw_only=True, compare=False)
    """Set once the text is synthesized (or dropped), for a sender that waits on it."""


@dataclass(frozen=True)
class PlayAudio(ReplyMessage):
    pcm: np.ndarray


@dataclass(frozen=True)
class EndOfReply(ReplyMessage):
    pass


@dataclass(frozen=True)
class Commit(ReplyMessage):
    """The endpoint confirmed a speculative reply: the output may play it."""


@dataclass(frozen=True)
class Stop(Message):
    """Control: ends a stage's thread. Jumps the queue."""


class Inbox:
    """A stage's queue. Control messages jump ahead of data; ``flush`` drops data."""

    def __init__(self) -> None:
        self._items: deque[Message] = deque()
        self._cond = threading.Condition()

    def put(self, message: Message, urgent: bool = False) -> None:
        with self._cond:
            if urgent:
                self._items.appendleft(message)
            else:
                self._items.append(message)
            self._cond.notify()

    def get(self, timeout: float | None = None) -> Message | None:
        with self._cond:
            if not self._items and not self._cond.wait_for(lambda: bool(self._items), timeout):
                return None
            return self._items.popleft()

    def holds(self, *types: type) -> bool:
        """A message of one of these types is waiting."""
        with self._cond:
            return any(isinstance(m, types) for m in self._items)

    def flush(self) -> None:
        with self._cond:
            self._items = deque(m for m in self._items if isinstance(m, Stop))

    def __len__(self) -> int:
        return len(self._items)
