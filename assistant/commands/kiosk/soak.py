"""``assistant kiosk --soak N``: N spoken turns through the kiosk engine, headless.

The kiosk runs all day, so this checks what a day does to it: every turn is a spoken
question (a WAV) heard by the same :class:`~assistant.pipeline.kiosk.session.KioskSession` a kiosk runs,
with visitors forgotten and the engine restarted along the way. Resident memory and the
thread count are sampled after every turn; a turn is lost when no answer came back.

Not real time: a question is handed to the endpointer as fast as it takes it, then
silence follows in real time (the endpoint still needs its silence), and replies count
as heard the moment they are ready. With ``--echo-path`` it is real time instead: the
questions are spoken at their pace into the room simulation, the replies play for as
long as they last and come back into the microphone, as on a kiosk's loudspeaker; a
turn is lost too when the echo interrupted the reply or was taken for a visitor.
"""

from __future__ import annotations

import argparse
import json
import logging
import queue
import sys
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Callable, Iterator

import numpy as np

from assistant.sound import load_wav
from assistant.config import Config
from assistant.resources import cache_dir
from assistant.events import Event, EventType, TurnResult
from assistant.hear.room import EchoPath, EchoRoom
from assistant.pipeline.session import load_models, make_replies
from assistant.pipeline.waiting import wait_until
from assistant.pipeline.kiosk.memory import resident_mb
from assistant.pipeline.kiosk.session import KioskSession, engine_factory

log = logging.getLogger(__name__)

SOAK_QUESTIONS = [
    "What color is the sky?",
    "How many days are in a week?",
    "What is the capital of France?",
    "Why do cats purr?",
    "How far away is the sun?",
]
"""Short questions, so turns are quick."""
SOAK_MAX_TOKENS = 24
"""Longest reply in the soak, unless --max-tokens says otherwise."""
WARMUP_TURNS = 10
"""Memory is compared from the end of these turns on (caches fill during the first ones)."""


class QuestionFeeder:
    """Spoken questions for a listening engine: each is handed over as fast as it is
    taken (or, ``realtime``, at its pace), then silence follows in real time until the
    next one."""

    def __init__(self, rate: int, frame_samples: int = 512, realtime: bool = False):
        self.rate = rate
        self.frame_samples = frame_samples
        self.realtime = realtime
        self._pending: queue.Queue[np.ndarray] = queue.Queue()

    def ask(self, pcm: np.ndarray) -> None:
        self._pending.put(pcm.astype(np.float32, copy=False))

    def open(self) -> "_FeederInput":
        """An audio input (one per engine: an input ends for good once stopped)."""
        return _FeederInput(self)


class _FeederInput:
    def __init__(self, feeder: QuestionFeeder):
        self.feeder = feeder
        self.rate = feeder.rate
        self.frame_samples = feeder.frame_samples
        self._stop = threading.Event()

    def stop(self) -> None:
        self._stop.set()

    def frames(self) -> Iterator[tuple[np.ndarray, float]]:
        if self.feeder.realtime:
            yield from self._paced()
            return
        n = self.frame_samples
        silence = np.zeros(n, np.float32)
        while not self._stop.is_set():
            try:
                pcm = self.feeder._pending.get_nowait()
            except queue.Empty:
                self._stop.wait(n / self.rate)
                yield silence, time.perf_counter() - n / self.rate
                continue
            for start in range(0, pcm.size, n):
                frame = pcm[start : start + n]
                if frame.size < n:
                    frame = np.concatenate([frame, silence[: n - frame.size]])
                yield frame, time.perf_counter() - n / self.rate

    def _paced(self) -> Iterator[tuple[np.ndarray, float]]:
        """Frames at a microphone's pace, each stamped on one sample clock."""
        n = self.frame_samples
        t0, index, pcm = time.perf_counter(), 0, np.zeros(0, np.float32)
        while not self._stop.is_set():
            if pcm.size < n:
                try:
                    pcm = np.concatenate([pcm, self.feeder._pending.get_nowait()])
                except queue.Empty:
                    pcm = np.concatenate([pcm, np.zeros(n - pcm.size, np.float32)])
            frame, pcm = pcm[:n], pcm[n:]
            captured = t0 + index / self.rate
            delay = captured + n / self.rate - time.perf_counter()
            if delay > 0:
                self._stop.wait(delay)
            index += n
            yield frame, captured


