"""Audio in and out: WAV files (paced like a live microphone), the speaker through
sounddevice, and a same-clock WAV writer (the microphone is in :mod:`assistant.microphone`).

All PCM inside the engine is mono float32 in [-1, 1]. Input runs at
``AudioConfig.sample_rate`` (16 kHz); rate conversion uses soxr.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from pathlib import Path
from typing import Callable, Iterator, Protocol

import numpy as np

log = logging.getLogger(__name__)


class AudioError(RuntimeError):
    """Unreadable audio, or an audio device that is missing or unusable."""


# ---------------------------------------------------------------- conversion


def resample(pcm: np.ndarray, src_rate: int, dst_rate: int) -> np.ndarray:
    if src_rate == dst_rate or pcm.size == 0:
        return pcm.astype(np.float32, copy=False)
    import soxr

    return soxr.resample(pcm.astype(np.float32, copy=False), src_rate, dst_rate).astype(np.float32)


def to_mono(pcm: np.ndarray) -> np.ndarray:
    return pcm.mean(axis=1) if pcm.ndim == 2 else pcm


MIN_FILE_RATE, MAX_FILE_RATE = 4000, 384000
"""Sample rates of audio files taken in (Hz); a header outside them is corrupt."""
MAX_FILE_S = 3600.0
"""The longest audio file taken in (an hour); longer ones are refused before reading."""


def load_wav(path: str | Path, rate: int) -> np.ndarray:
    """Read any common WAV/FLAC/OGG (rate, width, channels) as mono float32 at ``rate``,
    within [-1, 1] (samples that are not numbers become silence)."""
    import soundfile as sf

    path = Path(path)
    if not path.is_file():
        raise AudioError(f"audio file {path} does not exist")
    try:
        info = sf.info(str(path))
        if not MIN_FILE_RATE <= info.samplerate <= MAX_FILE_RATE:
            raise AudioError(f"{path} says its sample rate is {info.samplerate} Hz; audio files run at "
                             f"{MIN_FILE_RATE // 1000} to {MAX_FILE_RATE // 1000} kHz, so the file is corrupt")
        if info.frames > MAX_FILE_S * info.samplerate:
            raise AudioError(f"{path} lasts {info.frames / info.samplerate / 60:.0f} minutes; "
                             f"the longest input taken is {MAX_FILE_S / 60:.0f} minutes")
        pcm, src_rate = sf.read(str(path), dtype="float32", always_2d=False)
    except (sf.LibsndfileError, RuntimeError, ValueError, OverflowError, MemoryError) as exc:
        if isinstance(exc, AudioError):
            raise
        raise AudioError(f"cannot read {path} as audio: {' '.join(str(exc).split())}") from exc
    pcm = to_mono(np.asarray(pcm))
    if pcm.size == 0:
        raise AudioError(f"{path} has no audio samples")
    if not np.isfinite(pcm).all():
        log.warning("%s has samples that are not numbers; they are read as silence", path.name)
        pcm = np.where(np.isfinite(pcm), pcm, 0.0).astype(np.float32)
    if src_rate != rate:
        log.info("converting %s from %d Hz to %d Hz", path.name, src_rate, rate)
    pcm = np.clip(resample(pcm, src_rate, rate), -1.0, 1.0)
    if pcm.size == 0:
        raise AudioError(f"{path} is too short to hear ({info.frames} samples at {src_rate} Hz)")
    return pcm


def save_wav(path: str | Path, pcm: np.ndarray, rate: int) -> None:
    """Write a 16-bit WAV whole or not at all (a crash leaves no half file)."""
    import io

    import soundfile as sf

    from . import atomic

    data = io.BytesIO()
    sf.write(data, np.clip(pcm, -1.0, 1.0), rate, subtype="PCM_16", format="WAV")
    atomic.write_bytes(path, data.getvalue())


# ---------------------------------------------------------------- input


class AudioIn(Protocol):
    rate: int
    frame_samples: int

    def frames(self) -> Iterator[tuple[np.ndarray, float]]:
        """Yield (frame, capture time of the frame's first sample on perf_counter)."""

    def stop(self) -> None: ...


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


def import_sounddevice():
    """Import sounddevice lazily with a message that says what is missing."""
    try:
        import sounddevice as sd
    except OSError as exc:
        raise AudioError(
            "PortAudio is not installed, so there is no microphone or speaker access "
            "(Debian/Ubuntu: apt install libportaudio2). Use --input/--output WAV files or --text."
        ) from exc
    except ImportError as exc:
        raise AudioError("the sounddevice package is missing: pip install sounddevice") from exc
    return sd


def check_device(kind: str, device: str | None = None) -> str:
    """Return the device's name, or raise AudioError saying why there is none.

    ``kind`` is ``input`` or ``output``.
    """
    sd = import_sounddevice()
    try:
        info = sd.query_devices(device, kind=kind)
    except (ValueError, sd.PortAudioError) as exc:
        what = "microphone" if kind == "input" else "speaker"
        raise AudioError(f"no {what} found ({exc}). Use --input/--output WAV files or --text.") from exc
    return str(info["name"])


# ---------------------------------------------------------------- output


class AudioOut(Protocol):
    rate: int

    def start(self, t0: float) -> None:
        """Sample 0 of the output is at perf_counter time ``t0``."""

    def play(self, pcm: np.ndarray) -> float:
        """Queue ``pcm`` (mono float32 at ``rate``); return when its first sample is heard."""

    def flush(self) -> None:
        """Drop everything not yet heard (interruption)."""

    def busy_until(self) -> float:
        """perf_counter time when the audio queued so far ends."""

    def close(self) -> None: ...


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
