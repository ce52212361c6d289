"""The window shows what the engine says of its audio devices: a speaker or microphone
lost (the banner), and back (the banner goes). Offscreen, on fake models."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from assistant.events import EventType  # noqa: E402
from assistant.pipeline.session import LoadedModels  # noqa: E402
from assistant.sound import DeviceStatus  # noqa: E402
from assistant.speak.sinks import NullSink  # noqa: E402

from fakes import FakeLlm, FakeStt, FakeTts, FakeVad  # noqa: E402


@pytest.fixture
def window(qtbot, default_config, monkeypatch):
    import ui.controller
    from ui.window import MainWindow

    monkeypatch.setattr(ui.controller, "audio_problems", lambda config: (None, None))  # both devices there
    engines = LoadedModels(stt=FakeStt(), llm=FakeLlm(reply="Short answer."), tts=FakeTts(), vad=FakeVad())
    made = MainWindow(default_config, engines=engines, output=NullSink(default_config.audio.output_rate))
    qtbot.addWidget(made)
    made.show()
    qtbot.waitUntil(made.is_ready, timeout=30_000)
    yield made
    made.close()


def tell(window, status: DeviceStatus) -> None:
    window.controller.engine.bus.emit(EventType.DEVICE, 0, status)


def test_a_lost_speaker_is_shown_until_it_is_back(qtbot, window):
    assert not window.audio_banner.isVisible()
    tell(window, DeviceStatus("speaker", False, "the speaker stopped (PortAudioError); replies are shown until it is back"))
    qtbot.waitUntil(lambda: window.audio_banner.isVisible(), timeout=5000)
    text = window.audio_banner.text()
    assert "No speaker" in text and "The speaker stopped (PortAudioError)" in text
    tell(window, DeviceStatus("speaker", True, "the speaker is back (Speakers)"))
    qtbot.waitUntil(lambda: not window.audio_banner.isVisible(), timeout=5000)


def test_a_lost_microphone_is_shown_and_its_return_gives_the_controls_back(qtbot, window):
    tell(window, DeviceStatus("microphone", False, "the microphone stopped (its stream ended)"))
    qtbot.waitUntil(lambda: "No microphone" in window.audio_banner.text(), timeout=5000)
    assert not window.talk_button.isEnabled() and window.mic_status.text() == "no microphone"
    tell(window, DeviceStatus("microphone", True, "the microphone is back (Microphone)"))
    qtbot.waitUntil(lambda: window.talk_button.isEnabled(), timeout=5000)
    assert not window.audio_banner.isVisible() and window.mic_status.text() == "mic off"
