"""Memory of a process that runs all day: what it holds, and handing freed memory back."""

from __future__ import annotations

import ctypes
import gc
import os
import sys

KIOSK_ARENAS = 2
"""glibc malloc arenas the kiosk allows. glibc gives threads up to 8 per core, and every
fresh engine's new threads spread the native engines' varied allocations over them: freed
memory piles up in each arena (the soak: the heap in use level, the free heap +56 MB over
300 turns, and resident memory with it). Two arenas keep that free memory small
(docs/kiosk.md, the soak run)."""
M_ARENA_MAX = -8
"""mallopt's parameter for the most arenas (glibc's malloc.h)."""


def _glibc():
    """The C library when it is glibc on Linux, else None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None)
    except OSError:
        return None
    if not (hasattr(libc, "mallopt") and hasattr(libc, "malloc_trim")):  # another C library (musl)
        return None
    return libc


def limit_arenas(arenas: int = KIOSK_ARENAS) -> bool:
    """Let glibc malloc use at most ``arenas`` arenas from now on (call it before the
    engines start their threads). True when it is in force; a ``MALLOC_ARENA_MAX`` set in
    the environment is left as it is. Does nothing where there is no glibc."""
    if os.environ.get("MALLOC_ARENA_MAX"):
        return False
    libc = _glibc()
    if libc is None:
        return False
    try:
        return bool(libc.mallopt(M_ARENA_MAX, arenas))
    except (OSError, AttributeError, ctypes.ArgumentError):
        return False


def release_memory() -> None:
    """Hand freed heap memory back to the system. glibc keeps it for reuse, and with the
    native engines' varied allocations a process running all day creeps up; trimming at
    each visitor reset keeps it level. Does nothing where there is no glibc."""
    gc.collect()
    libc = _glibc()
    if libc is not None:
        libc.malloc_trim(0)


def resident_mb() -> float:
    import psutil

    return psutil.Process().memory_info().rss / 2**20
