"""Where files are, and how they are written: one place that knows a source checkout, an
installed wheel and a PyInstaller bundle (``sys._MEIPASS``) apart, the user's config, data
and cache folders, how this program is started again as a child process (the native build
probe, the network namespace check and the kiosk's supervised app: the frozen app itself,
or ``python -m assistant`` with this package first on ``PYTHONPATH``), and files replaced
whole or not at all.

Atomic writes: the new content goes to a temporary file next to the target, is flushed to
the disk (fsync), and is then renamed over the target, which the OS does atomically; on
POSIX the folder is synced too, so the rename itself survives a power cut. A temporary
file left by a crash is removed by a later write to the same target.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import importlib.util
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Mapping
from typing import BinaryIO, Iterator

from platformdirs import user_cache_dir, user_config_dir, user_data_dir

APP_NAME = "offline-voice-assistant"
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


def config_dir() -> Path:
    return Path(user_config_dir(APP_NAME, appauthor=False))


def data_dir() -> Path:
    return Path(user_data_dir(APP_NAME, appauthor=False))


def cache_dir() -> Path:
    return Path(user_cache_dir(APP_NAME, appauthor=False))


def models_dirs() -> list[Path]:
    """Folders searched for user models, most specific first."""
    candidates = []
    if env := os.environ.get("ASSISTANT_MODELS_DIR"):
        candidates.append(Path(env))
    candidates += [app_dir() / "models", Path.cwd() / "models", data_dir() / "models"]
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


# ---------------------------------------------------------------- this program, started again


def own_command() -> list[str]:
    """How to start this program again (a frozen bundle, or ``python -m assistant``)."""
    return [sys.executable] if getattr(sys, "frozen", False) else [sys.executable, "-m", "assistant"]


def child_env(variables: Mapping[str, str] | None = None, env: Mapping[str, str] | None = None) -> dict[str, str]:
    """``env`` (default: this process's environment) with ``variables`` set, and this
    package first on ``PYTHONPATH``."""
    merged = dict(os.environ if env is None else env)
    merged.update(variables or {})
    merged["PYTHONPATH"] = os.pathsep.join(p for p in (str(PACKAGE_DIR.parent), merged.get("PYTHONPATH")) if p)
    return merged


# ---------------------------------------------------------------- atomic writes

STALE_S = 600.0
"""A temporary file this old belongs to a writer that died."""


@contextlib.contextmanager
def replacing(path: str | Path) -> Iterator[BinaryIO]:
    """A binary file to write ``path``'s new content into; when the block ends without
    an error it is synced and renamed over ``path`` (and the folder synced); on an error
    ``path`` is left as it was and the temporary file removed. For content too big to
    hold in memory (a joined model file); :func:`write_bytes` for the rest."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    tmp = Path(name)
    try:
        with os.fdopen(handle, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _sync_folder(path.parent)
    _remove_stale(path)


def write_bytes(path: str | Path, data: bytes) -> None:
    with replacing(path) as f:
        f.write(data)


def write_text(path: str | Path, text: str, encoding: str = "utf-8") -> None:
    write_bytes(path, text.encode(encoding))


def _sync_folder(folder: Path) -> None:
    if sys.platform == "win32":
        return
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass  # some file systems cannot sync a folder
    finally:
        os.close(handle)


def _remove_stale(path: Path) -> None:
    cutoff = time.time() - STALE_S
    for leftover in path.parent.glob(f".{path.name}.*.tmp"):
        try:
            if leftover.stat().st_mtime < cutoff:
                leftover.unlink()
        except OSError:
            pass
