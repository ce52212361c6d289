"""The offload planner over fake machines: the real embedded model's header, and
synthetic 8B / 14B headers to show partial offload."""

from __future__ import annotations

from types import SimpleNamespace

from dataclasses import replace
from pathlib import Path

import pytest

from assistant.machine import planner
from assistant.config import LlmConfig
from assistant.machine.gguf_info import GGML_TYPES, GgufInfo, Tensor, read_gguf
from assistant.machine.hardware import GB, Gpu, Hardware
from assistant.machine.models import find_llm
from assistant.machine.planner import TIERS, plan, plan_for, recommend

Q4_K, Q6_K, F32 = 12, 14, 0


def _tensor(name: str, shape: tuple[int, ...], kind: int) -> Tensor:
    _label, block, size = GGML_TYPES[kind]
    n = 1
    for d in shape:
        n *= d
    return Tensor(name, shape, kind, 0, n // block * size)


def fake_model(name: str, n_layer: int, n_embd: int, n_ff: int, n_head: int, n_head_kv: int, n_vocab: int) -> GgufInfo:
    """A llama-architecture header with Q4_K layers and a Q6_K output head (like Q4_K_M)."""
    head = n_embd // n_head
    tensors = [_tensor("token_embd.weight", (n_embd, n_vocab), Q4_K), _tensor("output.weight", (n_embd, n_vocab), Q6_K)]
    for i in range(n_layer):
        tensors += [
            _tensor(f"blk.{i}.attn_q.weight", (n_embd, n_embd), Q4_K),
            _tensor(f"blk.{i}.attn_k.weight", (n_embd, n_head_kv * head), Q4_K),
            _tensor(f"blk.{i}.attn_v.weight", (n_embd, n_head_kv * head), Q6_K),
            _tensor(f"blk.{i}.attn_output.weight", (n_embd, n_embd), Q4_K),
            _tensor(f"blk.{i}.ffn_gate.weight", (n_embd, n_ff), Q4_K),
            _tensor(f"blk.{i}.ffn_up.weight", (n_embd, n_ff), Q4_K),
            _tensor(f"blk.{i}.ffn_down.weight", (n_ff, n_embd), Q6_K),
            _tensor(f"blk.{i}.attn_norm.weight", (n_embd,), F32),
            _tensor(f"blk.{i}.ffn_norm.weight", (n_embd,), F32),
        ]
    metadata = {
        "general.architecture": "llama",
        "general.name": name,
        "general.file_type": 15,
        "llama.block_count": n_layer,
        "llama.context_length": 131072,
        "llama.embedding_length": n_embd,
        "llama.feed_forward_length": n_ff,
        "llama.attention.head_count": n_head,
        "llama.attention.head_count_kv": n_head_kv,
        "llama.vocab_size": n_vocab,
    }
    size = sum(t.nbytes for t in tensors)
    return GgufInfo(Path(f"{name}.gguf"), size, 3, metadata, tuple(tensors))


LLAMA_8B = fake_model("Llama-3.1-8B", 32, 4096, 14336, 32, 8, 128256)
QWEN_14B = fake_model("Qwen2.5-14B", 48, 5120, 13824, 40, 8, 152064)


def machine(*free_gb: float, offload: bool = True, ram_gb: float = 32) -> Hardware:
    gpus = tuple(Gpu(i, f"GPU{i}", "nvidia", int(gb * GB), int(gb * GB)) for i, gb in enumerate(free_gb))
    return Hardware(gpus, 8, 16, int(ram_gb * GB), int(ram_gb * GB), offload)


VRAM_SIZES = [0, 4, 8, 12, 16, 24, 80]


@pytest.fixture(scope="module")
def smollm():
    return read_gguf(find_llm(None).path)


def test_synthetic_models_are_realistic_sizes():
    assert 4.3 * GB < LLAMA_8B.tensor_bytes < 5.2 * GB  # Q4_K_M 8B is 4.9 GB on disk
    assert 7.8 * GB < QWEN_14B.tensor_bytes < 9.5 * GB  # Q4_K_M 14B is 9.0 GB on disk
    assert LLAMA_8B.quantization == "Q4_K_M" and 7.5e9 < LLAMA_8B.parameters < 8.5e9


@pytest.mark.parametrize("vram", VRAM_SIZES)
def test_small_model_goes_all_on_gpu_whenever_there_is_one(smollm, vram):
    p = plan(smollm, machine(vram) if vram else machine())
    if vram == 0:
        assert p.n_gpu_layers == 0 and "no GPU found" in p.summary
    else:
        assert p.n_gpu_layers == -1 and p.layers_on_gpu == 30
        assert p.summary.startswith("30/30 layers + output on GPU")
        assert p.gpu_bytes < 0.5 * GB and p.fits
    assert p.n_ctx == 2048 and p.kv_type == "f16"


@pytest.mark.parametrize("model", [LLAMA_8B, QWEN_14B], ids=["8B", "14B"])
def test_big_models_layers_grow_with_vram(model):
    plans = [plan(model, machine(gb) if gb else machine()) for gb in VRAM_SIZES]
    layers = [p.layers_on_gpu for p in plans]
    assert layers == sorted(layers)
    assert layers[0] == 0 and plans[-1].n_gpu_layers == -1
    for p in plans:
        assert p.gpu_bytes <= max(0, p.vram_free_bytes - planner.HEADROOM_BYTES)
        assert p.fits


def test_8b_tiers():
    assert 0 < plan(LLAMA_8B, machine(4)).layers_on_gpu < 32  # partial
    assert plan(LLAMA_8B, machine(8)).n_gpu_layers == -1
    p = plan(LLAMA_8B, machine(5))
    assert 0 < p.n_gpu_layers < 32
    assert p.summary.startswith(f"{p.n_gpu_layers}/32 layers on GPU (partial")
    assert "of 5.0 GB free" in p.summary
    blocks_only = plan(LLAMA_8B, machine(5.8))
    assert blocks_only.n_gpu_layers == 32 and "output head stays on the CPU" in blocks_only.summary


def test_14b_partial_on_8gb_full_on_16gb():
    partial = plan(QWEN_14B, machine(8))
    assert 20 < partial.n_gpu_layers < 48
    assert plan(QWEN_14B, machine(16)).n_gpu_layers == -1


def test_two_gpus_pool_their_memory():
    one = plan(QWEN_14B, machine(8))
    two = plan(QWEN_14B, machine(8, 8))
    assert two.n_gpu_layers == -1 and one.n_gpu_layers < 48
    assert "split over 2 GPUs" in two.summary and "of 16.0 GB free" in two.summary


def test_quantized_kv_when_it_is_what_makes_the_model_fit():
    ctx = 32768
    c = planner.costs(LLAMA_8B, ctx)
    all_f16 = 32 * (c.layer + c.kv_layer("f16")) + c.output + c.compute
    all_q8 = 32 * (c.layer + c.kv_layer("q8_0")) + c.output + c.compute
    between = (all_f16 + all_q8) / 2 + planner.HEADROOM_BYTES
    p = plan(LLAMA_8B, machine(between / GB), n_ctx=ctx)
    assert p.n_gpu_layers == -1 and p.kv_type == "q8_0" and "KV q8_0" in p.summary
    assert plan(LLAMA_8B, machine(between / GB), n_ctx=ctx, kv_types=("f16",)).kv_type == "f16"
    assert plan(LLAMA_8B, machine(80), n_ctx=ctx).kv_type == "f16"  # f16 when it fits


def test_the_users_kv_type_is_kept_and_only_an_unset_one_is_chosen():
    ctx = 32768
    c = planner.costs(LLAMA_8B, ctx)
    short = (32 * (c.layer + c.kv_layer("f16")) + c.output + c.compute) * 0.95 / GB + 1.0  # q8_0 would fit all
    chosen = plan(LLAMA_8B, machine(short), n_ctx=ctx)
    assert chosen.kv_type == "q8_0" and chosen.kv_chosen and "KV q8_0 (planner)" in chosen.summary
    assert chosen.kv_text == "q8_0, chosen by the planner (llm.kv_type is unset)"
    kept = plan(LLAMA_8B, machine(short), n_ctx=ctx, kv_type="f16")
    assert kept.kv_type == "f16" and not kept.kv_chosen and "KV f16 (llm.kv_type)" in kept.summary
    assert kept.n_gpu_layers < 32, "the user's f16 costs layers, and the plan says so"
    assert kept.kv_text == "f16, as llm.kv_type sets it"


def test_the_loader_takes_the_kv_type_the_plan_kept(tmp_path, monkeypatch):
    from assistant.config import LlmConfig
    from assistant.machine.models import find_llm

    path = find_llm(None).path
    cpu = machine()
    assert planner.plan_for(LlmConfig(), path, cpu).kv_chosen
    given = planner.plan_for(LlmConfig(kv_type="q8_0"), path, cpu)
    assert given.kv_type == "q8_0" and not given.kv_chosen


def test_context_is_capped_by_the_model(smollm):
    assert plan(smollm, machine(8), n_ctx=32768).n_ctx == 8192


def test_cpu_only_build_keeps_everything_on_cpu_and_says_why(smollm):
    p = plan(smollm, machine(24, offload=False))
    assert p.n_gpu_layers == 0
    assert "this llama.cpp build is CPU-only, though a GPU is present" in p.summary


def test_configured_layers_are_kept():
    p = plan(LLAMA_8B, machine(8), n_gpu_layers=10)
    assert p.n_gpu_layers == 10 and "set in the config" in p.reason
    too_many = plan(LLAMA_8B, machine(4), n_gpu_layers=-1)
    assert too_many.n_gpu_layers == -1 and "more than the free VRAM" in too_many.reason


def test_too_big_for_ram_and_vram_is_reported():
    p = plan(QWEN_14B, machine(ram_gb=4))
    assert not p.fits and p.summary.startswith("does not fit: needs")
    assert plan(QWEN_14B, machine(16, ram_gb=4)).fits  # the GPU takes it


def test_unified_memory_counts_once():
    mac = Hardware((Gpu(0, "Apple M2", "apple", int(10.7 * GB), int(10 * GB), unified=True),), 8, 8, 16 * GB, 10 * GB, True)
    p = plan(QWEN_14B, mac)
    assert p.layers_on_gpu > 0
    assert p.gpu_bytes + p.cpu_bytes <= mac.ram_available_bytes or not p.fits


@pytest.mark.parametrize(
    "vram, model",
    [(0, "Qwen2.5-0.5B"), (4, "Qwen2.5-1.5B"), (8, "Qwen2.5-3B"), (12, "Llama-3.1-8B"), (16, "Qwen2.5-14B"),
     (24, "Qwen2.5-14B"), (80, "Qwen2.5-14B")],
)
def test_recommended_tier(vram, model):
    hw = machine(vram * 0.97) if vram else machine()  # cards report a little under their size
    tier = recommend(hw)
    assert tier.model.startswith(model) and tier.file.endswith("Q4_K_M.gguf")


def test_tier_needs_a_build_that_can_offload():
    assert recommend(machine(24, offload=False)) is TIERS[-1]


def test_plan_for_this_machine(smollm):
    import llama_cpp

    p = plan_for(LlmConfig(), find_llm(None).path)
    assert p.block_count == 30 and p.fits
    if not llama_cpp.llama_supports_gpu_offload():
        assert p.n_gpu_layers == 0 and "CPU-only" in p.summary


def test_loader_applies_the_plan(monkeypatch):
    from assistant.pipeline import session

    loaded = []
    llm = SimpleNamespace(bigger_model="")
    monkeypatch.setattr(session.local_llm, "LlamaLlm", lambda config: loaded.append(config) or llm)
    monkeypatch.setattr(session, "plan_for",
                        lambda config, path, hardware=None: replace(plan(LLAMA_8B, machine(5)), n_ctx=1024))
    assert session.load_llm(LlmConfig()) is llm
    (config,) = loaded
    assert 0 < config.n_gpu_layers < 32 and config.n_ctx == 1024 and config.model
    assert llm.bigger_model  # the tier doctor recommends here, named when a reply is hedged


def test_loader_refuses_a_model_too_big(monkeypatch):
    from assistant.pipeline import session
    from assistant.machine.models import ModelError

    monkeypatch.setattr(session.local_llm, "LlamaLlm", lambda config: pytest.fail("must not load"))
    monkeypatch.setattr(session, "plan_for", lambda config, path, hardware=None: plan(QWEN_14B, machine(ram_gb=4)))
    with pytest.raises(ModelError, match="too big for this machine: does not fit"):
        session.load_llm(LlmConfig())


# llama.cpp's own "compute buffer size" log line (n_ctx 2048, n_ubatch 512), for models
# of these shapes: what the GPU estimate must match.
LLAMA_CPP_COMPUTE_MIB = [
    (fake_model("SmolLM2-135M", 30, 576, 1536, 9, 3, 49152), 99.38),  # logits of a micro-batch dominate
    (fake_model("Qwen2.5-0.5B", 24, 896, 4864, 14, 2, 151936), 300.25),
    (fake_model("wide attention", 1, 2048, 8192, 32, 8, 49152), 154.01),  # attention scores dominate
    (fake_model("64 heads", 1, 4096, 1024, 64, 8, 49152), 302.01),
]


@pytest.mark.parametrize("model, mib", LLAMA_CPP_COMPUTE_MIB, ids=lambda v: getattr(v, "name", str(v)))
def test_compute_buffer_estimate_matches_llama_cpp(model, mib):
    assert planner.costs(model, 2048).compute / 2**20 == pytest.approx(mib, rel=0.03)
