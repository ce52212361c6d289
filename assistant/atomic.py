"""Files replaced whole or not at all: a crash mid-write leaves the old file.

The new content goes to a temporary file next to the target, is flushed to the disk
(fsync), and is then renamed over the target, which the OS does atomically; on POSIX the
folder is synced too, so the rename itself survives a power cut. A temporary file left
by a crash is removed by a later write to the same target.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

STALE_S = 600.0
"""A temporary file this old belongs to a writer that died."""


def write_bytes(path: str | Path, data: bytes) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    tmp = Path(name)
    try:
        with os.fdopen(handle, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _sync_folder(path.parent)
    _remove_stale(path)


def write_text(path: str | Path, text: str, encoding: str = "utf-8") -> None:
    write_bytes(path, text.encode(encoding))


def _sync_folder(folder: Path) -> None:
    if sys.platform == "win32":
        return
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass  # some file systems cannot sync a folder
    finally:
        os.close(handle)


def _remove_stale(path: Path) -> None:
    cutoff = time.time() - STALE_S
    for leftover in path.parent.glob(f".{path.name}.*.tmp"):
        try:
            if leftover.stat().st_mtime < cutoff:
                leftover.unlink()
        except OSError:
            pass
