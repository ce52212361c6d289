"""Echo cancellation: what the speaker plays is taken back out of what the microphone hears.

:class:`PlayedAudio` keeps what the speaker played on the input's clock (sample 0 of the
output = sample 0 of the input); :class:`MonitoredOutput` fills it from any
:class:`~assistant.sound.AudioOut`. :class:`EchoFilter` cuts the microphone's frames into
the 10 ms blocks a canceller works on and hands it, block by block, the speaker's audio
of the same moment as the reference.

Two cancellers sit behind :class:`Canceller`: WebRTC's AEC3 (through the ``livekit``
wheel, which bundles the native library) and speexdsp (through ``pyaec``). Both are
imported lazily, with a message naming what to install.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from assistant.sound import AudioOut, resample
from assistant.config import EchoConfig

log = logging.getLogger(__name__)

BLOCK_MS = 10
"""Both cancellers work on 10 ms blocks."""
CANCELLERS = ("speex", "webrtc")
"""In the order ``auto`` tries them."""


class EchoError(RuntimeError):
    """No echo canceller can run (the package or its native library is missing)."""


def to_int16(pcm: np.ndarray) -> np.ndarray:
    return (np.clip(pcm, -1.0, 1.0) * 32767.0).astype(np.int16)


def to_float(pcm: np.ndarray) -> np.ndarray:
    return pcm.astype(np.float32) / 32768.0


class Canceller(Protocol):
    name: str
    rate: int
    block_samples: int
    delay_samples: int
    """How much later a sound comes out than it went in (the canceller's own buffering)."""

    def cancel(self, mic: np.ndarray, far: np.ndarray) -> np.ndarray:
        """One block of the microphone with the echo of ``far`` (the speaker's audio of
        the same block, float32) taken out."""

    def close(self) -> None:
        """Free the native state now (not at interpreter exit)."""


class WebRtcCanceller:
    """WebRTC AEC3 through livekit's audio processing module (its own delay estimation,
    residual echo suppression, and optionally noise suppression and a high-pass filter)."""

    name = "webrtc"

    def __init__(self, rate: int = 16000, *, noise_suppression: bool = False, high_pass: bool = True,
                 stream_delay_ms: int = 0):
        try:
            from livekit import rtc
        except (ImportError, OSError) as exc:
            raise EchoError(f"WebRTC echo cancellation needs the livekit package: pip install livekit ({exc})") from exc
        self._rtc = rtc
        self.rate = rate
        self.block_samples = rate * BLOCK_MS // 1000
        self.delay_samples = rate * 8 // 1000  # measured: 128 samples at 16 kHz
        self.stream_delay_ms = stream_delay_ms
        try:
            self._apm = rtc.AudioProcessingModule(
                echo_cancellation=True, noise_suppression=noise_suppression,
                high_pass_filter=high_pass, auto_gain_control=False,
            )
        except Exception as exc:  # the native library failed to load or start
            raise EchoError(f"WebRTC echo cancellation could not start: {exc}") from exc

    def cancel(self, mic: np.ndarray, far: np.ndarray) -> np.ndarray:
        n = self.block_samples
        self._apm.process_reverse_stream(self._rtc.AudioFrame(bytearray(to_int16(far).tobytes()), self.rate, 1, n))
        self._apm.set_stream_delay_ms(self.stream_delay_ms)
        near = self._rtc.AudioFrame(bytearray(to_int16(mic).tobytes()), self.rate, 1, n)
        self._apm.process_stream(near)
        return to_float(np.frombuffer(near.data, np.int16))

    def close(self) -> None:
        self._apm = None


class SpeexCanceller:
    """speexdsp's echo canceller (with its preprocessor: residual echo and noise
    suppression) through ``pyaec``."""

    name = "speex"

    def __init__(self, rate: int = 16000, *, tail_ms: int = 192, preprocess: bool = True):
        try:
            import pyaec
        except (ImportError, OSError, AttributeError) as exc:
            raise EchoError(f"speexdsp echo cancellation needs the pyaec package: pip install pyaec ({exc})") from exc
        self.rate = rate
        self.block_samples = rate * BLOCK_MS // 1000
        self.delay_samples = self.block_samples if preprocess else 0  # measured: its preprocessor holds one block
        try:
            self._aec = pyaec.Aec(self.block_samples, rate * tail_ms // 1000, rate, preprocess)
        except Exception as exc:
            raise EchoError(f"speexdsp echo cancellation could not start: {exc}") from exc

    def cancel(self, mic: np.ndarray, far: np.ndarray) -> np.ndarray:
        out = self._aec.cancel_echo(to_int16(mic), to_int16(far))
        return to_float(np.asarray(out, np.int16))

    def close(self) -> None:
        self._aec = None


def load_canceller(name: str, config: EchoConfig, rate: int = 16000) -> Canceller:
    """The canceller called ``name`` (``webrtc`` or ``speex``); EchoError says what to install."""
    if name == "webrtc":
        return WebRtcCanceller(rate, noise_suppression=config.noise_suppression, high_pass=config.high_pass,
                               stream_delay_ms=config.stream_delay_ms)
    if name == "speex":
        return SpeexCanceller(rate, tail_ms=config.tail_ms)
    raise EchoError(f"unknown echo canceller '{name}' (choose from {', '.join(CANCELLERS)})")


@dataclass(frozen=True)
class DuplexMode:
    """How the assistant listens while it speaks."""

    canceller: str | None
    """Name of the echo canceller in use; None is half duplex."""
    why: str = ""
    """Why there is no canceller (half duplex), for the user."""

    @property
    def full(self) -> bool:
        return self.canceller is not None

    @property
    def label(self) -> str:
        return f"full duplex ({self.canceller} echo cancellation)" if self.full else "half duplex"

    def describe(self) -> str:
        """One line for the window, the kiosk and ``assistant doctor``."""
        if self.full:
            return f"{self.label}: you can talk over the reply"
        return f"{self.label}: the microphone waits while the assistant speaks; say \"stop\" to stop it ({self.why})"


def choose_mode(config: EchoConfig, rate: int = 16000) -> tuple[DuplexMode, Canceller | None]:
    """Full duplex with the configured canceller when it can run, else half duplex."""
    if config.canceller == "off":
        return DuplexMode(None, "echo cancellation is off in the configuration"), None
    names = CANCELLERS if config.canceller == "auto" else (config.canceller,)
    problems = []
    for name in names:
        try:
            canceller = load_canceller(name, config, rate)
        except EchoError as exc:
            problems.append(str(exc))
            continue
        return DuplexMode(canceller.name), canceller
    why = "; ".join(problems)
    log.warning("no echo canceller can run, listening half duplex: %s", why)
    return DuplexMode(None, why), None


# ---------------------------------------------------------------- the reference


class PlayedAudio:
    """What the speaker played, on the input's clock and at the input's rate.

    Sample ``i`` is what was heard while the microphone captured its sample ``i``
    (sample 0 of both is at perf_counter time ``t0``). Thread-safe: the output stage
    adds, the listener reads.
    """

    def __init__(self, rate: int, keep_s: float = 4.0):
        self.rate = rate
        self.keep_samples = round(keep_s * rate)
        self.t0 = 0.0
        self._chunks: list[tuple[int, np.ndarray]] = []
        self._lock = threading.Lock()

    def start(self, t0: float) -> None:
        with self._lock:
            self.t0 = t0
            self._chunks = []

    def index(self, at: float) -> int:
        return round((at - self.t0) * self.rate)

    def add(self, pcm: np.ndarray, rate: int, at: float) -> None:
        """``pcm`` (at ``rate``) is heard from perf_counter time ``at`` on."""
        pcm = resample(pcm, rate, self.rate)
        with self._lock:
            self._chunks.append((self.index(at), pcm))

    def cut(self, at: float) -> None:
        """Nothing is heard from ``at`` on (the output was flushed)."""
        with self._lock:
            end = self.index(at)
            self._chunks = [(start, pcm[: end - start]) for start, pcm in self._chunks if start < end]

    def read(self, start: int, n: int) -> np.ndarray:
        """Samples ``start`` to ``start + n`` (silence where nothing played)."""
        out = np.zeros(n, np.float32)
        with self._lock:
            for at, pcm in self._chunks:
                lo, hi = max(start, at), min(start + n, at + pcm.size)
                if lo < hi:
                    out[lo - start : hi - start] += pcm[lo - at : hi - at]
            self._chunks = [(at, pcm) for at, pcm in self._chunks if at + pcm.size > start - self.keep_samples]
        return out


class MonitoredOutput:
    """An :class:`~assistant.sound.AudioOut` that also records what it plays in ``played``."""

    def __init__(self, inner: AudioOut, played: PlayedAudio):
        self.inner = inner
        self.played = played
        self.rate = inner.rate

    def start(self, t0: float) -> None:
        self.played.start(t0)
        self.inner.start(t0)

    def play(self, pcm: np.ndarray) -> float:
        at = self.inner.play(pcm)
        self.played.add(pcm, self.rate, at)
        return at

    def flush(self) -> None:
        import time

        self.inner.flush()
        self.played.cut(time.perf_counter())

    def busy_until(self) -> float:
        return self.inner.busy_until()

    def close(self, *args, **kwargs) -> None:
        self.inner.close(*args, **kwargs)


@dataclass(frozen=True)
class Cleaned:
    """One microphone frame after the echo canceller."""

    pcm: np.ndarray
    captured: float
    """perf_counter time of its first sample."""
    reply_audible: bool
    """The speaker played something within the echo tail before this frame."""
    kept_db: float
    """Energy the canceller kept of the microphone's (dB; 0 without a canceller)."""
    converged: bool
    """The canceller has had enough of the speaker's audio to have learnt the room."""


FLOOR_RMS = 1e-4
"""Reference blocks quieter than this (-80 dBFS) count as silence."""


class EchoFilter:
    """Takes the echo out of the microphone's frames, whatever their size.

    The canceller works on 10 ms blocks and a frame is rarely a whole number of them,
    so the output lags the input by up to a block, and the canceller adds its own
    delay: a frame comes out with its capture time moved back by ``lag_samples``, both
    together, so the clock stays exact. The canceller runs only while the reply (or its
    echo tail) is audible; otherwise, and without a canceller (half duplex), frames pass
    unchanged, and the filter still says when the reply is audible.

    While nothing plays, a frame comes out as it went in, at once: the lag would be
    waiting added to every turn's end (18 ms with speexdsp). The filter goes over to the
    lagged stream when the reply sounds (``lag_samples`` of the input come out twice:
    the room just before the reply) and back once it and its echo are over, when the
    caller says no speech is in progress (``hold_lag``; ``lag_samples`` of the input are
    left out then, so they must not be the user's words).
    """

    def __init__(self, canceller: Canceller | None, played: PlayedAudio, frame_samples: int, config: EchoConfig):
        self.canceller = canceller
        self.played = played
        self.frame_samples = frame_samples
        self.block = canceller.block_samples if canceller else frame_samples
        framing = max((k * frame_samples) % self.block for k in range(1, self.block + 1))
        self.lag_samples = framing + (canceller.delay_samples if canceller else 0)
        """Input samples between a sound going in and coming out."""
        self.tail_samples = round(config.echo_tail_ms * played.rate / 1000)
        self.converge_samples = round(config.converge_s * played.rate)
        self._framing = framing
        self._far_samples = 0
        self.restart()

    def restart(self) -> None:
        """A new input stream starts (at the reference's sample 0). The canceller keeps what
        it learnt of the room."""
        self._pending = np.zeros(0, np.float32)
        self._clean = np.zeros(self._framing, np.float32)
        self._position = 0
        """Input samples handed to the canceller so far (the reference's index)."""
        self._last_loud = -(10**9)
        self._raw = np.zeros(self.canceller.delay_samples if self.canceller else 0, np.float32)
        self._lagged = False
        """Frames come out of the canceller's (lagged) stream, not as they went in."""

    def _delayed(self, mic: np.ndarray) -> np.ndarray:
        """The block as it is, delayed like the canceller's output."""
        if not self._raw.size:
            return mic
        both = np.concatenate([self._raw, mic])
        self._raw = both[mic.size :]
        return both[: mic.size]

    def process(self, frame: np.ndarray, captured: float, hold_lag: bool | None = None) -> Cleaned:
        """The frame with the echo taken out. ``hold_lag``: stay on the lagged stream even
        if the reply is over (speech is in progress); None: always lagged (a constant lag,
        for measurements)."""
        frame = frame.astype(np.float32, copy=False)
        self._pending = np.concatenate([self._pending, frame])
        cleaned, mic_energy, clean_energy = [self._clean], 0.0, 0.0
        ran = False
        while self._pending.size >= self.block:
            mic = self._pending[: self.block]
            far = self.played.read(self._position, self.block)
            if float(np.sqrt(np.mean(far * far))) > FLOOR_RMS:
                self._last_loud = self._position + self.block
                self._far_samples += self.block
            raw = self._delayed(mic)
            cancel = self.canceller is not None and self._position + self.block - self._last_loud <= self.tail_samples
            ran = ran or cancel
            clean = self.canceller.cancel(mic, far) if cancel else raw
            mic_energy += float(np.dot(mic, mic))
            clean_energy += float(np.dot(clean, clean))
            cleaned.append(clean)
            self._pending = self._pending[self.block :]
            self._position += self.block
        clean = np.concatenate(cleaned)
        out, self._clean = clean[: self.frame_samples], clean[self.frame_samples :]
        kept_db = 10 * float(np.log10(max(clean_energy, 1e-12) / max(mic_energy, 1e-12))) if mic_energy > 0 else 0.0
        reply_audible = self._position - self._last_loud <= self.tail_samples
        if ran or hold_lag is None:
            self._lagged = True
        elif self._lagged and not reply_audible and not hold_lag:
            self._lagged = False
        if not self._lagged and self.lag_samples:
            return Cleaned(frame, captured, reply_audible=reply_audible, kept_db=0.0, converged=self._converged())
        return Cleaned(
            out, captured - self.lag_samples / self.played.rate,
            reply_audible=reply_audible,
            kept_db=kept_db,
            converged=self._converged(),
        )

    def _converged(self) -> bool:
        return self.canceller is not None and self._far_samples >= self.converge_samples


class SpeakerEcho:
    """What the engine needs to hear over its own voice: what the speaker played, the
    canceller this machine can run (None: half duplex) and the filter that uses both."""

    def __init__(self, config: EchoConfig, rate: int, frame_samples: int, canceller: Canceller | None = None,
                 mode: DuplexMode | None = None):
        if mode is None:
            mode, canceller = choose_mode(config, rate)
        self.mode = mode
        self.played = PlayedAudio(rate)
        self.filter = EchoFilter(canceller, self.played, frame_samples, config)

    def monitor(self, out: AudioOut) -> MonitoredOutput:
        """``out``, recording what it plays as the canceller's reference."""
        return MonitoredOutput(out, self.played)

    def close(self) -> None:
        if self.filter.canceller is not None:
            self.filter.canceller.close()
