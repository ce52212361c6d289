"""What a GGUF file says about itself, read from its header without loading it.

Only the metadata and the tensor table are read (memory-mapped, no tensor data), so
this takes milliseconds even for a 14B model and never hands llama.cpp a file it would
abort on. The format: https://github.com/ggml-org/ggml/blob/master/docs/gguf.md
"""

from __future__ import annotations

import mmap
import struct
from dataclasses import dataclass, field
from math import prod
from pathlib import Path
from typing import Any

from assistant.machine.models import GGUF_MAGIC, ModelError, check_gguf

# Value types of the metadata: struct format and size for the fixed-size ones.
_SCALARS: dict[int, str] = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}
_STRING, _ARRAY = 8, 9

# ggml tensor types: (elements per block, bytes per block).
GGML_TYPES: dict[int, tuple[str, int, int]] = {
    0: ("F32", 1, 4), 1: ("F16", 1, 2), 2: ("Q4_0", 32, 18), 3: ("Q4_1", 32, 20),
    6: ("Q5_0", 32, 22), 7: ("Q5_1", 32, 24), 8: ("Q8_0", 32, 34), 9: ("Q8_1", 32, 40),
    10: ("Q2_K", 256, 84), 11: ("Q3_K", 256, 110), 12: ("Q4_K", 256, 144), 13: ("Q5_K", 256, 176),
    14: ("Q6_K", 256, 210), 15: ("Q8_K", 256, 292), 16: ("IQ2_XXS", 256, 66), 17: ("IQ2_XS", 256, 74),
    18: ("IQ3_XXS", 256, 98), 19: ("IQ1_S", 256, 50), 20: ("IQ4_NL", 32, 18), 21: ("IQ3_S", 256, 110),
    22: ("IQ2_S", 256, 82), 23: ("IQ4_XS", 256, 136), 24: ("I8", 1, 1), 25: ("I16", 1, 2),
    26: ("I32", 1, 4), 27: ("I64", 1, 8), 28: ("F64", 1, 8), 29: ("IQ1_M", 256, 56),
    30: ("BF16", 1, 2), 34: ("TQ1_0", 256, 54), 35: ("TQ2_0", 256, 66), 39: ("MXFP4", 32, 17),
}

# general.file_type (llama_ftype): the quantization named the way model files are.
FILE_TYPES: dict[int, str] = {
    0: "F32", 1: "F16", 2: "Q4_0", 3: "Q4_1", 7: "Q8_0", 8: "Q5_0", 9: "Q5_1", 10: "Q2_K",
    11: "Q3_K_S", 12: "Q3_K_M", 13: "Q3_K_L", 14: "Q4_K_S", 15: "Q4_K_M", 16: "Q5_K_S",
    17: "Q5_K_M", 18: "Q6_K", 19: "IQ2_XXS", 20: "IQ2_XS", 21: "Q2_K_S", 22: "IQ3_XS",
    23: "IQ3_XXS", 24: "IQ1_S", 25: "IQ4_NL", 26: "IQ3_S", 27: "IQ3_M", 28: "IQ2_S",
    29: "IQ2_M", 30: "IQ4_XS", 31: "IQ1_M", 32: "BF16", 36: "TQ1_0", 37: "TQ2_0", 38: "MXFP4_MOE",
}


@dataclass(frozen=True)
class Tensor:
    name: str
    shape: tuple[int, ...]
    type: int
    offset: int
    """Offset of the data from the start of the data section."""
    nbytes: int


