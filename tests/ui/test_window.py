"""The desktop window, offscreen, on the real embedded models: typed and spoken turns,
settings, audio devices. Nothing here asserts wall-clock timings; the GUI stall figure
comes from ``python -m tools.stall_probe``.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

import shiboken6  # noqa: E402
from PySide6.QtCore import QEvent, Qt  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from assistant import config as config_mod  # noqa: E402
from assistant.sound import AudioError, load_wav
from assistant.speak.sinks import NullSink
from assistant.hear.sources import PacedWavSource  # noqa: E402
from assistant.events import EventType, State  # noqa: E402
from assistant.machine.models import find_piper_voice  # noqa: E402
from assistant.timeline import Mark  # noqa: E402
from ui.settings import SettingsDialog  # noqa: E402

pytestmark = pytest.mark.slow  # every test here loads the real models

TURN_TIMEOUT_MS = 180_000


class WindowEvents:
    """Events as the GUI thread receives them (after the window has handled each)."""

    def __init__(self, window):
        events: list = []
        self.events = events
        # A closure over the list, not a bound method: a queued event may still reach the
        # slot of an earlier test's recorder while the garbage collector is clearing it.
        window.controller.bridge.event.connect(lambda generation, event: events.append((generation, event)),
                                               Qt.ConnectionType.QueuedConnection)

    def of(self, kind: EventType) -> list:
        return [event for _, event in self.events if event.type is kind]

    def ends(self) -> list:
        return [event.data for event in self.of(EventType.TURN_END)]


@pytest.fixture
def make_window(qtbot, engines, default_config):
    from ui.window import MainWindow

    def make(config=None, output="null", ready=True, **kwargs):
        config = config or default_config
        if output == "null":
            output = NullSink(config.audio.output_rate)
        window = MainWindow(config, engines=engines, output=output, **kwargs)
        qtbot.addWidget(window)
        window.show()
        if ready:
            qtbot.waitUntil(window.is_ready, timeout=60_000)
        return window

    return make


@pytest.fixture
def config_file():
    """The config file under the isolated XDG dirs, put back as it was afterwards
    (other tests start the app and would read it)."""
    path = config_mod.default_config_path()
    before = path.read_bytes() if path.exists() else None
    yield path
    if before is None:
        path.unlink(missing_ok=True)
    else:
        path.write_bytes(before)


def ask(qtbot, window, recorder: WindowEvents, question: str):
    before = len(recorder.ends())
    qtbot.keyClicks(window.text, question)
    qtbot.keyClick(window.text, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: len(recorder.ends()) > before, timeout=TURN_TIMEOUT_MS)
    return recorder.ends()[-1]


# ---------------------------------------------------------------- window and turns


def test_window_appears_before_models_load(qtbot, engines, default_config, monkeypatch):
    """Loading runs on a worker: the window is up, shows progress and stays responsive."""
    import ui.controller
    from ui.window import MainWindow

    release = threading.Event()
    threads = []

    def slow_load(config, progress=None):
        threads.append(threading.current_thread())
        progress("loading llm")
        release.wait(30)
        return engines

    monkeypatch.setattr(ui.controller, "load_models", slow_load)
    window = MainWindow(default_config, output=NullSink(default_config.audio.output_rate))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.progress_label.text() == "loading llm", timeout=10_000)
    assert window.isVisible() and window.progress.isVisible()
    assert window.indicator.state is State.LOADING
    assert not window.text.isEnabled()
    qtbot.wait(50)  # the event loop runs while the models "load"
    release.set()
    qtbot.waitUntil(window.is_ready, timeout=30_000)
    assert threads and threads[0] is not threading.main_thread()
    assert not window.progress.isVisible()
    assert window.text.isEnabled()
    assert window.indicator.state is State.IDLE


def test_typed_question_runs_a_real_turn(qtbot, make_window, engines):
    window = make_window()
    recorder = WindowEvents(window)
    states: list[State] = []
    window.controller.bridge.event.connect(
        lambda _g, e: states.append(window.indicator.state) if e.type is EventType.STATE else None,
        Qt.ConnectionType.QueuedConnection,
    )
    result = ask(qtbot, window, recorder, "What is the capital of France?")

    assert result.source == "llm" and result.reply and not result.interrupted
    # conversation: the user's words and the streamed reply
    view = window.conversation.turns[(window.controller.generation, result.turn_id)]
    assert view.user.text() == "What is the capital of France?"
    pieces = [e.data for e in recorder.of(EventType.REPLY_TEXT) if e.turn_id == result.turn_id]
    assert len(pieces) > 1, "the reply arrives in pieces"
    assert view.reply.text().strip() == "".join(pieces).strip()
    assert "to first sound" in view.note.text()
    # state indicator followed the engine
    assert State.THINKING in states and State.SPEAKING in states
    # the engine says it is idle just after the turn's end event; both are queued to this thread
    qtbot.waitUntil(lambda: window.indicator.state is State.IDLE, timeout=5_000)
    # meter: read from the turn's timeline
    latency = result.timeline.latency_ms()
    assert window.meter.last.total == latency["voice_to_voice"] is not None
    assert dict(window.meter.last.stages)["ttft"] == latency["ttft"]
    assert window.meter.history.typed_totals == [latency["voice_to_voice"]]
    assert window.meter.history.totals == []  # the session median counts spoken turns only
    # status line
    assert engines.llm.name in window.model_status.text()
    assert engines.stt.name in window.speech_status.text() and engines.tts.name in window.speech_status.text()
    assert "GPU" in window.offload_status.text() or "CPU" in window.offload_status.text()
    assert window.duplex_status.text() == "talk over it" and "full duplex" in window.duplex_status.toolTip()


def test_stop_interrupts_a_reply_in_progress(qtbot, make_window):
    window = make_window()
    recorder = WindowEvents(window)
    qtbot.keyClicks(window.text, "Tell me a long story about a dragon and a knight.")
    qtbot.keyClick(window.text, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: bool(recorder.of(EventType.REPLY_TEXT)), timeout=TURN_TIMEOUT_MS)
    turn = recorder.of(EventType.REPLY_TEXT)[0].turn_id
    qtbot.mouseClick(window.stop_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(recorder.ends()), timeout=10_000)
    result = recorder.ends()[0]
    assert result.turn_id == turn and result.interrupted
    view = window.conversation.turns[(window.controller.generation, turn)]
    shown = view.reply.text()
    count = len(recorder.of(EventType.REPLY_TEXT))
    qtbot.wait(600)
    assert view.reply.text() == shown, "the reply stops growing"
    assert len(recorder.of(EventType.REPLY_TEXT)) <= count + 1, "generation stopped (at most a piece in flight)"
    assert not window.controller.engine.busy
    assert window.indicator.state is State.IDLE
    assert "interrupted" in view.note.text()


# ---------------------------------------------------------------- settings


def test_settings_change_is_applied_and_persisted(qtbot, make_window, monkeypatch, config_file):
    import assistant.pipeline.session as session

    window = make_window()
    path = config_file
    first_engine = window.controller.engine
    loads = []
    real_load_tts = session.load_tts

    def load_tts(config):
        loads.append(threading.current_thread())
        return real_load_tts(config)

    monkeypatch.setattr(session, "load_tts", load_tts)  # the window asks the session for engines
    dialog = window.open_settings()
    assert not dialog.endpoint_ms.isEnabled()  # the fixed silence matters in fixed mode only
    dialog.turn_mode.setCurrentIndex(dialog.turn_mode.findData("fixed"))
    assert dialog.endpoint_ms.isEnabled() and not dialog.turn_max_ms.isEnabled()
    dialog.endpoint_ms.setValue(450)
    dialog.threshold.setValue(0.6)
    dialog.voice.setText(str(find_piper_voice(None).path))  # the same voice, named: the TTS reloads
    qtbot.mouseClick(dialog.buttons.button(dialog.buttons.StandardButton.Ok), Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()
    qtbot.waitUntil(lambda: window.is_ready() and window.controller.config.vad.endpoint_ms == 450, timeout=60_000)

    controller = window.controller
    assert controller.engine is not first_engine
    assert controller.engine.config.vad.endpoint_ms == 450 and controller.engine.config.vad.threshold == 0.6
    assert loads and loads[0] is not threading.main_thread()
    assert controller.engines.tts.name.startswith("piper (en_US-joe-medium)")
    saved = config_mod.load(path)
    assert saved.vad.endpoint_ms == 450 and saved.vad.threshold == 0.6 and saved.turn.mode == "fixed"
    assert saved.tts.voice == str(find_piper_voice(None).path)
    assert not window.notice.isVisible()


def test_invalid_settings_are_refused_and_the_previous_kept(qtbot, make_window, tmp_path, config_file):
    window = make_window()
    controller = window.controller
    path = config_file
    saved_before = path.read_bytes() if path.exists() else None
    before, engine = controller.config, controller.engine

    not_a_model = tmp_path / "notes.gguf"
    not_a_model.write_text("these are my notes, not a model" * 100)
    dialog = window.open_settings()
    dialog.llm_model.setText(str(not_a_model))
    dialog.endpoint_ms.setValue(900)
    qtbot.mouseClick(dialog.buttons.button(dialog.buttons.StandardButton.Ok), Qt.MouseButton.LeftButton)
    assert dialog.isVisible(), "the dialog stays open to say why"
    assert dialog.error.isVisible() and "not a GGUF" in dialog.error.text()

    dialog.llm_model.setText("")
    dialog.input_device.setCurrentText("no such microphone")
    qtbot.mouseClick(dialog.buttons.button(dialog.buttons.StandardButton.Ok), Qt.MouseButton.LeftButton)
    assert dialog.isVisible() and "microphone" in dialog.error.text()
    dialog.reject()

    assert controller.config == before and controller.engine is engine
    assert (path.read_bytes() if path.exists() else None) == saved_before
    assert window.is_ready()

    again = window.open_settings()  # the closed dialog is deleted, not kept hidden for the session
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert not shiboken6.isValid(dialog) and shiboken6.isValid(again)
    assert window.findChildren(SettingsDialog) == [again]
    again.reject()


def test_a_model_that_fails_to_load_is_refused_later(qtbot, make_window, tmp_path, config_file):
    """Passes the quick check (GGUF magic) but cannot be loaded: refused, old engine kept."""
    window = make_window()
    controller = window.controller
    before, engine = controller.config, controller.engine
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"GGUF" + bytes(range(256)) * 16)
    dialog = window.open_settings()
    dialog.llm_model.setText(str(broken))
    qtbot.mouseClick(dialog.buttons.button(dialog.buttons.StandardButton.Ok), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.notice.isVisible(), timeout=60_000)
    assert "not applied" in window.notice.text()
    qtbot.waitUntil(window.is_ready, timeout=10_000)
    assert controller.config == before and controller.engine is engine


# ---------------------------------------------------------------- audio devices


def test_no_device_banner_on_this_machine(qtbot, make_window):
    from ui.controller import audio_problems

    mic, speaker = audio_problems(config_mod.Config())
    if mic is None and speaker is None:
        pytest.skip("this machine has audio devices")
    window = make_window()
    qtbot.waitUntil(window.audio_banner.isVisible, timeout=10_000)
    assert ("No microphone" in window.audio_banner.text()) == (mic is not None)


def test_no_device_banner_with_audio_errors(qtbot, make_window, monkeypatch):
    import ui.controller

    def no_device(kind, device=None):
        raise AudioError(f"no {'microphone' if kind == 'input' else 'speaker'} found (test). Use --input/--output WAV files or --text.")

    monkeypatch.setattr(ui.controller, "check_device", no_device)
    window = make_window(output=None)  # the app picks its own output
    assert window.audio_banner.isVisible()
    text = window.audio_banner.text()
    assert "No microphone" in text and "No speaker" in text and "--input" not in text
    assert isinstance(window.controller.output, NullSink)
    assert not window.talk_button.isEnabled() and not window.hands_free.isEnabled()
    assert window.text.isEnabled()
    assert window.mic_status.text() == "no microphone"


def test_push_to_talk_answers_what_was_said(qtbot, make_window, monkeypatch, speak):
    """A WAV stands in for the microphone; releasing the button ends the utterance."""
    import ui.controller

    samples = load_wav(speak("What is the capital of Italy?"), 16000)
    voiced = np.flatnonzero(np.abs(samples) > 0.02)
    speech = samples[voiced[0] : voiced[-1]]
    # The user keeps talking until the button is released. Twice at most: on a loaded machine
    # the release comes late, and four copies of one sentence read as a Whisper decoding loop
    # (the transcript guard drops text that compresses 2.4:1).
    looped = np.concatenate([np.tile(speech, 2), np.zeros(16000 * 4, np.float32)])
    monkeypatch.setattr(ui.controller, "check_device", lambda kind, device=None: "test device")
    monkeypatch.setattr(
        ui.controller, "open_microphone", lambda config: PacedWavSource(looped, 16000, config.audio.frame_samples)
    )
    window = make_window()
    recorder = WindowEvents(window)
    assert window.talk_button.isEnabled()
    qtbot.mousePress(window.talk_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.mic_status.text() == "mic on (push-to-talk)", timeout=10_000)
    qtbot.waitUntil(lambda: bool(recorder.of(EventType.SPEECH_START)), timeout=30_000)
    qtbot.wait(int(speech.size / 16000 * 1000) + 300)  # hold the button while the question is said
    qtbot.mouseRelease(window.talk_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(recorder.ends()), timeout=TURN_TIMEOUT_MS)
    result = recorder.ends()[0]
    # Whisper tiny may mishear a word where the looped clip was cut; the words up to the
    # release must be there and answered.
    assert "what is the capital" in result.transcript.lower() and result.reply
    assert result.timeline.get(Mark.SPEECH_END) is not None
    view = window.conversation.turns[(window.controller.generation, result.turn_id)]
    assert view.user.text() == result.transcript
    qtbot.waitUntil(lambda: window.controller.mic_mode == "off" and window.controller._gate is None, timeout=10_000)
    assert window.indicator.state is State.IDLE and window.mic_status.text() == "mic off"


def test_hands_free_toggle_opens_and_closes_the_microphone(qtbot, make_window, monkeypatch, config_file):
    import ui.controller

    silence = np.zeros(16000, np.float32)
    monkeypatch.setattr(ui.controller, "check_device", lambda kind, device=None: "test device")
    monkeypatch.setattr(ui.controller, "open_microphone",
                        lambda config: PacedWavSource(silence, 16000, config.audio.frame_samples))
    window = make_window()
    qtbot.mouseClick(window.hands_free, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.indicator.state is State.LISTENING, timeout=10_000)
    assert window.mic_status.text() == "mic on (hands-free)" and not window.talk_button.isEnabled()

    # a settings change rebuilds the engine; listening carries on with the new one
    engine = window.controller.engine
    dialog = window.open_settings()
    dialog.endpoint_ms.setValue(350)
    dialog.accept()
    qtbot.waitUntil(lambda: window.controller.engine not in (None, engine) and window.controller._gate is not None,
                    timeout=30_000)
    qtbot.waitUntil(lambda: window.indicator.state is State.LISTENING and window.hands_free.isChecked(), timeout=10_000)

    qtbot.mouseClick(window.hands_free, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.controller._gate is None and window.indicator.state is State.IDLE, timeout=10_000)
    assert window.mic_status.text() == "mic off" and window.talk_button.isEnabled()


def test_a_broken_phrase_table_is_shown_and_typed_questions_still_work(make_window, qtbot, default_config, tmp_path):
    from dataclasses import replace

    bad = tmp_path / "replies.toml"
    bad.write_text("[[reply]]\nphrases = 'not a list'\n")
    config = replace(default_config, replies=replace(default_config.replies, table=str(bad)))
    window = make_window(config)
    qtbot.waitUntil(lambda: "Instant replies are off" in window.notice.text(), timeout=30_000)
    assert str(bad.name) in window.notice.text() or "replies" in window.notice.text()
    recorder = WindowEvents(window)
    ask(qtbot, window, recorder, "thank you")
    assert recorder.ends()[-1].source == "llm"  # no table, so the LLM answers
