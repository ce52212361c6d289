"""The kiosk screen, offscreen: locked down, the administrator's exit, the hidden cursor,
the idle reset (real models) and the "one moment" of an engine restart (fakes).

The Qt-free parts are in test_kiosk_session.py, test_watchdog.py, test_restarter.py,
test_kiosk_command.py and test_offline.py.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6.QtCore import QPoint, Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication, QLabel, QMenu, QMenuBar, QPushButton  # noqa: E402

from assistant import offline  # noqa: E402
from assistant.speak.sinks import NullSink  # noqa: E402
from assistant.config import Config, KioskConfig, RepliesConfig  # noqa: E402
from assistant.events import EventType  # noqa: E402
from assistant.pipeline.session import LoadedModels  # noqa: E402

from fakes import FakeLlm, FakeStt, FakeTts, FakeVad, StallingSink  # noqa: E402

TURN_TIMEOUT_MS = 180_000
CTRL_ALT_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.ShiftModifier


def kiosk_config(tmp_path, **values) -> Config:
    kiosk = dict(enabled=True, hands_free=False, log_dir=str(tmp_path / "logs"))
    kiosk.update(values)
    return replace(Config(), kiosk=KioskConfig(**kiosk), replies=RepliesConfig(enabled=False))


def fake_engines(llm: FakeLlm | None = None) -> LoadedModels:
    return LoadedModels(stt=FakeStt(), llm=llm or FakeLlm(reply="Short answer."), tts=FakeTts(), vad=FakeVad())


class Turns:
    """Finished turns as the GUI thread receives them."""

    def __init__(self, window):
        self.ends = []
        window.controller.bridge.event.connect(self._record, Qt.ConnectionType.QueuedConnection)

    def _record(self, _generation, event) -> None:
        if event.type is EventType.TURN_END:
            self.ends.append(event.data)


@pytest.fixture
def make_kiosk(qtbot, tmp_path):
    from ui.kiosk import KioskWindow

    windows = []

    def make(engines: LoadedModels, output=None, language: str = "en", **values) -> KioskWindow:
        config = kiosk_config(tmp_path, **values)
        config = replace(config, stt=replace(config.stt, language=language))
        output = output or NullSink(config.audio.output_rate)
        window = KioskWindow(config, engines=engines, output=output, use_microphone=False)
        qtbot.addWidget(window)
        window.showFullScreen()
        qtbot.waitUntil(lambda: window.controller.session is not None and window.showing() == "attract",
                        timeout=60_000)
        windows.append(window)
        return window

    yield make
    for window in windows:
        llm = window.controller.engines.llm
        if isinstance(llm, FakeLlm) and llm.block is not None:
            llm.block.set()
        window.leave()


def ask(qtbot, window, turns: Turns, text: str):
    before = len(turns.ends)
    window.controller.session.engine.submit_text(text)
    qtbot.waitUntil(lambda: len(turns.ends) > before, timeout=TURN_TIMEOUT_MS)
    return turns.ends[-1]


def texts(window) -> list[str]:
    return [label.text() for label in window.findChildren(QLabel)]


# ---------------------------------------------------------------- locked down


def test_full_screen_frameless_without_menus_or_settings(make_kiosk):
    window = make_kiosk(fake_engines())
    assert window.isFullScreen()
    assert window.windowFlags() & Qt.WindowType.FramelessWindowHint
    assert not window.findChildren(QMenuBar) and not window.findChildren(QMenu)
    assert [button.text() for button in window.findChildren(QPushButton)] == ["Tap to talk"]
    assert window.font().pointSize() == KioskConfig().font_pt
    assert "Ask me anything" in " ".join(texts(window))
    assert "You can interrupt me any time." in " ".join(texts(window))  # an echo canceller runs here


def test_the_korean_kiosk_tells_a_visitor_in_korean_how_to_interrupt(make_kiosk):
    window = make_kiosk(fake_engines(), language="ko")
    shown = " ".join(texts(window))
    assert "언제든지 제 말을 끊고 말씀하셔도 돼요." in shown and "interrupt" not in shown


@pytest.mark.parametrize("key, modifiers", [
    (Qt.Key.Key_F4, Qt.KeyboardModifier.AltModifier),
    (Qt.Key.Key_Escape, Qt.KeyboardModifier.NoModifier),
    (Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier),
    (Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier),
])
def test_ordinary_shortcuts_do_not_exit(qtbot, make_kiosk, key, modifiers):
    window = make_kiosk(fake_engines())
    exits = []
    window.admin_exit.connect(lambda: exits.append(True))
    QTest.keyClick(window, key, modifiers)
    QTest.keyClick(window.talk, key, modifiers)
    qtbot.wait(100)
    assert window.isVisible() and window.isFullScreen() and not exits
    assert window.pin_pad is None


def test_closing_the_window_is_refused(qtbot, make_kiosk):
    """What a window manager does on Alt+F4 or a close button."""
    window = make_kiosk(fake_engines())
    assert not window.close()
    qtbot.wait(50)
    assert window.isVisible()


def test_minimizing_returns_to_full_screen(qtbot, make_kiosk):
    window = make_kiosk(fake_engines())
    window.showMinimized()
    qtbot.waitUntil(lambda: window.isFullScreen() and not window.isMinimized(), timeout=5000)


def test_the_administrator_exits_with_the_keys_and_the_pin(qtbot, make_kiosk):
    window = make_kiosk(fake_engines(), admin_pin="2468")
    QTest.keyClick(window, Qt.Key.Key_E, CTRL_ALT_SHIFT)
    qtbot.waitUntil(lambda: window.pin_pad is not None and window.pin_pad.isVisible(), timeout=5000)
    pad = window.pin_pad
    assert pad.status.text() == offline.guarantee().summary  # the administrator sees what keeps it offline
    QTest.keyClicks(pad.entry, "1111")
    QTest.keyClick(pad.entry, Qt.Key.Key_Return)
    assert pad.isVisible() and pad.tries == 1 and window.isVisible()
    with qtbot.waitSignal(window.admin_exit, timeout=10_000):
        for digit in "2468":
            next(b for b in pad.findChildren(QPushButton) if b.text() == digit).click()
        next(b for b in pad.findChildren(QPushButton) if b.text() == "OK").click()
    assert not window.isVisible()
    assert window.controller.session is None, "the engine was stopped"


def test_three_wrong_pins_close_the_pad(qtbot, make_kiosk):
    window = make_kiosk(fake_engines(), admin_pin="2468")
    window.request_admin_exit()
    pad = window.pin_pad
    for _ in range(3):
        QTest.keyClicks(pad.entry, "9999")
        QTest.keyClick(pad.entry, Qt.Key.Key_Return)
    assert not pad.isVisible() and window.isVisible()


def test_without_a_pin_the_exit_keys_alone_exit(qtbot, make_kiosk):
    window = make_kiosk(fake_engines(), exit_keys="Ctrl+Alt+F12")
    QTest.keyClick(window, Qt.Key.Key_E, CTRL_ALT_SHIFT)  # not this kiosk's keys
    assert window.isVisible()
    with qtbot.waitSignal(window.admin_exit, timeout=10_000):
        QTest.keyClick(window, Qt.Key.Key_F12, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier)
    assert not window.isVisible()


def test_five_taps_on_the_corner_open_the_pin_pad(qtbot, make_kiosk):
    window = make_kiosk(fake_engines(), admin_pin="2468")
    handle = window.windowHandle()
    for _ in range(4):
        QTest.mouseClick(handle, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(10, 10))
    assert window.pin_pad is None
    QTest.mouseClick(handle, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(10, 10))
    qtbot.waitUntil(lambda: window.pin_pad is not None and window.pin_pad.isVisible(), timeout=5000)


def test_the_cursor_hides_when_idle_and_returns_on_movement(qtbot, make_kiosk):
    window = make_kiosk(fake_engines(), hide_cursor_s=0.2)
    qtbot.waitUntil(lambda: window.cursor_hidden, timeout=5000)
    assert QApplication.overrideCursor().shape() == Qt.CursorShape.BlankCursor
    QTest.mouseMove(window.windowHandle(), QPoint(200, 200))
    qtbot.waitUntil(lambda: not window.cursor_hidden, timeout=5000)
    assert QApplication.overrideCursor() is None


# ---------------------------------------------------------------- healing and forgetting


def test_an_engine_restart_shows_one_moment_and_the_next_turn_works(qtbot, make_kiosk):
    speaker = StallingSink(22050)  # the first reply's audio hangs in the driver: a fresh engine heals it
    window = make_kiosk(fake_engines(), output=speaker, stage_timeout_s=0.5, watchdog_interval_s=0.05)
    turns = Turns(window)
    shown = []
    window.pages.currentChanged.connect(lambda _i: shown.append(window.showing()))
    first = window.controller.session.engine
    first.submit_text("are you there?")
    qtbot.waitUntil(lambda: window.controller.session.engine is not first, timeout=10_000)
    qtbot.waitUntil(lambda: window.showing() == "conversation", timeout=5000)
    assert "notice" in shown
    result = ask(qtbot, window, turns, "hello again")
    assert result.reply == "Short answer."
    assert "Short answer." in [text.strip() for text in texts(window)]
    speaker.release.set()


def test_tapping_during_a_reply_stops_it(qtbot, make_kiosk):
    window = make_kiosk(fake_engines(FakeLlm(reply=" ".join(["word"] * 60))))
    turns = Turns(window)
    window.controller.session.engine.submit_text("talk for a while")
    qtbot.waitUntil(lambda: window.talk.text().endswith("Stop"), timeout=10_000)
    QTest.mouseClick(window.talk, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(turns.ends), timeout=10_000)
    assert turns.ends[0].interrupted
    qtbot.waitUntil(lambda: window.talk.text() == "Tap to talk", timeout=5000)


@pytest.mark.slow
def test_idle_reset_forgets_the_conversation_and_the_llm_history(qtbot, make_kiosk, engines):
    window = make_kiosk(engines, idle_reset_s=2.0, stage_timeout_s=60)  # real model calls take seconds here
    turns = Turns(window)
    first_engine = window.controller.session.engine
    result = ask(qtbot, window, turns, "What is the capital of France?")
    assert result.reply and not result.errors
    assert window.showing() == "conversation"
    assert "What is the capital of France?" in texts(window)
    # (the responder's thread puts the exchange in the history once the turn is over)
    qtbot.waitUntil(lambda: [e.user for e in engines.llm.history.exchanges] == ["What is the capital of France?"],
                    timeout=10_000)

    qtbot.waitUntil(lambda: window.showing() == "attract", timeout=30_000)
    qtbot.wait(50)  # the old conversation widget is deleted
    assert window.conversation.turns == {}
    assert not any("France" in text for text in texts(window)), "nothing of the last visitor stays on screen"
    assert engines.llm.history.exchanges == [], "the LLM history was reset"
    system_prompt_tokens = len(engines.llm.system_prefix())
    assert engines.llm._llama.n_tokens == system_prompt_tokens, "only the system prompt stays in the KV cache"
    session = window.controller.session
    assert session.resets == 1 and session.engine is not first_engine

    result = ask(qtbot, window, turns, "What color is the sky?")
    assert result.reply and window.showing() == "conversation"
    assert result.timeline.counts["prompt_reused"] >= system_prompt_tokens - 1, "the system prompt's KV cells were kept"
    new_tokens = result.timeline.counts["prompt_tokens"] - system_prompt_tokens
    assert new_tokens < 60, "the next visitor's prompt holds no old history"


def test_a_forgotten_visitors_timers_and_stopwatch_leave_the_screen(qtbot, make_kiosk):
    window = make_kiosk(fake_engines())
    turns = Turns(window)
    assert window.controller.timers_path() is None  # a visitor's timers are kept in memory
    ask(qtbot, window, turns, "Set a pasta timer for ten minutes.")
    ask(qtbot, window, turns, "Start a stopwatch.")
    qtbot.waitUntil(lambda: window.timers.isVisible() and len(window.timers.texts()) == 2, timeout=5000)
    assert window.timers.texts()[0].startswith("pasta timer") and window.timers.texts()[1].startswith("Stopwatch")
    window.controller.session.forget_visitor()
    qtbot.waitUntil(lambda: window.showing() == "attract", timeout=5000)
    qtbot.waitUntil(lambda: window.timers.texts() == [] and not window.timers.isVisible(), timeout=2000)
    assert window.controller.timers().active() == [] and window.controller.stopwatch().elapsed_s() is None
