"""Errors shared by modules that must not import each other, and the one way an engine
imports its optional package."""

from __future__ import annotations

import importlib
from types import ModuleType


class ModelError(RuntimeError):
    """A model is missing, the wrong kind of file, or corrupt."""


class SttError(RuntimeError):
    """A speech recognizer cannot run (its package is missing)."""


def installed(module: str, package: str, error: type[Exception]) -> ModuleType:
    """Import ``module`` (an engine's optional dependency), or raise ``error`` naming the
    package to install."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise error(f"{package} is not installed: pip install {package}") from exc
