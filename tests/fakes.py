"""Fakes that record what they received (unit-level logic only), and the helpers the
tests share."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

import numpy as np

from assistant.config import Config, EchoConfig, KioskConfig, LlmConfig
from assistant.events import EventType
from assistant.think.conversation import GenerationStats, History
from assistant.pipeline.waiting import wait_until


class FakeUtterance:
    last_word_p = None

    def __init__(self, stt: "FakeStt"):
        self.stt = stt
        self.samples = 0
        self.least_word_p = stt.least_word_p

    def feed(self, pcm):
        self.samples += pcm.size
        return None

    def transcribe(self):
        self.stt.transcribed += 1
        if self.stt.transcripts:
            return self.stt.transcripts.pop(0) if len(self.stt.transcripts) > 1 else self.stt.transcripts[0]
        return self.stt.transcript


@dataclass
class FakeStt:
    transcript: str = "hello there"
    transcripts: list[str] = field(default_factory=list)
    """Successive transcriptions return these in turn (the last one repeats): the words
    transcribed at a pause may differ from those at the endpoint."""
    name: str = "fake-stt"
    streaming: bool = False
    punctuates: bool = False
    transcribed: int = 0
    least_word_p: float | None = None
    """What the recognizer says of its least sure word (None: nothing)."""

    def utterance(self):
        return FakeUtterance(self)


class ThreadCrash(BaseException):
    """Not an Exception: escapes a stage's error handling and ends its thread."""


ASKS_FOR_MORE = frozenset("a an the of to for with about and or but um uh me".split())


def sentence_end_p(words: str) -> float:
    """A stand-in for a model's probability that a sentence ends after ``words``."""
    last = words.lower().replace(",", " ").split()[-1:] or [""]
    return 1e-6 if last[0] in ASKS_FOR_MORE else 0.9


class FakeOdds:
    """What a model tells of the tokens it chose (see ``assistant.think.confidence.TokenOdds``)."""

    us_per_token = 1.0

    def __init__(self):
        self.tokens: list[tuple[bytes, float]] = []

    def words(self):
        from assistant.think.confidence import words

        return words(self.tokens)


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
    bigger_model: str = ""
    quantization: str = ""
    build_note: str | None = None
    on_cpu: bool = True
    calls: list[str] = field(default_factory=list)
    remembered: list[tuple[str, str]] = field(default_factory=list)
    history: History = field(default_factory=lambda: History(1000, lambda text: len(text.split())))
    """Only what the engine reads of it (the history itself is the real backends')."""
    closed: threading.Event = field(default_factory=threading.Event)
    produced: int = 0
    end_of_turn_p: float | None | Callable[[str], float | None] = field(default=lambda words: sentence_end_p(words))
    """What :meth:`end_of_turn` answers, or a function of the words that does (None: not
    known, as a chat server or a model that cannot read the words). By default, roughly
    what a real model says: unlikely after a word that asks for more, likely otherwise."""
    weighed: list[str] = field(default_factory=list)
    word_p: dict[str, float] | None = None
    """The probability the model gave each word of its reply (1 for those left out),
    known one word after it is yielded as a real model's is; None: not told."""

    def stream(self, user: str, stats: GenerationStats):
        self.calls.append(user)
        if self.fail:
            raise RuntimeError("model exploded")
        if self.crash:
            raise ThreadCrash("the thread dies")
        if self.block is not None:
            self.block.wait()
        odds = FakeOdds() if self.word_p is not None else None
        stats.odds = odds
        try:
            for i, word in enumerate(self.reply.split(" ")):
                time.sleep(self.delay_s)
                stats.tokens += 1
                self.produced += 1
                yield word + " "
                if odds is not None:
                    odds.tokens.append((((" " if i else "") + word).encode(), self.word_p.get(word, 1.0)))
        finally:
            self.closed.set()

    def remember(self, user: str, reply: str) -> None:
        self.remembered.append((user, reply))

    def reset(self) -> None:
        self.remembered.clear()
        self.history.clear()

    def count_tokens(self, text: str) -> int:
        return len(text.split())

    def prefill(self, partial: str) -> int:  # noqa: ARG002 - protocol
        return 0

    def all_cores(self, on: bool) -> None:
        pass

    def end_of_turn(self, user: str, reply_to: str | None = None) -> float | None:
        self.weighed.append(user)
        return self.end_of_turn_p(user) if callable(self.end_of_turn_p) else self.end_of_turn_p


@dataclass
class FakeTts:
    rate: int = 16000
    name: str = "fake-tts"
    voice_id: str = "fake:1"
    fail_on: str | None = None
    spoken: list[str] = field(default_factory=list)
    paces: list[float] = field(default_factory=list)
    """The pace of each text synthesized."""

    concurrent = False

    def steady(self, text: str):
        return self.synthesize(text)

    def voices_for(self, text: str) -> list[str]:
        return [self.name]

    def synthesize(self, text: str, pace: float = 1.0):
        self.spoken.append(text)
        self.paces.append(pace)
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


