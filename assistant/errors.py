"""Errors shared by modules that must not import each other."""

from __future__ import annotations


class ModelError(RuntimeError):
    """A model is missing, the wrong kind of file, or corrupt."""
