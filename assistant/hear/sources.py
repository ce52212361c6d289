"""A WAV file heard as a live microphone would hear it: paced frames on the input's clock
(the microphone itself is :mod:`assistant.hear.microphone`)."""

from __future__ import annotations

import threading
import time
from typing import Iterator

import numpy as np



class PacedWavSource:
    """Feeds samples frame by frame, then silence until stopped.

    In real time (the default) each frame is handed over when a microphone would have
    filled it, stamped on the clock that starts at ``t0`` (the perf_counter time of
    sample 0, which the same-clock WAV output and the timeline share). Otherwise the
    samples go as fast as they are taken, each frame stamped when it is handed over (as a
    microphone stamps the frame it just filled), and the silence after them comes in
    real time, so a listener waiting for the end of speech is not flooded.
    """

    def __init__(self, samples: np.ndarray, rate: int, frame_samples: int, realtime: bool = True):
        self.samples = samples.astype(np.float32, copy=False)
        self.rate = rate
        self.frame_samples = frame_samples
        self.realtime = realtime
        self.t0 = time.perf_counter()
        self.fed_samples = 0
        """Samples handed over so far (the input's, then silence)."""
        self._stop = threading.Event()

    @property
    def duration_s(self) -> float:
        return self.samples.size / self.rate

    def input_over(self, grace_s: float) -> bool:
        """The samples and ``grace_s`` of silence after them have been handed over."""
        return self.fed_samples / self.rate > self.duration_s + grace_s

    def stop(self) -> None:
        self._stop.set()

    def frames(self) -> Iterator[tuple[np.ndarray, float]]:
        n = self.frame_samples
        self.t0 = time.perf_counter()
        self.fed_samples = 0
        while not self._stop.is_set():
            index = self.fed_samples
            frame = self.samples[index : index + n]
            if frame.size < n:
                frame = np.concatenate([frame, np.zeros(n - frame.size, np.float32)])
            if self.realtime:
                captured = self.t0 + index / self.rate
                delay = captured + n / self.rate - time.perf_counter()  # handed over when full
                if delay > 0:
                    self._stop.wait(delay)
            else:
                if index >= self.samples.size:
                    self._stop.wait(n / self.rate)
                captured = time.perf_counter() - n / self.rate
            self.fed_samples = index + n
            yield frame, captured