class StallingSink(RecordingSink):
    """A speaker whose first ``play`` hangs until ``release`` is set (a stalled audio
    driver): a stage stuck outside any model call."""

    def __init__(self, rate: int = 16000):
        super().__init__(rate)
        self.release = threading.Event()
        self.stalls = 0

    def play(self, pcm):
        if self.stalls == 0:
            self.stalls += 1
            self.release.wait()
        return super().play(pcm)


class Recorder:
    """An engine listener: every event, and the turns' results as they end."""

    def __init__(self):
        self.events = []
        self.results = []
        self.ended = threading.Event()

    def __call__(self, event):
        self.events.append(event)
        if event.type is EventType.TURN_END:
            self.results.append(event.data)
            self.ended.set()

    def of(self, kind):
        return [e for e in self.events if e.type is kind]

    def wait_turns(self, n=1, timeout=10.0):
        assert wait_until(lambda: len(self.results) >= n, timeout), f"only {len(self.results)} of {n} turns ended"


REPO = Path(__file__).resolve().parent.parent


def toml_file(folder: Path, text: str, name: str = "assistant.toml") -> Path:
    """A config (or other TOML) file holding ``text``, in ``folder``."""
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def run_assistant(*args, timeout: float = 60) -> subprocess.CompletedProcess:
    """``python -m assistant`` with ``args`` (paths as they are), run from the project folder,
    its output captured as text."""
    return subprocess.run([sys.executable, "-m", "assistant", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout, cwd=REPO)


def kiosk_config(tmp_path: Path, **kiosk_values) -> Config:
    """A kiosk configuration with quick timers and logs under ``tmp_path``. No start-up sound:
    the fakes' steady "speech" does not pass the echo canceller that runs while it plays
    (tests/pipeline/test_startup_sound.py is about the sound)."""
    values = dict(hands_free=False, idle_reset_s=30.0, stage_timeout_s=0.5, watchdog_interval_s=0.05,
                  log_dir=str(tmp_path / "logs"))
    values.update(kiosk_values)
    return replace(Config(), kiosk=KioskConfig(enabled=True, **values), echo=EchoConfig(learn_sound=False))


class Kiosk:
    """A KioskSession on fakes, recording what it reports."""

    def __init__(self, config: Config, llm: FakeLlm | None = None, open_source=None, vad=None, output=None):
        from assistant.pipeline.kiosk.session import KioskSession
        from assistant.pipeline import Engine

        self.llm = llm or FakeLlm(reply="Short answer.")
        self.events: list = []
        self.statuses: list = []
        self.resets = 0
        self.gave_up: list[str] = []

        def make(listener):
            return Engine(config, stt=FakeStt(), llm=self.llm, tts=FakeTts(), vad=vad or FakeVad(),
                          output=output or RecordingSink(), on_event=listener)

        self.session = KioskSession(
            config, self.llm, make, open_source=open_source,
            on_event=lambda generation, event: self.events.append((generation, event)),
            on_status=lambda status, why: self.statuses.append((status, why)),
            on_reset=self._reset, on_give_up=self.gave_up.append,
        )

    def _reset(self) -> None:
        self.resets += 1

    def ends(self) -> list:
        return [event.data for _, event in self.events if event.type is EventType.TURN_END]

    def ask(self, text: str, timeout: float = 10.0):
        before = len(self.ends())
        self.session.engine.submit_text(text)
        assert wait_until(lambda: len(self.ends()) > before, timeout), "the turn did not end"
        return self.ends()[-1]


class Scratch:
    """A temporary folder for a module's fuzzed files, made at first use and removed at the
    end of the test session (``tests/conftest.py``)."""

    made: list[Path] = []

    def __init__(self, prefix: str):
        self.prefix = prefix
        self._path: Path | None = None

    def __truediv__(self, name: str) -> Path:
        if self._path is None:
            import tempfile

            self._path = Path(tempfile.mkdtemp(prefix=self.prefix))
            Scratch.made.append(self._path)
        return self._path / name


def fuzz_settings(examples: int):
    """Hypothesis settings of the fuzz tests: ``examples`` cases, no deadline (a loaded
    machine is slow, not wrong); the examples are the same in every run (conftest's profile)."""
    from hypothesis import HealthCheck, settings

    return settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class LearningCanceller:
    """An echo canceller that takes nothing out for its first ``learn_blocks`` 10 ms
    blocks, then 40 dB (one that learns the room, without the maths)."""

    name = "learning"
    rate = 16000
    block_samples = 160
    delay_samples = 0

    def __init__(self, learn_blocks: int = 20):
        self.learn_blocks = learn_blocks
        self.calls = 0

    def cancel(self, mic, far):
        self.calls += 1
        return mic if self.calls <= self.learn_blocks else mic * 0.01

    def close(self):
        pass

    def renew(self):
        return LearningCanceller(self.learn_blocks)
