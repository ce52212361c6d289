"""A microphone that can be let go: the end of push-to-talk, or hands-free switched off.

:class:`MicGate` wraps any :class:`assistant.sound.AudioIn`. After :meth:`release`, it
stops the microphone and yields a short tail of silence, so the engine's endpointer
sees the user stop and the words said so far still get an answer; then it ends.
:meth:`stop` ends it at once (closing the app, swapping engines).
"""

from __future__ import annotations

import math
import threading
from typing import Callable, Iterator

import numpy as np

from assistant.sound import AudioIn


class MicGate:
    def __init__(self, source: AudioIn, tail_ms: int, on_finished: Callable[[], None] | None = None):
        self.source = source
        self.rate = source.rate
        self.frame_samples = source.frame_samples
        self.tail_frames = math.ceil(tail_ms / 1000 * self.rate / self.frame_samples)
        self.on_finished = on_finished
        self._released = threading.Event()
        self._stopped = threading.Event()
        self._finished = threading.Event()

    @property
    def finished(self) -> bool:
        """True once the last frame (or the silence tail) has been handed over."""
        return self._finished.is_set()

    def release(self) -> None:
        """Stop capturing; finish the utterance in progress with silence."""
        self._released.set()
        self.source.stop()

    def stop(self) -> None:
        """End at once, without finishing the utterance."""
        self._stopped.set()
        self.source.stop()

    def frames(self) -> Iterator[tuple[np.ndarray, float]]:
        frame_s = self.frame_samples / self.rate
        next_at: float | None = None
        live = self.source.frames()
        try:
            for frame, captured in live:
                if self._released.is_set() or self._stopped.is_set():
                    break
                next_at = captured + frame_s
                yield frame, captured
            live.close()  # closes the device now, not when the generator is collected
            if next_at is None:
                return
            silence = np.zeros(self.frame_samples, np.float32)
            for i in range(self.tail_frames):
                if self._stopped.is_set():
                    return
                yield silence, next_at + i * frame_s
        finally:
            live.close()
            self._finished.set()
            if self.on_finished:
                self.on_finished()
