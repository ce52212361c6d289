"""The state indicator: a coloured dot and the engine's state in words."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtWidgets import QLabel, QWidget

from assistant.events import State

COLORS = {
    State.LOADING: "#8c959f",
    State.IDLE: "#8c959f",
    State.WAITING: "#57606a",
    State.LISTENING: "#0969da",
    State.HEARING: "#2e9d4f",
    State.THINKING: "#d99a00",
    State.SPEAKING: "#8250df",
}

STATE_NAMES = {
    State.LOADING: QT_TRANSLATE_NOOP("StateIndicator", "Loading"),
    State.IDLE: QT_TRANSLATE_NOOP("StateIndicator", "Idle"),
    State.WAITING: QT_TRANSLATE_NOOP("StateIndicator", "Waiting for the wake phrase"),
    State.LISTENING: QT_TRANSLATE_NOOP("StateIndicator", "Listening"),
    State.HEARING: QT_TRANSLATE_NOOP("StateIndicator", "Hearing you"),
    State.THINKING: QT_TRANSLATE_NOOP("StateIndicator", "Thinking"),
    State.SPEAKING: QT_TRANSLATE_NOOP("StateIndicator", "Speaking"),
}


class StateIndicator(QLabel):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.state = State.LOADING
        self.setAccessibleName("state")
        self.show_state(State.LOADING)

    def show_state(self, state: State) -> None:
        self.state = state
        color = COLORS[state]
        self.setText(f"<span style='color:{color}; font-size:18px'>●</span>&nbsp; {self.tr(STATE_NAMES[state])}")
        self.setStyleSheet(
            f"QLabel {{ border:1px solid {color}; border-radius:14px; padding:3px 14px; "
            "font-size:14px; font-weight:700; background:white; }"
        )
