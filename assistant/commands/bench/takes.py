"""One take: one corpus WAV fed to a listener, and the sink its reply is played into.

Real time (the default) uses exactly what ``chat --input`` uses: a
:class:`~assistant.hear.sources.PacedWavSource` and a same-clock WAV (or a null sink). Fast
mode is a smoke test: the input is handed over as fast as it is consumed and a reply
counts as heard once it is ready, so the figures are compute times, not latencies a
user would feel.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from assistant.sound import AudioOut
from assistant.hear.sources import PacedWavSource
from assistant.speak.sinks import QuietSink, SameClockWavSink
from assistant.commands.bench.heard import HeardLatency, heard_latency

FRAME_SAMPLES = 512


class InstantSink(QuietSink):
    """Fast mode's output: a reply is heard the moment it is played, and at once."""

    def play(self, pcm: np.ndarray) -> float:  # noqa: ARG002 - protocol
        self._end = time.perf_counter()
        return self._end

    def flush(self) -> None:
        pass


class RecordingSink:
    """Plays into ``inner`` and remembers the length of each piece played."""

    def __init__(self, inner: AudioOut):
        self.inner = inner
        self.rate = inner.rate
        self.piece_samples: list[int] = []

    @property
    def first_piece_s(self) -> float | None:
        """Length of the first reply audio played: the first sentence TTS produced."""
        return self.piece_samples[0] / self.rate if self.piece_samples else None

    def start(self, t0: float) -> None:
        self.inner.start(t0)

    def play(self, pcm: np.ndarray) -> float:
        self.piece_samples.append(pcm.size)
        return self.inner.play(pcm)

    def flush(self) -> None:
        self.inner.flush()

    def busy_until(self) -> float:
        return self.inner.busy_until()

    def close(self) -> None:
        self.inner.close()


@dataclass
class Take:
    source: PacedWavSource
    sink: RecordingSink

    def input_over(self, grace_s: float) -> bool:
        """The samples and ``grace_s`` of silence after them have been fed."""
        return self.source.input_over(grace_s)

    def heard(self, speech_end_s: float | None = None) -> HeardLatency | None:
        """The wait a listener heard, off the input and the same-clock reply (real time only).
        ``speech_end_s``: where the question's last word ends when it is known (a take made
        with noise under it: the noise is not the question)."""
        inner = self.sink.inner
        if not isinstance(inner, SameClockWavSink):
            return None
        return heard_latency(self.source.samples, self.source.rate, inner.render(), inner.rate, speech_end_s)

    def close(self) -> None:
        """Stop the input and write the reply WAV, if there is one."""
        self.source.stop()
        inner = self.sink.inner
        if isinstance(inner, SameClockWavSink):
            inner.close(min_seconds=self.source.duration_s)
        else:
            inner.close()


def open_take(samples: np.ndarray, rate: int, output_rate: int, *, fast: bool, wav: Path | None) -> Take:
    """A take of ``samples``. In real time the reply is played on the input's clock (kept
    in memory for the heard latency) and written to ``wav`` when given."""
    if fast:
        return Take(PacedWavSource(samples, rate, FRAME_SAMPLES, realtime=False), RecordingSink(InstantSink(output_rate)))
    sink = SameClockWavSink(wav, output_rate)
    return Take(PacedWavSource(samples, rate, FRAME_SAMPLES, realtime=True), RecordingSink(sink))
