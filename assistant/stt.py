"""Speech to text: faster-whisper on the segment, vosk streaming partials.

An engine is loaded once; each utterance gets an :class:`Utterance` that is fed audio
as the user speaks and asked for the transcript at the endpoint.
"""

from __future__ import annotations

import json
import logging
import math
import re
import zlib
from pathlib import Path
from typing import Protocol

import numpy as np

from .config import SttConfig, choices
from .models import ModelError, find_vosk, find_whisper

log = logging.getLogger(__name__)

RATE = 16000
NO_SPEECH_PROB = 0.6
"""Above this, Whisper's own no-speech probability says the audio held no words."""


class SttError(RuntimeError):
    pass


class Utterance(Protocol):
    def feed(self, pcm: np.ndarray) -> str | None:
        """Add audio; return a new partial transcript if the engine has one."""

    def transcribe(self) -> str:
        """The transcript of all audio fed so far."""


class Stt(Protocol):
    name: str
    streaming: bool
    """True when partials arrive while the user speaks."""

    def utterance(self) -> Utterance: ...


# Whisper produces these on noise or breath; they are not something the user said.
_NOISE = re.compile(r"^[\W_]*$|^\s*[\[(].*[\])]\s*$")


_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+")


def clean_transcript(text: str) -> str:
    """Whitespace folded, noise dropped, and a sentence Whisper looped on said once."""
    text = " ".join(text.split())
    if _NOISE.match(text):
        return ""
    sentences: list[str] = []
    for sentence in _SENTENCE_BREAK.split(text):
        if sentence and (not sentences or sentence.lower() != sentences[-1].lower()):
            sentences.append(sentence)
    return " ".join(sentences)


COMPRESSION_RATIO_MAX = 2.4
"""Above this, a transcript is a loop ("6,6,6,6,...") and not words (Whisper's own threshold)."""


def compression_ratio(text: str) -> float:
    data = text.encode("utf-8")
    return len(data) / len(zlib.compress(data)) if data else 0.0


_VOSK_NUMBER = re.compile(r"\[(\d+)\]")


def vosk_words(text: str) -> str:
    """Vosk's Korean model writes numbers as ``[10]``: keep the number."""
    return _VOSK_NUMBER.sub(r"\1", text)


def whisper_devices() -> list[tuple[str, str]]:
    """(device, compute type) to try in order: the GPU first when CTranslate2 sees CUDA."""
    from .hardware import whisper_cuda_devices

    cpu = [("cpu", "int8")]
    return [("auto", "int8_float16"), *cpu] if whisper_cuda_devices() > 0 else cpu


