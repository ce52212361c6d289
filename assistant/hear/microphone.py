"""The live microphone through sounddevice: watched for silence, reopened when it is lost,
and never more than a moment behind."""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from typing import Iterator

import numpy as np

from assistant.machine import devices
from assistant.sound import AudioError, DeviceStatus

log = logging.getLogger(__name__)


DC_SETTLE_S = 0.5
"""How fast :class:`DcBlocker` follows a change of offset (its running mean's time constant)."""


class DcBlocker:
    """Takes a constant offset (DC) out of a stream, frame by frame: a running mean of the frames,
    subtracted along a ramp from one frame's estimate to the next (no step between frames).
    The first frame's own mean is the first estimate, so a steady offset is gone at once."""

    def __init__(self, rate: int, settle_s: float = DC_SETTLE_S):
        self.rate = rate
        self.settle_s = settle_s
        self.offset: float | None = None

    def __call__(self, frame: np.ndarray) -> np.ndarray:
        if frame.size == 0:
            return frame
        mean = float(np.mean(frame, dtype=np.float64))
        if self.offset is None:
            self.offset = mean
            return (frame - mean).astype(np.float32)
        step = min(1.0, frame.size / self.rate / self.settle_s)
        before, self.offset = self.offset, self.offset + (mean - self.offset) * step
        ramp = np.linspace(before, self.offset, frame.size, endpoint=False) + (self.offset - before) / frame.size
        return (frame - ramp).astype(np.float32)


