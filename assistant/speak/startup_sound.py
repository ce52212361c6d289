"""The start-up sound: a soft chime over a swell of shaped noise, about a second long.

It is made, not loaded, and is the same every time. The echo canceller learns the room from
whatever the speaker plays, and a fresh one needs sound in every band a reply will use:
the three notes alone (a few harmonics each) leave the bands between their partials
untaught, so under them runs noise shaped like speech (flat to 800 Hz, then falling by
6 dB an octave up to 7 kHz).
"""

from __future__ import annotations

import numpy as np

SECONDS = 1.0
LEVEL = 0.15
"""Its peak, of full scale (a reply's peaks are near 0.7): soft."""
NOTES = ((0.0, 659.25), (0.18, 987.77), (0.36, 1318.51))
"""(start s, Hz): E5, B5, E6."""
PARTIALS = ((1.0, 1.0), (2.0, 0.5), (3.0, 0.3), (4.2, 0.18), (5.4, 0.12))
"""(multiple of the note, level): a bell's."""
NOISE_RMS = 0.4
"""The noise's level under the chime's peak (1.0); it carries most of what the canceller learns."""
RISE_S, FALL_S = 0.08, 0.12
"""The noise comes up in this long and fades out in that long."""


def _chime(t: np.ndarray) -> np.ndarray:
    out = np.zeros(t.size)
    for start, note in NOTES:
        since = np.maximum(t - start, 0.0)
        envelope = (t >= start) * np.minimum(1.0, since / 0.005) * np.exp(-since / 0.35)
        for multiple, level in PARTIALS:
            out += level * np.sin(2 * np.pi * note * multiple * since) * envelope
    return out / max(1e-9, float(np.max(np.abs(out))))


def _shaped_noise(n: int, rate: int, seed: int) -> np.ndarray:
    spectrum = np.fft.rfft(np.random.default_rng(seed).standard_normal(n))
    f = np.fft.rfftfreq(n, 1 / rate)
    gain = ((f > 100) & (f < min(7000.0, 0.45 * rate))) / np.sqrt(1 + (f / 800.0) ** 2)
    noise = np.fft.irfft(spectrum * gain, n)
    return noise / max(1e-9, float(np.sqrt(np.mean(noise**2))))


def startup_sound(rate: int, seconds: float = SECONDS, level: float = LEVEL, seed: int = 5) -> np.ndarray:
    """The sound at ``rate`` (mono float32), its peak at ``level``."""
    n = max(1, round(seconds * rate))
    t = np.arange(n) / rate
    swell = np.clip(np.minimum(t / RISE_S, (seconds - t) / FALL_S), 0.0, 1.0)
    out = 0.5 * _chime(t) + NOISE_RMS * _shaped_noise(n, rate, seed) * swell
    out *= np.clip(np.minimum(t, seconds - t) / 0.01, 0.0, 1.0)  # no click at either end
    return (out / max(1e-9, float(np.max(np.abs(out)))) * level).astype(np.float32)
