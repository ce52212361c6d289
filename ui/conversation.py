"""The conversation: one row per turn, the user's words (live partials, then the final
transcript) and the assistant's reply growing as it is generated."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt, QTimer
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QScrollArea, QVBoxLayout, QWidget

from assistant.events import TurnResult

from ui.meter import fmt_ms, grade

USER_STYLE = "background:#0969da; color:white; border-radius:12px; padding:8px 12px;"
PARTIAL_STYLE = "background:#ddf4ff; color:#57606a; font-style:italic; border-radius:12px; padding:8px 12px;"
REPLY_STYLE = "background:#f3f4f6; color:#1f2328; border-radius:12px; padding:8px 12px;"
NOTE_STYLE = "color:#6e7781; font-size:11px; padding:0 6px;"
ERROR_STYLE = "color:#b42318; font-size:11px; padding:0 6px;"


def _bubble(style: str) -> QLabel:
    label = QLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setStyleSheet(style)
    label.setMaximumWidth(620)
    return label


def _fit(label: QLabel) -> None:
    """Widen a bubble to its text, up to its maximum width (then it wraps)."""
    metrics = label.fontMetrics()
    widest = max((metrics.horizontalAdvance(line) for line in label.text().splitlines()), default=0)
    label.setMinimumWidth(min(widest + 30, label.maximumWidth()))


def _row(widget: QWidget, right: bool) -> QHBoxLayout:
    row = QHBoxLayout()
    row.setContentsMargins(0, 0, 0, 0)
    if right:
        row.addStretch(1)
    row.addWidget(widget)
    if not right:
        row.addStretch(1)
    return row


SKILL_NAMES = {"clock": QT_TRANSLATE_NOOP("TurnView", "clock"), "timers": QT_TRANSLATE_NOOP("TurnView", "timers"),
               "arithmetic": QT_TRANSLATE_NOOP("TurnView", "arithmetic"), "units": QT_TRANSLATE_NOOP("TurnView", "units"),
               "actions": QT_TRANSLATE_NOOP("TurnView", "actions"), "spelling": QT_TRANSLATE_NOOP("TurnView", "spelling"),
               "live": QT_TRANSLATE_NOOP("TurnView", "weather and news"),
               "calendar": QT_TRANSLATE_NOOP("TurnView", "calendar"), "chance": QT_TRANSLATE_NOOP("TurnView", "chance"),
               "reach": QT_TRANSLATE_NOOP("TurnView", "out of reach"), "place": QT_TRANSLATE_NOOP("TurnView", "this place"),
               "jokes": QT_TRANSLATE_NOOP("TurnView", "jokes"), "safety": QT_TRANSLATE_NOOP("TurnView", "safety"),
               "stopwatch": QT_TRANSLATE_NOOP("TurnView", "stopwatch"), "facts": QT_TRANSLATE_NOOP("TurnView", "fun facts"),
               "notes": QT_TRANSLATE_NOOP("TurnView", "lists and notes"), "sky": QT_TRANSLATE_NOOP("TurnView", "sun and moon")}
"""The skills' names as the note under a reply shows them (marked for translation)."""


