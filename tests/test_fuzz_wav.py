"""WAV input, fuzzed: every header and body gives samples a listener can use or one clear
line saying why not, never a traceback.

Headers are built by hand so that what no WAV writer produces can be tried: 0 or 8
channels, 8/16/24/32-bit integers, 32/64-bit floats, 8 to 192 kHz, declared sizes far
beyond the file, random bytes after ``RIFF``, and every truncation of a valid file."""

from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from assistant.sound import AudioError, load_wav

from fakes import Scratch, fuzz_settings

REPO = Path(__file__).resolve().parent.parent
RATE = 16000
FORMATS = {  # (format tag, bits) -> numpy type of one sample
    (1, 8): np.uint8, (1, 16): np.int16, (1, 24): None, (1, 32): np.int32, (3, 32): np.float32, (3, 64): np.float64,
}
FUZZ = fuzz_settings(150)
SCRATCH = Scratch("fuzz-wav-")
"""Where the fuzzed files are written (hypothesis tests take no ``tmp_path``)."""


def wav_bytes(channels: int, rate: int, tag: int, bits: int, body: bytes,
              riff_size: int | None = None, data_size: int | None = None) -> bytes:
    block = channels * bits // 8
    fmt = struct.pack("<HHIIHH", tag, channels, rate, rate * block % 2**32, block % 2**16, bits)
    chunks = b"fmt " + struct.pack("<I", len(fmt)) + fmt
    chunks += b"data" + struct.pack("<I", len(body) if data_size is None else data_size) + body
    size = 4 + len(chunks) if riff_size is None else riff_size
    return b"RIFF" + struct.pack("<I", size) + b"WAVE" + chunks


def samples(channels: int, frames: int, tag: int, bits: int, seed: int) -> bytes:
    rng = np.random.default_rng(seed)
    wave = rng.uniform(-0.9, 0.9, (frames, channels))
    if tag == 3:
        return wave.astype(np.float32 if bits == 32 else np.float64).tobytes()
    if bits == 8:
        return (wave * 127 + 128).astype(np.uint8).tobytes()
    scaled = (wave * (2 ** (bits - 1) - 1)).astype(np.int32)
    if bits == 24:
        return b"".join(int(v).to_bytes(3, "little", signed=True) for v in scaled.ravel())
    return scaled.astype(np.int16 if bits == 16 else np.int32).tobytes()


def write(data: bytes) -> Path:
    path = SCRATCH / "input.wav"
    path.write_bytes(data)
    return path


def load_or_error(data: bytes) -> np.ndarray | AudioError:
    """What the assistant makes of ``data``: samples, or the error it shows (anything else fails the test)."""
    try:
        pcm = load_wav(write(data), RATE)
    except AudioError as exc:
        message = str(exc)
        assert message and "\n" not in message and "input.wav" in message, message
        return exc
    assert isinstance(pcm, np.ndarray) and pcm.dtype == np.float32 and pcm.ndim == 1 and pcm.size > 0
    assert np.isfinite(pcm).all() and np.abs(pcm).max() <= 1.0
    return pcm


formats = st.sampled_from(sorted(FORMATS))


@FUZZ
@given(channels=st.integers(1, 8), rate=st.integers(8000, 192000), fmt=formats, frames=st.integers(1, 1500),
       seed=st.integers(0, 2**16))
def test_valid_headers_give_the_right_number_of_samples(channels, rate, fmt, frames, seed):
    tag, bits = fmt
    pcm = load_or_error(wav_bytes(channels, rate, tag, bits, samples(channels, frames, tag, bits, seed)))
    expected = frames * RATE / rate
    if isinstance(pcm, AudioError):
        assert expected < 2 and "too short" in str(pcm)
    else:
        assert abs(pcm.size - expected) <= 2


@FUZZ
@given(channels=st.sampled_from([0, 1, 2, 8, 65535]), rate=st.sampled_from([0, 1, 8000, 192000, 2**32 - 1]),
       fmt=st.tuples(st.sampled_from([0, 1, 2, 3, 0xFFFE, 0x7777]), st.sampled_from([0, 4, 8, 12, 16, 24, 32, 64])),
       body=st.binary(max_size=2048), riff_size=st.one_of(st.none(), st.integers(0, 2**32 - 1)),
       data_size=st.one_of(st.none(), st.integers(0, 2**32 - 1)))
def test_odd_headers_and_declared_sizes(channels, rate, fmt, body, riff_size, data_size):
    load_or_error(wav_bytes(channels, rate, fmt[0], fmt[1], body, riff_size, data_size))


@FUZZ
@given(rest=st.binary(max_size=4096))
def test_random_bytes_after_riff(rest):
    load_or_error(b"RIFF" + rest)


VALID = wav_bytes(2, 44100, 1, 16, samples(2, 100, 1, 16, 0))


@pytest.mark.parametrize("length", range(len(VALID)))
def test_every_truncation_of_a_valid_file(length):
    load_or_error(VALID[:length])


@FUZZ
@given(position=st.integers(0, 43), value=st.integers(0, 255))
def test_one_byte_of_the_header_changed(position, value):
    data = bytearray(VALID)
    data[position] = value
    load_or_error(bytes(data))


def test_not_a_number_and_loud_floats_are_made_safe():
    wave = np.array([[np.nan], [np.inf], [-np.inf], [3.0], [-0.5]] * 40, np.float64)
    pcm = load_or_error(wav_bytes(1, RATE, 3, 64, wave.tobytes()))
    assert isinstance(pcm, np.ndarray) and pcm.size == 200


@pytest.mark.parametrize("data", [b"", b"RIFF", wav_bytes(0, RATE, 1, 16, b"\0" * 64), b"RIFF" + b"\xff" * 60])
def test_the_command_line_says_one_line_and_exits_2(data, tmp_path):
    path = tmp_path / "question.wav"
    path.write_bytes(data)
    run = subprocess.run([sys.executable, "-m", "assistant", "chat", "--input", str(path), "--no-audio"],
                         capture_output=True, text=True, timeout=120, cwd=REPO)
    assert run.returncode == 2
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and "question.wav" in lines[0], run.stderr
