"""The administrator's PIN pad: on-screen digits (touch screens have no keyboard),
closed after a few wrong tries or half a minute untouched."""

from __future__ import annotations

import hmac

from PySide6.QtCore import QRegularExpression, Qt, QTimer
from PySide6.QtGui import QRegularExpressionValidator
from PySide6.QtWidgets import QDialog, QGridLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

MAX_TRIES = 3
IDLE_CLOSE_MS = 30_000


class PinPad(QDialog):
    """``accepted`` once the right PIN is entered; ``rejected`` when cancelled or given up."""

    def __init__(self, pin: str, parent: QWidget | None = None, status: str = ""):
        super().__init__(parent, Qt.WindowType.Dialog | Qt.WindowType.FramelessWindowHint)
        self.setModal(True)
        self.setObjectName("pinpad")
        self._pin = pin
        self.tries = 0
        self.message = QLabel(self.tr("Administrator PIN"))
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.entry = QLineEdit()
        self.entry.setEchoMode(QLineEdit.EchoMode.Password)
        self.entry.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.entry.setValidator(QRegularExpressionValidator(QRegularExpression(r"\d{0,12}"), self.entry))
        self.entry.returnPressed.connect(self.check)
        self.entry.textEdited.connect(lambda _text: self._idle.start())
        keys = QGridLayout()
        for index, label in enumerate(["1", "2", "3", "4", "5", "6", "7", "8", "9", "Cancel", "0", "OK"]):
            button = QPushButton(label)
            button.setMinimumSize(96, 72)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.clicked.connect(lambda _checked=False, key=label: self._press(key))
            keys.addWidget(button, index // 3, index % 3)
        layout = QVBoxLayout(self)
        layout.addWidget(self.message)
        layout.addWidget(self.entry)
        layout.addLayout(keys)
        self.status = QLabel(status)
        """What the administrator should know (the offline guarantee in force)."""
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        self._idle = QTimer(self, singleShot=True, interval=IDLE_CLOSE_MS)
        self._idle.timeout.connect(self.reject)
        self._idle.start()

    def _press(self, key: str) -> None:
        self._idle.start()
        if key == "Cancel":
            self.reject()
        elif key == "OK":
            self.check()
        else:
            self.entry.setText(self.entry.text() + key)

    def check(self) -> None:
        if hmac.compare_digest(self.entry.text().encode(), self._pin.encode()):
            self.accept()
            return
        self.tries += 1
        self.entry.clear()
        if self.tries >= MAX_TRIES:
            self.reject()
        else:
            self.message.setText("Wrong PIN, try again")
