"""The evaluated system prompt is saved to disk and reused after a restart."""

from __future__ import annotations

from dataclasses import replace

import pytest

from assistant.config import LlmConfig
from assistant.think.conversation import GenerationStats
from assistant.think.llm import LlamaLlm

pytestmark = pytest.mark.slow


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache"


def first_turn(llm):
    stats = GenerationStats()
    reply = "".join(llm.stream("What is two plus two?", stats))
    return reply, stats


def test_restart_reuses_the_saved_prompt(cache_home):
    config = LlmConfig(n_gpu_layers=0)
    cold = LlamaLlm(config)
    assert cold.load_stats["prefix_from_disk"] is False
    assert cold.load_stats["prefix_eval_tokens"] == cold.load_stats["prefix_tokens"] > 0
    cold_reply, _ = first_turn(cold)
    del cold

    warm = LlamaLlm(config)  # a restart
    assert warm.load_stats["prefix_from_disk"] is True
    assert warm.load_stats["prefix_eval_tokens"] == 0  # no prefill of the system prompt at all
    reply, stats = first_turn(warm)
    assert stats.reused_tokens >= warm.load_stats["prefix_tokens"]
    assert stats.prompt_tokens - stats.reused_tokens < warm.load_stats["prefix_tokens"]
    assert reply == cold_reply  # the restored KV state is the same computation


def test_changed_prompt_invalidates_the_cache(cache_home):
    LlamaLlm(LlmConfig(n_gpu_layers=0))
    other = LlamaLlm(LlmConfig(n_gpu_layers=0, system_prompt="You are a pirate. Answer briefly."))
    assert other.load_stats["prefix_from_disk"] is False


def test_corrupt_cache_file_is_rebuilt(cache_home):
    LlamaLlm(LlmConfig(n_gpu_layers=0))
    files = list(cache_home.rglob("*.kv"))
    assert len(files) == 1
    files[0].write_bytes(b"garbage" * 100)
    rebuilt = LlamaLlm(LlmConfig(n_gpu_layers=0))
    assert rebuilt.load_stats["prefix_from_disk"] is False
    reply, _ = first_turn(rebuilt)
    assert reply
    again = LlamaLlm(LlmConfig(n_gpu_layers=0))
    assert again.load_stats["prefix_from_disk"] is True


def test_cache_can_be_turned_off(cache_home):
    config = replace(LlmConfig(n_gpu_layers=0), prompt_cache=False)
    LlamaLlm(config)
    assert LlamaLlm(config).load_stats["prefix_from_disk"] is False
    assert not list(cache_home.rglob("*.kv"))


def test_next_turn_evaluates_only_the_new_question(engines):
    llm = engines.llm
    reply = "".join(llm.stream("What is the capital of France?", GenerationStats()))
    llm.remember("What is the capital of France?", reply)
    # The reply's end markup and the next user header are evaluated while the reply plays.
    prefix = llm.system_prefix()
    stats = GenerationStats()
    "".join(llm.stream("And of Germany?", stats))
    full, _ = llm._render(llm.history.messages(llm.config.system_prompt, "And of Germany?"))
    assert full[: len(prefix)] == prefix and len(prefix) > 0
    assert stats.reused_tokens == len(prefix)
    assert stats.prompt_tokens - stats.reused_tokens == len(full) - len(prefix)


def test_words_prefilled_while_the_user_speaks_are_not_evaluated_again(engines):
    llm = engines.llm
    prefix = len(llm.system_prefix())
    evaluated = llm.prefill("What is the capital")
    assert evaluated > 0
    assert llm.prefill("What is the capital") == 0  # nothing new
    evaluated += llm.prefill("What is the capital of France")
    stats = GenerationStats()
    reply = "".join(llm.stream("What is the capital of France?", stats))
    assert reply.strip()
    assert stats.reused_tokens == prefix + evaluated
    assert stats.prompt_tokens - stats.reused_tokens <= 8  # the last word, "?" and the reply header


def test_revised_words_are_evaluated_from_the_first_change(engines):
    llm = engines.llm
    prefix = len(llm.system_prefix())
    llm.prefill("Tell me about the sun and the stars")
    stats = GenerationStats()
    "".join(llm.stream("Tell me about the moon.", stats))
    said = llm.count_tokens("Tell me about the")
    assert prefix + said - 1 <= stats.reused_tokens <= prefix + said
