"""Speculative decoding: prompt lookup and a GGUF draft model plug into generation."""

from __future__ import annotations

import numpy as np
import pytest

from assistant.machine import native_probe
from assistant.config import LlmConfig
from assistant.think.draft import GgufDraft, make_draft
from assistant.think.conversation import GenerationStats
from assistant.think.llm import LlamaLlm
from assistant.machine.models import ModelError, find_llm

pytestmark = pytest.mark.slow


def test_off_by_default():
    assert make_draft(LlmConfig(), threads=1) is None


def test_gguf_draft_proposes_the_greedy_continuation():
    path = find_llm(None).path
    draft = GgufDraft(path, tokens=4, threads=1)
    target = native_probe.load(path, n_ctx=512, verbose=False)
    prompt = target.tokenize(b"The capital of France is")
    proposed = draft(np.array(prompt, dtype=np.intc))
    assert 0 < len(proposed) <= 4
    target.eval(prompt)
    assert int(proposed[0]) == int(np.argmax(target.scores[target.n_tokens - 1]))
    # called again with one more token, it reuses its cache and stays in step
    longer = prompt + [int(proposed[0])]
    again = draft(np.array(longer, dtype=np.intc))
    assert list(again[: len(proposed) - 1]) == list(proposed[1:])


@pytest.mark.parametrize("draft", ["prompt-lookup", "gguf"])
def test_generation_with_a_draft_answers(draft, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    setting = str(find_llm(None).path) if draft == "gguf" else draft
    llm = LlamaLlm(LlmConfig(n_gpu_layers=0, draft=setting, max_tokens=24))
    stats = GenerationStats()
    reply = "".join(llm.stream("Repeat after me: the quick brown fox.", stats))
    assert reply.strip() and stats.tokens > 0


def test_bad_draft_path_is_a_clear_error(tmp_path):
    with pytest.raises(ModelError, match="does not exist"):
        make_draft(LlmConfig(draft=str(tmp_path / "missing.gguf")), threads=1)
