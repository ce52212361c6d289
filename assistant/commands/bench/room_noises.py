"""Sounds that are not a person talking, over the reply, and rooms harder than the default one.

The sounds are made in code and are the same every run: a cough (two barks), three knocks on
a door, a door shut, and music from another room (chords and a kick drum through a wall:
nothing above 1.5 kHz), quiet or loud. The harder rooms: a longer delay and a louder echo, a
reverberant room (its response decays by 60 dB over 0.6 s, cut at 0.3 s: longer than the
canceller's tail) and a speaker that clips (the echo is the reply driven into saturation;
the canceller's reference is what was sent to it).

:func:`false_barge_ins` plays each sound into the room over a reply, heard by a canceller that
learnt the room on the start-up sound, and runs the barge-in logic frame by frame on the
canceller's output as the listener runs it (:func:`~assistant.commands.bench.echo.listen`):
where it would pause the reply. A pause on a sound lets the reply resume once nobody speaks
on; the real-time run (``assistant chat`` on the room simulation) shows that it does.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from assistant.commands.bench.echo import Scene, listen, make_scene
from assistant.config import Config
from assistant.hear.room import EchoPath, synthetic_room, through_room

RATE = 16000


def _band(x: np.ndarray, rate: int, lo: float, hi: float) -> np.ndarray:
    spectrum = np.fft.rfft(x)
    f = np.fft.rfftfreq(x.size, 1 / rate)
    spectrum[(f < lo) | (f > hi)] = 0
    return np.fft.irfft(spectrum, x.size)


def _envelope(n: int, rate: int, attack_s: float, decay_s: float) -> np.ndarray:
    t = np.arange(n) / rate
    return np.minimum(1.0, t / attack_s) * np.exp(-t / decay_s)


def cough(rate: int, rng: np.random.Generator) -> np.ndarray:
    out = np.zeros(round(0.9 * rate))
    for start_s, seconds, level in ((0.0, 0.28, 1.0), (0.42, 0.22, 0.7)):
        n = round(seconds * rate)
        t = np.arange(n) / rate
        burst = _band(rng.standard_normal(n), rate, 250, 4000) * _envelope(n, rate, 0.01, 0.08)
        burst += 0.6 * np.sign(np.sin(2 * np.pi * 180 * t)) * _envelope(n, rate, 0.005, 0.05)  # the voiced bark
        start = round(start_s * rate)
        out[start : start + n] += level * burst
    return out


def knock(rate: int, rng: np.random.Generator) -> np.ndarray:
    out = np.zeros(round(0.8 * rate))
    n = round(0.06 * rate)
    t = np.arange(n) / rate
    for k in range(3):
        hit = sum(a * np.sin(2 * np.pi * f * t) for f, a in ((210, 1.0), (460, 0.5), (1150, 0.25))) * np.exp(-t / 0.012)
        hit[: rate // 400] += rng.standard_normal(rate // 400) * 0.8
        start = round(k * 0.18 * rate)
        out[start : start + n] += hit
    return out


def door(rate: int, rng: np.random.Generator) -> np.ndarray:
    n = round(0.7 * rate)
    t = np.arange(n) / rate
    thud = _band(rng.standard_normal(n), rate, 40, 300) * np.exp(-t / 0.09) * 3 + np.sin(2 * np.pi * 85 * t) * np.exp(-t / 0.15)
    return thud + _band(rng.standard_normal(n), rate, 1500, 6000) * np.exp(-t / 0.03) * 0.5


def music(rate: int, rng: np.random.Generator, seconds: float = 4.0) -> np.ndarray:
    chords = ((261.6, 329.6, 392.0), (220.0, 261.6, 329.6), (174.6, 220.0, 261.6), (196.0, 246.9, 293.7))
    beat = round(0.5 * rate)
    t = np.arange(beat) / rate
    out = np.zeros(round(seconds * rate))
    for b in range(out.size // beat):
        notes = chords[(b // 2) % len(chords)]
        tone = sum(a * np.sin(2 * np.pi * f * h * t) for f in notes + (notes[0] * 2,) for h, a in ((1, 1.0), (2, 0.4), (3, 0.2)))
        kick = np.sin(2 * np.pi * (60 + 40 * np.exp(-t / 0.02)) * t) * np.exp(-t / 0.08) * 2
        out[b * beat : (b + 1) * beat] += tone * np.exp(-t / 0.35) + kick
    return _band(out, rate, 40, 1500)  # through a wall


NOISES = {"cough": (cough, 0.5), "knock": (knock, 0.5), "door": (door, 0.6), "music": (music, 0.05),
          "music, loud": (music, 0.15)}
"""Name: (how it is made, its peak)."""


def noise(name: str, rate: int = RATE) -> np.ndarray:
    make, peak = NOISES[name]
    pcm = make(rate, np.random.default_rng(11))
    return (pcm / np.abs(pcm).max() * peak).astype(np.float32)


def reverberant_room(rate: int) -> np.ndarray:
    """A room whose echo outlasts the canceller's tail (192 ms): RT60 0.6 s, cut at 0.3 s."""
    return synthetic_room(rate, length_s=0.3, rt60_s=0.6)


