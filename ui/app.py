"""Entry point of the desktop app: ``assistant`` with no subcommand."""

from __future__ import annotations

import sys

from assistant.config import Config

APP_NAME = "Offline voice assistant"


def application():
    """The QApplication (created once)."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        app = QApplication([sys.argv[0] if sys.argv else "assistant"])
        app.setApplicationName(APP_NAME)
    return app


def main(config: Config) -> int:
    """Open the window at once; the models load behind a progress indicator."""
    from .window import MainWindow

    app = application()
    window = MainWindow(config)
    window.show()
    return app.exec()
