"""The start-up sound: a chime over a swell of shaped noise, a second and a half long.

It is made, not loaded, and is the same every time. The echo canceller learns the room from
whatever the speaker plays, and a fresh one needs sound in every band a reply will use:
the three notes alone (a few harmonics each) leave the bands between their partials
untaught, so under them runs noise with as much energy in each octave from 800 Hz up to
7.9 kHz (falling by 3 dB an octave, as pink noise; flat below 800 Hz). At 6 dB an octave and
cut at 7 kHz, the bands of the reply's fricatives ("s", "sh") were taught 15-20 dB less than
its vowels' or not at all, and their onsets left echo the barge-in rule took for the user.

It sounds as loud as a reply: speexdsp's residual echo suppression learns the echo at the level
it hears it, and a canceller taught on a sound 10 dB quieter than the reply left bursts of
echo at the onsets of the reply's first words (taught at the reply's level or above, far
fewer). It lasts long enough for speexdsp to learn a room with up to about 100 ms of delay:
on the room simulation it takes 20 dB out of the echo after 1 s of it (40 ms, 0.5), 31-33 dB
after 1.5 s; at 100 ms, 0.8, 8 dB after 1 s, 21 dB after 1.5 s (docs/echo.md).
"""

from __future__ import annotations

import numpy as np

SECONDS = 1.5
RMS = 0.13
"""Its level (root mean square, of full scale): a reply's. Piper's voice at volume 1 sounds at
0.12-0.14 over its audible samples; its peaks reach full scale, the sound's about 0.5."""
NOTES = ((0.0, 659.25), (0.18, 987.77), (0.36, 1318.51))
"""(start s, Hz): E5, B5, E6."""
PARTIALS = ((1.0, 1.0), (2.0, 0.5), (3.0, 0.3), (4.2, 0.18), (5.4, 0.12))
"""(multiple of the note, level): a bell's."""
NOISE_RMS = 0.4
"""The noise's level under the chime's peak (1.0); it carries most of what the canceller learns."""
TOP_HZ = 7900.0
"""The noise reaches the top of a 16 kHz microphone's band: a reply's fricatives do."""
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
    gain = ((f > 100) & (f < min(TOP_HZ, 0.49 * rate))) / (1 + (f / 800.0) ** 2) ** 0.25
    noise = np.fft.irfft(spectrum * gain, n)
    return noise / max(1e-9, float(np.sqrt(np.mean(noise**2))))


def startup_sound(rate: int, seconds: float = SECONDS, rms: float = RMS, seed: int = 5) -> np.ndarray:
    """The sound at ``rate`` (mono float32), at ``rms`` over its audible samples."""
    n = max(1, round(seconds * rate))
    t = np.arange(n) / rate
    swell = np.clip(np.minimum(t / RISE_S, (seconds - t) / FALL_S), 0.0, 1.0)
    out = 0.5 * _chime(t) + NOISE_RMS * _shaped_noise(n, rate, seed) * swell
    out *= np.clip(np.minimum(t, seconds - t) / 0.01, 0.0, 1.0)  # no click at either end
    audible = out[np.abs(out) > 0.01 * float(np.max(np.abs(out)))]
    return (out / max(1e-9, float(np.sqrt(np.mean(audible**2)))) * rms).astype(np.float32)
