"""A fake sounddevice (PortAudio) for fault injection: devices that are unplugged and come
back, a default device that changes, streams that fail mid-write, hang or stall.

Streams run in real time: an output stream's write takes as long as its block sounds, an
input stream calls back once a frame from a thread of its own with what :attr:`room`
sounds like at that moment (so a reopened stream carries on where the last one was).
Install it with the ``portaudio`` fixture of the tests that use it::

    sd = FakePortAudio()
    monkeypatch.setattr(devices, "import_sounddevice", lambda: sd)
"""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace
from typing import Callable

import numpy as np


class FakePortAudio:
    class PortAudioError(Exception):
        pass

    def __init__(self, inputs: tuple[str, ...] = ("Microphone",), outputs: tuple[str, ...] = ("Speakers",)):
        self.present = {"input": list(inputs), "output": list(outputs)}
        self.default = {"input": inputs[0] if inputs else None, "output": outputs[0] if outputs else None}
        self.room: Callable[[float], float] = lambda t: 0.0
        """The room's loudness at perf_counter time t (what an input stream records: a frame of that
        amplitude, its sign alternating, a sound with no offset as a microphone's is once its
        constant offset is taken out)."""
        self.streams: list[FakeOutputStream | FakeInputStream] = []
        self.rescans = 0
        self.events: list[tuple[float, str]] = []
        """(perf_counter, what) for every device change and stream opened."""
        self._lock = threading.Lock()

    # ------------------------------------------------------------ sounddevice's surface

    def query_devices(self, device=None, kind: str | None = None) -> dict:
        return {"name": self._resolve(kind or "output", device)}

    def _terminate(self) -> None:
        self.rescans += 1

    def _initialize(self) -> None:
        pass

    def OutputStream(self, samplerate, channels=1, dtype="float32", device=None, **_kwargs):  # noqa: N802
        name = self._resolve("output", device)
        return self._add(FakeOutputStream(self, name, samplerate))

    def InputStream(self, samplerate, blocksize, channels=1, dtype="float32", device=None,  # noqa: N802
                    callback=None, **_kwargs):
        name = self._resolve("input", device)
        return self._add(FakeInputStream(self, name, samplerate, blocksize, callback))

    def _resolve(self, kind: str, device) -> str:
        name = self.default[kind] if device is None else device
        if name is None or name not in self.present[kind]:
            raise self.PortAudioError(f"Error querying device {-1 if device is None else device}")
        return name

    def _add(self, stream):
        with self._lock:
            self.streams.append(stream)
        self.note(f"opened {stream.kind} {stream.device}")
        return stream

    # ------------------------------------------------------------ faults

    def note(self, what: str) -> float:
        at = time.perf_counter()
        self.events.append((at, what))
        return at

    def unplug(self, name: str) -> float:
        """The device goes: its streams fail, and it cannot be opened."""
        for kind in ("input", "output"):
            if name in self.present[kind]:
                self.present[kind].remove(name)
        for stream in self.of(name):
            stream.lose()
        return self.note(f"unplugged {name}")

    def plug(self, name: str, kind: str, default: bool = False) -> float:
        self.present[kind].append(name)
        if default:
            self.default[kind] = name
        return self.note(f"plugged {name}")

    def of(self, device: str) -> list:
        with self._lock:
            return [s for s in self.streams if s.device == device]

    def outputs(self) -> list[FakeOutputStream]:
        with self._lock:
            return [s for s in self.streams if isinstance(s, FakeOutputStream)]

    def inputs(self) -> list[FakeInputStream]:
        with self._lock:
            return [s for s in self.streams if isinstance(s, FakeInputStream)]

    def opened_after(self, at: float, kind: str) -> float | None:
        """When the first stream of ``kind`` opened after ``at`` (None: none yet)."""
        times = [s.opened_at for s in (self.outputs() if kind == "output" else self.inputs()) if s.opened_at > at]
        return min(times) if times else None


class _FakeStream:
    """What both fake streams do when the device goes or the stream is closed."""

    lost = False
    closed = False

    def lose(self) -> None:
        self.lost = True

    def abort(self) -> None:
        self.closed = True

    def close(self) -> None:
        self.closed = True


class FakeOutputStream(_FakeStream):
    kind = "output"
    latency = 0.01

    def __init__(self, sd: FakePortAudio, device: str, rate: int):
        self.sd, self.device, self.rate = sd, device, rate
        self.opened_at = time.perf_counter()
        self.samples = 0
        self.lost = False
        self.closed = False
        self.fail_after: int | None = None
        """Raise once the stream has written this many blocks (an error mid-reply)."""
        self.stall_s: float | None = None
        """The next write hangs this long first (a driver that stalls)."""
        self.failed_at: float | None = None
        self.stalled_at: float | None = None
        self.blocks = 0

    @property
    def active(self) -> bool:
        return not (self.lost or self.closed)

    def start(self) -> None:
        pass

    def write(self, block: np.ndarray) -> bool:
        if self.lost or self.closed:
            raise self.sd.PortAudioError("Stream is stopped [PaErrorCode -9983]")
        if self.fail_after is not None and self.blocks >= self.fail_after:
            self.fail_after = None
            self.failed_at = self.sd.note(f"{self.device} failed")
            raise self.sd.PortAudioError("Unanticipated host error [PaErrorCode -9999]")
        if self.stall_s is not None:
            stall, self.stall_s = self.stall_s, None
            self.stalled_at = self.sd.note(f"{self.device} stalls for {stall} s")
            time.sleep(stall)
        time.sleep(block.shape[0] / self.rate)  # a device plays in real time
        if self.lost or self.closed:
            raise self.sd.PortAudioError("Stream is stopped [PaErrorCode -9983]")
        self.blocks += 1
        self.samples += block.shape[0]
        return False



class FakeInputStream(_FakeStream):
    kind = "input"

    def __init__(self, sd: FakePortAudio, device: str, rate: int, blocksize: int, callback):
        self.sd, self.device, self.rate, self.blocksize, self.callback = sd, device, rate, blocksize, callback
        self.opened_at = time.perf_counter()
        self.lost = False
        self.closed = False
        self.frames = 0
        self._resume_at = 0.0

    @property
    def active(self) -> bool:
        return not (self.lost or self.closed)

    def start(self) -> None:
        threading.Thread(target=self._run, name="fake-portaudio-in", daemon=True).start()

    def stall(self, seconds: float) -> float:
        """No callback for ``seconds`` (no error either), then on as before."""
        self._resume_at = time.perf_counter() + seconds
        return self.sd.note(f"{self.device} stalls for {seconds} s")

    def _sound(self, level: float) -> np.ndarray:
        """A block of the room at ``level``: +level, -level, ... (no offset)."""
        signs = np.where(np.arange(self.blocksize) % 2 == 0, 1.0, -1.0)
        return (signs * level).astype(np.float32).reshape(-1, 1)

    def _run(self) -> None:
        period = self.blocksize / self.rate
        next_at = time.perf_counter() + period
        while self.active:
            time.sleep(max(0.0, next_at - time.perf_counter()))
            now = time.perf_counter()
            if now < self._resume_at:
                next_at = self._resume_at
                continue
            if not self.active:
                return
            next_at = max(next_at + period, now)  # a late callback is not made up for
            level = self.sd.room(now)
            info = SimpleNamespace(currentTime=now, inputBufferAdcTime=0.0)
            self.frames += 1
            self.callback(self._sound(level), self.blocksize, info, None)

