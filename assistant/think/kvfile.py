"""The prompt cache's file format: data only, never code.

A file is a magic line, the length of a JSON header, the header (the cache key the KV
state belongs to and the state's size) and the raw KV bytes that llama.cpp produced.
A file that is truncated, foreign or made for another key is refused with ValueError
and rebuilt by the caller; nothing in it is ever executed (no pickle).
"""

from __future__ import annotations

import ctypes
import json
import logging
import struct
from pathlib import Path

from assistant import resources

log = logging.getLogger(__name__)

MAGIC = b"ASSISTANT-KV 1\n"
_LENGTH = struct.Struct("<I")
MAX_HEADER = 1 << 24


def write(path: Path, key: str, kv: bytes) -> None:
    """Write atomically: a temporary file, fsync, then rename over ``path``."""
    header = json.dumps({"key": key, "kv_bytes": len(kv)}).encode()
    resources.write_bytes(path, b"".join((MAGIC, _LENGTH.pack(len(header)), header, kv)))


def read(path: Path, key: str) -> bytes:
    """The KV bytes saved for ``key``; ValueError when the file is not one of ours,
    is damaged, or belongs to another key."""
    with open(path, "rb") as f:
        if f.read(len(MAGIC)) != MAGIC:
            raise ValueError("not a prompt cache file")
        raw = f.read(_LENGTH.size)
        if len(raw) != _LENGTH.size:
            raise ValueError("truncated header")
        (length,) = _LENGTH.unpack(raw)
        if length > MAX_HEADER:
            raise ValueError("header too large")
        try:
            header = json.loads(f.read(length))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ValueError(f"damaged header: {exc}") from None
        if not isinstance(header, dict) or header.get("key") != key:
            raise ValueError("saved for another model, prompt or build")
        size = header.get("kv_bytes")
        if not isinstance(size, int) or size <= 0:
            raise ValueError("damaged header: no KV size")
        kv = f.read(size + 1)
    if len(kv) != size:
        raise ValueError(f"truncated: {len(kv)} of {size} KV bytes")
    return kv


def restore(llama, path: Path, key: str, prefix: list[int]) -> bool:
    """Load the KV state saved in ``path`` for ``key`` into ``llama`` (a ``llama_cpp.Llama``)
    as the cells of ``prefix``. A corrupt, foreign or stale file is deleted (it is rebuilt),
    never executed, and never a crash."""
    import llama_cpp

    try:
        kv = read(path, key)
        buffer = (ctypes.c_uint8 * len(kv)).from_buffer_copy(kv)
        llama.reset()
        if llama_cpp.llama_state_seq_set_data(llama._ctx.ctx, buffer, len(kv), 0) != len(kv):
            raise ValueError("llama.cpp refused the saved KV state")
    except (OSError, ValueError) as exc:
        log.warning("prompt cache %s unusable (%s); rebuilding it", path.name, exc)
        path.unlink(missing_ok=True)
        llama.reset()
        return False
    llama.input_ids[: len(prefix)] = prefix
    llama.n_tokens = len(prefix)
    return True


def save(llama, path: Path, key: str) -> None:
    """Save ``llama``'s KV state (sequence 0) to ``path`` for ``key``; a failure to write
    only costs the prompt's evaluation at the next start."""
    import llama_cpp

    ctx = llama._ctx.ctx
    size = llama_cpp.llama_state_seq_get_size(ctx, 0)
    buffer = (ctypes.c_uint8 * size)()
    llama_cpp.llama_state_seq_get_data(ctx, buffer, size, 0)
    try:
        write(path, key, bytes(buffer))
    except OSError as exc:
        log.warning("could not save the prompt cache: %s", exc)
