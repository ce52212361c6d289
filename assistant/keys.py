"""Key combinations in Qt's notation (``Ctrl+Alt+Shift+E``), as the configuration names them."""

from __future__ import annotations

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
