"""The rules of the configuration: how a field declares its choices, range or check, how
a section is checked, and the key combinations the kiosk's exit may use (Qt's notation,
``Ctrl+Alt+Shift+E``)."""

from __future__ import annotations

from dataclasses import field, fields
from typing import Any, Callable, Mapping, TypeVar

T = TypeVar("T")

class ConfigError(ValueError):
    """A configuration file or value is invalid; the message names the key."""


# The rules of a field are declared with it (``choice``, ``within``, ``rule``) and checked
# by :func:`check`: the loaders, the kiosk and the settings dialog all call it.


def choice(default: str, *others: str) -> Any:
    """A field that takes one of a few names, the default first."""
    return field(default=default, metadata={"choices": (default, *others)})


def within(default: float, low: float | str | None = None, high: float | str | None = None, unit: str = "", *,
           above: float | None = None, below: float | str | None = None) -> Any:
    """A number from ``low`` to ``high`` (inclusive), or ``above``/``below`` (exclusive);
    a bound may name another field of the same section."""
    return field(default=default, metadata={"range": (low, high, above, below, unit)})


def rule(default: Any, problem: Callable[[Any], str | None]) -> Any:
    """A field whose value ``problem`` checks: why it cannot work, or None."""
    return field(default=default, metadata={"rule": problem})


def not_empty(text: str) -> str | None:
    return None if text.strip() else "must not be empty"


def choices(section: type, name: str) -> tuple[str, ...]:
    """The names a ``choice`` field of a section takes (for command-line choices)."""
    return next(f.metadata["choices"] for f in fields(section) if f.name == name)


def limits(section: type, name: str) -> tuple[float, float]:
    """The (low, high) range a ``within`` field of a section declares (for spin boxes)."""
    low, high, *_ = next(f.metadata["range"] for f in fields(section) if f.name == name)
    return low, high


def _range_problem(value: float, section: Any, bounds: tuple) -> str | None:
    low, high, above, below, unit = bounds

    def bound(b):
        return getattr(section, b) if isinstance(b, str) else b

    def named(b):
        return f"{where(section)}.{b}" if isinstance(b, str) else f"{b:g}"

    unit = f" {unit}" if unit else ""
    if low is not None and high is not None and not bound(low) <= value <= bound(high):
        return f"must be {named(low)} to {named(high)}{unit}"
    if low is not None and high is None and value < bound(low):
        return f"must be at least {named(low)}" + ("" if isinstance(low, str) else unit)
    if above is not None and value <= above:
        if below is not None:
            return f"must be more than {named(above)} and less than {named(below)}"
        return f"must be more than {named(above)}{unit}"
    if below is not None and value >= bound(below):
        return f"must be more than {named(above)} and less than {named(below)}"
    return None


def problem(section: Any, name: str) -> str | None:
    """Why field ``name`` of a config section cannot work, or None."""
    meta = next(f.metadata for f in fields(section) if f.name == name)
    value = getattr(section, name)
    if "choices" in meta and value not in meta["choices"]:
        return f"must be {' or '.join(meta['choices'])}"
    if "range" in meta:
        return _range_problem(value, section, meta["range"])
    if "rule" in meta:
        return meta["rule"](value)
    return None


def where(section: Any) -> str:
    """The TOML table of a config section (``vad`` for a VadConfig)."""
    return type(section).table


def check_section(section: Any) -> None:
    """Raise :class:`ConfigError` for the first field of ``section`` that cannot work."""
    for f in fields(section):
        why = problem(section, f.name)
        if why:
            raise ConfigError(f"'{where(section)}.{f.name}' {why} (it is {getattr(section, f.name)!r})")


def check(config: Any) -> None:
    """Raise :class:`ConfigError` naming the first setting that cannot work."""
    for f in fields(config):
        check_section(getattr(config, f.name))


def chosen(section: Any, name: str, makers: Mapping[str, Callable[[Any], T]], error: type[Exception]) -> T:
    """What ``makers`` makes of ``section`` for the choice in its field ``name`` (an engine
    for ``stt.engine``); ``error`` names the choices when there is no maker for it."""
    value = getattr(section, name)
    if value not in makers:
        raise error(f"unknown '{where(section)}.{name}' {value!r} (choose {' or '.join(makers)})")
    return makers[value](section)


# ------------------------------------------------------------------ key combinations

MODIFIERS = frozenset({"ctrl", "alt", "shift", "meta"})
NAMED_KEYS = frozenset({"esc", "escape", "tab", "backspace", "return", "enter", "insert", "ins", "delete", "del",
                        "pause", "print", "home", "end", "pgup", "pgdown", "left", "right", "up", "down", "space"})
COMMON_SHORTCUTS = ("Alt+F4", "Ctrl+Q", "Ctrl+W", "Ctrl+C", "Alt+Tab", "Ctrl+Alt+Delete", "Ctrl+Alt+Del",
                    "Ctrl+Alt+Backspace", "Ctrl+Shift+Esc", "Ctrl+Shift+Escape")
"""Key combinations visitors (or the desktop) use: never the administrator exit."""


def parse(keys: str) -> tuple[frozenset[str], str]:
    """(modifiers, key) of a combination like ``Ctrl+Alt+E``, lower-cased."""
    *mods, key = [part.strip().lower() for part in keys.split("+")]
    return frozenset(mods), key


def exit_keys_problem(keys: str) -> str | None:
    """Why ``keys`` cannot be the administrator exit, or None."""
    if not keys.strip() or any(not part.strip() for part in keys.split("+")):
        return "must be a key combination like Ctrl+Alt+Shift+E"
    mods, key = parse(keys)
    if not mods or not mods <= MODIFIERS:
        return "must hold at least one of Ctrl, Alt, Shift, Meta before the key"
    if not (len(key) == 1 and key.isalnum() or key in NAMED_KEYS or key[:1] == "f" and key[1:].isdigit()):
        return f"names no key in '{key}'"
    if (mods, key) in {parse(shortcut) for shortcut in COMMON_SHORTCUTS}:
        return "is a shortcut visitors know; choose one nobody presses by chance"
    return None
