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

from assistant.machine import devices
from assistant.sound import AudioOut, DeviceStatus, save_wav

log = logging.getLogger(__name__)


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


class QuietSink:
    """An output that plays nowhere and keeps only when the audio played so far ends;
    a subclass says when a piece is heard (:meth:`play`) and what a flush cuts."""

    def __init__(self, rate: int):
        self.rate = rate
        self._end = 0.0

    def start(self, t0: float) -> None:  # noqa: ARG002 - protocol
        self._end = 0.0

    def busy_until(self) -> float:
        return self._end

    def close(self) -> None:
        pass


class NullSink(QuietSink):
    """Discards audio but keeps the timing of a real speaker."""

    def play(self, pcm: np.ndarray) -> float:
        now = time.perf_counter()
        at = max(now, self._end)
        self._end = at + pcm.size / self.rate
        return at

    def flush(self) -> None:
        self._end = min(self._end, time.perf_counter())


class SpeakerSink(devices.WatchedDevice):
    """Plays through sounddevice. A writer thread feeds the stream in 20 ms blocks so a
    flush cuts playback within one block.

    A speaker that goes away (a write fails: unplugged, suspended, a driver error) is
    reported by :meth:`status` and tried again every ``retry_s``: the same device when it
    comes back, or the new default when none is configured. Meanwhile the reply keeps a
    speaker's timing and is not heard (its text is shown). A write that hangs in the
    driver is the watchdog's to find (:meth:`stuck_for`) and :meth:`restart`.
    """

    BLOCK_S = 0.02
    RETRY_S = 0.5
    """Wait between two attempts to open a lost speaker again."""
    kind = "speaker"

    def __init__(self, rate: int, device: str | int | None = None, retry_s: float = RETRY_S):
        self.rate = rate
        self.device = device
        self.retry_s = retry_s
        self.name = devices.check_device("output", device)
        self._sd = devices.import_sounddevice()
        self._lock = threading.RLock()
        self._stream = self._open()
        self._status = DeviceStatus(self.kind, True, f"the speaker is {self.name}")
        self._retry_at = 0.0
        self.reopened = 0
        """Times the stream was opened again after the speaker was lost."""
        self._queue: queue.Queue[np.ndarray | None] = queue.Queue()
        self._end = 0.0
        self._generation = 0
        self._writer = 0
        """Which writer thread is the current one (:meth:`restart` leaves a hung one behind)."""
        self._calling_since: float | None = None
        """When the call into the device running now (a write, an open) began."""
        self.losses = 0
        """Times the speaker was lost (a loss and its return between two looks still counts)."""
        self.last_loss: DeviceStatus | None = None
        """What the speaker said the last time it was lost."""
        self._closed = False
        self._thread = self._start_writer()
        devices.opened(self)

    def _open(self):
        stream = self._sd.OutputStream(samplerate=self.rate, channels=1, dtype="float32", device=self.device)
        stream.start()
        return stream

    def _start_writer(self) -> threading.Thread:
        with self._lock:
            self._writer += 1
            thread = threading.Thread(target=self._run, args=(self._writer,), name="speaker", daemon=True)
        thread.start()
        return thread

    def start(self, t0: float) -> None:  # noqa: ARG002 - protocol
        pass

    def play(self, pcm: np.ndarray) -> float:
        now = time.perf_counter()
        stream = self._stream
        try:
            latency = float(stream.latency) if stream is not None else 0.0
        except Exception:  # noqa: BLE001 - a stream the device left may fail any way
            latency = 0.0
        at = max(now + latency, self._end)
        self._end = at + pcm.size / self.rate
        if stream is not None:  # a lost speaker keeps the timing; its audio is not heard
            self._queue.put(pcm.astype(np.float32, copy=False))
        return at

    def _run(self, writer: int) -> None:
        block = int(self.rate * self.BLOCK_S)
        while writer == self._writer and not self._closed:
            if self._stream is None:
                self._reopen(writer)
            try:
                pcm = self._queue.get(timeout=self.retry_s)
            except queue.Empty:
                continue
            if pcm is None:
                return
            stream = self._stream
            if stream is None:
                continue  # queued as the speaker went: not heard
            generation = self._generation
            for i in range(0, pcm.size, block):
                if generation != self._generation or writer != self._writer:
                    break
                self._calling_since = time.perf_counter()
                try:
                    stream.write(pcm[i : i + block].reshape(-1, 1))
                except Exception as exc:  # noqa: BLE001 - PortAudio fails in many ways when a device goes
                    self._lose(writer, f"the speaker stopped ({_describe(exc)})")
                    break
                finally:
                    self._calling_since = None

    def _lose(self, writer: int, why: str) -> None:
        with self._lock:
            if writer != self._writer or self._stream is None:
                return
            stream, self._stream = self._stream, None
            self._lost(f"{why}; replies are shown until it is back")
            self._retry_at = time.perf_counter() + self.retry_s
        log.error("%s; trying it again every %.1f s", why, self.retry_s)
        self._drain()
        devices.close_stream(stream, "speaker")

    def _lost(self, text: str) -> None:
        """Say the speaker is lost (the caller holds the lock)."""
        if self._status.working:
            self.losses += 1
        self._status = self.last_loss = DeviceStatus(self.kind, False, text)

    def _reopen(self, writer: int) -> None:
        now = time.perf_counter()
        if now < self._retry_at:
            return
        self._retry_at = now + self.retry_s
        self._calling_since = now
        try:
            devices.rescan(self._sd, self)
            name = devices.check_device("output", self.device)
            stream = self._open()
        except Exception as exc:  # noqa: BLE001 - not back yet
            log.debug("the speaker is not back yet: %s", exc)
            return
        finally:
            self._calling_since = None
        with self._lock:
            if writer != self._writer or self._closed:
                devices.close_stream(stream, "speaker")
                return
            self._stream, self.name = stream, name
            self._status = DeviceStatus(self.kind, True, f"the speaker is back ({name})")
            self.reopened += 1
        log.warning("the speaker is back (%s)", name)

    def _drain(self) -> None:
        while True:
            try:
                if self._queue.get_nowait() is None:
                    self._queue.put(None)
                    return
            except queue.Empty:
                return

    # ------------------------------------------------------------ for the watchdog

    @property
    def alive(self) -> bool:
        return self._closed or self._thread.is_alive()

    def restart(self, reason: str) -> None:
        """Leave the writer thread behind (dead, or hung in a write) with its stream; a
        fresh one opens the speaker again at once."""
        with self._lock:
            if self._closed:
                return
            stream, self._stream = self._stream, None
            self._calling_since = None
            self._lost(f"{reason}; replies are shown until it is back")
            self._retry_at = 0.0
        log.error("%s; opening the speaker again", reason)
        if stream is not None:
            devices.close_stream(stream, "speaker")
        self._thread = self._start_writer()

    def take_dropped(self) -> int:
        return 0

    # ------------------------------------------------------------ the rest of AudioOut

    def flush(self) -> None:
        self._generation += 1
        self._drain()
        self._end = time.perf_counter()

    def busy_until(self) -> float:
        return self._end

    def close(self) -> None:
        devices.closed(self)
        self.flush()
        self._closed = True
        self._queue.put(None)
        self._thread.join(timeout=1)
        with self._lock:
            stream, self._stream = self._stream, None
        if stream is not None:
            devices.close_stream(stream, "speaker").join(timeout=1)


def _describe(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
