"""The settings dialog. It edits a copy of the configuration; OK hands it to ``apply``,
which returns why it was refused (the dialog stays open and says so) or None."""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from PySide6.QtWidgets import (
    QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QFileDialog, QFormLayout, QHBoxLayout,
    QLabel, QLineEdit, QPlainTextEdit, QPushButton, QSpinBox, QVBoxLayout, QWidget,
)

from assistant import languages
from assistant.config import Config, SttConfig, TtsConfig, TurnConfig, VadConfig, choices, limits


DEFAULT_DEVICE = "System default"


TURN_MODES = {"semantic": "when the words are complete", "fixed": "after a fixed silence"}
"""The labels of ``turn.mode``."""


def device_names(kind: str) -> list[str]:
    """Names of the audio devices of ``kind`` (input/output); [] without PortAudio."""
    try:
        import sounddevice as sd

        return [d["name"] for d in sd.query_devices() if d[f"max_{kind}_channels"] > 0]
    except Exception:  # no PortAudio, no devices: the default entry remains
        return []


def _path_row(edit: QLineEdit, caption: str, pattern: str, folder: bool = False) -> QWidget:
    row = QWidget()
    layout = QHBoxLayout(row)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(edit, 1)
    browse = QPushButton("Browse…")

    def pick() -> None:
        if folder:
            path = QFileDialog.getExistingDirectory(row, caption, edit.text())
        else:
            path, _ = QFileDialog.getOpenFileName(row, caption, edit.text(), pattern)
        if path:
            edit.setText(path)

    browse.clicked.connect(pick)
    layout.addWidget(browse)
    return row


def _number_box(box: QSpinBox | QDoubleSpinBox, section: type, key: str, value: float, step: float,
                suffix: str = "") -> QSpinBox | QDoubleSpinBox:
    """``box`` held to the bounds the config allows for ``section.key``, at ``value``."""
    box.setRange(*limits(section, key))
    box.setSingleStep(step)
    if suffix:
        box.setSuffix(suffix)
    box.setValue(value)
    return box


def _device_box(kind: str, current: str | None) -> QComboBox:
    box = QComboBox()
    box.setEditable(True)
    box.addItem(DEFAULT_DEVICE)
    box.addItems(device_names(kind))
    box.setCurrentText(current or DEFAULT_DEVICE)
    return box


class SettingsDialog(QDialog):
    def __init__(self, config: Config, apply: Callable[[Config], str | None], parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Settings"))
        self.setMinimumWidth(560)
        self.config = config
        self._apply = apply
        form = QFormLayout()

        self.llm_model = QLineEdit(config.llm.model or "")
        self.llm_model.setPlaceholderText("embedded SmolLM2-135M-Instruct (English only)")
        form.addRow(self.tr("LLM model (.gguf)"), _path_row(self.llm_model, "LLM model", "GGUF models (*.gguf)"))
        self.model_hint = QLabel()
        self.model_hint.setWordWrap(True)
        form.addRow("", self.model_hint)

        self.tts_engine = QComboBox()
        self.tts_engine.addItems(choices(TtsConfig, "engine"))
        self.tts_engine.setCurrentText(config.tts.engine)
        self.voice = QLineEdit(config.tts.voice or "")
        self.voice.setPlaceholderText("embedded Piper en_US-joe-medium")
        form.addRow(self.tr("Voice engine"), self.tts_engine)
        form.addRow(self.tr("Piper voice (.onnx)"), _path_row(self.voice, "Piper voice", "Piper voices (*.onnx)"))

        self.stt_engine = QComboBox()
        self.stt_engine.addItems(choices(SttConfig, "engine"))
        self.stt_engine.setCurrentText(config.stt.engine)
        self.language = QLineEdit(config.stt.language)
        self.language.setMaxLength(3)
        form.addRow(self.tr("Speech recognition"), self.stt_engine)
        form.addRow(self.tr("Language"), self.language)
        self.language.textChanged.connect(self._show_model_hint)
        self._show_model_hint(config.stt.language)

        self.turn_mode = QComboBox()
        for mode, label in TURN_MODES.items():
            self.turn_mode.addItem(label, mode)
        self.turn_mode.setCurrentIndex(max(0, self.turn_mode.findData(config.turn.mode)))
        self.turn_mode.setToolTip("Complete words are answered after a short silence; unfinished ones "
                                  "(\"what is the capital of…\") are waited for")
        form.addRow(self.tr("Answer"), self.turn_mode)

        self.turn_max_ms = _number_box(QSpinBox(), TurnConfig, "max_ms", config.turn.max_ms, 250, " ms")
        form.addRow(self.tr("Longest wait for unfinished words"), self.turn_max_ms)

        self.endpoint_ms = _number_box(QSpinBox(), VadConfig, "endpoint_ms", config.vad.endpoint_ms, 50, " ms")
        form.addRow(self.tr("Fixed silence"), self.endpoint_ms)
        self.turn_mode.currentIndexChanged.connect(self._show_turn_mode)
        self._show_turn_mode()

        self.threshold = _number_box(QDoubleSpinBox(), VadConfig, "threshold", config.vad.threshold, 0.05)
        self.threshold.setToolTip("Speech probability a frame needs to count as speech (lower = more sensitive)")
        form.addRow(self.tr("VAD threshold"), self.threshold)

        self.system_prompt = QPlainTextEdit(config.llm.system_prompt)
        self.system_prompt.setFixedHeight(80)
        form.addRow(self.tr("System prompt"), self.system_prompt)

        self.input_device = _device_box("input", config.audio.input_device)
        self.output_device = _device_box("output", config.audio.output_device)
        form.addRow(self.tr("Microphone"), self.input_device)
        form.addRow(self.tr("Speaker"), self.output_device)

        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color:#b42318;")
        self.error.hide()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)

    def _show_turn_mode(self) -> None:
        semantic = self.turn_mode.currentData() == "semantic"
        self.turn_max_ms.setEnabled(semantic)
        self.endpoint_ms.setEnabled(not semantic)

    def _show_model_hint(self, language: str) -> None:
        hint = languages.model_hint(language.strip().lower())
        self.model_hint.setText(hint)
        self.model_hint.setVisible(bool(hint))

    def values(self) -> Config:
        """The configuration as edited (not yet checked)."""
        c = self.config

        def device(box: QComboBox) -> str | None:
            text = box.currentText().strip()
            return None if text in ("", DEFAULT_DEVICE) else text

        return languages.for_language(replace(
            c,
            llm=replace(c.llm, model=self.llm_model.text().strip() or None,
                        system_prompt=self.system_prompt.toPlainText().strip()),
            tts=replace(c.tts, engine=self.tts_engine.currentText(), voice=self.voice.text().strip() or None),
            stt=replace(c.stt, engine=self.stt_engine.currentText(), language=self.language.text().strip().lower()),
            vad=replace(c.vad, endpoint_ms=self.endpoint_ms.value(), threshold=round(self.threshold.value(), 2)),
            turn=replace(c.turn, mode=self.turn_mode.currentData(), max_ms=self.turn_max_ms.value()),
            audio=replace(c.audio, input_device=device(self.input_device), output_device=device(self.output_device)),
        ))

    def accept(self) -> None:
        new = self.values()
        if new == self.config:
            super().accept()
            return
        reason = self._apply(new)
        if reason:
            self.error.setText(self.tr("Not applied: %s") % reason)
            self.error.show()
            return
        super().accept()
