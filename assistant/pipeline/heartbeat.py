"""A heartbeat from the app's GUI thread to the process that supervises it.

The supervisor starts the app with its standard output on a pipe and :data:`ENV` set.
The app then keeps that pipe for the heartbeat alone (:meth:`Heartbeat.from_environment`
moves whatever else writes to standard output, Python or native, onto standard error,
which the supervisor logs) and a timer on its GUI thread calls :meth:`Heartbeat.beat`
every :data:`BEAT_S`. A GUI thread that hangs, or a process frozen in native code that
holds the interpreter, stops the beats; :class:`HeartbeatMonitor` in the supervisor
notices and the app is started again.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import BinaryIO, Callable

ENV = "ASSISTANT_HEARTBEAT"
"""Set to ``stdout`` by the supervisor: standard output is the heartbeat pipe."""
BEAT_S = 1.0


class Heartbeat:
    """The app's side: one byte on the pipe per beat, never blocking the caller."""

    def __init__(self, fd: int):
        self.fd = fd
        self.beats = 0

    @classmethod
    def from_environment(cls) -> "Heartbeat | None":
        """Take standard output for the heartbeat when the supervisor asked for it (call
        it once, early); None when the app is not supervised that way."""
        if os.environ.pop(ENV, "") != "stdout":
            return None
        sys.stdout.flush()
        fd = os.dup(1)
        os.dup2(2, 1)  # print() and native libraries now write to the log
        try:
            os.set_blocking(fd, False)  # a full pipe drops a beat instead of freezing the GUI
        except OSError:
            pass
        return cls(fd)

    def beat(self) -> None:
        try:
            os.write(self.fd, b".")
            self.beats += 1
        except (BlockingIOError, BrokenPipeError, OSError):
            pass


class HeartbeatMonitor:
    """The supervisor's side: reads the beats of one app process on a thread of its own."""

    def __init__(self, stream: BinaryIO, clock: Callable[[], float] = time.perf_counter):
        self.started = clock()
        self.first: float | None = None
        """When the first beat arrived (the app's GUI thread runs)."""
        self.last: float | None = None
        """When the latest beat arrived; None before the first."""
        self.beats = 0
        self._clock = clock
        self._thread = threading.Thread(target=self._read, args=(stream,), name="app-heartbeat", daemon=True)
        self._thread.start()

    def _read(self, stream: BinaryIO) -> None:
        while True:
            try:
                data = stream.read1(64) if hasattr(stream, "read1") else stream.read(1)
            except (OSError, ValueError):
                return
            if not data:
                return
            self.beats += len(data)
            self.last = self._clock()
            self.first = self.first or self.last

    def problem(self, timeout_s: float, startup_s: float) -> str | None:
        """Why the app must be restarted: no beat for ``timeout_s`` since the last one, or
        none at all ``startup_s`` after the start. None while it beats."""
        now = self._clock()
        if self.last is None:
            waited = now - self.started
            return f"the app's window did not start within {waited:.0f} s" if waited > startup_s else None
        silent = now - self.last
        return f"the app's GUI thread is not responding ({silent:.1f} s without a heartbeat)" \
            if silent > timeout_s else None
