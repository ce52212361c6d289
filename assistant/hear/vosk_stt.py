"""Vosk (Kaldi) speech recognition: partial transcripts while the user speaks."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np

from assistant.config import SttConfig
from assistant.errors import SttError, installed
from assistant.hear.transcript_guard import guarded
from assistant.machine.models import ModelError, find_vosk

RATE = 16000


_VOSK_NUMBER = re.compile(r"\[(\d+)\]")


def vosk_words(text: str) -> str:
    """Vosk's Korean model writes numbers as ``[10]``: keep the number."""
    return _VOSK_NUMBER.sub(r"\1", text)


class VoskStt:
    """Vosk (Kaldi): streams partial transcripts while the user speaks."""

    streaming = True
    punctuates = False

    def __init__(self, config: SttConfig, model_dir: Path | None = None):
        vosk = installed("vosk", "vosk", SttError)
        vosk.SetLogLevel(-1)
        path = model_dir or find_vosk(config.vosk_model, config.language).path
        self.name = f"vosk ({config.language})"
        if config.vosk_fast:
            from assistant.hear.vosk_fast import fast_model_dir

            path = fast_model_dir(path)
            self.name = f"vosk ({config.language}, fast search)"
        try:
            self._model = vosk.Model(str(path))
        except Exception as exc:  # vosk raises a bare Exception on a bad folder
            raise ModelError(f"cannot load the vosk model at {path}: {exc}") from exc
        self._vosk = vosk

    def utterance(self) -> "VoskUtterance":
        return VoskUtterance(self._vosk.KaldiRecognizer(self._model, RATE))


class VoskUtterance:
    last_word_p = None
    least_word_p = None

    def __init__(self, recognizer):
        self._recognizer = recognizer
        self._final: list[str] = []
        self._last_partial = ""
        self._samples = 0

    @staticmethod
    def _pcm16(pcm: np.ndarray) -> bytes:
        return (np.clip(pcm, -1.0, 1.0) * 32767).astype("<i2").tobytes()

    def feed(self, pcm: np.ndarray) -> str | None:
        self._samples += pcm.size
        if self._recognizer.AcceptWaveform(self._pcm16(pcm)):
            text = vosk_words(json.loads(self._recognizer.Result()).get("text", ""))
            if text:
                self._final.append(text)
            partial = " ".join(self._final)
        else:
            partial = " ".join(self._final + [vosk_words(json.loads(self._recognizer.PartialResult()).get("partial", ""))])
        partial = partial.strip()
        if partial and partial != self._last_partial:
            self._last_partial = partial
            return partial
        return None

    def transcribe(self) -> str:
        text = vosk_words(json.loads(self._recognizer.FinalResult()).get("text", ""))
        if text:
            self._final.append(text)
        return guarded(" ".join(self._final), self._samples / RATE)
