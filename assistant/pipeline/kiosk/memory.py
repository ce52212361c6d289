"""Memory of a process that runs all day: what it holds, and handing freed memory back."""

from __future__ import annotations

import ctypes
import gc
import sys


def release_memory() -> None:
    """Hand freed heap memory back to the system. glibc keeps it for reuse, and with the
    native engines' varied allocations a process running all day creeps up; trimming at
    each visitor reset keeps it level. Does nothing where there is no glibc."""
    gc.collect()
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None).malloc_trim(0)
        except (OSError, AttributeError):  # another C library (musl)
            pass


def resident_mb() -> float:
    import psutil

    return psutil.Process().memory_info().rss / 2**20
