"""Spoken test questions: synthesized with the configured TTS and cached as WAVs.

Used by the benchmark and by the end-to-end tests, so both hear the same kind of input.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from assistant.sound import load_wav, resample, save_wav
from assistant.speak.tts import Tts

DEFAULT_QUESTIONS = [
    "What is the capital of France?",
    "How many days are in a week?",
    "Tell me a fun fact about the moon.",
    "What color is the sky?",
    "Can you recommend a good book?",
    "Why do cats purr?",
    "What should I cook for dinner tonight?",
    "How far away is the sun?",
]


def speak_question(tts: Tts, text: str, rate: int = 16000, lead_s: float = 0.5, tail_s: float = 1.2) -> np.ndarray:
    """``text`` spoken by ``tts`` at ``rate``, with silence before and after (a turn); the
    same every time where the voice can be steady."""
    speech = np.concatenate(list(tts.steady(text)))
    speech = resample(speech, tts.rate, rate) * 0.8
    return np.concatenate([np.zeros(int(lead_s * rate), np.float32), speech, np.zeros(int(tail_s * rate), np.float32)])


def question_wav(tts: Tts, text: str, folder: Path, rate: int = 16000) -> Path:
    """Cached WAV of ``text``; synthesized on first use."""
    folder.mkdir(parents=True, exist_ok=True)
    slug = "".join(c if c.isalnum() else "_" for c in text.lower()).strip("_")[:60]
    path = folder / f"{slug}.wav"
    if not path.exists():
        save_wav(path, speak_question(tts, text, rate), rate)
    return path


def speech_bounds(path: Path, rate: int = 16000, threshold: float = 0.02) -> tuple[float, float] | None:
    """First and last sample above ``threshold`` (seconds), or None for silence."""
    pcm = load_wav(path, rate)
    loud = np.flatnonzero(np.abs(pcm) > threshold)
    if loud.size == 0:
        return None
    return loud[0] / rate, loud[-1] / rate