class _Answers:
    """Finished turns of the current engine; ``answered`` is set by one not interrupted."""

    def __init__(self) -> None:
        self.results: list[TurnResult] = []
        self.answered = threading.Event()
        self.events = 0

    def __call__(self, generation: int, event: Event) -> None:  # noqa: ARG002 - kiosk listener
        self.events += 1
        if event.type is EventType.TURN_END:
            self.results.append(event.data)
            if not event.data.interrupted:
                self.answered.set()

    def clear(self) -> None:
        self.results = []
        self.answered.clear()


@dataclass
class SoakReport:
    turns: int
    ok: int = 0
    lost: list[str] = field(default_factory=list)
    """'turn N: why' for each turn without a proper answer."""
    rss_mb: list[float] = field(default_factory=list)
    """Resident memory after each turn."""
    threads: list[int] = field(default_factory=list)
    """Threads after each turn."""
    turn_s: list[float] = field(default_factory=list)
    resets: int = 0
    resets_verified: int = 0
    """Resets after which the next visitor's conversation was found empty."""
    restarts: int = 0
    seconds: float = 0.0

    def summary(self) -> dict:
        rss = np.array(self.rss_mb)
        steady = rss[WARMUP_TURNS:] if rss.size > WARMUP_TURNS + 1 else rss
        slope = float(np.polyfit(np.arange(steady.size), steady, 1)[0]) * 100 if steady.size > 1 else 0.0
        return {
            "turns": self.turns, "ok": self.ok, "lost": len(self.lost),
            "rss_mb": {"start": round(float(rss[0]), 1), "after_warmup": round(float(steady[0]), 1),
                       "end": round(float(rss[-1]), 1), "max": round(float(rss.max()), 1),
                       "slope_per_100_turns": round(slope, 2)},
            "threads": {"start": self.threads[0], "end": self.threads[-1], "max": max(self.threads)},
            "turn_s": {"median": round(float(np.median(self.turn_s)), 2), "max": round(max(self.turn_s), 2)},
            "visitor_resets": self.resets, "visitor_resets_verified": self.resets_verified,
            "engine_restarts": self.restarts, "seconds": round(self.seconds, 1),
        }


def run_soak(
    config: Config,
    engines,
    questions: list[np.ndarray],
    turns: int,
    *,
    reset_every: int = 25,
    restart_every: int = 50,
    turn_timeout_s: float = 120.0,
    progress: Callable[[int, SoakReport], None] | None = None,
    echo_path: EchoPath | None = None,
) -> SoakReport:
    """``turns`` questions (cycling through ``questions``) through one kiosk session.

    Every ``reset_every`` turns the kiosk is left idle until it forgets the visitor;
    every ``restart_every`` turns the engine is restarted as the watchdog would. With
    ``echo_path``, in real time through the room simulation (see the module docstring)."""
    import psutil

    from assistant.speak.sinks import NullSink
    from assistant.commands.bench.takes import InstantSink

    process = psutil.Process()
    report = SoakReport(turns)
    answers = _Answers()
    feeder = QuestionFeeder(config.audio.sample_rate, config.audio.frame_samples, realtime=echo_path is not None)
    output = NullSink(config.audio.output_rate) if echo_path else InstantSink(config.audio.output_rate)
    replies = make_replies(config, engines.tts, output.rate)
    make_engine, open_source = engine_factory(config, engines, output, replies), feeder.open
    if echo_path is not None:
        make_engine, open_source = _in_room(make_engine, feeder, echo_path)
    session = KioskSession(config, engines.llm, make_engine, open_source=open_source, on_event=answers,
                           on_give_up=lambda why: log.error("gave up: %s", why))
    session.start()
    started = time.perf_counter()
    try:
        for index in range(turns):
            if index and index % restart_every == 0:
                session.supervisor.restart("soak: a forced engine restart")
            if index and index % reset_every == 0:
                resets = session.resets
                if not wait_until(lambda: session.resets > resets, config.kiosk.idle_reset_s + 15):
                    report.lost.append(f"turn {index}: the idle visitor was not forgotten")
                elif engines.llm.history.exchanges:  # the next visitor must start with nothing of the last one
                    report.lost.append(f"turn {index}: the forgotten visitor's {len(engines.llm.history.exchanges)} "
                                       "exchanges were kept")
                else:
                    report.resets_verified += 1
            turn_started = time.perf_counter()
            answers.clear()
            feeder.ask(questions[index % len(questions)])
            why = _one_turn(session, answers, turn_timeout_s, whole=echo_path is not None)
            report.turn_s.append(time.perf_counter() - turn_started)
            if why is None:
                report.ok += 1
            else:
                report.lost.append(f"turn {index + 1}: {why}")
            report.rss_mb.append(resident_mb())
            report.threads.append(process.num_threads())
            if progress is not None:
                progress(index + 1, report)
    finally:
        report.seconds = time.perf_counter() - started
        report.resets = session.resets
        report.restarts = session.supervisor.restarts
        session.close()
    return report


