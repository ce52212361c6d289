"""The configuration file: TOML in the platform's config folder, read with the exact key
named when a value is wrong, written atomically."""

from __future__ import annotations

import dataclasses
import logging
import math
import tomllib
import typing
from dataclasses import fields, is_dataclass, replace
from pathlib import Path
from typing import Any, Mapping

from assistant.config.rules import ConfigError, check
from assistant.config.sections import Config
from assistant.resources import config_dir

log = logging.getLogger(__name__)

RETIRED = {
    "turn.statement_ms": "a complete statement ends the turn like a question",
    "turn.bare_complete_log10": "the model reads the words without punctuation and weighs every end mark",
    "echo.converge_s": "the canceller is ready once its echo reduction reaches echo.ready_erle_db",
}
"""Keys an earlier version wrote, read and dropped so that a saved file still loads."""

def default_config_path() -> Path:
    return config_dir() / "assistant.toml"


def _build(cls: type, values: Mapping[str, Any], where: str) -> Any:
    known = {f.name: f for f in fields(cls)}
    hints = typing.get_type_hints(cls)
    kwargs: dict[str, Any] = {}
    for key, value in values.items():
        if f"{where}{key}" in RETIRED:
            log.warning("'%s%s' is no longer used (%s); it is ignored", where, key, RETIRED[f"{where}{key}"])
            continue
        if key not in known:
            raise ConfigError(f"unknown key '{where}{key}' (known: {', '.join(sorted(known))})")
        default = getattr(cls(), key)
        if is_dataclass(default):
            if not isinstance(value, Mapping):
                raise ConfigError(f"'{where}{key}' must be a table")
            kwargs[key] = _build(type(default), value, f"{where}{key}.")
            continue
        kinds = [kind for kind in typing.get_args(hints[key]) if kind is not type(None)]
        kwargs[key] = _coerce(value, default, f"{where}{key}", kinds)
    return cls(**kwargs)


def _coerce(value: Any, default: Any, key: str, kinds: list[type] = ()) -> Any:
    """``value`` as the type of ``default`` (or, for a field that may be None, one of ``kinds``)."""
    if value is None:
        return value
    if default is None:
        for kind in kinds:
            number = kind in (int, float) and isinstance(value, (int, float)) and not isinstance(value, bool)
            if number or isinstance(value, kind) and kind is not int:
                return _coerce(value, kind(), key)
        wanted = " or ".join(dict.fromkeys("a string" if k is str else "a number" for k in kinds))
        raise ConfigError(f"'{key}' must be {wanted or 'left out'}, not {value!r}")
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ConfigError(f"'{key}' must be true or false, not {value!r}")
        return value
    if isinstance(default, (int, float)) and not isinstance(default, bool):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"'{key}' must be a number, not {value!r}")
        if not math.isfinite(value):
            raise ConfigError(f"'{key}' must be a finite number, not {value!r}")
        return type(default)(value)
    if isinstance(default, tuple):
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"'{key}' must be a list of strings, not {value!r}")
        return tuple(value)
    if isinstance(default, str) and not isinstance(value, str):
        raise ConfigError(f"'{key}' must be a string, not {value!r}")
    if isinstance(default, tuple):
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"'{key}' must be a list of strings, not {value!r}")
        return tuple(value)
    return value


def from_mapping(values: Mapping[str, Any]) -> Config:
    """Build a Config from nested tables, naming the exact key that is wrong."""
    config = _build(Config, values, "")
    check(config)
    return config


def load(path: Path | None = None) -> Config:
    """Load the TOML config file (missing file = defaults)."""
    path = path or default_config_path()
    if not path.exists():
        return Config()
    try:
        values = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"cannot read config {path}: {exc}") from exc
    return from_mapping(values)


def with_overrides(config: Config, **sections: Mapping[str, Any]) -> Config:
    """Return ``config`` with per-section overrides; None values are ignored."""
    updated = {}
    for name, values in sections.items():
        values = {k: v for k, v in values.items() if v is not None}
        if values:
            updated[name] = replace(getattr(config, name), **values)
    return replace(config, **updated)


def to_mapping(config: Config) -> dict[str, Any]:
    """Nested dict of the config without None values (TOML has no null)."""

    def strip(obj: Any) -> Any:
        if isinstance(obj, dict):
            return {k: strip(v) for k, v in obj.items() if v is not None}
        return obj

    return strip(dataclasses.asdict(config))


def save(config: Config, path: Path | None = None) -> Path:
    """Write the config atomically, so a crash mid-write never loses the old file."""
    import tomli_w

    from assistant import resources

    path = path or default_config_path()
    resources.write_text(path, tomli_w.dumps(to_mapping(config)))
    return path
