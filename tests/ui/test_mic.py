"""Push-to-talk: the microphone gate ends an utterance with silence on the capture clock."""

from __future__ import annotations

import threading

import numpy as np
import pytest


def test_mic_gate_finishes_the_utterance_with_silence():
    from ui.mic import MicGate

    class Source:
        rate, frame_samples = 16000, 512

        def __init__(self):
            self.stopped = threading.Event()

        def frames(self):
            t = 0.0
            while not self.stopped.is_set():
                yield np.ones(512, np.float32), t
                t += 0.032

        def stop(self):
            self.stopped.set()

    finished = []
    gate = MicGate(Source(), tail_ms=320, on_finished=lambda: finished.append(True))
    frames = gate.frames()
    loud = [next(frames) for _ in range(3)]
    gate.release()
    tail = list(frames)
    assert all(f.max() == 1 for f, _ in loud)
    assert len(tail) == 10 and all(not f.any() for f, _ in tail)
    assert tail[0][1] == pytest.approx(loud[-1][1] + 0.032), "the tail continues the capture clock"
    assert finished == [True] and gate.finished

    gate = MicGate(Source(), tail_ms=320)
    frames = gate.frames()
    next(frames)
    gate.stop()
    assert list(frames) == [] and gate.finished
