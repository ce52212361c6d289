"""Background work stopped before the interpreter ends.

A daemon thread still inside a native library (the voice's ONNX runtime, llama.cpp) when Python
shuts down is ended from under that library's C++ frames, and the process aborts ("terminate called
without an active exception", exit status 134): a kiosk left by its administrator was started
again, a test's exit code was wrong. Every worker that may be in native code on a daemon thread is
registered here and its ``stop()`` (stop after the item at hand, and wait for it) runs at exit,
before the tear-down, whichever way the app ended (a window closed, ``app.exit``, ``sys.exit``).
"""

from __future__ import annotations

import atexit
import logging
import weakref
from typing import Protocol

log = logging.getLogger(__name__)


class Stoppable(Protocol):
    def stop(self) -> None: ...


_WORKERS: weakref.WeakSet[Stoppable] = weakref.WeakSet()
"""The workers to stop at exit, held weakly (one collected has nothing left running)."""


def stop_at_exit(worker: Stoppable) -> None:
    """Call ``worker.stop()`` as the process ends, before Python tears itself down."""
    _WORKERS.add(worker)


@atexit.register
def stop_workers() -> None:
    """Stop every registered worker (what runs at the process's end)."""
    for worker in list(_WORKERS):
        try:
            worker.stop()
        except Exception:  # noqa: BLE001 - the others are stopped all the same
            log.exception("stopping %s at exit failed", type(worker).__name__)
