"""A reading that stopped at a pause is read on: Whisper tiny.en's decoding without timestamps
ends after a fragment that sounds finished, and the words said after the pause were lost."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

from assistant.hear.stt import RATE


def espeak(text: str, voice: str = "en-us+adam", rate: int = 165, pitch: int = 45) -> np.ndarray:
    """``text`` said by eSpeak NG, 16 kHz mono, trimmed of its silence."""
    import io

    import soundfile as sf
    import soxr

    raw = subprocess.run(["espeak-ng", "-v", voice, "-s", str(rate), "-p", str(pitch), "--stdout", text],
                         capture_output=True, check=True).stdout
    pcm, rate_in = sf.read(io.BytesIO(raw), dtype="float32")
    pcm = soxr.resample(pcm, rate_in, RATE).astype(np.float32)
    loud = np.flatnonzero(np.abs(pcm) > 0.005)
    return pcm[loud[0] : loud[-1] + 1]


def test_the_words_after_a_thinking_pause_are_not_lost(engines):
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed")
    stt = engines.stt
    silence = np.zeros(RATE // 2, np.float32)
    said = np.concatenate([silence, espeak("How many"), np.zeros(RATE, np.float32), espeak("legs does a crab have?"),
                           silence, silence])
    encoded = stt._encode(said, 8)
    plain = stt._read(encoded, stt._prompt, 1, 8, said.size / RATE)[1]
    assert plain == "How many?"  # what was answered before: the question after the pause was lost
    text, _, decoding = stt.transcribe_decoding(said)
    assert text.startswith("How many?") and len(text.split()) >= 5
    assert decoding.text == text and decoding.least_word_p is not None  # its words' odds are the longer reading's
