"""GPU offload plan: how many layers of a GGUF model go to the GPU, with which context
and KV-cache type, from the model's own header and the free VRAM.

:func:`plan` is pure (model header + hardware in, :class:`Plan` out), so it is tested
over fake machines; :func:`plan_for` probes this machine for the loader.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from assistant.config import LlmConfig
from assistant.config.sections import KV_TYPES
from assistant.machine.gguf_info import GgufInfo, read_gguf
from assistant.machine.hardware import GB, Hardware, detect, llama_offload

HEADROOM_BYTES = int(1.0 * GB)
"""Kept free on the first GPU: the CUDA context and the Whisper / Piper sessions."""
RESERVE_BYTES = int(0.25 * GB)
"""Kept free on every other GPU: its CUDA context."""
UBATCH = 512
"""llama.cpp's micro-batch; the compute buffer scales with it."""
KV_BYTES_PER_ELEMENT = {"f16": 2.0, "q8_0": 34 / 32, "q4_0": 18 / 32}
LOADER_KV_TYPES = KV_TYPES
"""KV-cache types the loader applies today (quantized V needs flash attention in llama.cpp)."""


@dataclass(frozen=True)
class Plan:
    n_gpu_layers: int
    """For llama.cpp: 0 (CPU only), k (the last k layers on the GPU) or -1 (all, with the output)."""
    block_count: int
    n_ctx: int
    kv_type: str
    gpu_bytes: int
    """Estimated GPU memory used: offloaded weights, their KV cache and the compute buffer."""
    vram_free_bytes: int
    """Free VRAM on the GPUs llama.cpp can use (0 when it cannot use any)."""
    cpu_bytes: int
    """Estimated RAM used: weights and KV cache of the layers left on the CPU."""
    ram_available_bytes: int
    fits: bool
    """False when the model cannot be held in RAM + VRAM: loading it would thrash or fail."""
    reason: str
    """Why this many layers: no GPU, CPU-only build, VRAM, the config..."""
    kv_chosen: bool = True
    """The planner chose ``kv_type`` (``llm.kv_type`` is unset); False: the config set it."""

    @property
    def kv_text(self) -> str:
        """Where the KV type comes from, e.g. ``q8_0, chosen by the planner (llm.kv_type is unset)``."""
        if not self.kv_chosen:
            return f"{self.kv_type}, as llm.kv_type sets it"
        return f"{self.kv_type}, chosen by the planner (llm.kv_type is unset)"

    @property
    def layers_on_gpu(self) -> int:
        return self.block_count if self.n_gpu_layers < 0 else min(self.n_gpu_layers, self.block_count)

    @property
    def summary(self) -> str:
        """One line, e.g. ``22/28 layers on GPU: 7.1 of 8.0 GB free, KV q8_0, ctx 2048``."""
        tail = f"KV {self.kv_type} ({'planner' if self.kv_chosen else 'llm.kv_type'}), ctx {self.n_ctx}"
        if not self.fits:
            return (
                f"does not fit: needs {self.cpu_bytes / GB:.1f} GB of RAM with {self.layers_on_gpu}/{self.block_count} "
                f"layers on GPU, {self.ram_available_bytes / GB:.1f} GB available ({self.reason})"
            )
        if self.layers_on_gpu == 0:
            return (
                f"0/{self.block_count} layers on GPU ({self.reason}): {self.cpu_bytes / GB:.1f} GB in RAM "
                f"of {self.ram_available_bytes / GB:.1f} GB available, {tail}"
            )
        output = " + output" if self.n_gpu_layers < 0 else ""
        return (
            f"{self.layers_on_gpu}/{self.block_count} layers{output} on GPU ({self.reason}): "
            f"{self.gpu_bytes / GB:.1f} of {self.vram_free_bytes / GB:.1f} GB free, {tail}"
        )


@dataclass(frozen=True)
class Costs:
    """Byte costs of one model at one context size."""

    layer: int
    """Weights of the largest repeating layer."""
    output: int
    """The output head, which goes to the GPU only with every layer."""
    weights: int
    kv_elements_per_layer: int
    """K and V elements one layer holds for the whole context."""
    compute: int
    """The compute buffer llama.cpp allocates on a GPU: its worst case, a micro-batch
    of logits or of attention scores, whichever is larger."""
    compute_cpu: int
    """What the CPU's compute buffers hold resident once the context is full: the
    attention scores of a micro-batch (f32, and f16 for the V product) and activations.
    The rest of the allocation is never touched (only the last token's logits are kept)."""
    vocab_tables: int
    """Per-token tables: llama.cpp's tokenizer and the sampler's arrays (measured ≈ 300
    bytes a token besides 12 MB)."""

    def kv_layer(self, kv_type: str) -> int:
        return int(self.kv_elements_per_layer * KV_BYTES_PER_ELEMENT[kv_type])