@dataclass(frozen=True)
class GgufInfo:
    path: Path
    file_size: int
    version: int
    metadata: dict[str, Any]
    """Every key except the tokenizer's vocabulary arrays (those are skipped, not read)."""
    tensors: tuple[Tensor, ...] = field(repr=False)

    def get(self, key: str, default: Any = None) -> Any:
        """An architecture key without its prefix: ``get("block_count")`` reads ``llama.block_count``."""
        return self.metadata.get(f"{self.architecture}.{key}", default)

    @property
    def architecture(self) -> str:
        return str(self.metadata.get("general.architecture", "unknown"))

    @property
    def name(self) -> str:
        return str(self.metadata.get("general.name") or self.path.stem)

    @property
    def block_count(self) -> int:
        return int(self.get("block_count", 0))

    @property
    def context_length(self) -> int:
        return int(self.get("context_length", 0))

    @property
    def embedding_length(self) -> int:
        return int(self.get("embedding_length", 0))

    @property
    def vocab_size(self) -> int:
        size = self.get("vocab_size") or self.metadata.get("tokenizer.ggml.tokens_count", 0)
        return int(size)

    @property
    def quantization(self) -> str:
        file_type = self.metadata.get("general.file_type")
        if file_type is None:
            return "unknown"
        return FILE_TYPES.get(int(file_type), f"type {file_type}")

    @property
    def parameters(self) -> int:
        return sum(prod(t.shape) for t in self.tensors)

    @property
    def tensor_bytes(self) -> int:
        return sum(t.nbytes for t in self.tensors)

    def block_bytes(self) -> list[int]:
        """Bytes of each repeating layer (``blk.N.*`` tensors), indexed by layer."""
        sizes = [0] * self.block_count
        for t in self.tensors:
            parts = t.name.split(".")
            if parts[0] == "blk" and len(parts) > 2 and parts[1].isdigit() and int(parts[1]) < len(sizes):
                sizes[int(parts[1])] += t.nbytes
        return sizes

    def tensor(self, name: str) -> Tensor | None:
        return next((t for t in self.tensors if t.name == name), None)


class _Reader:
    def __init__(self, buf: mmap.mmap | bytes):
        self.buf = buf
        self.pos = 0

    def unpack(self, fmt: str) -> Any:
        value = struct.unpack_from("<" + fmt, self.buf, self.pos)[0]
        self.pos += struct.calcsize("<" + fmt)
        return value

    def string(self) -> str:
        n = self.unpack("Q")
        if self.pos + n > len(self.buf):
            raise struct.error("string runs past the end of the file")
        text = bytes(self.buf[self.pos : self.pos + n]).decode("utf-8", errors="replace")
        self.pos += n
        return text

    def value(self, kind: int, keep: bool = True) -> Any:
        if kind in _SCALARS:
            return self.unpack(_SCALARS[kind])
        if kind == _STRING:
            return self.string()
        if kind == _ARRAY:
            item, count = self.unpack("I"), self.unpack("Q")
            if item in _SCALARS and not keep:  # skip a fixed-size array in one step
                self.pos += count * struct.calcsize(_SCALARS[item])
                return count
            if item == _STRING and not keep:
                for _ in range(count):
                    self.pos += 8 + struct.unpack_from("<Q", self.buf, self.pos)[0]
                return count
            return [self.value(item) for _ in range(count)]
        raise ValueError(f"unknown metadata value type {kind}")


def _nbytes(shape: tuple[int, ...], kind: int) -> int | None:
    if kind not in GGML_TYPES:
        return None
    _name, block, size = GGML_TYPES[kind]
    return prod(shape) // block * size


def check_loadable(path: Path) -> None:
    """Refuse a file llama.cpp should not see: a folder, another format, and any header
    this reader cannot read whole (llama.cpp can abort the process on a corrupt one)."""
    check_gguf(path)
    read_gguf(path)


