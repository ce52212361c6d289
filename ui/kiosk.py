"""The kiosk screen: full screen, frameless, large type, no settings and no menus.

An attract screen invites visitors until someone speaks; then the conversation shows,
with one big button (tap to talk, or stop the reply). After ``idle_reset_s`` without a
visitor it is all forgotten and the attract screen returns. Closing the window, Esc,
Alt+F4, Ctrl+Q and the like do nothing: only the administrator's ``exit_keys`` (and the
PIN, when one is set) leave. The mouse cursor hides when it is not moved.

The engine side is :class:`assistant.pipeline.kiosk.session.KioskSession`; everything here only paints.
"""

from __future__ import annotations

import logging
import time

from PySide6.QtCore import QT_TRANSLATE_NOOP, QEvent, QObject, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QCursor, QKeySequence
from PySide6.QtWidgets import QApplication, QHBoxLayout, QLabel, QPushButton, QStackedWidget, QVBoxLayout, QWidget

from assistant import offline
from assistant.pipeline.heartbeat import BEAT_S, Heartbeat
from assistant.sound import AudioOut
from assistant.config import Config, KioskConfig
from assistant.events import Event, EventType, State
from assistant.pipeline.kiosk.session import KioskStatus
from assistant.pipeline.session import LoadedModels

from ui.app import application
from ui import i18n
from ui.conversation import ConversationView, TurnView
from ui.kiosk_controller import KioskController, SourceOpener, microphone
from ui.pinpad import PinPad
from ui.status import duplex_hint
from ui.timers import TimersPanel

log = logging.getLogger(__name__)

def style(pt: int) -> str:
    """The kiosk's look; every size follows the base font size ``pt`` (a style sheet, so
    that it also reaches the conversation's bubbles, which have style sheets of their own). Bold
    is 700: Qt draws a font with no bold face (the packaged Noto Sans KR) bold from 700 only, so
    at 600 the Korean headline came out regular beside bold Latin."""
    return f"""
    QWidget {{ font-size: {pt}pt; }}
    KioskWindow, QStackedWidget > QWidget#page {{ background: #ffffff; }}
    QLabel#attract {{ font-size: {round(pt * 1.6)}pt; color: #0a3069; font-weight: 700; }}
    QLabel#hint, QLabel#state {{ font-size: {round(pt * 0.8)}pt; color: #57606a; }}
    QLabel#notice {{ font-size: {round(pt * 1.2)}pt; color: #1f2328; }}
    QPushButton#talk {{ background: #0969da; color: white; border: none; border-radius: {pt}px;
                       padding: {pt // 2}px {pt * 2}px; font-weight: 700; }}
    QPushButton#talk[stop="true"] {{ background: #b42318; }}
    QDialog#pinpad {{ background: #f6f8fa; border: 2px solid #57606a; border-radius: 12px; }}
    """
STATE_TEXT = {
    State.LOADING: QT_TRANSLATE_NOOP("KioskWindow", "One moment…"),
    State.IDLE: "",
    State.WAITING: "",
    State.LISTENING: QT_TRANSLATE_NOOP("KioskWindow", "Listening…"),
    State.HEARING: QT_TRANSLATE_NOOP("KioskWindow", "I'm listening…"),
    State.THINKING: QT_TRANSLATE_NOOP("KioskWindow", "Thinking…"),
    State.SPEAKING: QT_TRANSLATE_NOOP("KioskWindow", "Speaking…"),
}
CORNER_PX = 80
"""Five taps in this top-left square within CORNER_TAP_S open the PIN pad (touch screens)."""
CORNER_TAPS = 5
CORNER_TAP_S = 3.0
REFERENCE_SCREEN = (1280, 800)
"""``kiosk.font_pt`` is the base font size on a screen of this size; it scales with the screen."""
BLOCKED_MODIFIERS = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.MetaModifier


