"""Latency as a person hears it, read off two same-clock WAV files.

The question WAV (the input) and the reply WAV (the output, written on the input's
clock) share sample 0, so the silence a listener waits is the time from the last audible
sample of the question to the first audible sample of the answer (see
:mod:`assistant.sound` for what counts as audible).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from assistant.sound import first_audible_s, last_audible_s
from assistant.sound import load_wav


@dataclass(frozen=True)
class HeardLatency:
    question_end_s: float
    """Last audible sample of the whole question (seconds from sample 0)."""
    answer_start_s: float
    """First audible sample of the answer."""

    @property
    def ms(self) -> float:
        """The silence the listener waited; negative when the answer began before the
        question was over (a cut-off, never a fast turn)."""
        return round((self.answer_start_s - self.question_end_s) * 1000.0, 1)

    @property
    def cut_off(self) -> bool:
        return self.answer_start_s < self.question_end_s


def heard_latency(question: np.ndarray, question_rate: int, answer: np.ndarray, answer_rate: int,
                  question_end_s: float | None = None) -> HeardLatency | None:
    """From the question's last audible sample to the answer's first; None when either is silent.

    The question's end is its last audible sample (or ``question_end_s``, where the last
    word is known to end: under steady noise the noise would count), wherever the answer
    starts: an answer that starts while the user is still speaking (or in a pause before
    their last words) shows as a negative wait.
    """
    start = first_audible_s(answer, answer_rate)
    end = question_end_s if question_end_s is not None else last_audible_s(question, question_rate, quiet_speaker=True)
    if start is None or end is None:
        return None
    return HeardLatency(end, start)


def heard_latency_files(question_wav: Path, answer_wav: Path) -> HeardLatency | None:
    """:func:`heard_latency` of two WAV files (each read at its own rate)."""
    import soundfile as sf

    rates = [sf.info(str(p)).samplerate for p in (question_wav, answer_wav)]
    return heard_latency(load_wav(question_wav, rates[0]), rates[0], load_wav(answer_wav, rates[1]), rates[1])
