"""A room simulation: the reply, played by a speaker beside the microphone, heard again.

:class:`EchoRoom` wraps an audio input and mixes into each frame what the speaker
played (:class:`~assistant.hear.echo.PlayedAudio`, on the same clock), delayed, scaled and
through a short room impulse response: synthetic by default, or a recorded one from a
WAV. ``assistant chat --echo-path DELAY_MS,GAIN[,ROOM.wav]`` and the bench's echo mode
use it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import numpy as np

from assistant.sound import AudioIn, load_wav, save_wav
from assistant.hear.echo import PlayedAudio


class EchoPathError(ValueError):
    """An --echo-path that cannot be understood."""


def synthetic_room(rate: int, length_s: float = 0.08, rt60_s: float = 0.3, seed: int = 7) -> np.ndarray:
    """A small room's impulse response: the direct sound (1.0 at sample 0), a few early
    reflections, then a diffuse tail decaying by 60 dB over ``rt60_s`` (cut at ``length_s``)."""
    rng = np.random.default_rng(seed)
    n = max(1, round(length_s * rate))
    t = np.arange(n) / rate
    decay = 10 ** (-3 * t / rt60_s)
    response = 0.15 * rng.standard_normal(n) * decay
    response[: round(0.002 * rate)] = 0.0
    for delay_s, gain in ((0.0035, 0.45), (0.0061, -0.3), (0.0093, 0.22), (0.0142, -0.15)):
        index = round(delay_s * rate)
        if index < n:
            response[index] += gain
    response[0] = 1.0
    return response.astype(np.float32)


@dataclass(frozen=True)
class EchoPath:
    """From the speaker to the microphone."""

    delay_ms: float
    """Time from the speaker's sound to the microphone (distance, and the sound devices' buffers)."""
    gain: float
    """Level of the direct sound at the microphone relative to what was played."""
    room: Path | None = None
    """WAV of a recorded room impulse response; None uses :func:`synthetic_room`."""

    @classmethod
    def parse(cls, text: str) -> "EchoPath":
        """``DELAY_MS,GAIN`` or ``DELAY_MS,GAIN,ROOM.wav``."""
        parts = [p.strip() for p in text.split(",")]
        if len(parts) not in (2, 3):
            raise EchoPathError(f"--echo-path is DELAY_MS,GAIN[,ROOM.wav] (e.g. 40,0.5), not {text!r}")
        try:
            delay_ms, gain = float(parts[0]), float(parts[1])
        except ValueError:
            raise EchoPathError(f"--echo-path needs numbers for DELAY_MS and GAIN (e.g. 40,0.5), not {text!r}") from None
        if not 0 <= delay_ms <= 1000:
            raise EchoPathError(f"--echo-path delay must be 0 to 1000 ms, not {delay_ms:g}")
        if not 0 <= gain <= 4:
            raise EchoPathError(f"--echo-path gain must be 0 to 4, not {gain:g}")
        room = Path(parts[2]) if len(parts) == 3 and parts[2] else None
        if room is not None and not room.is_file():
            raise EchoPathError(f"--echo-path room response {room} does not exist")
        return cls(delay_ms, gain, room)

    def impulse_response(self, rate: int) -> np.ndarray:
        """The room's response at ``rate``, scaled so its strongest tap is ``gain``."""
        response = load_wav(self.room, rate) if self.room else synthetic_room(rate)
        peak = float(np.max(np.abs(response))) or 1.0
        return (response * (self.gain / peak)).astype(np.float32)

    def __str__(self) -> str:
        room = f", room {self.room.name}" if self.room else ", synthetic room"
        return f"echo {self.delay_ms:g} ms, gain {self.gain:g}{room}"


def through_room(played: np.ndarray, response: np.ndarray, delay_samples: int) -> np.ndarray:
    """What a microphone hears of ``played``: delayed by ``delay_samples``, through ``response``."""
    echo = np.convolve(played, response)[: played.size]
    return np.concatenate([np.zeros(delay_samples, np.float32), echo])[: played.size].astype(np.float32)


class EchoRoom:
    """An :class:`~assistant.sound.AudioIn` that hears ``source`` plus the speaker's echo.

    Sample ``i`` of the input and sample ``i`` of ``played`` are the same instant (the
    engine starts the output on the input's first frame), so the echo is exact to the
    sample, as in a real room. What the microphone heard is kept when ``keep`` is set.
    """

    def __init__(self, source: AudioIn, played: PlayedAudio, path: EchoPath, keep: bool = False):
        self.source = source
        self.played = played
        self.path = path
        self.rate = source.rate
        self.frame_samples = source.frame_samples
        self.response = path.impulse_response(self.rate)
        self.delay_samples = round(path.delay_ms * self.rate / 1000)
        self.keep = keep
        self.heard: list[np.ndarray] = []
        self.echo_energy = 0.0
        """Sum of squares of the echo mixed in so far."""

    def frames(self) -> Iterator[tuple[np.ndarray, float]]:
        position = 0
        taps = self.response.size
        for frame, captured in self.source.frames():
            n = frame.size
            start = position - self.delay_samples - taps + 1
            far = self.played.read(start, n + taps - 1)
            echo = np.convolve(far, self.response, mode="valid").astype(np.float32)
            self.echo_energy += float(np.dot(echo, echo))
            mixed = frame + echo
            if self.keep:
                self.heard.append(mixed)
            position += n
            yield mixed, captured

    def stop(self) -> None:
        self.source.stop()

    def save(self, path: Path, min_seconds: float = 0.0) -> None:
        """Write what the microphone heard (needs ``keep``)."""
        pcm = np.concatenate(self.heard) if self.heard else np.zeros(0, np.float32)
        if pcm.size < min_seconds * self.rate:
            pcm = np.concatenate([pcm, np.zeros(round(min_seconds * self.rate) - pcm.size, np.float32)])
        save_wav(path, pcm, self.rate)
