"""Entry point of the desktop app: ``assistant`` with no subcommand."""

from __future__ import annotations

import signal
import sys

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication  # an ImportError here tells the CLI PySide6 is missing

from assistant.config import Config

from ui.preflight import display_problem

APP_NAME = "Offline voice assistant"


def application():
    """The QApplication (created once)."""
    app = QApplication.instance()
    if app is None:
        if problem := display_problem():
            print(f"error: {problem}", file=sys.stderr)
            raise SystemExit(2)
        app = QApplication([sys.argv[0] if sys.argv else "assistant"])
        app.setApplicationName(APP_NAME)
    return app


def main(config: Config) -> int:
    """Open the window at once; the models load behind a progress indicator."""
    from ui.window import MainWindow

    app = application()
    window = MainWindow(config)
    window.show()
    # Ctrl-C in the terminal closes the window; the timer lets Python see the signal.
    signal.signal(signal.SIGINT, lambda *_: window.close())
    wake = QTimer()
    wake.timeout.connect(lambda: None)
    wake.start(250)
    return app.exec()