@dataclass(frozen=True)
class Room:
    """A room of the bench: an echo path, optionally another response and a clipping speaker."""

    name: str
    path: EchoPath
    response: np.ndarray | None = None
    """None: the path's own (synthetic, 80 ms)."""
    clip_at: float | None = None
    """The speaker saturates at this fraction of full scale (None: it does not clip)."""

    def echo(self, far: np.ndarray, rate: int) -> np.ndarray:
        played = far if self.clip_at is None else np.tanh(far / self.clip_at) * self.clip_at
        response = self.path.impulse_response(rate) if self.response is None else self.response * self.path.gain
        return through_room(played.astype(np.float32), response.astype(np.float32), round(self.path.delay_ms * rate / 1000))

    def scene(self, far: np.ndarray, near: np.ndarray, rate: int, near_at_s: float) -> Scene:
        base = make_scene(far, near, self.path, rate, near_at_s)
        return Scene(rate, base.far, base.near, self.echo(base.far, rate))


def rooms(rate: int = RATE) -> list[Room]:
    return [
        Room("40 ms, 0.5", EchoPath(40, 0.5)),
        Room("100 ms, 0.8", EchoPath(100, 0.8)),
        Room("150 ms, 1.0", EchoPath(150, 1.0)),
        Room("60 ms, 0.7, reverberant", EchoPath(60, 0.7), reverberant_room(rate)),
        Room("40 ms, 0.5, clipping speaker", EchoPath(40, 0.5), clip_at=0.35),
    ]


def pauses_over(canceller_factory, room: Room, reply: np.ndarray, near: np.ndarray, at_s: float, vad,
                config: Config, sound: np.ndarray, rate: int = RATE) -> list[float]:
    """Where the barge-in logic would pause ``reply`` with ``near`` (a person, or a noise) in the
    room from ``at_s`` on, heard by a fresh canceller that heard ``sound`` through the room first
    (positions in s of the reply)."""
    prelude = room.scene(sound, np.zeros(0, np.float32), rate, 0.0)
    _, pauses, _, _ = listen(canceller_factory(), room.scene(reply, near, rate, at_s), vad, config, prelude=prelude)
    return pauses


def false_barge_ins(canceller_factory, reply: np.ndarray, vad, config: Config, sound: np.ndarray,
                    at_s: tuple[float, ...] = (1.0, 3.0), rate: int = RATE,
                    room_names: tuple[str, ...] | None = None) -> dict[str, dict[str, int]]:
    """Per room (those of ``room_names``; None: all) and sound: in how many of the ``at_s``
    scenes the sound paused the reply."""
    report: dict[str, dict[str, int]] = {}
    for room in rooms(rate):
        if room_names is not None and room.name not in room_names:
            continue
        row = {}
        for name in NOISES:
            pcm = noise(name, rate)
            paused = 0
            for at in at_s:
                pauses = pauses_over(canceller_factory, room, reply, pcm, at, vad, config, sound, rate)
                paused += any(at <= p <= at + pcm.size / rate + 0.5 for p in pauses)
            row[name] = paused
        report[room.name] = row
    return report