class TurnView(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        self.user = _bubble(PARTIAL_STYLE)
        self.reply = _bubble(REPLY_STYLE)
        self.note = QLabel()
        self.note.setStyleSheet(NOTE_STYLE)
        self.errors = QLabel()
        self.errors.setTextFormat(Qt.TextFormat.PlainText)
        self.errors.setWordWrap(True)
        self.errors.setStyleSheet(ERROR_STYLE)
        layout.addLayout(_row(self.user, right=True))
        layout.addLayout(_row(self.reply, right=False))
        layout.addLayout(_row(self.note, right=False))
        layout.addWidget(self.errors)
        self.finished = False
        self.user.hide()
        self.reply.hide()
        self.note.hide()
        self.errors.hide()

    def set_user(self, text: str, final: bool) -> None:
        self.user.setStyleSheet(USER_STYLE if final else PARTIAL_STYLE)
        self.user.setText(text if text or not final else self.tr("(nothing was understood)"))
        _fit(self.user)
        self.user.show()

    def append_reply(self, piece: str) -> None:
        if self.finished:  # a piece generated just as the turn was interrupted
            return
        text = (self.reply.text() + piece).lstrip()
        self.reply.setText(text)
        _fit(self.reply)
        self.reply.setVisible(bool(text))

    def set_speaking(self, speaking: bool) -> None:
        self.note.setText(self.tr("speaking…") if speaking else "")
        self.note.setVisible(speaking)

    def finish(self, result: TurnResult) -> None:
        self.finished = True
        if result.hedged and result.reply:  # what was said: the first sentence and the hedge
            self.reply.setText(result.reply)
            _fit(self.reply)
            self.reply.show()
        figures = result.timeline.latency_ms()
        wait = figures.get("heard") if figures.get("heard") is not None else figures.get("voice_to_voice")
        parts = []
        if wait is not None:
            parts.append(self.tr("%s to first sound") % f"<span style='color:{grade(wait).name()}'>{fmt_ms(wait)}</span>")
        decision = result.timeline.decision()
        if decision:
            parts.append(self.tr("end of turn: %s") % decision)
        if result.source == "cache":
            parts.append(self.tr("instant reply"))
        elif result.source == "skill":
            parts.append(self.tr("%s skill") % self.tr(SKILL_NAMES.get(result.skill, result.skill)))
        elif result.source == "misheard" and not result.transcript:
            parts.append(self.tr("no words heard"))
        elif result.source == "misheard":
            least = result.timeline.counts.get("least_word_p")
            parts.append(self.tr("not heard well enough to answer (least sure word %s)")
                         % ("?" if least is None else f"{least:.2f}"))
        if result.hedged:
            parts.append(self.tr("hedged, %s") % result.hedged)
        if result.interrupted:
            parts.append(self.tr("interrupted"))
        self.note.setTextFormat(Qt.TextFormat.RichText)
        self.note.setText(" · ".join(parts))
        self.note.setVisible(bool(parts))

    def add_error(self, text: str) -> None:
        current = self.errors.text()
        self.errors.setText(f"{current}\n{text}" if current else text)
        self.errors.show()


KEPT_TURNS = 200
"""Turns a conversation view keeps on screen (the window may stay open for weeks)."""


class ConversationView(QScrollArea):
    """Turns keyed by (engine generation, turn id), the latest ``kept`` of them; the view
    follows the newest text."""

    def __init__(self, parent: QWidget | None = None, kept: int = KEPT_TURNS):
        super().__init__(parent)
        self.kept = kept
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        body = QWidget()
        body.setObjectName("conversation")
        body.setStyleSheet("#conversation { background: white; }")
        self._layout = QVBoxLayout(body)
        self._layout.setContentsMargins(14, 12, 14, 12)
        self._layout.setSpacing(10)
        self.hint = QLabel(self.tr("Ask something: type below, or hold “Hold to talk” while you speak."))
        self.hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.hint.setStyleSheet("color:#8c959f; font-size:14px; padding-top:40px;")
        self._layout.addWidget(self.hint)
        self._layout.addStretch(1)
        self.setWidget(body)
        self.turns: dict[tuple[int, int], TurnView] = {}
        self._follow = QTimer(self)
        self._follow.setSingleShot(True)
        self._follow.setInterval(0)
        self._follow.timeout.connect(self._scroll_to_end)

    def turn(self, key: tuple[int, int]) -> TurnView:
        view = self.turns.get(key)
        if view is None:
            view = TurnView()
            self.turns[key] = view
            self.hint.hide()
            self._layout.insertWidget(self._layout.count() - 1, view)
            while len(self.turns) > self.kept:  # the oldest scroll away for good
                oldest = self.turns.pop(next(iter(self.turns)))
                self._layout.removeWidget(oldest)
                oldest.deleteLater()
        self._follow.start()  # after the layout has grown
        return view

    def _scroll_to_end(self) -> None:
        bar = self.verticalScrollBar()
        bar.setValue(bar.maximum())
