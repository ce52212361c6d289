"""The one module of the engine package that reaches the Qt front end (``ui/``): it
opens the desktop window or the kiosk window, and looks at Qt for the self-test.
Everything else in ``assistant/`` runs without Qt."""

from __future__ import annotations

import importlib
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assistant.config import Config
from assistant.pipeline.heartbeat import Heartbeat


def run_desktop(config: Config) -> int:
    """The desktop window; 2 when PySide6 is missing."""
    try:
        from ui.app import main
    except ImportError as exc:
        return _without_qt(f"the desktop app needs PySide6 ({exc}); use `assistant chat`")
    return main(config)


def run_kiosk_window(config: Config, beat: Heartbeat | None = None) -> int:
    """The kiosk window, full screen, its GUI thread sending ``beat`` to the supervisor;
    2 when PySide6 is missing."""
    try:
        from ui.kiosk import main
    except ImportError as exc:
        return _without_qt(f"the kiosk needs PySide6 ({exc})")
    return main(config, beat)


def _without_qt(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


@dataclass
class QtCheck:
    ok: bool | None
    """None: Qt is not installed (fine outside a bundle)."""
    detail: str
    info: dict[str, Any] | None = field(default=None)


def check_qt() -> QtCheck:
    """Qt loads with a platform plugin (offscreen unless ``QT_QPA_PLATFORM`` says
    otherwise) and the GUI modules import."""
    try:
        from PySide6 import QtCore
    except ImportError as exc:
        return QtCheck(None, f"PySide6 not available: {exc}")
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    wanted = os.environ["QT_QPA_PLATFORM"].split(":")[0]
    folders = [Path(p) / "platforms" for p in QtCore.QCoreApplication.libraryPaths()]
    plugins = sorted({p.name for folder in folders if folder.is_dir() for p in folder.iterdir()})
    info: dict[str, Any] = {"qt": QtCore.qVersion(), "platform_plugins": plugins}
    if not any(wanted in name for name in plugins):
        # Creating the application now would abort the process; say why instead.
        return QtCheck(False, f"Qt platform plugin '{wanted}' not found in {[str(f) for f in folders]}", info)
    from ui.app import application

    app = application()
    importlib.import_module("ui.window")
    info["platform"] = app.platformName()
    return QtCheck(True, f"Qt {info['qt']} on '{info['platform']}'", info)
