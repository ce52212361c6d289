"""The main window: state, conversation, text box and talk buttons, latency meter,
status line. Every slot here only updates widgets; the controller does the rest."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QApplication, QHBoxLayout, QLabel, QLineEdit, QMainWindow, QProgressBar, QPushButton, QVBoxLayout, QWidget,
)

from assistant.sound import AudioOut
from assistant.config import Config
from assistant.events import Event, EventType, State, TurnResult
from assistant.pipeline.session import LoadedModels

from ui import i18n
from ui.controller import Controller
from ui.conversation import ConversationView
from ui.indicator import StateIndicator
from ui.meter import LatencyMeter
from ui.settings import SettingsDialog
from ui.status import MIC_TEXT, duplex_text, llm_text
from ui.timers import TimersPanel

BANNER_STYLE = "background:#fff8c5; color:#4d2d00; border:1px solid #d4a72c; border-radius:6px; padding:6px 10px;"
NOTICE_STYLE = "background:#ffebe9; color:#82071e; border:1px solid #ff8182; border-radius:6px; padding:6px 10px;"
MIC_ON = ("push-to-talk", "hands-free")


def _banner(style: str) -> QLabel:
    label = QLabel()
    label.setWordWrap(True)
    label.setStyleSheet(style)
    label.hide()
    return label


class MainWindow(QMainWindow):
    def __init__(self, config: Config, engines: LoadedModels | None = None, output: AudioOut | None = None):
        super().__init__()
        self.screen_language, font_problem = i18n.setup(QApplication.instance(), config.stt.language)
        self.setWindowTitle(self.tr("Offline voice assistant"))
        self.resize(1120, 740)
        self.controller = Controller(config, engines=engines, output=output, parent=self)
        self.engine_state = State.LOADING
        self._ready = False
        self._closed = False
        self._settings: SettingsDialog | None = None
        """The last settings dialog opened (kept until the next opens, then deleted)."""
        self._build()
        self._connect()
        self._set_ready(False)
        if font_problem:
            self._show_notice(font_problem)
        QTimer.singleShot(0, self.controller.start)  # the window paints first

    # ------------------------------------------------------------ layout

    def _build(self) -> None:
        self.indicator = StateIndicator()
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)
        self.progress.setFixedWidth(140)
        self.progress_label = QLabel()
        self.progress_label.setStyleSheet("color:#57606a;")
        self.settings_button = QPushButton(self.tr("Settings…"))
        top = QHBoxLayout()
        top.addWidget(self.indicator)
        top.addStretch(1)
        top.addWidget(self.progress_label)
        top.addWidget(self.progress)
        top.addWidget(self.settings_button)

        self.audio_banner = _banner(BANNER_STYLE)
        self.notice = _banner(NOTICE_STYLE)
        self.conversation = ConversationView()
        self.timers = TimersPanel(self.controller.timers, stopwatch=self.controller.stopwatch)

        self.text = QLineEdit()
        self.text.setPlaceholderText(self.tr("Type a question and press Enter…"))
        self.text.setClearButtonEnabled(True)
        self.send_button = QPushButton(self.tr("Send"))
        self.stop_button = QPushButton(self.tr("■  Stop"))
        self.stop_button.setToolTip(self.tr("Interrupt the reply now (Esc)"))
        self.stop_button.setStyleSheet("QPushButton:enabled { color:#b42318; font-weight:700; }")
        self.talk_button = QPushButton(self.tr("Hold to talk"))
        self.talk_button.setToolTip(self.tr("Hold while you speak; release to get the answer"))
        self.hands_free = QPushButton(self.tr("Hands-free"))
        self.hands_free.setCheckable(True)
        self.hands_free.setToolTip(self.tr("Listen all the time; speak whenever you like"))
        inputs = QHBoxLayout()
        inputs.addWidget(self.talk_button)
        inputs.addWidget(self.hands_free)
        inputs.addWidget(self.text, 1)
        inputs.addWidget(self.send_button)
        inputs.addWidget(self.stop_button)

        self.meter = LatencyMeter()
        self.meter.setObjectName("meter")

        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(12, 10, 12, 6)
        layout.addLayout(top)
        layout.addWidget(self.audio_banner)
        layout.addWidget(self.notice)
        layout.addWidget(self.conversation, 1)
        layout.addWidget(self.timers)
        layout.addLayout(inputs)
        layout.addWidget(self.meter)
        self.setCentralWidget(body)

        self.model_status = QLabel(self.tr("loading…"))
        self.offload_status = QLabel()
        self.speech_status = QLabel()
        self.duplex_status = QLabel()
        self.mic_status = QLabel(self.tr(MIC_TEXT["off"]))
        for label in (self.model_status, self.offload_status, self.speech_status, self.duplex_status):
            label.setStyleSheet("color:#57606a; padding:0 6px;")
            self.statusBar().addWidget(label)
        self.mic_status.setStyleSheet("color:#57606a; padding:0 6px;")
        self.statusBar().addPermanentWidget(self.mic_status)

    def _connect(self) -> None:
        c = self.controller
        queued = Qt.ConnectionType.QueuedConnection
        c.loading.connect(self._on_loading, queued)
        c.connect_screen(self._on_event, self._on_ready, self._on_load_failed)
        c.audio_checked.connect(self._on_audio_checked, queued)
        c.mic_changed.connect(self._on_mic_changed, queued)
        c.applied.connect(lambda _config: self._show_notice(""), queued)
        c.refused.connect(self._on_refused, queued)
        c.notice.connect(self._show_notice, queued)
        c.worker.failed.connect(lambda what, why: self._show_notice(self.tr("Error while %s: %s") % (what, why)), queued)
        self.text.returnPressed.connect(self.send)
        self.send_button.clicked.connect(self.send)
        self.stop_button.clicked.connect(c.interrupt)
        QShortcut(QKeySequence(Qt.Key.Key_Escape), self, activated=c.interrupt)
        self.talk_button.pressed.connect(c.press_to_talk)
        self.talk_button.released.connect(c.release_to_talk)
        self.hands_free.toggled.connect(self._on_hands_free)
        self.settings_button.clicked.connect(self.open_settings)

    def is_ready(self) -> bool:
        """An engine is running and the inputs are enabled."""
        return self._ready

    # ------------------------------------------------------------ actions

    def send(self) -> None:
        text = self.text.text().strip()
        if text and self.controller.submit_text(text) is not None:
            self.text.clear()

    def open_settings(self) -> SettingsDialog:
        """A new dialog on the current configuration; the one opened before (closed, as it is
        window-modal) is deleted, so a long session keeps one, not one for every opening."""
        if self._settings is not None:
            self._settings.deleteLater()
        dialog = self._settings = SettingsDialog(self.controller.config, self._apply_settings, self)
        dialog.open()
        return dialog

    def _apply_settings(self, config: Config) -> str | None:
        reason = self.controller.apply(config)
        if reason is None:
            self._set_ready(False)
        return reason

    def _on_hands_free(self, on: bool) -> None:
        self.talk_button.setEnabled(self._ready and not on and self.controller.mic_mode != "unavailable")
        self.controller.set_hands_free(on)

    # ------------------------------------------------------------ controller signals

    def _set_ready(self, ready: bool) -> None:
        became_ready = ready and not self._ready
        self._ready = ready
        mic_ok = ready and self.controller.mic_problem is None
        for widget in (self.text, self.send_button, self.stop_button, self.settings_button):
            widget.setEnabled(ready)
        self.talk_button.setEnabled(mic_ok and not self.hands_free.isChecked())
        self.hands_free.setEnabled(mic_ok)
        if became_ready:  # not on every refresh: focus leaving a held talk button releases it
            self.text.setFocus()

    def _on_loading(self, what: str) -> None:
        self.progress_label.setText(what)
        self.progress.setVisible(bool(what))
        self.progress_label.setVisible(bool(what))

    def _on_ready(self) -> None:
        c = self.controller
        engines = c.engines
        self.model_status.setText(f"LLM {llm_text(engines.llm)}")
        if note := engines.llm.build_note:
            self.model_status.setText(f"LLM {llm_text(engines.llm)} · safe mode")
            self.model_status.setToolTip(note)
        short, detail = c.offload
        self.offload_status.setText(short)
        self.offload_status.setToolTip(detail)
        self.speech_status.setText(f"STT {engines.stt.name} · TTS {engines.tts.name}")
        if c.engine is not None:
            short, detail = duplex_text(c.engine)
            self.duplex_status.setText(self.tr(short))
            self.duplex_status.setToolTip(detail)
        self._set_ready(True)
        self._show_state(c.engine.state if c.engine else State.IDLE)

    def _on_load_failed(self, message: str) -> None:
        self.model_status.setText(self.tr("no model loaded"))
        self._show_notice(self.tr("Could not load the models: %s — choose others in Settings.") % message)
        self.settings_button.setEnabled(True)
        self._show_state(State.IDLE)

    def _on_refused(self, message: str) -> None:
        self._show_notice(message)
        self._set_ready(self.controller.engine is not None)

    def _on_audio_checked(self, mic_problem: str | None, speaker_problem: str | None) -> None:
        lines = []
        if mic_problem:
            lines.append(self.tr("<b>No microphone</b> — type your questions in the box below.")
                         + f" <small>({escape(mic_problem)})</small>")
        if speaker_problem:
            lines.append(self.tr("<b>No speaker</b> — replies are shown but not heard.")
                         + f" <small>({escape(speaker_problem)})</small>")
        self.audio_banner.setText("<br>".join(lines))
        self.audio_banner.setVisible(bool(lines))
        self.mic_status.setText(self.tr(MIC_TEXT["unavailable" if mic_problem else self.controller.mic_mode]))
        self._set_ready(self._ready)

    def _on_mic_changed(self, mode: str) -> None:
        self.mic_status.setText(self.tr(MIC_TEXT[mode]))
        self.hands_free.blockSignals(True)  # mirror the microphone, don't ask for it again
        self.hands_free.setChecked(mode == "hands-free")
        self.hands_free.blockSignals(False)
        self._set_ready(self._ready)
        self._show_state(self.engine_state)

    def _show_notice(self, text: str) -> None:
        self.notice.setTextFormat(Qt.TextFormat.PlainText)
        self.notice.setText(text)
        self.notice.setVisible(bool(text))

    def _show_state(self, state: State) -> None:
        self.engine_state = state
        if state is State.LISTENING and self.controller.mic_mode not in MIC_ON:
            state = State.IDLE  # the engine still holds the microphone's place, not the microphone
        self.indicator.show_state(state)

    # ------------------------------------------------------------ engine events

    def _on_event(self, generation: int, event: Event) -> None:
        current = generation == self.controller.generation
        key = (generation, event.turn_id)
        kind = event.type
        if kind is EventType.STATE:
            if current:
                self._show_state(event.data)
        elif kind is EventType.SPEECH_START:
            self.conversation.turn(key).set_user("…", final=False)
        elif kind is EventType.PARTIAL_TRANSCRIPT:
            self.conversation.turn(key).set_user(event.data, final=False)
        elif kind is EventType.TRANSCRIPT:
            self.conversation.turn(key).set_user(event.data, final=True)
        elif kind is EventType.REPLY_TEXT:
            self.conversation.turn(key).append_reply(event.data)
        elif kind is EventType.AUDIO_START:
            self.conversation.turn(key).set_speaking(True)
            engine = self.controller.engine
            if current and engine is not None:
                try:
                    self.meter.show_turn(engine.timeline(event.turn_id))
                except KeyError:  # the turn is already forgotten
                    pass
        elif kind is EventType.TURN_END:
            self._on_turn_end(key, event.data)
        elif kind is EventType.ERROR:
            view = self.conversation.turns.get(key)
            if view is not None:
                view.add_error(event.data)
            else:
                self._show_notice(event.data)

    def _on_turn_end(self, key: tuple[int, int], result: TurnResult) -> None:
        view = self.conversation.turns.get(key)
        if view is not None:
            view.set_speaking(False)
            view.finish(result)
        self.meter.add_turn(result.timeline, result.voices)

    # ------------------------------------------------------------ closing

    def closeEvent(self, event) -> None:
        if not self._closed:
            self._closed = True
            self.hide()
            self.controller.close()
        super().closeEvent(event)
