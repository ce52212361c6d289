"""The llama.cpp build is tried in a child process before the first in-process load."""

from __future__ import annotations

import ctypes
import signal
import struct
import subprocess
import sys

import pytest

from assistant.machine import native_probe
from assistant.config import LlmConfig
from assistant.think.conversation import GenerationStats
from assistant.think.llm import LlamaLlm
from assistant.machine.models import find_llm

CRASH_ALWAYS = [sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)"]
CRASH_WITH_EXTRA = [sys.executable, "-c",
                    "import os, signal\n"
                    f"if os.environ['{native_probe.EXTRA_ENV}'] == '1': os.kill(os.getpid(), signal.SIGSEGV)"]
FAIL_ORDINARILY = [sys.executable, "-c", "raise SystemExit('cannot open the model')"]


@pytest.fixture
def probe_cache(tmp_path, monkeypatch):
    """An empty check cache and no check remembered in this process (nor after the test)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    native_probe.forget()
    yield tmp_path / "cache"
    native_probe.forget()


def tiny_gguf(path, *types: int):
    """A GGUF with one 32-element tensor of each ggml type in ``types`` (0 F32, 8 Q8_0...)."""
    u32, u64 = struct.Struct("<I"), struct.Struct("<Q")
    header, data = b"GGUF" + u32.pack(3) + u64.pack(len(types)) + u64.pack(0), b""
    for i, kind in enumerate(types):
        name = f"t{i}".encode()
        header += u64.pack(len(name)) + name + u32.pack(1) + u64.pack(32) + u32.pack(kind) + u64.pack(len(data))
        data += b"\0" * (128 if kind == 0 else 34)
        data += b"\0" * (-len(data) % 32)
    path.write_bytes(header + b"\0" * (-len(header) % 32) + data)
    return path


def test_a_child_killed_by_sigsegv_turns_extra_buffer_types_off(tmp_path):
    build = native_probe.probe(tmp_path / "any.gguf", command=CRASH_WITH_EXTRA)
    assert build is not None and build.extra_bufts is False and build.lasting
    assert "SIGSEGV" in build.reason
    assert "-mno-amx-tile" in build.note and "pip install" in build.note


def test_a_timeout_is_used_for_this_run_and_checked_again_at_the_next_start(probe_cache, tmp_path, monkeypatch):
    model = tiny_gguf(tmp_path / "model.gguf", 0, 8)
    runs = []

    def too_slow(*_args, **_kwargs):
        runs.append(1)
        raise subprocess.TimeoutExpired("probe", native_probe.PROBE_TIMEOUT_S)

    monkeypatch.setattr(native_probe, "_run_child", too_slow)
    build = native_probe.check(model)
    assert build.extra_bufts is False and not build.lasting and "next start" in build.reason
    assert native_probe.check(model) is build and len(runs) == 1  # not probed again in this run
    assert native_probe.cached_check(model) is None  # ... nor cached for good
    native_probe.forget()  # the next start
    native_probe.check(model)
    assert len(runs) == 2


def test_the_cache_key_holds_the_models_tensor_types(tmp_path):
    f32_q8 = tiny_gguf(tmp_path / "a.gguf", 0, 8)
    assert native_probe.tensor_types(f32_q8) == ["F32", "Q8_0"]
    same_types = tiny_gguf(tmp_path / "b.gguf", 8, 0, 8)
    q4 = tiny_gguf(tmp_path / "c.gguf", 0, 2)
    assert native_probe.build_key(f32_q8) == native_probe.build_key(same_types)
    assert native_probe.build_key(f32_q8) != native_probe.build_key(q4)


def test_a_params_structure_without_the_field_fails_loudly(monkeypatch):
    class OldParams(ctypes.Structure):
        _fields_ = [("n_gpu_layers", ctypes.c_int32), ("use_mmap", ctypes.c_bool)]

    params = OldParams()
    params.use_extra_bufts = False  # what the probe once did: ctypes takes it without a word
    assert "use_extra_bufts" not in [name for name, _ in OldParams._fields_]
    with pytest.raises(native_probe.NativeBuildError, match="no use_extra_bufts"):
        native_probe.require_extra_bufts_field(OldParams)

    import llama_cpp.llama_cpp as lib

    monkeypatch.setattr(lib, "llama_model_params", OldParams)
    with pytest.raises(native_probe.NativeBuildError, match="cannot be turned off"):
        with native_probe.model_params(False):
            pass


def test_the_installed_llama_cpp_turns_extra_buffer_types_off():
    import llama_cpp.llama_cpp as lib

    native_probe.require_extra_bufts_field(lib.llama_model_params)
    with native_probe.model_params(False):
        assert lib.llama_model_default_params().use_extra_bufts is False
    assert lib.llama_model_default_params().use_extra_bufts is True


def test_a_build_that_crashes_either_way_is_a_clear_error(tmp_path):
    with pytest.raises(native_probe.NativeBuildError, match="Rebuild it"):
        native_probe.probe(tmp_path / "any.gguf", command=CRASH_ALWAYS)


def test_an_ordinary_failure_says_nothing_about_the_build(tmp_path):
    assert native_probe.probe(tmp_path / "any.gguf", command=FAIL_ORDINARILY) is None


def test_exit_descriptions():
    assert native_probe.describe_exit(-signal.SIGSEGV) == "killed by SIGSEGV"
    assert native_probe.crashed(0xC0000005) and "0xC0000005" in native_probe.describe_exit(0xC0000005)
    assert not native_probe.crashed(1) and not native_probe.crashed(0)


@pytest.mark.slow
def test_real_probe_is_cached_and_its_verdict_loads_a_working_model(probe_cache):
    model = find_llm(None).path
    first = native_probe.check(model)
    assert not first.cached and first.probe_s > 0
    assert first.extra_bufts or "killed by" in first.reason
    native_probe.forget()  # a restart: the check now comes from the file
    again = native_probe.check(model)
    assert again.cached and again.extra_bufts == first.extra_bufts
    llm = LlamaLlm(LlmConfig(n_gpu_layers=0))
    assert llm.native.extra_bufts == first.extra_bufts
    reply = "".join(llm.stream("What is the capital of France? Answer in one sentence.", GenerationStats()))
    assert reply.strip()


@pytest.mark.slow
def test_the_real_model_loads_without_extra_buffer_types_and_answers(probe_cache, monkeypatch):
    """The fallback path in this process: the check says the build crashes with them."""
    crashes = native_probe.BuildCheck(False, "a multi-token prompt with them killed by SIGSEGV", 0.0)
    monkeypatch.setattr(native_probe, "check", lambda model: crashes)
    llm = LlamaLlm(LlmConfig(n_gpu_layers=0))
    assert llm._llama.model_params.use_extra_bufts is False  # what llama.cpp was given
    assert llm.build_note and "extra buffer types are off" in llm.build_note
    reply = "".join(llm.stream("What is the capital of France? Answer in one sentence.", GenerationStats()))
    print(f"\nwithout extra buffer types: {reply.strip()!r}")
    assert reply.strip()


@pytest.mark.slow
def test_forced_crash_falls_back_and_the_app_answers(probe_cache, tmp_path):
    """What a CPU with a crashing AMX kernel sees, on any CPU: the real probe child loads
    llama.cpp and the model and dies with SIGSEGV at the first batch, a second child
    loads it without extra buffer types and evaluates the prompt, the app loads it the
    same way, the question is answered and doctor says what happened."""
    env = {**__import__("os").environ, native_probe.FORCE_CRASH_ENV: "1", "XDG_CACHE_HOME": str(probe_cache)}
    out = tmp_path / "answer.wav"
    chat = subprocess.run([sys.executable, "-m", "assistant", "-v", "chat", "--text", "What is the capital of France?",
                           "--output", str(out), "--json"], env=env, capture_output=True, text=True, timeout=300)
    assert chat.returncode == 0, chat.stderr[-2000:]
    assert "extra buffer types are off" in chat.stderr and "SIGSEGV" in chat.stderr
    assert '"reply"' in chat.stdout and out.stat().st_size > 10_000
    doctor = subprocess.run([sys.executable, "-m", "assistant", "doctor"], env=env,
                            capture_output=True, text=True, timeout=120)
    assert doctor.returncode == 0, doctor.stderr[-2000:]
    assert "extra buffer types off" in doctor.stdout and "-mno-amx-tile" in doctor.stdout
