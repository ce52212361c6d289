"""The llama.cpp build is tried in a child process before the first in-process load."""

from __future__ import annotations

import signal
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
    """An empty verdict cache and no verdict remembered in this process."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(native_probe, "_verdict", None)
    return tmp_path / "cache"


def test_a_child_killed_by_sigsegv_turns_extra_buffer_types_off(tmp_path):
    verdict = native_probe.probe(tmp_path / "any.gguf", command=CRASH_WITH_EXTRA)
    assert verdict is not None and verdict.extra_bufts is False
    assert "SIGSEGV" in verdict.reason
    assert "-mno-amx-tile" in verdict.note and "pip install" in verdict.note


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
    native_probe._verdict = None  # a restart: the verdict now comes from the file
    again = native_probe.check(model)
    assert again.cached and again.extra_bufts == first.extra_bufts
    llm = LlamaLlm(LlmConfig(n_gpu_layers=0))
    assert llm.native.extra_bufts == first.extra_bufts
    reply = "".join(llm.stream("What is the capital of France? Answer in one sentence.", GenerationStats()))
    assert reply.strip()


@pytest.mark.slow
def test_forced_crash_falls_back_and_the_app_answers(probe_cache, tmp_path):
    """What a CPU with a crashing AMX kernel sees, on any CPU: the real probe child dies
    with SIGSEGV, the model loads without extra buffer types, the question is answered
    and doctor says what happened."""
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
