"""Fakes that record what they received (unit-level logic only)."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from assistant.config import LlmConfig
from assistant.llm import GenerationStats


class FakeUtterance:
    def __init__(self, stt: "FakeStt"):
        self.stt = stt
        self.samples = 0

    def feed(self, pcm):
        self.samples += pcm.size
        return None

    def transcribe(self):
        self.stt.transcribed += 1
        return self.stt.transcript


@dataclass
class FakeStt:
    transcript: str = "hello there"
    name: str = "fake-stt"
    streaming: bool = False
    transcribed: int = 0

    def utterance(self):
        return FakeUtterance(self)


class ThreadCrash(BaseException):
    """Not an Exception: escapes a stage's error handling and ends its thread."""


@dataclass
class FakeLlm:
    reply: str = "Sure, here is a fairly long answer. It has two sentences and goes on a while."
    delay_s: float = 0.0
    fail: bool = False
    block: threading.Event | None = None
    """When set, stream waits for this event before the first word (a model that hangs)."""
    crash: bool = False
    """Raise :class:`ThreadCrash`, which no stage catches: the stage's thread dies."""
    name: str = "fake-llm"
    config: LlmConfig = field(default_factory=LlmConfig)
    path: Path | None = None
    quantization: str = ""
    on_cpu: bool = True
    calls: list[str] = field(default_factory=list)
    remembered: list[tuple[str, str]] = field(default_factory=list)
    closed: threading.Event = field(default_factory=threading.Event)
    produced: int = 0

    def stream(self, user: str, stats: GenerationStats):
        self.calls.append(user)
        if self.fail:
            raise RuntimeError("model exploded")
        if self.crash:
            raise ThreadCrash("the thread dies")
        if self.block is not None:
            self.block.wait()
        try:
            for word in self.reply.split(" "):
                time.sleep(self.delay_s)
                stats.tokens += 1
                self.produced += 1
                yield word + " "
        finally:
            self.closed.set()

    def remember(self, user: str, reply: str) -> None:
        self.remembered.append((user, reply))

    def reset(self) -> None:
        self.remembered.clear()

    def count_tokens(self, text: str) -> int:
        return len(text.split())

    def prefill(self, partial: str) -> int:  # noqa: ARG002 - protocol
        return 0

    def all_cores(self, on: bool) -> None:
        pass


@dataclass
class FakeTts:
    rate: int = 16000
    name: str = "fake-tts"
    voice_id: str = "fake:1"
    fail_on: str | None = None
    spoken: list[str] = field(default_factory=list)

    def synthesize(self, text: str):
        self.spoken.append(text)
        if self.fail_on and self.fail_on in text:
            raise RuntimeError("synthesis failed")
        yield np.full(int(self.rate * 0.05 * max(1, len(text.split()))), 0.1, np.float32)


class FakeVad:
    frame_samples = 512

    def probability(self, frame):
        return float(np.abs(frame).mean() > 0.05)

    def reset(self):
        pass


class RecordingSink:
    """Like a speaker: audio plays in real time after the previous chunk."""

    def __init__(self, rate: int = 16000):
        self.rate = rate
        self.played: list[np.ndarray] = []
        self.flushes = 0
        self._end = 0.0

    def start(self, t0):
        pass

    def play(self, pcm):
        now = time.perf_counter()
        at = max(now, self._end)
        self._end = at + pcm.size / self.rate
        self.played.append(pcm)
        return at

    def flush(self):
        self.flushes += 1
        self._end = time.perf_counter()

    def busy_until(self):
        return self._end

    def close(self):
        pass
