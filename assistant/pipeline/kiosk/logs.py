"""Bounded logs for unattended use: rotating files in the kiosk's log folder."""

from __future__ import annotations

import logging
import threading
from logging.handlers import RotatingFileHandler
from pathlib import Path

from assistant.config import KioskConfig
from assistant.resources import data_dir


def log_dir(kiosk: KioskConfig) -> Path:
    return Path(kiosk.log_dir) if kiosk.log_dir else data_dir() / "logs"


def rotating_handler(kiosk: KioskConfig, name: str) -> RotatingFileHandler:
    """A log file in :func:`log_dir` that rotates at ``log_max_bytes``, keeping ``log_backups`` old files."""
    folder = log_dir(kiosk)
    folder.mkdir(parents=True, exist_ok=True)
    handler = RotatingFileHandler(
        folder / name, maxBytes=kiosk.log_max_bytes, backupCount=kiosk.log_backups, encoding="utf-8"
    )
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    return handler


def log_to_file(kiosk: KioskConfig, name: str, level: int = logging.INFO) -> Path:
    """Send this process's log (and uncaught exceptions) to a rotating file only."""
    handler = rotating_handler(kiosk, name)
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    crash = logging.getLogger("assistant.crash")

    def thread_hook(args: threading.ExceptHookArgs) -> None:
        crash.critical("thread %s died", getattr(args.thread, "name", "?"),
                       exc_info=(args.exc_type, args.exc_value, args.exc_traceback))

    threading.excepthook = thread_hook
    return Path(handler.baseFilename)