def read_gguf(path: Path) -> GgufInfo:
    """Read the header of a GGUF file, or raise :class:`ModelError` saying what is wrong."""
    path = Path(path)
    if not path.is_file():
        raise ModelError(f"{path} does not exist or is not a file")
    size = path.stat().st_size
    if size < 24:
        raise ModelError(f"{path} is too short to be a GGUF model ({size} bytes)")
    with path.open("rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as buf:
        if buf[:64].startswith(b"version https://git-lfs"):
            raise ModelError(f"{path} is a Git LFS pointer, not the model: fetch the real file (git lfs pull)")
        if buf[:4] != GGUF_MAGIC:
            raise ModelError(f"{path} is not a GGUF model (starts with {bytes(buf[:4])!r}); llama.cpp needs a .gguf file")
        try:
            return _parse(path, size, _Reader(buf))
        except (struct.error, ValueError, IndexError, OverflowError, MemoryError) as exc:
            raise ModelError(f"{path} is truncated or corrupt: its GGUF header cannot be read ({exc})") from exc


def _parse(path: Path, size: int, r: _Reader) -> GgufInfo:
    r.pos = 4
    version = r.unpack("I")
    if version < 2:
        raise ModelError(f"{path} is GGUF version {version}; llama.cpp reads version 2 and later only")
    n_tensors, n_kv = r.unpack("Q"), r.unpack("Q")
    if n_tensors > size or n_kv > size:
        raise ValueError(f"implausible counts ({n_tensors} tensors, {n_kv} keys)")
    metadata: dict[str, Any] = {}
    for _ in range(n_kv):
        key = r.string()
        kind = r.unpack("I")
        keep = not key.startswith("tokenizer.ggml.") or key in _KEPT_TOKENIZER_KEYS
        value = r.value(kind, keep=keep)
        if keep:
            metadata[key] = value
        elif key == "tokenizer.ggml.tokens":
            metadata["tokenizer.ggml.tokens_count"] = value
    infos = []
    for _ in range(n_tensors):
        name = r.string()
        n_dims = r.unpack("I")
        if n_dims > 8:
            raise ValueError(f"tensor {name!r} has {n_dims} dimensions")
        shape = tuple(r.unpack("Q") for _ in range(n_dims))
        infos.append((name, shape, r.unpack("I"), r.unpack("Q")))
    alignment = metadata.get("general.alignment", 32)
    if not isinstance(alignment, int) or isinstance(alignment, bool):
        raise ValueError(f"general.alignment is {alignment!r}, not a number")
    alignment = alignment or 32
    data_start = -(-r.pos // alignment) * alignment
    tensors = _sized(infos, size - data_start)
    end = max((t.offset + t.nbytes for t in tensors), default=0)
    if data_start + end > size:
        missing = data_start + end - size
        raise ModelError(
            f"{path} is truncated: the tensors need {data_start + end:,} bytes, the file has {size:,} "
            f"({missing:,} missing); download it again"
        )
    return GgufInfo(path, size, version, metadata, tensors)


def read_vocabulary(path: Path) -> tuple[str, list[str]]:
    """The tokenizer's kind (``tokenizer.ggml.model``: ``gpt2``, ``llama``…) and its tokens,
    as the header writes them (:func:`read_gguf` skips them); raises :class:`ModelError`."""
    info = read_gguf(path)  # the header is whole and readable
    tokens: list[str] = []
    with Path(path).open("rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as buf:
        r = _Reader(buf)
        r.pos = 16
        for _ in range(r.unpack("Q")):
            key, kind = r.string(), r.unpack("I")
            value = r.value(kind, keep=key == "tokenizer.ggml.tokens")
            if key == "tokenizer.ggml.tokens":
                tokens = value
                break
    return str(info.metadata.get("tokenizer.ggml.model", "")), tokens


_KEPT_TOKENIZER_KEYS = {"tokenizer.ggml.model", "tokenizer.ggml.bos_token_id", "tokenizer.ggml.eos_token_id"}


def _sized(infos: list[tuple[str, tuple[int, ...], int, int]], data_size: int) -> tuple[Tensor, ...]:
    """Tensors with their byte sizes: from the type table, else up to the next tensor's data."""
    offsets = sorted({offset for *_rest, offset in infos} | {data_size})
    following = {a: b for a, b in zip(offsets, offsets[1:])}
    tensors = []
    for name, shape, kind, offset in infos:
        nbytes = _nbytes(shape, kind)
        if nbytes is None:
            nbytes = max(0, following.get(offset, data_size) - offset)
        tensors.append(Tensor(name, shape, kind, offset, nbytes))
    return tuple(tensors)
