"""This program started again as a child process: the native build probe, the network
namespace check and the kiosk's supervised app all start it the same way.

The command is the frozen app itself, or ``python -m assistant``; the environment lets the
child import this very package from any working folder. Light on purpose: :mod:`.netns`
imports it before anything that may start a thread.
"""

from __future__ import annotations

import os
import sys
from typing import Mapping

PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
"""The folder that holds the ``assistant`` package."""


def own_command() -> list[str]:
    """How to start this program again (a frozen bundle, or ``python -m assistant``)."""
    return [sys.executable] if getattr(sys, "frozen", False) else [sys.executable, "-m", "assistant"]


def child_env(variables: Mapping[str, str] | None = None, env: Mapping[str, str] | None = None) -> dict[str, str]:
    """``env`` (default: this process's environment) with ``variables`` set, and this
    package first on ``PYTHONPATH``."""
    merged = dict(os.environ if env is None else env)
    merged.update(variables or {})
    merged["PYTHONPATH"] = os.pathsep.join(p for p in (PACKAGE_ROOT, merged.get("PYTHONPATH")) if p)
    return merged
