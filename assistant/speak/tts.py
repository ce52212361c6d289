"""Text to speech: Piper (neural, onnxruntime) and the system voice (pyttsx3).

``synthesize`` yields audio sentence by sentence so playback can start on the first.
LoadedModels are not shared between threads: the TTS worker owns its engine.
"""

from __future__ import annotations

import json
import logging
import math
import shutil
import tempfile
import threading
import time
import weakref
from dataclasses import replace
from pathlib import Path
from typing import Iterator, Protocol

import numpy as np

from assistant.sound import window_rms_db
from assistant.config import TtsConfig, chosen
from assistant.errors import installed
from assistant.machine.models import ModelError, find_piper_voice

log = logging.getLogger(__name__)


class TtsError(RuntimeError):
    pass


class Tts(Protocol):
    name: str
    rate: int
    voice_id: str
    """Identifies the voice and its settings (keys the reply-audio cache)."""

    concurrent: bool
    """Whether it may synthesize on a second thread while the TTS worker uses it."""

    def synthesize(self, text: str, pace: float = 1.0) -> Iterator[np.ndarray]:
        """Mono float32 at ``rate``, one array per sentence; spoken ``pace`` times as fast as configured."""

    def steady(self, text: str) -> Iterator[np.ndarray]:
        """As :meth:`synthesize`, without random variation where the engine has it."""

    def voices_for(self, text: str) -> list[str]:
        """Names of the voices that say ``text``, in order, each once."""


LEAD_IN_DBFS = -45.0
"""Audio before the first 5 ms window this loud is the voice's lead-in: pure waiting."""
LEAD_IN_KEEP_MS = 5.0
"""Kept before the onset so the first sound does not start with a click."""


def _loud_windows(pcm: np.ndarray, rate: int) -> tuple[np.ndarray, int]:
    """Indices of the 5 ms windows of ``pcm`` at or above ``LEAD_IN_DBFS``, and the window size."""
    levels, window = window_rms_db(pcm, rate)
    return np.flatnonzero(levels >= LEAD_IN_DBFS), window


def trim_lead_in(pcm: np.ndarray, rate: int) -> np.ndarray:
    """``pcm`` without its leading near-silence (all of it when it is all quiet)."""
    loud, window = _loud_windows(pcm, rate)
    if loud.size == 0:
        return pcm
    start = max(0, loud[0] * window - round(rate * LEAD_IN_KEEP_MS / 1000))
    return pcm[start:]


MID_SENTENCE_TAIL_MS = 40.0
"""Kept of the silence after a chunk that ends in the middle of a sentence."""


def trim_tail(pcm: np.ndarray, rate: int, keep_ms: float = MID_SENTENCE_TAIL_MS) -> np.ndarray:
    """``pcm`` without its trailing near-silence but ``keep_ms`` of it."""
    loud, window = _loud_windows(pcm, rate)
    if loud.size == 0:
        return pcm
    return pcm[: min(pcm.size, (loud[-1] + 1) * window + round(rate * keep_ms / 1000))]


def ends_mid_sentence(text: str) -> bool:
    """The text stops at a word, not at punctuation: more of the sentence follows at once."""
    text = text.rstrip()
    return bool(text) and text[-1].isalnum()