def _in_room(make_engine, feeder: QuestionFeeder, echo_path: EchoPath):
    """An engine factory and an input opener that put each engine's input in the room
    simulation, with that engine's own speaker audio coming back."""
    made: list = []

    def make(listener):
        made[:] = [make_engine(listener)]
        return made[0]

    def open_source():
        return EchoRoom(feeder.open(), made[0].echo.played, echo_path)

    return make, open_source


def _one_turn(session, answers: _Answers, timeout_s: float, whole: bool = False) -> str | None:
    """Wait for the answer to the question just asked; why it failed, or None. ``whole``:
    the reply must also have been heard to its end, as the only turn."""
    if not answers.answered.wait(timeout_s):
        return "no answer within the time limit"
    wait_until(lambda: not session.engine.busy, 30)
    if whole and any(r.interrupted for r in answers.results):
        return "the reply was interrupted"
    if whole and len(answers.results) > 1:
        return f"taken as {len(answers.results)} turns (the echo was taken for a visitor)"
    result = next(r for r in answers.results if not r.interrupted)
    if not result.transcript:
        return "nothing was understood"
    if not result.reply:
        return f"no reply to {result.transcript!r}"
    if result.errors:
        return "; ".join(result.errors)
    return None


def run_soak_command(config: Config, args: argparse.Namespace) -> int:
    """``assistant kiosk --soak N [--input WAV ...] [--report FILE]``."""
    from assistant.commands.spoken import question_wav

    rate = config.audio.sample_rate
    for path in args.input or []:
        load_wav(path, rate)  # a bad file fails before the models load
    if getattr(args, "max_tokens", None) is None:  # short replies: quick turns
        config = replace(config, llm=replace(config.llm, max_tokens=min(config.llm.max_tokens, SOAK_MAX_TOKENS)))
    config = replace(config, kiosk=replace(config.kiosk, idle_reset_s=min(config.kiosk.idle_reset_s, 3.0),
                                          engine_restarts=max(config.kiosk.engine_restarts, args.soak)))
    print("loading models…", file=sys.stderr)
    engines = load_models(config)
    paths = args.input or [question_wav(engines.tts, q, cache_dir() / "soak") for q in SOAK_QUESTIONS]
    questions = [load_wav(path, rate) for path in paths]

    def progress(done: int, report: SoakReport) -> None:
        if done % 10 == 0 or done == report.turns:
            print(f"{done}/{report.turns} turns, {report.ok} ok, rss {report.rss_mb[-1]:.0f} MB, "
                  f"{report.threads[-1]} threads", file=sys.stderr, flush=True)

    echo_path = getattr(args, "echo_path", None)
    if echo_path is not None:
        print(f"room simulation: {echo_path}", file=sys.stderr)
    report = run_soak(config, engines, questions, args.soak, progress=progress, echo_path=echo_path)
    summary = report.summary()
    text = json.dumps({"summary": summary, "lost": report.lost, "rss_mb": [round(v, 1) for v in report.rss_mb],
                       "threads": report.threads}, indent=1)
    if args.report:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(text, encoding="utf-8")
    print(json.dumps(summary, indent=1))
    return 0 if not report.lost else 1
