"""Where the LLM decodes: every core for the first clause, then its own threads; CPU or GPU."""

from __future__ import annotations

from dataclasses import replace

import pytest

from assistant.think.conversation import GenerationStats


def _threads(llm) -> tuple[int, int]:
    import llama_cpp

    ctx = llm._llama._ctx.ctx
    return llama_cpp.llama_n_threads(ctx), llama_cpp.llama_n_threads_batch(ctx)


@pytest.mark.slow
def test_all_cores_switches_decoding_threads_and_back(engines):
    llm = engines.llm
    own = _threads(llm)
    assert own == (llm._llama.n_threads, llm._llama.n_threads_batch)
    stream = llm.stream("Name a color.", GenerationStats())
    first = next(stream)
    llm.all_cores(True)
    assert _threads(llm) == (llm._llama.n_threads_batch, llm._llama.n_threads_batch)
    rest = "".join(stream)
    llm.all_cores(False)
    assert _threads(llm) == own
    assert (first + rest).strip()


@pytest.mark.slow
def test_a_prefill_leaves_the_threads_as_they_were(engines):
    llm = engines.llm
    own = _threads(llm)
    assert llm.prefill("What is the")
    assert _threads(llm) == own


@pytest.mark.slow
@pytest.mark.parametrize("layers, gpu, on_cpu", [
    (0, False, True), (-1, False, True),  # no GPU support in llama.cpp: always the CPU
    (0, True, True), (10, True, True),  # some layers stay on the CPU
    (-1, True, False), (999, True, False),  # all offloaded
])
def test_on_cpu_follows_the_offload(engines, monkeypatch, layers, gpu, on_cpu):
    llm = engines.llm
    monkeypatch.setattr(type(llm), "_supports_gpu", staticmethod(lambda: gpu))
    monkeypatch.setattr(llm, "config", replace(llm.config, n_gpu_layers=layers))
    assert llm.on_cpu is on_cpu


def _openmp_env(**env) -> list[str]:
    import os
    import subprocess
    import sys

    clean = {k: v for k, v in os.environ.items() if k not in ("GOMP_SPINCOUNT", "OMP_WAIT_POLICY")}
    code = "import os, assistant; print(os.environ.get('GOMP_SPINCOUNT'), os.environ.get('OMP_WAIT_POLICY'))"
    done = subprocess.run([sys.executable, "-c", code], env={**clean, **env}, capture_output=True, text=True, check=True)
    return done.stdout.split()


def test_openmp_threads_spin_briefly_before_sleeping():
    # a bounded spin, and not PASSIVE, which would also stop all spinning when libgomp
    # manages more threads than there are cores
    assert _openmp_env() == ["300", "None"]
    assert _openmp_env(GOMP_SPINCOUNT="0", OMP_WAIT_POLICY="ACTIVE") == ["0", "ACTIVE"]  # the user's setting wins


def test_the_end_of_turn_evaluation_is_the_start_of_the_reply(engines):
    """The model's end-of-turn probability for a whole question is high and for a cut-off
    one low; evaluating it leaves the reply's whole prompt in the cache, so the reply
    evaluates nothing more and says what it says without it."""
    from assistant.think.conversation import GenerationStats

    llm = engines.llm
    question = "What is the capital of France?"
    plain_stats = GenerationStats()
    plain = "".join(llm.stream(question, plain_stats))
    llm.reset()
    # asked without Whisper's punctuation, as the turn detector asks it (its thresholds are log10)
    cut_off = llm.end_of_turn("what is the capital of")
    whole = llm.end_of_turn("What is the capital of France", reply_to=question)
    assert whole > 1000 * cut_off
    stats = GenerationStats()
    reply = "".join(llm.stream(question, stats))
    assert reply == plain
    assert stats.reused_tokens == stats.prompt_tokens - 1 > plain_stats.reused_tokens