def onnx_providers() -> list[str]:
    """CUDA when onnxruntime-gpu is installed and sees a GPU, else CPU."""
    import onnxruntime as ort

    available = ort.get_available_providers()
    return [p for p in ("CUDAExecutionProvider", "CPUExecutionProvider") if p in available]


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def read_voice_config(path: Path):
    """The ``.onnx.json`` beside a Piper voice, checked field by field (a bad value would
    otherwise fail mid-sentence, or crash onnxruntime), as a ``piper.config.PiperConfig``."""
    from piper.config import PhonemeType, PiperConfig

    json_path = Path(f"{path}.json")
    try:
        data = json.loads(json_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelError(f"cannot read the Piper voice config {json_path}: {' '.join(str(exc).split())}") from exc

    def need(ok: bool, key: str, what: str) -> None:
        if not ok:
            raise ModelError(f"the Piper voice config {json_path} is invalid: '{key}' {what}")

    need(isinstance(data, dict), "(top level)", "must be a JSON object")
    audio, espeak, inference = data.get("audio"), data.get("espeak"), data.get("inference", {})
    rate = audio.get("sample_rate") if isinstance(audio, dict) else None
    need(_whole(rate) and 8000 <= rate <= 192000, "audio.sample_rate", "must be 8000 to 192000 (Hz)")
    symbols, speakers = data.get("num_symbols"), data.get("num_speakers")
    need(_whole(symbols) and 0 < symbols <= 100_000, "num_symbols", "must be a whole number above 0")
    need(_whole(speakers) and 0 < speakers <= 100_000, "num_speakers", "must be a whole number above 0")
    need(str(data.get("phoneme_type", "espeak")) in {t.value for t in PhonemeType}, "phoneme_type",
         f"must be one of {', '.join(t.value for t in PhonemeType)}")
    need(isinstance(espeak, dict) and isinstance(espeak.get("voice"), str) and bool(espeak["voice"]),
         "espeak.voice", "must be a voice name")
    ids = data.get("phoneme_id_map")
    need(isinstance(ids, dict) and {"^", "$", "_"} <= set(ids) and all(
        isinstance(v, list) and v and all(_whole(i) and 0 <= i < symbols for i in v) for v in ids.values()),
        "phoneme_id_map", f"must give ^, $, _ and each phoneme a list of ids below num_symbols ({symbols})")
    need(isinstance(inference, dict) and all(_number(v) and 0 <= v <= 100 for v in inference.values()),
         "inference", "must hold numbers from 0 to 100")
    speaker_ids = data.get("speaker_id_map", {})
    need(isinstance(speaker_ids, dict) and all(_whole(v) and 0 <= v < speakers for v in speaker_ids.values()),
         "speaker_id_map", f"must map names to ids below num_speakers ({speakers})")
    for key in ("hop_length", "default_speaker_id"):
        need(key not in data or _whole(data[key]) and data[key] >= 0, key, "must be a whole number")
    clusters = data.get("vowel_clusters", [])
    need(isinstance(clusters, list) and all(isinstance(c, list) and all(isinstance(p, str) for p in c)
                                             for c in clusters), "vowel_clusters", "must be lists of phonemes")
    return PiperConfig.from_dict(data)


class PiperTts:
    """A Piper voice (onnxruntime)."""

    concurrent = True
    """Piper's onnxruntime session is safe to run concurrently, and its espeak-ng
    phonemizer holds the GIL."""

    def __init__(self, config: TtsConfig, voice_path: Path | None = None):
        try:
            import onnxruntime as ort
            from piper import PiperVoice
            from piper.config import SynthesisConfig
        except ImportError as exc:
            raise TtsError("piper-tts is not installed: pip install piper-tts") from exc
        path = voice_path or find_piper_voice(config.voice).path
        voice_config = read_voice_config(path)
        try:
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
        self._length_scale = config.length_scale or voice_config.length_scale or 1.0
        """The voice's own pace (the setting, else the voice's), which a ``pace`` divides."""
        self.rate = voice_config.sample_rate
        self.name = f"piper ({path.stem})"
        self.voice_id = f"piper:{path.stem}:{path.stat().st_size}:{config.length_scale}:{config.volume}:trimmed"
        try:
            for _ in self.synthesize("Ready."):  # warm-up: the first run allocates
                pass
        except Exception as exc:  # espeak-ng or onnxruntime refusing what the config asks for
            raise ModelError(f"the Piper voice {path} cannot speak: {' '.join(str(exc).split())}") from exc

    def synthesize(self, text: str, pace: float = 1.0) -> Iterator[np.ndarray]:
        """The first sentence starts at its first sound: Piper begins each text with
        30-50 ms of near-silence, which would only add to the wait. A text cut in the middle
        of a sentence (the first chunk of a reply, "The capital of") loses the ~170 ms of
        silence Piper ends every text with, so the sentence runs on into the next chunk.
        ``pace``: Piper's length scale (the time each sound takes) is the voice's over it."""
        syn = self._syn if pace == 1.0 else replace(self._syn, length_scale=self._length_scale / pace)
        yield from self._synthesize(text, syn)

    def steady(self, text: str) -> Iterator[np.ndarray]:
        """The same without Piper's random variation (noise 0): the same text gives the same
        audio every time. For spoken test and bench inputs, whose transcripts must not
        depend on a draw ("pasta" was heard "positive" in half the draws)."""
        from piper import SynthesisConfig

        steady = SynthesisConfig(length_scale=self._syn.length_scale, volume=self._syn.volume,
                                 noise_scale=0.0, noise_w_scale=0.0)
        yield from self._synthesize(text, steady)

    def voices_for(self, text: str) -> list[str]:
        return [self.name]

    def _synthesize(self, text: str, syn) -> Iterator[np.ndarray]:
        pieces = (chunk.audio_float_array for chunk in self._voice.synthesize(text, syn))
        pcm = next(pieces, None)
        if pcm is None:
            return
        pcm = trim_lead_in(pcm, self.rate)
        for following in pieces:  # one piece held back: the last one's tail may go
            yield pcm
            pcm = following
        yield trim_tail(pcm, self.rate) if ends_mid_sentence(text) else pcm


class SystemTts:
    """The platform voice through pyttsx3 (espeak-ng on Linux, SAPI5, NSSS)."""

    concurrent = False
    """pyttsx3 is not thread-safe."""

    def __init__(self, config: TtsConfig):
        pyttsx3 = installed("pyttsx3", "pyttsx3", TtsError)
        try:
            self._engine = pyttsx3.init()
        except Exception as exc:  # pyttsx3 raises whatever its driver raises
            raise TtsError(
                f"the system voice is unavailable ({exc}); on Linux install espeak-ng (apt install espeak-ng)"
            ) from exc
        if config.volume != 1.0:
            self._engine.setProperty("volume", config.volume)
        rendered = self._rendered = threading.Event()
        # the engine is shared by every system voice of the process (pyttsx3 keeps one per
        # driver): the callback holds the event only, and is let go on close
        self._listening = self._engine.connect("finished-utterance", lambda **_: rendered.set())
        self._volume = config.volume
        self._tmp = Path(tempfile.mkdtemp(prefix="assistant-tts-"))
        self._remove_tmp = weakref.finalize(self, shutil.rmtree, self._tmp, ignore_errors=True)
        """Removes the scratch folder: :meth:`close`, the voice being collected, or the app's exit."""
        self._words_per_minute = self._engine.getProperty("rate")
        self.name = "system (pyttsx3)"
        self.voice_id = f"system:{self._engine.getProperty('voice')}:{config.volume}:trimmed"
        first = next(self._render("Ready."), None)
        self.rate = first[1] if first else 22050

    def _render(self, text: str) -> Iterator[tuple[np.ndarray, int]]:
        import soundfile as sf

        path = self._tmp / "say.wav"
        path.unlink(missing_ok=True)  # never the last sentence's audio
        self._rendered.clear()
        self._engine.save_to_file(text, str(path))
        self._engine.runAndWait()
        self._wait_for(path)
        try:
            pcm, rate = sf.read(str(path), dtype="float32", always_2d=False)
        except Exception as exc:  # noqa: BLE001 - soundfile errors vary by backend
            raise TtsError(f"the system voice produced no audio: {exc}") from exc
        if pcm.ndim == 2:
            pcm = pcm.mean(axis=1)
        yield pcm, rate

    RENDER_TIMEOUT_S = 15.0
    """The longest a sentence may take to reach its file."""

    def _wait_for(self, path: Path) -> None:
        """pyttsx3's espeak driver can return from ``runAndWait`` while its synthesis thread is
        still writing the file: wait for the end of the utterance; a driver that announces no end
        is trusted once its file is there."""
        deadline = time.monotonic() + self.RENDER_TIMEOUT_S
        while not self._rendered.wait(0.01):
            if path.exists() and not self._rendered.wait(0.5):
                return  # no end announced: the file is there
            if time.monotonic() > deadline:
                raise TtsError(f"the system voice produced no audio within {self.RENDER_TIMEOUT_S:.0f} s")

    def close(self) -> None:
        """Remove the scratch folder the voice renders into (the voice is not used after)."""
        if self._listening is not None:
            try:
                self._engine.disconnect(self._listening)
            except (KeyError, ValueError):
                pass
            self._listening = None
        self._remove_tmp()

    def synthesize(self, text: str, pace: float = 1.0) -> Iterator[np.ndarray]:
        from assistant.sound import resample

        if pace != 1.0:
            self._engine.setProperty("rate", round(self._words_per_minute * pace))
        try:
            rendered = list(self._render(text))
        finally:
            if pace != 1.0:
                self._engine.setProperty("rate", self._words_per_minute)
        for pcm, rate in rendered:
            yield trim_lead_in(resample(pcm, rate, self.rate), self.rate)

    def steady(self, text: str) -> Iterator[np.ndarray]:
        return self.synthesize(text)  # the system voice has no random variation

    def voices_for(self, text: str) -> list[str]:
        return [self.name]


def load_tts(config: TtsConfig) -> Tts:
    return chosen(config, "engine", {"piper": PiperTts, "system": SystemTts}, TtsError)
