"""What a listener hears as sound: short windows whose RMS is above a level.

The level is absolute (``AUDIBLE_DBFS``), raised above a steady noise floor when a
recording has one. The bench reads the heard latency off whole WAV files with it; the
pipeline marks the last audible sample of the user's words and the first of the reply
with the same rule, live.
"""

from __future__ import annotations

from collections import deque

import numpy as np

AUDIBLE_DBFS = -40.0
"""A 5 ms window at or above this RMS level is audible (Piper's lead-in sits below -50)."""
WINDOW_MS = 5.0
FLOOR_MARGIN_DB = 12.0
"""Over a noise floor (the quietest tenth of the windows), audible starts this much above it
(when the loudest tenth stands out of the floor by more than that: a recording that is all
sound has no floor)."""


def window_rms_db(pcm: np.ndarray, rate: int) -> tuple[np.ndarray, int]:
    """The RMS level (dBFS) of each ``WINDOW_MS`` window of ``pcm``, and the window size."""
    size = max(1, round(rate * WINDOW_MS / 1000))
    count = pcm.size // size
    if count == 0:
        return np.zeros(0), size
    windows = pcm[: count * size].astype(np.float64).reshape(count, size)
    rms = np.sqrt(np.mean(windows**2, axis=1))
    return 20 * np.log10(np.maximum(rms, 1e-9)), size


def audible_windows(pcm: np.ndarray, rate: int) -> tuple[np.ndarray, int]:
    """Which ``WINDOW_MS`` windows are audible, and the window size in samples."""
    levels, size = window_rms_db(pcm, rate)
    if levels.size == 0:
        return np.zeros(0, bool), size
    floor, loud = (float(v) for v in np.percentile(levels, [10, 90]))
    threshold = AUDIBLE_DBFS
    if loud - floor > FLOOR_MARGIN_DB + 6:
        threshold = max(threshold, floor + FLOOR_MARGIN_DB)
    return levels >= threshold, size


def last_audible_s(pcm: np.ndarray, rate: int, before_s: float | None = None) -> float | None:
    """End of the last audible window (before ``before_s`` when given), or None."""
    loud, size = audible_windows(pcm, rate)
    if before_s is not None:
        loud = loud[: max(0, int(before_s * rate) // size)]
    hits = np.flatnonzero(loud)
    return None if hits.size == 0 else (hits[-1] + 1) * size / rate


def first_audible_s(pcm: np.ndarray, rate: int, after_s: float = 0.0) -> float | None:
    """Start of the first audible window at or after ``after_s``, or None."""
    loud, size = audible_windows(pcm, rate)
    start = int(np.ceil(after_s * rate / size))
    hits = np.flatnonzero(loud[start:])
    return None if hits.size == 0 else (hits[0] + start) * size / rate




class VoiceEnd:
    """Live: where the last audible sample of the input was, frame by frame.

    The noise floor is the quietest tenth of the recent windows heard outside speech."""

    def __init__(self, rate: int, floor_windows: int = 400):
        self.rate = rate
        self._quiet: deque[float] = deque(maxlen=floor_windows)
        self.last_s: float | None = None
        """Stream position (seconds) just after the last audible window."""

    def threshold_db(self) -> float:
        if len(self._quiet) < 20:
            return AUDIBLE_DBFS
        return max(AUDIBLE_DBFS, float(np.percentile(self._quiet, 10)) + FLOOR_MARGIN_DB)

    def push(self, frame: np.ndarray, start_s: float, in_speech: bool) -> None:
        """A frame starting at stream position ``start_s``."""
        levels, size = window_rms_db(frame, self.rate)
        if not in_speech:
            self._quiet.extend(float(v) for v in levels)
        hits = np.flatnonzero(levels >= self.threshold_db())
        if hits.size:
            self.last_s = start_s + (hits[-1] + 1) * size / self.rate