class MicSource(devices.WatchedDevice):
    """Live microphone through sounddevice.

    A microphone can stop delivering without any error (a USB hiccup, a suspended
    device, a stalled driver). After ``silent_s`` without a frame the stream is closed
    and opened again; if that brings no frame within ``silent_s`` either, or the stream
    ends or cannot be opened (the device went away), the microphone is *lost*:
    :meth:`status` says why, and it is opened again every ``retry_s`` (the same device
    when it comes back, or the new default when none is configured) while :meth:`frames`
    waits. Only a microphone that cannot be opened at the start makes :meth:`frames`
    raise :class:`AudioError`.

    At most ``queued_s`` of audio waits to be taken: when whoever listens falls behind (a
    stalled CPU), the oldest frames are dropped, said in the log and counted
    (:attr:`dropped`, :meth:`take_dropped`), so the delay ends with the stall.

    Frames are stamped with the time PortAudio says their first sample was captured
    (``inputBufferAdcTime``), on perf_counter; host APIs that do not report it get the
    callback's time minus one frame.
    """

    SILENT_S = 2.0
    REOPENS = 1
    """Reopens in a row without a frame before the microphone is reported as lost."""
    RETRY_S = 0.5
    """Wait between two attempts to open a lost microphone again."""
    QUEUED_S = 0.5
    """Most audio kept waiting for the listener; older frames are dropped."""
    DROP_LOG_S = 1.0
    """Dropped frames are said in the log at most this often."""
    kind = "microphone"

    def __init__(self, rate: int, frame_samples: int, device: str | int | None = None,
                 silent_s: float = SILENT_S, retry_s: float = RETRY_S, queued_s: float = QUEUED_S):
        self.rate = rate
        self.frame_samples = frame_samples
        self._dc = DcBlocker(rate)
        """A microphone's constant offset is no sound: taken out before anything hears it."""
        self.device = device
        self.silent_s = silent_s
        self.retry_s = retry_s
        self.name = devices.check_device("input", device)
        self.reopened = 0
        """Times the stream was opened again after going silent or being lost."""
        self.dropped = 0
        """Frames dropped because the listener fell behind, since the start."""
        self.heartbeat = time.perf_counter()
        """When :meth:`frames` last looked for a frame (it does so every 0.1 s while taken from)."""
        self._frames: deque[tuple[np.ndarray, float]] = deque(maxlen=max(1, round(queued_s * rate / frame_samples)))
        self._ready = threading.Condition()
        self._untold = 0
        self._unlogged = 0
        self._logged_at = float("-inf")
        self._stop = threading.Event()
        self._stream = None
        self._status = DeviceStatus(self.kind, True, f"the microphone is {self.name}")
        self._calling_since: float | None = None
        self._restart = threading.Event()
        self.losses = 0
        """Times the microphone was lost (a loss and its return between two looks still counts)."""
        self.last_loss: DeviceStatus | None = None
        """What the microphone said the last time it was lost."""

    def stop(self) -> None:
        self._stop.set()

    def _callback(self, indata, frames, time_info, status) -> None:  # noqa: ARG002 - sounddevice signature
        now = time.perf_counter()
        age = _capture_age(time_info)
        captured = now - age if age is not None else now - frames / self.rate
        with self._ready:
            if len(self._frames) == self._frames.maxlen:  # the oldest one goes
                self.dropped += 1
                self._untold += 1
                self._unlogged += 1
            self._frames.append((indata[:, 0].copy(), captured))
            self._ready.notify()

    def _take(self, timeout: float) -> tuple[np.ndarray, float] | None:
        with self._ready:
            if not self._frames and not self._ready.wait_for(lambda: bool(self._frames), timeout):
                return None
            return self._frames.popleft()

    def _open(self, sd):
        self._calling_since = time.perf_counter()
        try:
            stream = sd.InputStream(
                samplerate=self.rate, blocksize=self.frame_samples, channels=1,
                dtype="float32", device=self.device, callback=self._callback,
            )
            stream.start()
        except sd.PortAudioError as exc:
            raise AudioError(f"cannot open the microphone: {exc}") from exc
        finally:
            self._calling_since = None
        return stream

    def frames(self) -> Iterator[tuple[np.ndarray, float]]:
        sd = devices.import_sounddevice()
        self._stream = self._open(sd)
        devices.opened(self)
        silent_opens = 0
        last = time.perf_counter()
        try:
            while not self._stop.is_set():
                now = self.heartbeat = time.perf_counter()
                if self._restart.is_set():
                    self._restart.clear()
                    self._close()
                    last = now
                if self._stream is None:
                    if self._reopen(sd):
                        last = time.perf_counter()
                    else:
                        self._stop.wait(self.retry_s)
                    continue
                frame = self._take(timeout=0.1)
                if frame is None:
                    if not _active(self._stream):
                        self._lose("the microphone stopped (its stream ended)")
                    elif time.perf_counter() - last >= self.silent_s:
                        if silent_opens >= self.REOPENS:
                            self._lose(f"the microphone delivers no sound (nothing for {self.silent_s:.0f} s, "
                                       f"also after opening it again)")
                        else:
                            log.warning("no sound from the microphone for %.1f s; opening it again", self.silent_s)
                            silent_opens += 1
                            self._close()
                            if self._reopen(sd, after_silence=True):
                                last = time.perf_counter()
                    continue
                if not self._status.working:
                    self._status = DeviceStatus(self.kind, True, f"the microphone is back ({self.name})")
                    log.warning("the microphone is back (%s)", self.name)
                silent_opens = 0
                last = time.perf_counter()
                self._log_drops(last)
                pcm, captured = frame
                yield self._dc(pcm), captured
        finally:
            devices.closed(self)
            self._close()

    def _lose(self, why: str) -> None:
        self._close()
        if self._status.working:
            self._status = self.last_loss = DeviceStatus(self.kind, False, why)
            self.losses += 1
            log.error("%s; trying it again every %.1f s", why, self.retry_s)

    def _reopen(self, sd, after_silence: bool = False) -> bool:
        """Open the stream again (the device list read afresh first when it was lost); False while it cannot."""
        if not after_silence:
            self._calling_since = time.perf_counter()
            try:
                devices.rescan(sd, self)
                self.name = devices.check_device("input", self.device)
            except AudioError as exc:
                log.debug("the microphone is not back yet: %s", exc)
                return False
            finally:
                self._calling_since = None
        try:
            self._stream = self._open(sd)
        except AudioError as exc:
            if after_silence:
                self._lose(str(exc))
            log.debug("the microphone is not back yet: %s", exc)
            return False
        self.reopened += 1
        return True

    def _close(self) -> None:
        stream, self._stream = self._stream, None
        if stream is not None:
            devices.close_stream(stream, "microphone")
        with self._ready:
            self._frames.clear()  # a closed stream's frames are stale, however few

    def _log_drops(self, now: float) -> None:
        if self._unlogged and now - self._logged_at >= self.DROP_LOG_S:
            with self._ready:
                count, self._unlogged = self._unlogged, 0
            self._logged_at = now
            log.warning("the listener fell behind: dropped the oldest %d frames (%.0f ms) of microphone audio",
                        count, count * self.frame_samples / self.rate * 1000)

    # ------------------------------------------------------------ for the watchdog

    @property
    def alive(self) -> bool:
        """Its frames are taken (the thread doing so is the listener's)."""
        return True

    def restart(self, reason: str) -> None:
        """Close the stream and open it again at the next look for a frame (a call hung in
        the driver holds the listener's thread: the kiosk then opens a fresh microphone)."""
        log.error("%s; opening the microphone again", reason)
        self._restart.set()

    def take_dropped(self) -> int:
        with self._ready:
            count, self._untold = self._untold, 0
        return count


def _active(stream) -> bool:
    """The stream still runs (PortAudio ends it when its device goes away)."""
    try:
        return bool(getattr(stream, "active", True))
    except Exception:  # noqa: BLE001 - a stream whose device went may fail any way
        return False


def _capture_age(time_info) -> float | None:
    """How long ago (s) the first sample of a callback's block was captured, per PortAudio."""
    try:
        age = float(time_info.currentTime) - float(time_info.inputBufferAdcTime)
    except (AttributeError, TypeError, ValueError):
        return None
    return age if time_info.inputBufferAdcTime > 0 and 0.0 <= age < 1.0 else None