class WhisperStt:
    """faster-whisper (CTranslate2, int8 on CPU). Greedy decoding, no timestamps:
    the fastest settings that keep tiny.en accurate on short commands."""

    streaming = False

    def __init__(self, config: SttConfig, model_dir: Path | None = None):
        try:
            from faster_whisper import WhisperModel
        except ImportError as exc:
            raise SttError("faster-whisper is not installed: pip install faster-whisper") from exc
        self.config = config
        path = model_dir or find_whisper(config.whisper_model, config.language).path
        self.name = f"whisper ({path.name if path.name != 'model' else 'tiny.en'})"
        failures = []
        for device, compute_type in whisper_devices():
            try:
                self._model = WhisperModel(
                    str(path), device=device, compute_type=compute_type, cpu_threads=config.threads, num_workers=1
                )
                self._multilingual = bool(getattr(self._model.model, "is_multilingual", False))
                self._short_window_setup()
                self.transcribe_array(np.zeros(RATE // 2, np.float32))  # warm-up: first call allocates
                break
            except (RuntimeError, ValueError, OSError) as exc:  # e.g. CUDA present but cuBLAS/cuDNN missing
                log.warning("Whisper on %s failed: %s", device, exc)
                failures.append(f"{device}: {exc}")
        else:
            raise ModelError(f"cannot load the Whisper model at {path}: {'; '.join(failures)}")

    def _short_window_setup(self) -> None:
        from faster_whisper.tokenizer import Tokenizer

        self._tokenizer = Tokenizer(
            self._model.hf_tokenizer, self._multilingual, task="transcribe",
            language=self.config.language if self._multilingual else None,
        )
        self._prompt = [*self._tokenizer.sot_sequence, self._tokenizer.no_timestamps]

    def transcribe_array(self, pcm: np.ndarray) -> str:
        if pcm.size < RATE // 10:
            return ""
        pcm = pcm.astype(np.float32, copy=False)
        seconds = pcm.size / RATE
        window = max(self.config.window_s, math.ceil(seconds + 1.0))
        if window >= 30:
            return self._transcribe_long(pcm)
        return self._transcribe_window(pcm, window)

    def _transcribe_window(self, pcm: np.ndarray, window: int) -> str:
        """One utterance in a short encoder window.

        Whisper always encodes 30 s (speech + silence padding); the encoder's cost
        grows with the window, and a short command in a window of a few seconds with
        at least a second of padded silence transcribes the same words 4-5x faster.
        """
        import ctranslate2

        frames = window * 100
        features = self._model.feature_extractor(pcm, padding=window * RATE - pcm.size)[:, :frames]
        if features.shape[1] < frames:
            features = np.pad(features, ((0, 0), (0, frames - features.shape[1])))
        encoded = self._model.model.encode(
            ctranslate2.StorageView.from_array(np.ascontiguousarray(features[None], dtype=np.float32)),
            to_cpu=False,
        )
        result = self._model.model.generate(
            encoded, [self._prompt], beam_size=self.config.beam_size, max_length=min(224, 12 * window),
            return_no_speech_prob=True, suppress_blank=True, suppress_tokens=[-1],
        )[0]
        if result.no_speech_prob > NO_SPEECH_PROB:
            return ""
        tokens = [t for t in result.sequences_ids[0] if t < self._tokenizer.eot]
        text = clean_transcript(self._tokenizer.decode(tokens))
        return "" if compression_ratio(text) > COMPRESSION_RATIO_MAX else text

    def _transcribe_long(self, pcm: np.ndarray) -> str:
        segments, _info = self._model.transcribe(
            pcm,
            language=self.config.language if self._multilingual else None,
            beam_size=self.config.beam_size,
            temperature=0.0,
            without_timestamps=True,
            condition_on_previous_text=False,
            vad_filter=False,
        )
        return clean_transcript(" ".join(segment.text.strip() for segment in segments))

    def utterance(self) -> "WhisperUtterance":
        return WhisperUtterance(self)


class WhisperUtterance:
    def __init__(self, stt: WhisperStt):
        self._stt = stt
        self._chunks: list[np.ndarray] = []

    def feed(self, pcm: np.ndarray) -> None:
        self._chunks.append(pcm)
        return None

    def audio(self) -> np.ndarray:
        return np.concatenate(self._chunks) if self._chunks else np.zeros(0, np.float32)

    def transcribe(self) -> str:
        return self._stt.transcribe_array(self.audio())


class VoskStt:
    """Vosk (Kaldi): streams partial transcripts while the user speaks."""

    streaming = True

    def __init__(self, config: SttConfig, model_dir: Path | None = None):
        try:
            import vosk
        except ImportError as exc:
            raise SttError("vosk is not installed: pip install vosk") from exc
        vosk.SetLogLevel(-1)
        path = model_dir or find_vosk(config.vosk_model, config.language).path
        self.name = f"vosk ({config.language})"
        if config.vosk_fast:
            from .vosk_fast import fast_model_dir

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
    def __init__(self, recognizer):
        self._recognizer = recognizer
        self._final: list[str] = []
        self._last_partial = ""

    @staticmethod
    def _pcm16(pcm: np.ndarray) -> bytes:
        return (np.clip(pcm, -1.0, 1.0) * 32767).astype("<i2").tobytes()

    def feed(self, pcm: np.ndarray) -> str | None:
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
        return clean_transcript(" ".join(self._final))


def load_stt(config: SttConfig) -> Stt:
    if config.engine == "whisper":
        return WhisperStt(config)
    if config.engine == "vosk":
        return VoskStt(config)
    raise SttError(f"unknown STT engine '{config.engine}' (choose {' or '.join(choices(SttConfig, 'engine'))})")