def font_for_screen(font_pt: int, width: int, height: int) -> int:
    """The base font size that keeps the kiosk's text on screen: ``font_pt`` on a
    1280×800 screen, scaled with the smaller side's ratio (down to 800×480, up to 4K)."""
    scale = min(width / REFERENCE_SCREEN[0], height / REFERENCE_SCREEN[1])
    return max(9, round(font_pt * min(max(scale, 0.4), 2.5)))


def _label(name: str, text: str = "") -> QLabel:
    label = QLabel(text)
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    return label


class KioskWindow(QWidget):
    admin_exit = Signal()
    """The administrator left; the app should quit."""

    def __init__(
        self,
        config: Config,
        engines: LoadedModels | None = None,
        output: AudioOut | None = None,
        open_source: SourceOpener | None = None,
        *,
        use_microphone: bool = True,
    ):
        super().__init__(None, Qt.WindowType.Window | Qt.WindowType.FramelessWindowHint
                         | Qt.WindowType.WindowStaysOnTopHint)
        self.kiosk = config.kiosk
        self.screen_language, font_problem = i18n.setup(QApplication.instance(), config.stt.language)
        if font_problem:
            log.warning("%s", font_problem)
        if open_source is None and use_microphone:
            open_source = microphone(config)
        self.controller = KioskController(config, engines, output, open_source=open_source, parent=self)
        self.setWindowTitle("Assistant")
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.NoContextMenu)
        self.font_pt = self.kiosk.font_pt
        self._apply_font(self.kiosk.font_pt)
        self.cursor_hidden = False
        self._leaving = False
        self._first_generation = 0
        """Events of engines older than this belong to a forgotten visitor."""
        self._corner_taps: list[float] = []
        self.pin_pad: PinPad | None = None
        self._exit_keys = QKeySequence(self.kiosk.exit_keys)
        self._build()
        self._connect()
        self._cursor_timer = QTimer(self, singleShot=True, interval=round(self.kiosk.hide_cursor_s * 1000))
        self._cursor_timer.timeout.connect(self._hide_cursor)
        self._cursor_timer.start()
        QApplication.instance().installEventFilter(self)
        self._show_notice(self.tr("One moment…"))
        QTimer.singleShot(0, self.controller.start)

    # ------------------------------------------------------------ layout

    def _apply_font(self, pt: int) -> None:
        self.font_pt = pt
        self.setStyleSheet(style(pt))
        font = self.font()
        font.setPointSize(pt)
        self.setFont(font)

    def fill_screen(self) -> None:
        """Cover the whole screen whatever the window manager, or with none: the geometry is
        set to the screen's (a bare X server ignores the full-screen request) and full
        screen is asked for as well; the type follows the screen's size."""
        screen = (self.windowHandle().screen() if self.windowHandle() else None) or QApplication.primaryScreen()
        area = screen.geometry()
        self._apply_font(font_for_screen(self.kiosk.font_pt, area.width(), area.height()))
        self.setGeometry(area)
        self.showFullScreen()

    def _build(self) -> None:
        hint = (self.tr("Just start talking, or tap the button.") if self.kiosk.hands_free
                else self.tr("Tap the button, then ask your question."))
        attract = self.kiosk.attract_text
        if attract == KioskConfig.attract_text:  # the default invitation is translated; the operator's own is not
            attract = self.tr("Hello! Ask me anything. Just start talking.")
        self.hint = _label("hint", hint)
        self.attract = self._page(_label("attract", attract), self.hint)
        self.conversation = self._new_conversation()
        self.notice = _label("notice")
        self.notice_page = self._page(self.notice)
        self.pages = QStackedWidget()
        for page in (self.attract, self.conversation, self.notice_page):
            self.pages.addWidget(page)
        self.state = _label("state")
        self.timers = TimersPanel(self.controller.timers, stopwatch=self.controller.stopwatch)
        self.talk = QPushButton(self.tr("Tap to talk"))
        self.talk.setObjectName("talk")
        self.talk.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        button_row = QHBoxLayout()
        button_row.addStretch(1)
        button_row.addWidget(self.talk)
        button_row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 16, 24, 16)
        layout.addWidget(self.pages, 1)
        layout.addWidget(self.timers)
        layout.addWidget(self.state)
        layout.addLayout(button_row)

    @staticmethod
    def _page(*labels: QLabel) -> QWidget:
        page = QWidget()
        page.setObjectName("page")
        layout = QVBoxLayout(page)
        layout.addStretch(1)
        for label in labels:
            layout.addWidget(label)
        layout.addStretch(1)
        return page

    def _connect(self) -> None:
        c = self.controller
        queued = Qt.ConnectionType.QueuedConnection
        c.connect_screen(self._on_event, self._on_ready, self._on_load_failed)
        c.status.connect(self._on_status, queued)
        c.visitor_forgotten.connect(self._forget, queued)
        self.talk.clicked.connect(c.tap)

    # ------------------------------------------------------------ what is shown

    def showing(self) -> str:
        """``attract``, ``conversation`` or ``notice``."""
        page = self.pages.currentWidget()
        return "attract" if page is self.attract else "conversation" if page is self.conversation else "notice"

    def _show_notice(self, text: str) -> None:
        self.notice.setText(text)
        self.pages.setCurrentWidget(self.notice_page)

    def _show_main(self) -> None:
        self.pages.setCurrentWidget(self.conversation if self.conversation.turns else self.attract)

    def _on_ready(self) -> None:
        session = self.controller.session
        if session is not None and session.engine is not None:
            self.hint.setText(f"{self.hint.text()} {self.tr(duplex_hint(session.engine.duplex))}")
            self.hint.setToolTip(session.engine.duplex.describe())
        self._show_main()

    def _on_load_failed(self, _message: str) -> None:
        self._show_notice(self.tr("Sorry, this assistant is out of order right now."))
        self.talk.hide()

    def _on_status(self, status: KioskStatus, _reason: str) -> None:
        if status is KioskStatus.RESTARTING:
            self._show_notice(self.tr("One moment…"))
        elif status is KioskStatus.NO_MICROPHONE:
            self.state.setText(self.tr("I can't hear right now. Please tell a member of staff."))
        else:
            if self.showing() == "notice":
                self._show_main()
            self.state.setText("")

    def _forget(self) -> None:
        """A new visitor: nothing of the last conversation stays on screen."""
        old = self.conversation
        self.conversation = self._new_conversation()
        self.pages.insertWidget(self.pages.indexOf(old), self.conversation)
        self.pages.removeWidget(old)
        old.deleteLater()
        self._first_generation = self.controller.generation
        self.timers.refresh()  # the visitor's timers went with them
        self.pages.setCurrentWidget(self.attract)

    @staticmethod
    def _new_conversation() -> ConversationView:
        view = ConversationView()
        view.hint.hide()  # the desktop's hint (type, hold to talk) is not the kiosk's
        return view

    def _turn(self, key: tuple[int, int]) -> TurnView:
        new = key not in self.conversation.turns
        view = self.conversation.turn(key)
        if new:
            width = max(400, int(self.width() * 0.75))
            for bubble in (view.user, view.reply):
                bubble.setMaximumWidth(width)
                bubble.ensurePolished()  # the style sheet's large font, before bubbles are sized to text
        self.pages.setCurrentWidget(self.conversation)
        return view

    def _on_event(self, generation: int, event: Event) -> None:
        if generation < self._first_generation:
            return
        key = (generation, event.turn_id)
        kind = event.type
        if kind is EventType.STATE:
            self.state.setText(self.tr(STATE_TEXT.get(event.data, "")) if STATE_TEXT.get(event.data) else "")
            stop = event.data in (State.THINKING, State.SPEAKING)
            self.talk.setText(self.tr("■  Stop") if stop else self.tr("Tap to talk"))
            self.talk.setProperty("stop", stop)
            self.talk.style().polish(self.talk)
        elif kind is EventType.SPEECH_START:
            self._turn(key).set_user("…", final=False)
        elif kind is EventType.PARTIAL_TRANSCRIPT:
            self._turn(key).set_user(event.data, final=False)
        elif kind is EventType.TRANSCRIPT:
            self._turn(key).set_user(event.data, final=True)
        elif kind is EventType.REPLY_TEXT:
            self._turn(key).append_reply(event.data)
        elif kind is EventType.AUDIO_START and key in self.conversation.turns:
            self.conversation.turns[key].set_speaking(True)
        elif kind is EventType.TURN_END and key in self.conversation.turns:
            view = self.conversation.turns[key]
            view.set_speaking(False)
            view.finish(event.data)
            view.note.hide()  # no latency figures for visitors
        elif kind is EventType.ERROR and key in self.conversation.turns:
            self.conversation.turns[key].add_error(event.data)

    # ------------------------------------------------------------ the administrator

    def request_admin_exit(self) -> None:
        if not self.kiosk.admin_pin:
            self.leave()
            return
        if self.pin_pad is not None and self.pin_pad.isVisible():
            return
        self.pin_pad = PinPad(self.kiosk.admin_pin, self, status=offline.guarantee().summary)
        self.pin_pad.accepted.connect(self.leave)
        self.pin_pad.open()

    def leave(self) -> None:
        if self._leaving:
            return
        log.info("the administrator left the kiosk")
        self._leaving = True
        QApplication.instance().removeEventFilter(self)
        self._show_cursor()
        self.controller.close()
        self.close()
        self.admin_exit.emit()

    # ------------------------------------------------------------ locked down

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind in (QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride):
            return self._filter_key(event)
        if kind in (QEvent.Type.MouseMove, QEvent.Type.MouseButtonPress, QEvent.Type.TouchBegin):
            self._show_cursor()
            self._cursor_timer.start()
            if kind is QEvent.Type.MouseButtonPress and watched is self.windowHandle():
                self._corner_tap(event.position().toPoint())
        return False

    def _filter_key(self, event) -> bool:
        """Swallow every shortcut-like key; the administrator's exit keys open the exit."""
        combination = event.keyCombination()
        modifiers = combination.keyboardModifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if QKeySequence(combination.key() | modifiers) == self._exit_keys:
            if event.type() == QEvent.Type.KeyPress and not event.isAutoRepeat():
                self.request_admin_exit()
            return True
        return bool(modifiers & BLOCKED_MODIFIERS)

    def _corner_tap(self, at: QPoint) -> None:
        if not self.kiosk.admin_pin or at.x() > CORNER_PX or at.y() > CORNER_PX:
            return
        now = time.perf_counter()
        self._corner_taps = [t for t in self._corner_taps if now - t < CORNER_TAP_S] + [now]
        if len(self._corner_taps) >= CORNER_TAPS:
            self._corner_taps.clear()
            self.request_admin_exit()

    def _hide_cursor(self) -> None:
        if not self.cursor_hidden and not self._leaving:
            QApplication.setOverrideCursor(QCursor(Qt.CursorShape.BlankCursor))
            self.cursor_hidden = True

    def _show_cursor(self) -> None:
        if self.cursor_hidden:
            QApplication.restoreOverrideCursor()
            self.cursor_hidden = False

    def closeEvent(self, event) -> None:
        if self._leaving:
            super().closeEvent(event)
        else:
            log.info("a request to close the kiosk was refused")
            event.ignore()

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.WindowStateChange and self.isMinimized() and not self._leaving:
            QTimer.singleShot(0, self.fill_screen)


def main(config: Config, beat: Heartbeat | None = None) -> int:
    app = application()
    app.setQuitOnLastWindowClosed(False)
    if beat is not None:  # the supervisor restarts the app when the GUI thread stops beating
        timer = QTimer(app, interval=round(BEAT_S * 1000))
        timer.timeout.connect(beat.beat)
        timer.start()
        beat.beat()
    window = KioskWindow(config)
    window.admin_exit.connect(app.quit)
    window.fill_screen()
    screen = app.primaryScreen()
    screen.geometryChanged.connect(lambda _area: window.fill_screen())
    return app.exec()