def _per_layer(value: object, n_layer: int) -> list[int]:
    if isinstance(value, list):
        return [int(v) for v in value] or [0]
    return [int(value)] * max(1, n_layer)  # type: ignore[call-overload]


def costs(info: GgufInfo, n_ctx: int) -> Costs:
    n_layer = max(1, info.block_count)
    n_embd = info.embedding_length
    n_head = max(_per_layer(info.get("attention.head_count", 1), n_layer)) or 1
    n_head_kv = max(_per_layer(info.get("attention.head_count_kv", n_head), n_layer))
    head_k = int(info.get("attention.key_length") or n_embd // n_head)
    head_v = int(info.get("attention.value_length") or head_k)
    output = info.tensor("output.weight") or info.tensor("token_embd.weight")
    blocks = info.block_bytes()
    return Costs(
        layer=max(blocks, default=0),
        output=output.nbytes if output else 0,
        weights=info.tensor_bytes,
        kv_elements_per_layer=n_ctx * n_head_kv * (head_k + head_v),
        compute=4 * UBATCH * max(info.vocab_size + 3 * n_embd, n_ctx * n_head + 6 * n_embd),
        compute_cpu=UBATCH * (5 * n_ctx * n_head + 12 * n_embd) + 4 * info.vocab_size,
        vocab_tables=300 * info.vocab_size + 12 * 1024**2,
    )


def _gpu_budget(hardware: Hardware, headroom: int) -> int:
    return sum(max(0, g.free_bytes - (headroom if i == 0 else RESERVE_BYTES)) for i, g in enumerate(hardware.gpus))


def _gpu_bytes(c: Costs, layers: int, n_layer: int, kv_type: str, n_gpus: int) -> int:
    if layers == 0:
        return 0
    layers = min(layers, n_layer) if layers > 0 else n_layer
    output = c.output if layers >= n_layer else 0
    return layers * (c.layer + c.kv_layer(kv_type)) + output + c.compute * max(1, n_gpus)


def _best_layers(c: Costs, n_layer: int, budget: int, kv_types: tuple[str, ...], n_gpus: int) -> tuple[int, str]:
    """(n_gpu_layers, kv type) putting the most layers on the GPU; the first kv type wins ties."""
    best = (0, kv_types[0])
    for kv_type in kv_types:
        if _gpu_bytes(c, -1, n_layer, kv_type, n_gpus) <= budget:
            return -1, kv_type
        per_layer = c.layer + c.kv_layer(kv_type)
        room = budget - c.compute * n_gpus
        layers = min(n_layer, room // per_layer) if per_layer > 0 and room > 0 else 0
        if layers > best[0]:
            best = (int(layers), kv_type)
    return best


def plan(
    info: GgufInfo,
    hardware: Hardware,
    n_ctx: int = 2048,
    n_gpu_layers: int | None = None,
    headroom_bytes: int = HEADROOM_BYTES,
    kv_types: tuple[str, ...] = ("f16", "q8_0"),
    kv_type: str | None = None,
) -> Plan:
    """Plan the offload of ``info`` on ``hardware``.

    ``n_gpu_layers`` None plans it; an int (from the config) is kept as given. So is a
    ``kv_type`` (``llm.kv_type``); None lets the planner pick the first of ``kv_types``
    that puts the most layers on the GPU.
    """
    kv_chosen = kv_type is None
    if kv_type is not None:
        kv_types = (kv_type,)
    n_layer = info.block_count
    ctx = min(n_ctx, info.context_length) if info.context_length > 0 else n_ctx
    c = costs(info, ctx)
    usable = hardware.gpus if hardware.llama_offload else ()
    n_gpus = len(usable)
    budget = _gpu_budget(Hardware(gpus=usable), headroom_bytes)
    kv_type = kv_types[0]
    if n_gpu_layers is not None:
        layers, reason = (n_gpu_layers if usable else 0), f"n_gpu_layers={n_gpu_layers} set in the config"
        if n_gpu_layers and not usable:
            reason += ", but llama.cpp has no GPU to use"
        elif _gpu_bytes(c, layers, n_layer, kv_type, n_gpus) > budget:
            reason += ", more than the free VRAM"
    elif not hardware.llama_offload:
        layers = 0
        reason = "this llama.cpp build is CPU-only" + (", though a GPU is present" if hardware.gpus else "")
    elif not hardware.gpus:
        layers, reason = 0, "no GPU found"
    else:
        layers, kv_type = _best_layers(c, n_layer, budget, kv_types, n_gpus)
        if layers == 0:
            reason = f"{budget / GB:.1f} GB of VRAM is free after {headroom_bytes / GB:.1f} GB headroom, too little for one layer"
        elif layers < 0:
            reason = "all fit"
        elif layers == n_layer:
            reason = "the output head stays on the CPU"
        else:
            reason = "partial: the rest run on the CPU"
        if n_gpus > 1:
            reason += f", split over {n_gpus} GPUs"
    gpu = _gpu_bytes(c, layers, n_layer, kv_type, n_gpus)
    on_gpu = n_layer if layers < 0 else min(layers, n_layer)
    cpu = c.weights - on_gpu * c.layer - (c.output if layers < 0 else 0) + (n_layer - on_gpu) * c.kv_layer(kv_type)
    cpu += (c.compute_cpu if on_gpu < n_layer else 0) + c.vocab_tables
    unified = any(g.unified for g in usable)
    ram_left = hardware.ram_available_bytes - (gpu if unified else 0)
    return Plan(
        n_gpu_layers=layers,
        block_count=n_layer,
        n_ctx=ctx,
        kv_type=kv_type,
        gpu_bytes=gpu,
        vram_free_bytes=sum(g.free_bytes for g in usable),
        cpu_bytes=cpu,
        ram_available_bytes=hardware.ram_available_bytes,
        fits=cpu <= ram_left,
        reason=reason,
        kv_chosen=kv_chosen,
    )


def plan_for(config: LlmConfig, model_path: Path, hardware: Hardware | None = None) -> Plan:
    """The plan for loading ``model_path`` with ``config`` on this machine.

    GPUs are probed only when the installed llama.cpp can offload and the config leaves
    the layer count to the plan, so a CPU-only install pays nothing for it.
    """
    info = read_gguf(model_path)
    if hardware is None:
        offload, _why = llama_offload()
        hardware = detect(probe_gpus=offload and config.n_gpu_layers is None)
    return plan(info, hardware, config.n_ctx, config.n_gpu_layers, kv_types=LOADER_KV_TYPES, kv_type=config.kv_type)


# ---------------------------------------------------------------- model tiers


@dataclass(frozen=True)
class Tier:
    min_vram_gb: float
    label: str
    """The size of model this much VRAM streams at conversational speed."""
    model: str
    file: str
    repo: str
    """Where the GGUF is published (Hugging Face), to download on a connected machine."""


TIERS = (
    Tier(16, "16 GB+ VRAM: 14B, or a smaller model with several LoRAs", "Qwen2.5-14B-Instruct Q4_K_M",
         "Qwen2.5-14B-Instruct-Q4_K_M.gguf", "bartowski/Qwen2.5-14B-Instruct-GGUF"),
    Tier(12, "12 GB VRAM: 8B", "Llama-3.1-8B-Instruct Q4_K_M",
         "Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf", "bartowski/Meta-Llama-3.1-8B-Instruct-GGUF"),
    Tier(8, "8 GB VRAM: up to 4B", "Qwen2.5-3B-Instruct Q4_K_M",
         "Qwen2.5-3B-Instruct-Q4_K_M.gguf", "bartowski/Qwen2.5-3B-Instruct-GGUF"),
    Tier(4, "4 GB VRAM: up to 1.5B", "Qwen2.5-1.5B-Instruct Q4_K_M",
         "Qwen2.5-1.5B-Instruct-Q4_K_M.gguf", "bartowski/Qwen2.5-1.5B-Instruct-GGUF"),
    Tier(0, "CPU only: up to 0.5B; the embedded SmolLM2-135M answers fastest", "Qwen2.5-0.5B-Instruct Q4_K_M",
         "Qwen2.5-0.5B-Instruct-Q4_K_M.gguf", "bartowski/Qwen2.5-0.5B-Instruct-GGUF"),
)


def recommend(hardware: Hardware) -> Tier:
    """The tier for the VRAM llama.cpp can use (total, over all GPUs)."""
    vram_gb = hardware.vram_total_bytes / GB if hardware.llama_offload else 0.0
    return next(t for t in TIERS if vram_gb >= t.min_vram_gb * 0.95)


# ---------------------------------------------------------------- CPU threads and memory mapping


def physical_cores() -> int:
    import psutil

    return psutil.cpu_count(logical=False) or os.cpu_count() or 1


def generation_threads(config: LlmConfig) -> int:
    """Threads for decoding: as configured, else every core but one (at most 8)."""
    if config.threads:
        return config.threads
    return max(1, min(8, physical_cores() - 1))


def use_mmap(config: LlmConfig, extra_bufts: bool) -> bool:
    """Map the GGUF file only when no weights are repacked for the CPU.

    With extra buffer types llama.cpp copies the CPU's weights into a repacked (faster)
    layout while loading; the mapped file pages it read stay resident beside the copy,
    so a mapped 1.5B Q4_K_M model held 945 MB of file pages and 719 MB of its own
    (1,664 MB, the planner said 1,116). Read into its buffers instead, it holds one copy.
    Fully offloaded, nothing is repacked: mapping keeps the host copy out of RAM."""
    return not extra_bufts or (config.n_gpu_layers is not None and config.n_gpu_layers < 0)
