"""Synthetic models: real shapes, built once with random weights, timed like real ones.

The shapes are checked against the published parameter counts; a tiny shape is built,
quantized by llama.cpp, loaded through the assistant's own loader and listed/removed
by ``assistant models`` (the real sizes take minutes and gigabytes: the bench's job).
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import namedtuple

import pytest

from assistant.machine import synthetic
from assistant.speak.chunker import Chunker
from assistant.config import ChunkerConfig, LlmConfig
from assistant.machine.gguf_info import read_gguf
from assistant.machine.models import ModelError, find_llm

# Published sizes: Qwen2.5 model cards and Meta's Llama 3.1 / 3.2 cards.
PUBLISHED = {
    "qwen2.5-0.5b": 0.49e9, "qwen2.5-1.5b": 1.54e9, "qwen2.5-3b": 3.09e9, "qwen2.5-7b": 7.61e9,
    "llama3.2-1b": 1.24e9, "llama3.2-3b": 3.21e9, "llama3.1-8b": 8.03e9,
}


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_shapes_have_the_published_parameter_counts(name):
    assert synthetic.SHAPES[name].parameters == pytest.approx(PUBLISHED[name], rel=0.01)


def test_specs_parse_sizes_names_and_quantizations():
    spec = synthetic.parse("synthetic:3b")
    assert spec.shape.name == "qwen2.5-3b" and spec.quant == "q4_k_m" and spec.label == "synthetic:3b"
    spec = synthetic.parse("synthetic:1.5b:q8_0")
    assert spec.quant == "q8_0" and spec.path.name == "synthetic-qwen2.5-1.5b.Q8_0.gguf"
    assert synthetic.parse("synthetic:llama3.2-3b").shape.vocab == 128256
    assert synthetic.parse("synthetic:8B").shape.name == "llama3.1-8b"


@pytest.mark.parametrize("text, message", [
    ("synthetic:9b", "unknown synthetic model size '9b' (choose 0.5b, 1b, 1.5b, 3b, 7b, 8b"),
    ("synthetic:3b:q3", "unknown quantization 'q3' for synthetic:3b:q3 (choose q4_k_m, q8_0"),
])
def test_unknown_specs_are_refused_with_the_choices(text, message):
    with pytest.raises(ModelError, match=re.escape(message)):
        synthetic.parse(text)


def test_too_little_disk_is_refused_before_writing(monkeypatch):
    Usage = namedtuple("Usage", "total used free")
    monkeypatch.setattr(synthetic.shutil, "disk_usage", lambda _path: Usage(10 * 2**30, 9 * 2**30, 2**30))
    spec = synthetic.parse("synthetic:3b")
    with pytest.raises(ModelError, match=r"building synthetic:3b needs 7\.\d GB free in .* 1\.0 GB is free"):
        synthetic.build(spec, progress=False)
    assert not list(synthetic.folder().glob("synthetic-qwen2.5-3b*"))


@pytest.fixture(scope="module")
def tiny():
    return synthetic.ensure("synthetic:tiny", progress=False)


@pytest.mark.slow
def test_tiny_model_is_a_quantized_gguf_with_the_padded_vocabulary(tiny):
    info = read_gguf(tiny)
    assert info.quantization == "Q4_K_M" and info.block_count == 2 and info.embedding_length == 256
    assert info.metadata[synthetic.SHAPE_KEY] == "tiny"
    assert info.tensor("token_embd.weight").shape == (256, 49152)
    assert "<|im_start|>" in info.metadata["tokenizer.chat_template"]
    assert [p.name for p in synthetic.folder().iterdir() if "tiny" in p.name] == [tiny.name]  # no leftovers
    assert find_llm("synthetic:tiny").path == tiny


@pytest.mark.slow
def test_replies_are_speakable_nonsense_of_full_length(tiny):
    from assistant.think.conversation import GenerationStats
    from assistant.think.llm import LlamaLlm

    llm = LlamaLlm(LlmConfig(model="synthetic:tiny", max_tokens=30))
    assert llm.synthetic is not None
    stats = GenerationStats()
    reply = "".join(llm.stream("What is the capital of France?", stats))
    assert stats.tokens >= 30  # end-of-sequence is never chosen
    assert re.fullmatch(r"( [a-z]+[,.]?)+", reply), reply
    assert reply.count(".") == 2 and reply.count(",") == 3  # sentence-shaped: "w w w w w, w w w w w."
    first = Chunker(ChunkerConfig()).push(reply)[0]
    assert first.endswith(",") and len(first.split()) == 5


@pytest.mark.slow
def test_models_lists_the_cached_model_and_removes_it(tiny):
    def models(*args):
        return subprocess.run([sys.executable, "-m", "assistant", "models", *args], capture_output=True, text=True)

    listed = models()
    assert listed.returncode == 0, listed.stderr
    assert "synthetic-tiny.Q4_K_M.gguf  [synthetic (random weights" in listed.stdout
    assert "Q4_K_M, 14M parameters, llama, 2 layers" in listed.stdout
    removed = models("--remove", "synthetic:tiny")
    assert removed.stdout.strip() == f"removed {tiny}" and not tiny.exists()
    assert models("--remove", "synthetic:tiny").stdout.strip() == "no cached synthetic model matches synthetic:tiny"
    synthetic.ensure("synthetic:tiny", progress=False)  # back for the other tests
