"""Runs the corpus in every mode, side by side, then a conversation of growing history."""

from __future__ import annotations

import logging
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from assistant.sound import load_wav
from assistant.config import Config
from assistant.events import TurnResult
from assistant.think.replies import Replies
from assistant.hear.echo import SpeakerEcho
from assistant.hear.room import EchoPath
from assistant.pipeline.session import LoadedModels
from assistant.commands.bench.corpus import CorpusItem
from assistant.commands.bench.serial import SerialChain
from assistant.commands.bench.stats import MemorySampler, TurnRecord
from assistant.commands.bench.streaming import run_streaming
from assistant.commands.bench.takes import Take, open_take

log = logging.getLogger(__name__)

MODES = ("streaming", "serial", "echo")
"""``echo``: the streaming pipeline heard through the room simulation (``echo_path``)."""


@dataclass(frozen=True)
class BenchOptions:
    modes: tuple[str, ...] = MODES
    """Which modes to run, in this order for each take."""
    repeat: int = 1
    """Passes over the corpus."""
    turns: int = 0
    """Turns of the conversation run (0: none)."""
    fast: bool = False
    """Feed input as fast as it is consumed and count replies heard at once (smoke tests)."""
    audio_dir: Path | None = None
    """Where same-clock reply WAVs go (real time only); None keeps no audio."""
    echo_path: EchoPath = EchoPath(40, 0.5)
    """The room of the echo mode."""


@dataclass
class BenchResult:
    options: BenchOptions
    records: list[TurnRecord] = field(default_factory=list)
    """Corpus turns, every mode."""
    conversation: list[TurnRecord] = field(default_factory=list)
    """Conversation turns, every mode."""
    missed: list[str] = field(default_factory=list)
    """Takes in which no answered turn came back ('mode item')."""
    peak_rss_mb: float = 0.0
    mode_peak_rss_mb: dict[str, float] = field(default_factory=dict)


class Bench:
    def __init__(self, engines: LoadedModels, config: Config, replies: Replies | None, options: BenchOptions):
        self.engines = engines
        self.config = config
        self.replies = replies
        self.options = options
        self.serial = SerialChain(engines, config, replies)
        self._samples: dict[Path, np.ndarray] = {}
        self._echo: SpeakerEcho | None = None

    def run(self, items: list[CorpusItem], conversation: list[CorpusItem] | None = None) -> BenchResult:
        """Each item once per mode and repeat, then ``turns`` turns of one conversation
        asking ``conversation``'s questions in turn (default: the items' questions)."""
        from tqdm import tqdm

        opts = self.options
        questions = conversation or [i for i in items if i.kind == "question"] or items
        if opts.turns and not questions:
            raise ValueError("the conversation run needs at least one question")
        total = len(opts.modes) * (opts.repeat * len(items) + opts.turns)
        result = BenchResult(opts)
        with MemorySampler() as memory, tqdm(total=total, unit="take", file=sys.stderr, dynamic_ncols=True) as bar:
            for repeat in range(1, opts.repeat + 1):
                for item in items:
                    for mode in opts.modes:
                        bar.set_postfix_str(f"{mode}: {item.name}"[:48])
                        self.engines.llm.reset()  # every question starts from the same empty history
                        with memory.section(mode):
                            self._record(result, result.records, mode, item, repeat=repeat)
                        bar.update()
            for mode in opts.modes:
                self.engines.llm.reset()
                for turn in range(1, opts.turns + 1):
                    item = questions[(turn - 1) % len(questions)]
                    bar.set_postfix_str(f"{mode}: conversation turn {turn}")
                    with memory.section(mode):
                        self._record(result, result.conversation, mode, item, turn=turn)
                    bar.update()
        self.engines.llm.reset()
        result.peak_rss_mb = round(memory.peak_mb, 1)
        result.mode_peak_rss_mb = {k: round(v, 1) for k, v in memory.section_peak_mb.items()}
        return result

    def _record(
        self, result: BenchResult, into: list[TurnRecord], mode: str, item: CorpusItem,
        repeat: int = 0, turn: int | None = None,
    ) -> None:
        take = self._take(mode, item, f"turn{turn}" if turn else f"r{repeat}")
        answered = self._run(mode, take)
        if answered is None:
            result.missed.append(f"{mode} {item.name}")
            log.warning("%s: no answer to %s", mode, item.name)
            return
        heard = take.heard()
        into.append(TurnRecord(
            mode, item.name, answered, item.expected, repeat, turn, take.sink.first_piece_s,
            heard.ms if heard else None,
        ))

    def _run(self, mode: str, take: Take) -> TurnResult | None:
        if mode == "streaming":
            return run_streaming(self.engines, self.config, self.replies, take)
        if mode == "serial":
            return self.serial.run(take)
        if mode == "echo":
            if self._echo is None:  # one room for every take: the canceller keeps what it learnt
                audio = self.config.audio
                self._echo = SpeakerEcho(self.config.echo, audio.sample_rate, audio.frame_samples)
            return run_streaming(self.engines, self.config, self.replies, take, echo_path=self.options.echo_path,
                                 echo=self._echo)
        raise ValueError(f"unknown bench mode '{mode}' (choose from {', '.join(MODES)})")

    def _take(self, mode: str, item: CorpusItem, tag: str) -> Take:
        rate = self.config.audio.sample_rate
        if item.path not in self._samples:
            self._samples[item.path] = load_wav(item.path, rate)
        audio_dir = self.options.audio_dir
        wav = audio_dir / mode / f"{item.name}-{tag}.wav" if audio_dir and not self.options.fast else None
        if wav:
            wav.parent.mkdir(parents=True, exist_ok=True)
        return open_take(self._samples[item.path], rate, self.config.audio.output_rate, fast=self.options.fast, wav=wav)
