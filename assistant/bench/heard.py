"""Latency as a person hears it, read off two same-clock WAV files.

The question WAV (the input) and the reply WAV (the output, written on the input's
clock) share sample 0, so the silence a listener waits is the time from the last audible
sample of the question to the first audible sample of the answer. "Audible" is the RMS
of short windows above a level: an absolute one (``AUDIBLE_DBFS``), raised above a
steady noise floor when the recording has one.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..audio import load_wav

AUDIBLE_DBFS = -40.0
"""A 5 ms window at or above this RMS level is audible (Piper's lead-in sits below -50)."""
WINDOW_MS = 5.0
FLOOR_MARGIN_DB = 12.0
"""Over a noise floor (the quietest tenth of the windows), audible starts this much above it
(when the loudest tenth stands out of the floor by more than that: a recording that is all
sound has no floor)."""


@dataclass(frozen=True)
class HeardLatency:
    question_end_s: float
    """Last audible sample of the question (seconds from sample 0)."""
    answer_start_s: float
    """First audible sample of the answer after it."""

    @property
    def ms(self) -> float:
        return round((self.answer_start_s - self.question_end_s) * 1000.0, 1)


def _window_rms_db(pcm: np.ndarray, rate: int) -> tuple[np.ndarray, int]:
    size = max(1, round(rate * WINDOW_MS / 1000))
    count = pcm.size // size
    if count == 0:
        return np.zeros(0), size
    windows = pcm[: count * size].astype(np.float64).reshape(count, size)
    rms = np.sqrt(np.mean(windows**2, axis=1))
    return 20 * np.log10(np.maximum(rms, 1e-9)), size


def audible_windows(pcm: np.ndarray, rate: int) -> tuple[np.ndarray, int]:
    """Which ``WINDOW_MS`` windows are audible, and the window size in samples."""
    levels, size = _window_rms_db(pcm, rate)
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


def heard_latency(question: np.ndarray, question_rate: int, answer: np.ndarray, answer_rate: int) -> HeardLatency | None:
    """From the question's last audible sample to the answer's first; None when either is silent.

    The question end is the last audible sample before the answer starts, so a reply
    that barged in early shows as a short (or negative, overlapping) wait, never as the
    silence after a later sentence.
    """
    start = first_audible_s(answer, answer_rate)
    if start is None:
        return None
    end = last_audible_s(question, question_rate, before_s=start)
    if end is None:
        return None
    return HeardLatency(end, start)


def heard_latency_files(question_wav: Path, answer_wav: Path) -> HeardLatency | None:
    """:func:`heard_latency` of two WAV files (each read at its own rate)."""
    import soundfile as sf

    rates = [sf.info(str(p)).samplerate for p in (question_wav, answer_wav)]
    return heard_latency(load_wav(question_wav, rates[0]), rates[0], load_wav(answer_wav, rates[1]), rates[1])
