"""Typed messages between stages and the events the engine reports.

Stages exchange frozen messages tagged with a ``turn_id``; a stage drops any message
whose turn is no longer current. The engine reports progress through one callback
taking an :class:`Event` (the GUI, CLI and benchmark all listen to the same stream).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

import numpy as np

from assistant.timeline import Timeline


class State(str, Enum):
    LOADING = "loading"
    IDLE = "idle"
    WAITING = "waiting for the wake phrase"
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
    DEVICE = "device"
    """data: :class:`~assistant.sound.DeviceStatus`, a speaker or microphone lost or back"""
    WAKE = "wake"
    """data: :class:`WakeHeard`, the wake phrase was heard: the assistant listens"""


@dataclass(frozen=True)
class WakeHeard:
    """The wake phrase heard at the start of an utterance (docs/wake.md)."""

    score: float
    """0-100: how alike the words and the phrase were."""
    said: str
    """The words taken for the phrase."""
    latency_ms: float
    """From the end of the audio that held the phrase to this event."""


@dataclass(frozen=True)
class TurnSignals:
    """What is known about the words at a pause."""

    transcript: str
    end_of_turn: float | None = None
    """The language model's probability of its end-of-turn token right after the words."""
    instant: bool = False
    """The words are a phrase of the instant-reply table (or a skill's request)."""
    social: bool = False
    """...a greeting, thanks, yes or no, or "stop" with no reply to stop: people go on from one after
    a comma's pause ("Thanks, what is ten times four?"), so it ends the turn after ``turn.phrase_ms``."""
    stops_reply: bool = False
    """"stop", "wait" said over a reply: it ends the turn after ``turn.complete_ms``, not a comma's pause."""
    awaiting_model: bool = False
    """The model's probability is on its way: the words alone do not decide yet."""
    punctuated: bool = False
    """The recognizer ends sentences with . ? ! (Whisper): words it left without an end
    mark are more often a fragment it filled with made-up words."""
    last_word_p: float | None = None
    """The recognizer's probability of the last word (None: unknown)."""
    misheard: bool = False
    """The recognizer was unsure of a word (its least sure word under ``stt.misheard_below``):
    the words are likely misheard, and what the model reads in them is no reason to wait long."""


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
    voices: list[str] = field(default_factory=list)
    """The voices that spoke the reply, in the order they first spoke."""
    confidence: float | None = None
    """How sure the model was of its reply's first sentence (``llm`` replies)."""
    hedged: str = ""
    """Why the reply ended with "I'm not sure" ("unsure: 0.21"), or ''."""

    def add_voices(self, names: list[str]) -> None:
        self.voices.extend(name for name in names if name not in self.voices)

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn_id,
            "transcript": self.transcript,
            "reply": self.reply,
            "source": self.source,
            "skill": self.skill,
            "voices": self.voices,
            "interrupted": self.interrupted,
            "confidence": None if self.confidence is None else round(self.confidence, 3),
            "hedged": self.hedged,
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
class AudioFrame(Message):
    """A frame of input audio, stamped with when it was captured (perf_counter)."""

    pcm: np.ndarray
    captured: float
    listening: int = field(default=0, kw_only=True)
    """Which :meth:`~assistant.pipeline.engine.Engine.listen` call it comes from."""


@dataclass(frozen=True)
class SpeechStarted(Message):
    """The user started speaking: the audio so far, with the pre-roll before the onset."""

    preroll: np.ndarray


@dataclass(frozen=True)
class SpeechAudio(Message):
    """A frame of the user's speech."""

    pcm: np.ndarray


@dataclass(frozen=True)
class EarlySilence(Message):
    """A short pause: a transcript now may be answered speculatively."""

    pause: int = field(default=0, kw_only=True)
    """Which pause of the listening (the end-of-turn signals of its words carry it back)."""


@dataclass(frozen=True)
class SpeechResumed(Message):
    """The user spoke on after the pause."""


@dataclass(frozen=True)
class EndOfSpeech(Message):
    """The endpoint: the user finished the turn."""

    settled: bool = field(default=True, kw_only=True)
    """The words at the last pause were judged complete: no need to transcribe them again."""


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
    pause: int | None = field(default=None, kw_only=True)
    """The pause whose words these are (they may not be the end of the turn); None for a
    final or typed transcript."""
    last_word_p: float | None = field(default=None, kw_only=True)
    """The recognizer's probability of the last word (None: unknown)."""
    least_word_p: float | None = field(default=None, kw_only=True)
    """...and of its least sure word (None: unknown, or typed)."""


@dataclass(frozen=True)
class Announcement(ReplyMessage):
    """Words a skill says unasked (a timer ran out), in a turn of their own."""

    reply: Any
    """The skill's reply (:class:`~assistant.think.skills.SkillReply`)."""


@dataclass(frozen=True)
class WordsAtPause(ReplyMessage):
    """What is known of the words at a pause, for the end-of-turn decision."""

    pause: int
    signals: TurnSignals


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
    """Reply audio at the output's rate."""

    pcm: np.ndarray
    text: str = field(default="", kw_only=True)
    """The reply text whose sound this piece begins ('' for a later piece of it): the
    history keeps the text of the pieces that were heard."""


@dataclass(frozen=True)
class EndOfReply(ReplyMessage):
    """Nothing more follows: the turn ends once the reply has been heard."""


@dataclass(frozen=True)
class Commit(ReplyMessage):
    """The endpoint confirmed a speculative reply: the output may play it."""


@dataclass(frozen=True)
class Remember(Message):
    """A finished exchange, as the user heard it, for the conversation history (taken
    on the responder's thread, between two generations). Kept when an inbox is flushed:
    its turn is over, it is not part of the one being dropped."""

    user: str
    """'' when the turn is not the model's (nothing for the history)."""
    reply: str
    """What was said (all of it, cut short or not, where the turn is not the model's)."""
    rest: str = ""
    """What the user did not hear of a reply cut short, said on "go on" (:func:`~assistant.think.said.unheard_rest`)."""


@dataclass(frozen=True)
class Stop(Message):
    """Control: ends a stage's thread. Jumps the queue."""
