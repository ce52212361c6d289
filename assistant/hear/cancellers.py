"""The echo cancellers behind one protocol, and the choice between them.

WebRTC's AEC3 (through the small ``pywebrtc-audio`` wheel, or the ``livekit`` wheel's
audio processing module) and speexdsp (through ``pyaec``) sit behind
:class:`Canceller`; each is imported lazily, with a message naming what to install.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Protocol

import numpy as np

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

    def renew(self) -> "Canceller":
        """A fresh one of the same kind and settings, that has learnt nothing."""


class WebRtcCanceller:
    """WebRTC AEC3 (its own delay estimation, residual echo suppression, and optionally
    noise suppression and a high-pass filter), through ``pywebrtc-audio`` or, without it,
    livekit's audio processing module."""

    name = "webrtc"

    def __init__(self, rate: int = 16000, *, noise_suppression: bool = False, high_pass: bool = True,
                 stream_delay_ms: int = 0):
        self.rate = rate
        self.block_samples = rate * BLOCK_MS // 1000
        self.delay_samples = rate * 8 // 1000  # measured: 128 samples at 16 kHz, with either package
        self.stream_delay_ms = stream_delay_ms
        self._settings = (noise_suppression, high_pass)
        self._rtc = None
        try:
            import pywebrtc_audio
        except (ImportError, OSError):
            pywebrtc_audio = None
        if pywebrtc_audio is not None:
            try:
                self._apm = pywebrtc_audio.AudioProcessor(
                    rate, 1, echo_cancellation=True, noise_suppression=noise_suppression,
                    high_pass_filter=high_pass, stream_delay_ms=stream_delay_ms,
                )
            except Exception as exc:  # the native library failed to start
                raise EchoError(f"WebRTC echo cancellation could not start: {exc}") from exc
            return
        try:
            from livekit import rtc
        except (ImportError, OSError) as exc:
            raise EchoError("WebRTC echo cancellation needs the pywebrtc-audio package: "
                            f"pip install pywebrtc-audio ({exc})") from exc
        self._rtc = rtc
        try:
            self._apm = rtc.AudioProcessingModule(
                echo_cancellation=True, noise_suppression=noise_suppression,
                high_pass_filter=high_pass, auto_gain_control=False,
            )
        except Exception as exc:  # the native library failed to load or start
            raise EchoError(f"WebRTC echo cancellation could not start: {exc}") from exc

    def cancel(self, mic: np.ndarray, far: np.ndarray) -> np.ndarray:
        if self._rtc is None:
            return self._apm.process(mic.astype(np.float32, copy=False), far.astype(np.float32, copy=False))
        n = self.block_samples
        self._apm.process_reverse_stream(self._rtc.AudioFrame(bytearray(to_int16(far).tobytes()), self.rate, 1, n))
        self._apm.set_stream_delay_ms(self.stream_delay_ms)
        near = self._rtc.AudioFrame(bytearray(to_int16(mic).tobytes()), self.rate, 1, n)
        self._apm.process_stream(near)
        return to_float(np.frombuffer(near.data, np.int16))

    def close(self) -> None:
        self._apm = None

    def renew(self) -> "WebRtcCanceller":
        noise_suppression, high_pass = self._settings
        return WebRtcCanceller(self.rate, noise_suppression=noise_suppression, high_pass=high_pass,
                               stream_delay_ms=self.stream_delay_ms)


class SpeexCanceller:
    """speexdsp's echo canceller (with its preprocessor: residual echo and noise
    suppression) through ``pyaec``."""

    name = "speex"

    def __init__(self, rate: int = 16000, *, tail_ms: int = EchoConfig.tail_ms, preprocess: bool = True):
        try:
            import pyaec
        except (ImportError, OSError, AttributeError) as exc:
            raise EchoError(f"speexdsp echo cancellation needs the pyaec package: pip install pyaec ({exc})") from exc
        self.rate = rate
        self.block_samples = rate * BLOCK_MS // 1000
        self.delay_samples = self.block_samples if preprocess else 0  # measured: its preprocessor holds one block
        self._settings = (tail_ms, preprocess)
        try:
            self._aec = pyaec.Aec(self.block_samples, rate * tail_ms // 1000, rate, preprocess)
        except Exception as exc:
            raise EchoError(f"speexdsp echo cancellation could not start: {exc}") from exc

    def cancel(self, mic: np.ndarray, far: np.ndarray) -> np.ndarray:
        out = self._aec.cancel_echo(to_int16(mic), to_int16(far))
        return to_float(np.asarray(out, np.int16))

    def close(self) -> None:
        self._aec = None

    def renew(self) -> "SpeexCanceller":
        tail_ms, preprocess = self._settings
        return SpeexCanceller(self.rate, tail_ms=tail_ms, preprocess=preprocess)


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
