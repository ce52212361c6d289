"""The settings dialog offers the choices and ranges the configuration declares."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from assistant.config import Config, SttConfig, TtsConfig, VadConfig, choices, limits  # noqa: E402


def test_the_dialog_offers_what_the_configuration_allows(qtbot):
    from ui.settings import SettingsDialog

    dialog = SettingsDialog(Config(), apply=lambda config: None)
    qtbot.addWidget(dialog)
    assert [dialog.stt_engine.itemText(i) for i in range(dialog.stt_engine.count())] == list(choices(SttConfig, "engine"))
    assert [dialog.tts_engine.itemText(i) for i in range(dialog.tts_engine.count())] == list(choices(TtsConfig, "engine"))
    assert (dialog.endpoint_ms.minimum(), dialog.endpoint_ms.maximum()) == limits(VadConfig, "endpoint_ms")
    assert (dialog.threshold.minimum(), dialog.threshold.maximum()) == pytest.approx(limits(VadConfig, "threshold"))
