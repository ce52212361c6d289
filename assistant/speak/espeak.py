"""eSpeak NG spoken directly through its C library (ctypes): the Korean voice.

The library and its data come from the ``espeakng-loader`` package when installed (it
bundles both, with the Korean dictionary, for pip-only installs and PyInstaller), else
from the system (``apt install espeak-ng``). Audio is rendered in memory; no files, no
subprocess. eSpeak NG keeps global state, so one lock serializes every call in the process.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import logging
import platform
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import numpy as np

from assistant import resources

log = logging.getLogger(__name__)

AUDIO_OUTPUT_SYNCHRONOUS = 2
POS_CHARACTER = 1
ESPEAK_CHARS_UTF8 = 1
RATE_PARAMETER = 1
PITCH_PARAMETER = 3
_LOCK = threading.Lock()
_SYNTH_CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_short), ctypes.c_int, ctypes.c_void_p)


class EspeakError(RuntimeError):
    """eSpeak NG is missing or has no voice for a language; the message says what to install."""


@dataclass(frozen=True)
class EspeakLibrary:
    path: str
    data: str | None
    """The espeak-ng-data folder; None lets the library use its compiled-in default."""
    origin: str


def _bundled_name() -> str:
    system = platform.system()
    return "espeak-ng.dll" if system == "Windows" else "libespeak-ng.dylib" if system == "Darwin" else "libespeak-ng.so"


def find_library() -> EspeakLibrary:
    """``espeakng-loader``'s bundled library first, then the system's."""
    bundled = resources.package_path("espeakng_loader", _bundled_name())
    data = resources.package_path("espeakng_loader", "espeak-ng-data")
    if bundled and data:
        return EspeakLibrary(str(bundled), str(data), "espeakng-loader")
    system = ctypes.util.find_library("espeak-ng")
    if system:
        return EspeakLibrary(system, None, "system")
    raise EspeakError("eSpeak NG is not installed: `pip install espeakng-loader` or `apt install espeak-ng`")


@functools.lru_cache(maxsize=1)
def _load() -> tuple[ctypes.CDLL, int, str]:
    """The initialized library, its sample rate and where it came from (once per process)."""
    found = find_library()
    try:
        lib = ctypes.CDLL(found.path)
    except OSError as exc:
        raise EspeakError(f"cannot load eSpeak NG from {found.path}: {exc}") from exc
    lib.espeak_Initialize.restype = ctypes.c_int
    lib.espeak_Initialize.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_char_p, ctypes.c_int]
    lib.espeak_SetVoiceByName.argtypes = [ctypes.c_char_p]
    lib.espeak_SetSynthCallback.argtypes = [_SYNTH_CALLBACK]
    lib.espeak_SetParameter.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int]
    lib.espeak_Synth.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_uint, ctypes.c_int, ctypes.c_uint,
                                 ctypes.c_uint, ctypes.c_void_p, ctypes.c_void_p]
    lib.espeak_TextToPhonemes.restype = ctypes.c_char_p
    lib.espeak_TextToPhonemes.argtypes = [ctypes.POINTER(ctypes.c_char_p), ctypes.c_int, ctypes.c_int]
    data = found.data.encode() if found.data else None
    rate = lib.espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, data, 0)
    if rate <= 0:
        raise EspeakError(f"eSpeak NG from {found.origin} failed to start (its data folder: {found.data or 'default'})")
    return lib, rate, found.origin


def phonemes(text: str, voice: str = "en-us") -> str:
    """eSpeak NG's phonemes of ``text`` in ``voice`` (its mnemonics, as ``espeak-ng -q -x`` writes them)."""
    lib, _, _ = _load()
    buffer = ctypes.create_string_buffer(" ".join(text.split()).encode("utf-8"))
    pointer = ctypes.c_char_p(ctypes.addressof(buffer))
    out = []
    with _LOCK:
        lib.espeak_SetVoiceByName(voice.encode())
        while pointer.value:
            out.append((lib.espeak_TextToPhonemes(ctypes.byref(pointer), 1, 0) or b"").decode("ascii", "replace"))
    return " ".join(out)


class EspeakTts:
    """One eSpeak NG voice (``ko`` by default) as a TTS engine."""

    concurrent = True
    """Safe to call from several threads (every call takes the library's lock)."""

    def __init__(self, language: str = "ko", words_per_minute: int = 175, pitch: int = 50):
        self._lib, self.rate, origin = _load()
        self.language = language
        self._words_per_minute = words_per_minute
        self._pitch = pitch
        self._chunks: list[np.ndarray] = []
        self._callback = _SYNTH_CALLBACK(self._collect)  # kept: the library holds a pointer to it
        with _LOCK:
            if self._lib.espeak_SetVoiceByName(language.encode()) != 0:
                raise EspeakError(f"eSpeak NG ({origin}) has no '{language}' voice; install espeak-ng-data")
        self.name = f"espeak-ng ({language})"
        self.voice_id = f"espeak:{language}:{words_per_minute}:{origin}"
        if not next(iter(self.synthesize("가")), np.zeros(0)).size and language == "ko":
            raise EspeakError("eSpeak NG produced no audio for Korean; its Korean dictionary (ko_dict) is missing")

    def _collect(self, wav, count: int, _events) -> int:
        if count > 0:
            self._chunks.append(np.ctypeslib.as_array(wav, shape=(count,)).astype(np.float32) / 32768.0)
        return 0

    def synthesize(self, text: str, pace: float = 1.0) -> Iterator[np.ndarray]:
        data = text.encode("utf-8") + b"\0"
        with _LOCK:
            self._chunks = []
            self._lib.espeak_SetSynthCallback(self._callback)
            self._lib.espeak_SetVoiceByName(self.language.encode())
            self._lib.espeak_SetParameter(RATE_PARAMETER, round(self._words_per_minute * pace), 0)
            self._lib.espeak_SetParameter(PITCH_PARAMETER, self._pitch, 0)
            buffer = ctypes.create_string_buffer(data)
            status = self._lib.espeak_Synth(buffer, len(data), 0, POS_CHARACTER, 0, ESPEAK_CHARS_UTF8, None, None)
            chunks, self._chunks = self._chunks, []
        if status != 0:
            raise EspeakError(f"eSpeak NG could not speak {text!r} (status {status})")
        if chunks:
            yield np.concatenate(chunks)

    def steady(self, text: str) -> Iterator[np.ndarray]:
        return self.synthesize(text)  # eSpeak NG has no random variation

    def voices_for(self, text: str) -> list[str]:
        return [self.name]


def library_summary() -> str:
    """Where eSpeak NG comes from, for ``assistant doctor``."""
    try:
        found = find_library()
    except EspeakError as exc:
        return str(exc)
    return f"{found.origin} ({Path(found.path).name})"
