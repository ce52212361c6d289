"""Where files are: one place that knows a source checkout, an installed wheel and a
PyInstaller bundle (``sys._MEIPASS``) apart."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import sys
from pathlib import Path

from . import config

PACKAGE_DIR = Path(__file__).resolve().parent


def is_frozen() -> bool:
    return bool(getattr(sys, "frozen", False)) and hasattr(sys, "_MEIPASS")


def bundle_dir() -> Path | None:
    """The unpacked PyInstaller bundle, or None when running from source or a wheel."""
    return Path(sys._MEIPASS) if is_frozen() else None  # type: ignore[attr-defined]


def app_dir() -> Path:
    """Folder of the executable (bundle) or of the source checkout."""
    if is_frozen():
        return Path(sys.executable).resolve().parent
    return PACKAGE_DIR.parent


def models_dirs() -> list[Path]:
    """Folders searched for user models, most specific first."""
    candidates = []
    if env := os.environ.get("ASSISTANT_MODELS_DIR"):
        candidates.append(Path(env))
    candidates += [app_dir() / "models", Path.cwd() / "models", config.data_dir() / "models"]
    seen: list[Path] = []
    for path in candidates:
        path = path.resolve()
        if path not in seen:
            seen.append(path)
    return seen


def package_path(module: str, *parts: str) -> Path | None:
    """Path inside an installed package without importing its code.

    Model packages are data; importing some of them runs unrelated code (a CLI
    plugin, say). ``find_spec`` on a top-level name only locates it. In a bundle
    the package's files are copied under ``_MEIPASS/<module>``.
    """
    roots: list[Path] = []
    if bundle := bundle_dir():
        roots.append(bundle / module)
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        spec = None
    if spec is not None and spec.submodule_search_locations:
        roots += [Path(p) for p in spec.submodule_search_locations]
    for root in roots:
        path = root.joinpath(*parts)
        if path.exists():
            return path
    return None


def distribution_version(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None
