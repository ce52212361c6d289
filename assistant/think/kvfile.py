"""The prompt cache's file format: data only, never code.

A file is a magic line, the length of a JSON header, the header (the cache key the KV
state belongs to and the state's size) and the raw KV bytes that llama.cpp produced.
A file that is truncated, foreign or made for another key is refused with ValueError
and rebuilt by the caller; nothing in it is ever executed (no pickle).
"""

from __future__ import annotations

import json
import struct
from pathlib import Path

from assistant import resources

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
