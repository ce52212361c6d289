"""The voice for each piece of a reply, chosen by the script it is written in.

An English voice reads Hangul as noise, so text is cut where the script changes and each
run goes to the voice for its script: Hangul to a Korean voice (a Korean Piper voice in
``models/``, else eSpeak NG's ``ko``), everything else to the configured voice (Piper).
Digits, spaces and punctuation belong to the run they sit in. Hangul with no Korean voice
is not spoken at all (the text is still shown).
"""

from __future__ import annotations

import logging
import unicodedata
from dataclasses import dataclass
from typing import Iterator

import numpy as np

from assistant.sound import resample
from assistant.writing import is_hangul
from assistant.machine.models import ModelError

log = logging.getLogger(__name__)

HANGUL = "hangul"
OTHER = "other"
NO_KOREAN_VOICE = (
    "no Korean voice, so Hangul is not spoken: `pip install espeakng-loader`, `apt install espeak-ng`, "
    "or put a Korean Piper voice (ko*.onnx with its .onnx.json) in models/"
)


def script_of(char: str) -> str | None:
    """``hangul``, ``other``, or None for a character any voice may say (digit, space, punctuation)."""
    if is_hangul(char):
        return HANGUL
    if char.isalpha():
        return HANGUL if unicodedata.name(char, "").startswith("HANGUL") else OTHER
    return None


def split_by_script(text: str) -> list[tuple[str, str]]:
    """(script, text) runs; neutral characters join the run before them (or the first one)."""
    runs: list[list[str]] = []
    lead = ""
    for char in text:
        script = script_of(char)
        if script is None:
            if runs:
                runs[-1][1] += char
            else:
                lead += char
        elif runs and runs[-1][0] == script:
            runs[-1][1] += char
        else:
            runs.append([script, lead + char])
            lead = ""
    if not runs:
        return [(OTHER, lead)] if lead.strip() else []
    return [(script, piece) for script, piece in runs if piece.strip()]


@dataclass(frozen=True)
class Spoken:
    """A run of text and the voice that says it (None: no voice for its script)."""

    text: str
    voice: str | None


class VoiceSet:
    """A TTS engine that speaks each script run with its own voice, at one output rate."""

    def __init__(self, default, korean=None):
        self.default = default
        self.korean = korean
        self.rate = max(default.rate, korean.rate if korean else 0)
        self.name = default.name if korean is None else f"{default.name} + {korean.name}"
        self.voice_id = default.voice_id if korean is None else f"{default.voice_id}|{korean.voice_id}"
        self.concurrent = all(voice.concurrent for voice in (default, korean) if voice is not None)
        """Whether synthesis may run on a second thread while the TTS worker speaks."""

    def plan(self, text: str) -> list[Spoken]:
        """How ``text`` is spoken: its script runs and each one's voice."""
        spoken = []
        for script, piece in split_by_script(text):
            voice = self._voice(script)
            spoken.append(Spoken(piece.strip(), voice.name if voice else None))
        return spoken

    def voices_for(self, text: str) -> list[str]:
        """Names of the voices that speak ``text``, in order, each once."""
        return list(dict.fromkeys(s.voice for s in self.plan(text) if s.voice))

    def _voice(self, script: str):
        return self.korean if script == HANGUL else self.default

    def synthesize(self, text: str, steady: bool = False, pace: float = 1.0) -> Iterator[np.ndarray]:
        for script, piece in split_by_script(text):
            voice = self._voice(script)
            if voice is None:
                log.warning("%s (skipped: %r)", NO_KOREAN_VOICE, piece)
                continue
            spoken = voice.steady(piece.strip()) if steady else paced(voice, piece.strip(), pace)
            for pcm in spoken:
                yield resample(pcm, voice.rate, self.rate)

    def steady(self, text: str) -> Iterator[np.ndarray]:
        """Without the voices' random variation where they have one (see ``PiperTts.steady``)."""
        return self.synthesize(text, steady=True)


def paced(tts, text: str, pace: float) -> Iterator[np.ndarray]:
    """``tts`` speaking ``text`` ``pace`` times as fast as configured (a voice is asked for a pace only when there
    is one to keep: 1 is its own)."""
    return tts.synthesize(text) if pace == 1.0 else tts.synthesize(text, pace=pace)


def voices_for(tts, text: str) -> list[str]:
    """The voice names that speak ``text`` with ``tts``."""
    return tts.voices_for(text)


def load_korean_voice(config):
    """A Korean Piper voice from ``models/`` when there is one, else eSpeak NG ``ko``;
    None (with a warning) when neither is available."""
    from assistant.speak.espeak import EspeakError, EspeakTts
    from assistant.machine.models import find_korean_piper_voice

    try:
        found = find_korean_piper_voice()
    except ModelError:
        found = None
    if found is not None:
        from assistant.speak.tts import PiperTts

        try:
            return PiperTts(config, voice_path=found.path)
        except ModelError as exc:
            log.warning("the Korean Piper voice %s failed to load (%s); using eSpeak NG", found.path, exc)
    try:
        return EspeakTts("ko")
    except EspeakError as exc:
        log.warning("%s (%s)", NO_KOREAN_VOICE, exc)
        return None


def with_script_voices(tts, config) -> VoiceSet:
    """``tts`` for everything but Hangul, and a Korean voice for Hangul."""
    return VoiceSet(tts, load_korean_voice(config))
