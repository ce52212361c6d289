"""Where the reply's sound goes: the speaker (sounddevice), a WAV on the input's clock, or
nowhere (:class:`NullSink`)."""

from __future__ import annotations

import logging
import queue
import threading
import time
from pathlib import Path
from typing import Callable

import numpy as np

from assistant.sound import AudioOut, save_wav

log = logging.getLogger(__name__)
from assistant.machine.devices import check_device, import_sounddevice


def wait_until_heard(out: AudioOut, still_wanted: Callable[[], bool] = lambda: True) -> float:
    """Wait until everything queued on ``out`` has been heard, or ``still_wanted`` turns
    False (an interrupted turn); returns when the queued audio ends (perf_counter)."""
    while still_wanted() and time.perf_counter() < out.busy_until():
        time.sleep(min(0.02, max(0.0, out.busy_until() - time.perf_counter())))
    return out.busy_until()


class SameClockWavSink:
    """Writes the reply on the input's clock: silence until the assistant speaks.

    A chunk starts at ``max(now, end of previous chunk)``, exactly where a speaker
    would play it, so the voice-to-voice latency can be read off the two WAV files.
    """

    def __init__(self, path: str | Path | None, rate: int):
        self.path = Path(path) if path is not None else None
        """Where :meth:`close` writes the WAV; None keeps it in memory only (see :meth:`render`)."""
        self.rate = rate
        self.t0 = time.perf_counter()
        self._chunks: list[tuple[int, np.ndarray]] = []
        self._cursor = 0
        self._lock = threading.Lock()

    def start(self, t0: float) -> None:
        self.t0 = t0

    def _now_sample(self) -> int:
        return max(0, round((time.perf_counter() - self.t0) * self.rate))

    def play(self, pcm: np.ndarray) -> float:
        with self._lock:
            at = max(self._now_sample(), self._cursor)
            self._chunks.append((at, pcm.astype(np.float32, copy=False)))
            self._cursor = at + pcm.size
        return self.t0 + at / self.rate

    def flush(self) -> None:
        with self._lock:
            now = self._now_sample()
            kept = []
            for at, pcm in self._chunks:
                if at < now:
                    kept.append((at, pcm[: now - at]))
            self._chunks = kept
            self._cursor = min(self._cursor, now)

    def busy_until(self) -> float:
        with self._lock:
            return self.t0 + self._cursor / self.rate

    def render(self, min_seconds: float = 0.0) -> np.ndarray:
        with self._lock:
            total = max(self._cursor, round(min_seconds * self.rate))
            out = np.zeros(total, np.float32)
            for at, pcm in self._chunks:
                out[at : at + pcm.size] += pcm
        return out

    def close(self, min_seconds: float = 0.0) -> None:
        if self.path is not None:
            save_wav(self.path, self.render(min_seconds), self.rate)


class NullSink:
    """Discards audio but keeps the timing of a real speaker."""

    def __init__(self, rate: int):
        self.rate = rate
        self._end = 0.0

    def start(self, t0: float) -> None:  # noqa: ARG002 - protocol
        self._end = 0.0

    def play(self, pcm: np.ndarray) -> float:
        now = time.perf_counter()
        at = max(now, self._end)
        self._end = at + pcm.size / self.rate
        return at

    def flush(self) -> None:
        self._end = min(self._end, time.perf_counter())

    def busy_until(self) -> float:
        return self._end

    def close(self) -> None:
        pass


class SpeakerSink:
    """Plays through sounddevice. A writer thread feeds the stream in 20 ms blocks so a
    flush cuts playback within one block."""

    BLOCK_S = 0.02

    def __init__(self, rate: int, device: str | None = None):
        self.rate = rate
        self.device = device
        self.name = check_device("output", device)
        sd = import_sounddevice()
        self._stream = sd.OutputStream(samplerate=rate, channels=1, dtype="float32", device=device)
        self._stream.start()
        self._queue: queue.Queue[np.ndarray | None] = queue.Queue()
        self._end = 0.0
        self._generation = 0
        self._thread = threading.Thread(target=self._run, name="speaker", daemon=True)
        self._thread.start()

    def start(self, t0: float) -> None:  # noqa: ARG002 - protocol
        pass

    def play(self, pcm: np.ndarray) -> float:
        now = time.perf_counter()
        at = max(now + float(self._stream.latency), self._end)
        self._end = at + pcm.size / self.rate
        self._queue.put(pcm.astype(np.float32, copy=False))
        return at

    def _run(self) -> None:
        block = int(self.rate * self.BLOCK_S)
        while True:
            pcm = self._queue.get()
            if pcm is None:
                return
            generation = self._generation
            for i in range(0, pcm.size, block):
                if generation != self._generation:
                    break
                self._stream.write(pcm[i : i + block].reshape(-1, 1))

    def flush(self) -> None:
        self._generation += 1
        while True:
            try:
                self._queue.get_nowait()
            except queue.Empty:
                break
        self._end = time.perf_counter()

    def busy_until(self) -> float:
        return self._end

    def close(self) -> None:
        self.flush()
        self._queue.put(None)
        self._thread.join(timeout=1)
        self._stream.stop()
        self._stream.close()
