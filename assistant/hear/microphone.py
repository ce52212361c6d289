"""The live microphone through sounddevice, watched for silence."""

from __future__ import annotations

import logging
import queue
import threading
import time
from typing import Iterator

import numpy as np

from assistant.sound import AudioError
from assistant.machine.devices import check_device, import_sounddevice

log = logging.getLogger(__name__)


class MicSource:
    """Live microphone through sounddevice.

    A microphone can stop delivering without any error (a USB hiccup, a suspended
    device, a stalled driver). After ``silent_s`` without a frame the stream is closed
    and opened again; if that brings no frame within ``silent_s`` either, :meth:`frames`
    raises :class:`AudioError`, so whoever listens can report it and try later.

    Frames are stamped with the time PortAudio says their first sample was captured
    (``inputBufferAdcTime``), on perf_counter; host APIs that do not report it get the
    callback's time minus one frame.
    """

    SILENT_S = 2.0
    REOPENS = 1
    """Reopens in a row without a frame before the microphone is reported as lost."""

    def __init__(self, rate: int, frame_samples: int, device: str | int | None = None,
                 silent_s: float = SILENT_S):
        self.rate = rate
        self.frame_samples = frame_samples
        self.device = device
        self.silent_s = silent_s
        self.name = check_device("input", device)
        self.reopened = 0
        """Times the stream was opened again after going silent."""
        self._queue: queue.Queue[tuple[np.ndarray, float]] = queue.Queue()
        self._stop = threading.Event()

    def stop(self) -> None:
        self._stop.set()

    def _callback(self, indata, frames, time_info, status) -> None:  # noqa: ARG002 - sounddevice signature
        now = time.perf_counter()
        age = _capture_age(time_info)
        captured = now - age if age is not None else now - frames / self.rate
        self._queue.put((indata[:, 0].copy(), captured))

    def _open(self, sd):
        try:
            stream = sd.InputStream(
                samplerate=self.rate, blocksize=self.frame_samples, channels=1,
                dtype="float32", device=self.device, callback=self._callback,
            )
            stream.start()
        except sd.PortAudioError as exc:
            raise AudioError(f"cannot open the microphone: {exc}") from exc
        return stream

    def frames(self) -> Iterator[tuple[np.ndarray, float]]:
        sd = import_sounddevice()
        stream = self._open(sd)
        silent_opens = 0
        last = time.perf_counter()
        try:
            while not self._stop.is_set():
                try:
                    frame = self._queue.get(timeout=0.1)
                except queue.Empty:
                    if time.perf_counter() - last < self.silent_s:
                        continue
                    _close(stream)
                    if silent_opens >= self.REOPENS:
                        raise AudioError(f"the microphone delivers no sound (nothing for {self.silent_s:.0f} s, "
                                         f"also after opening it again)") from None
                    log.warning("no sound from the microphone for %.1f s; opening it again", self.silent_s)
                    silent_opens += 1
                    self.reopened += 1
                    stream = self._open(sd)
                    last = time.perf_counter()
                    continue
                silent_opens = 0
                last = time.perf_counter()
                yield frame
        finally:
            _close(stream)


def _capture_age(time_info) -> float | None:
    """How long ago (s) the first sample of a callback's block was captured, per PortAudio."""
    try:
        age = float(time_info.currentTime) - float(time_info.inputBufferAdcTime)
    except (AttributeError, TypeError, ValueError):
        return None
    return age if time_info.inputBufferAdcTime > 0 and 0.0 <= age < 1.0 else None


def _close(stream) -> None:
    """Close a stream on a thread of its own: a stalled driver can block the call."""

    def close() -> None:
        try:
            stream.abort()
            stream.close()
        except Exception as exc:  # noqa: BLE001 - a broken stream may fail any way
            log.debug("closing the microphone: %s", exc)

    threading.Thread(target=close, name="mic-close", daemon=True).start()
