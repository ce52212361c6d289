"""Text to speech: Piper (neural, onnxruntime) and the system voice (pyttsx3).

``synthesize`` yields audio sentence by sentence so playback can start on the first.
LoadedModels are not shared between threads: the TTS worker owns its engine.
"""

from __future__ import annotations

import json
import logging
import tempfile
from pathlib import Path
from typing import Iterator, Protocol

import numpy as np

from .config import TtsConfig, choices
from .models import ModelError, find_piper_voice

log = logging.getLogger(__name__)


class TtsError(RuntimeError):
    pass


class Tts(Protocol):
    name: str
    rate: int
    voice_id: str
    """Identifies the voice and its settings (keys the reply-audio cache)."""

    def synthesize(self, text: str) -> Iterator[np.ndarray]:
        """Mono float32 at ``rate``, one array per sentence."""


def onnx_providers() -> list[str]:
    """CUDA when onnxruntime-gpu is installed and sees a GPU, else CPU."""
    import onnxruntime as ort

    available = ort.get_available_providers()
    return [p for p in ("CUDAExecutionProvider", "CPUExecutionProvider") if p in available]


class PiperTts:
    def __init__(self, config: TtsConfig, voice_path: Path | None = None):
        try:
            import onnxruntime as ort
            from piper import PiperVoice
            from piper.config import PiperConfig, SynthesisConfig
        except ImportError as exc:
            raise TtsError("piper-tts is not installed: pip install piper-tts") from exc
        path = voice_path or find_piper_voice(config.voice).path
        try:
            voice_config = PiperConfig.from_dict(json.loads(Path(f"{path}.json").read_text(encoding="utf-8")))
            options = ort.SessionOptions()
            options.intra_op_num_threads = config.threads
            options.inter_op_num_threads = 1
            # Memory patterns are cached per input shape, and every sentence length is a new
            # shape: with them memory keeps growing (here +80 MB from the 100th to the 600th
            # sentence, still rising); without them it stays flat and synthesis is as fast.
            options.enable_mem_pattern = False
            session = ort.InferenceSession(str(path), sess_options=options, providers=onnx_providers())
        except Exception as exc:  # onnxruntime raises its own exception types for a corrupt model
            raise ModelError(f"cannot load the Piper voice {path}: {exc}") from exc
        self._voice = PiperVoice(session=session, config=voice_config)
        self._syn = SynthesisConfig(length_scale=config.length_scale, volume=config.volume)
        self.rate = voice_config.sample_rate
        self.name = f"piper ({path.stem})"
        self.voice_id = f"piper:{path.stem}:{path.stat().st_size}:{config.length_scale}:{config.volume}"
        for _ in self.synthesize("Ready."):  # warm-up: the first run allocates
            pass

    def synthesize(self, text: str) -> Iterator[np.ndarray]:
        for chunk in self._voice.synthesize(text, self._syn):
            yield chunk.audio_float_array


class SystemTts:
    """The platform voice through pyttsx3 (espeak-ng on Linux, SAPI5, NSSS)."""

    def __init__(self, config: TtsConfig):
        try:
            import pyttsx3
        except ImportError as exc:
            raise TtsError("pyttsx3 is not installed: pip install pyttsx3") from exc
        try:
            self._engine = pyttsx3.init()
        except Exception as exc:  # pyttsx3 raises whatever its driver raises
            raise TtsError(
                f"the system voice is unavailable ({exc}); on Linux install espeak-ng (apt install espeak-ng)"
            ) from exc
        if config.volume != 1.0:
            self._engine.setProperty("volume", config.volume)
        self._volume = config.volume
        self._tmp = Path(tempfile.mkdtemp(prefix="assistant-tts-"))
        self.name = "system (pyttsx3)"
        self.voice_id = f"system:{self._engine.getProperty('voice')}:{config.volume}"
        first = next(self._render("Ready."), None)
        self.rate = first[1] if first else 22050

    def _render(self, text: str) -> Iterator[tuple[np.ndarray, int]]:
        import soundfile as sf

        path = self._tmp / "say.wav"
        self._engine.save_to_file(text, str(path))
        self._engine.runAndWait()
        try:
            pcm, rate = sf.read(str(path), dtype="float32", always_2d=False)
        except Exception as exc:  # noqa: BLE001 - soundfile errors vary by backend
            raise TtsError(f"the system voice produced no audio: {exc}") from exc
        if pcm.ndim == 2:
            pcm = pcm.mean(axis=1)
        yield pcm, rate

    def synthesize(self, text: str) -> Iterator[np.ndarray]:
        from .audio import resample

        for pcm, rate in self._render(text):
            yield resample(pcm, rate, self.rate)


def load_tts(config: TtsConfig) -> Tts:
    if config.engine == "piper":
        return PiperTts(config)
    if config.engine == "system":
        return SystemTts(config)
    raise TtsError(f"unknown TTS engine '{config.engine}' (choose {' or '.join(choices(TtsConfig, 'engine'))})")
