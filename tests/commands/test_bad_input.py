"""Bad input gets a clear message and a non-zero exit, never a traceback or a crash."""

from __future__ import annotations

import pytest

from assistant.machine.models import find_llm

from fakes import run_assistant, toml_file

pytestmark = pytest.mark.slow


def run(*args):
    proc = run_assistant(*args, timeout=240)
    return proc.returncode, proc.stdout, proc.stderr


def test_missing_model_file(tmp_path):
    code, out, err = run("chat", "--text", "hi", "--no-audio", "--llm-model", tmp_path / "nope.gguf")
    assert code == 2 and "does not exist" in err and "Traceback" not in err


def test_wrong_file_type_as_model(tmp_path):
    fake = tmp_path / "model.gguf"
    fake.write_bytes(b"PK\x03\x04" + b"\0" * 4096)
    code, out, err = run("chat", "--text", "hi", "--no-audio", "--llm-model", fake)
    assert code == 2 and "not a GGUF" in err and "Traceback" not in err


def test_truncated_gguf(tmp_path):
    real = find_llm(None).path
    cut = tmp_path / "cut.gguf"
    with real.open("rb") as src:
        cut.write_bytes(src.read(2_000_000))
    code, out, err = run("chat", "--text", "hi", "--no-audio", "--llm-model", cut)
    assert code == 2 and "truncated" in err and "Traceback" not in err


def test_unreadable_wav(tmp_path):
    junk = tmp_path / "junk.wav"
    junk.write_text("not audio at all")
    code, out, err = run("chat", "--input", junk, "--output", tmp_path / "o.wav")
    assert code == 2 and "cannot read" in err and out == ""


def test_a_wav_with_no_speech_says_so(tmp_path):
    import numpy as np
    import soundfile as sf

    quiet = tmp_path / "quiet.wav"
    sf.write(quiet, np.random.default_rng(0).normal(0, 0.001, 3 * 16000).astype(np.float32), 16000)
    code, out, err = run("chat", "--input", quiet, "--output", tmp_path / "o.wav")
    assert code == 0 and "no speech was heard in" in err and out == ""
    assert (tmp_path / "o.wav").is_file()  # the reply track is still written, on the input's clock


def test_missing_voice(tmp_path):
    code, out, err = run("chat", "--text", "hi", "--no-audio", "--voice", tmp_path / "v.onnx")
    assert code == 2 and "does not exist" in err


def test_live_mode_without_a_microphone_says_so():
    import sounddevice as sd

    try:
        sd.query_devices(kind="input")
        pytest.skip("this machine has a microphone")
    except Exception:
        pass
    code, out, err = run("chat", "--no-audio")
    assert code == 2 and "no microphone" in err


def test_invalid_config_file_names_the_key(tmp_path):
    code, out, err = run("chat", "--config", toml_file(tmp_path, "[tts]\nengine = 3\n"), "--text", "hi", "--no-audio")
    assert code == 2 and "tts.engine" in err


def test_a_closed_standard_output_ends_the_run_and_says_so():
    """`assistant chat --json | head -1`-style readers close the pipe: the turn still ends and the run
    exits (it used to wait forever on a turn whose printing failed on the engine's thread)."""
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "assistant", "chat", "--text", "Hello there, how are you doing?",
                             "--no-audio", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdout.close()  # nobody reads the turns
    _, err = proc.communicate(timeout=240)
    assert proc.returncode == 0, err
    assert "standard output was closed" in err
