"""The confidence threshold below which a model's answers are hedged, kept per model.

``assistant bench --quality --calibrate`` measures it for a GGUF on the tuning half of
the quality questions and writes it to ``calibration.toml`` in the config folder, under
the model's file name and size; the embedded model's is shipped in ``data/``. The
``llm.hedge_below`` setting, when set, overrides both.
"""

from __future__ import annotations

import logging
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from assistant.resources import config_dir, write_text

log = logging.getLogger(__name__)

FILE = "calibration.toml"


def model_key(path: Path) -> str:
    """The model's file name and size: a re-quantized or re-downloaded file is another model."""
    try:
        return f"{path.name}:{path.stat().st_size}"
    except OSError:
        return path.name


def _read(text: str, where: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text).get("models", {})
    except tomllib.TOMLDecodeError as exc:
        log.warning("ignoring %s: %s", where, exc)
        return {}


def _tables() -> list[dict[str, Any]]:
    user = config_dir() / FILE
    tables = []
    if user.is_file():
        tables.append(_read(user.read_text(encoding="utf-8"), str(user)))
    tables.append(_read(resources.files("assistant.think").joinpath("data", FILE).read_text(encoding="utf-8"),
                        "the built-in calibration"))
    return tables


def threshold_for(path: Path | None) -> float | None:
    """The calibrated threshold of the model at ``path`` (the user's calibration first),
    or None when it was never calibrated."""
    if path is None:
        return None
    key = model_key(path)
    for table in _tables():
        entry = table.get(key)
        if isinstance(entry, dict) and isinstance(entry.get("hedge_below"), (int, float)):
            return float(entry["hedge_below"])
    return None


def save(path: Path, threshold: float, details: dict[str, Any]) -> Path:
    """Keep ``threshold`` for the model at ``path`` in the user's calibration file."""
    target = config_dir() / FILE
    table = _read(target.read_text(encoding="utf-8"), str(target)) if target.is_file() else {}
    table[model_key(path)] = {"hedge_below": round(threshold, 4), **details}
    lines = ["# Confidence thresholds measured by `assistant bench --quality --calibrate`.", ""]
    for key, entry in sorted(table.items()):
        lines.append(f'[models."{key}"]')
        lines += [f"{name} = {_toml(value)}" for name, value in entry.items()]
        lines.append("")
    write_text(target, "\n".join(lines))
    return target


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'
