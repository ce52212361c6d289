"""Which settings are acceptable, and what a change needs reloaded. No Qt here.

Everything is checked before anything is applied: a refused change leaves the running
engines and the saved settings as they were.
"""

from __future__ import annotations

import re
from dataclasses import replace

from assistant.audio import AudioError, check_device
from assistant.config import Config
from assistant.models import ModelError, find_llm, find_piper_voice, find_vosk, find_whisper

ENDPOINT_MS = (100, 3000)
THRESHOLD = (0.2, 0.95)
"""The endpointer leaves speech 0.15 below the threshold, so it must stay above that."""
STT_ENGINES = ("whisper", "vosk")
TTS_ENGINES = ("piper", "system")


class SettingsError(ValueError):
    """A setting was refused; the message says why."""


def validate(new: Config) -> None:
    """Raise :class:`SettingsError` naming the first setting that cannot work."""
    low, high = ENDPOINT_MS
    if not low <= new.vad.endpoint_ms <= high:
        raise SettingsError(f"endpoint silence must be {low}–{high} ms, not {new.vad.endpoint_ms}")
    low, high = THRESHOLD
    if not low <= new.vad.threshold <= high:
        raise SettingsError(f"VAD sensitivity (threshold) must be {low}–{high}, not {new.vad.threshold}")
    if not new.llm.system_prompt.strip():
        raise SettingsError("the system prompt is empty")
    if new.stt.engine not in STT_ENGINES:
        raise SettingsError(f"unknown STT engine '{new.stt.engine}' (choose {' or '.join(STT_ENGINES)})")
    if not re.fullmatch(r"[a-z]{2,3}", new.stt.language):
        raise SettingsError(f"'{new.stt.language}' is not a language code (like en, ko, de)")
    if new.tts.engine not in TTS_ENGINES:
        raise SettingsError(f"unknown TTS engine '{new.tts.engine}' (choose {' or '.join(TTS_ENGINES)})")
    try:
        find_llm(new.llm.model)
        if new.stt.engine == "whisper":
            find_whisper(new.stt.whisper_model, new.stt.language)
        else:
            find_vosk(new.stt.vosk_model, new.stt.language)
        if new.tts.engine == "piper":
            find_piper_voice(new.tts.voice)
        if new.audio.input_device is not None:
            check_device("input", new.audio.input_device)
        if new.audio.output_device is not None:
            check_device("output", new.audio.output_device)
    except (ModelError, AudioError) as exc:
        raise SettingsError(str(exc)) from exc


def reloads(old: Config, new: Config) -> set[str]:
    """What must be rebuilt: ``llm``, ``system_prompt`` (same model, new prompt),
    ``stt``, ``tts``, ``output``. The engine itself is always rebuilt (it is cheap)."""
    changed = set()
    if replace(old.llm, system_prompt="") != replace(new.llm, system_prompt=""):
        changed.add("llm")
    elif old.llm.system_prompt != new.llm.system_prompt:
        changed.add("system_prompt")
    if old.stt != new.stt:
        changed.add("stt")
    if old.tts != new.tts:
        changed.add("tts")
    if old.audio.output_device != new.audio.output_device or old.audio.output_rate != new.audio.output_rate:
        changed.add("output")
    return changed
