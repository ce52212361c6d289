"""Waiting on a condition another thread makes true."""

from __future__ import annotations

import time
from typing import Callable


def wait_until(condition: Callable[[], bool], timeout: float = 10.0, interval: float = 0.02) -> bool:
    """Poll ``condition`` every ``interval`` seconds until it holds (True) or ``timeout``
    seconds pass (False)."""
    deadline = time.perf_counter() + timeout
    while True:
        if condition():
            return True
        if time.perf_counter() >= deadline:
            return False
        time.sleep(interval)
