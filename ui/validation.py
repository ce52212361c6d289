"""Which settings are acceptable, and what a change needs reloaded. No Qt here.

Everything is checked before anything is applied: a refused change leaves the running
engines and the saved settings as they were.
"""

from __future__ import annotations

from dataclasses import replace

from assistant.sound import AudioError
from assistant.machine.devices import check_device
from assistant import config as config_mod
from assistant.config import Config, ConfigError
from assistant.machine.models import ModelError, find_llm, find_piper_voice, find_vosk, find_whisper

class SettingsError(ValueError):
    """A setting was refused; the message says why."""


def validate(new: Config) -> None:
    """Raise :class:`SettingsError` naming the first setting that cannot work: the
    configuration's own rules, then the models and devices it names."""
    try:
        config_mod.check(new)
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
    except (ConfigError, ModelError, AudioError) as exc:
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
