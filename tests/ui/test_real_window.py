"""The windows on Qt's real xcb platform under Xvfb, not offscreen: a missing system library
or a window that does not fill the screen fails here, as it would for a user."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

TESTS = Path(__file__).parents[1]
SIZES = [(800, 480), (1280, 800), (1920, 1080)]

KIOSK_CHILD = r"""
import json, sys
from dataclasses import replace
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QLabel, QPushButton
from assistant.speak.sinks import NullSink
from assistant.config import Config, KioskConfig, RepliesConfig
from assistant.pipeline.session import LoadedModels
from fakes import FakeLlm, FakeStt, FakeTts, FakeVad
from ui.app import application
from ui.kiosk import KioskWindow

app = application()
config = replace(Config(), kiosk=KioskConfig(enabled=True, hands_free=False, log_dir=sys.argv[2]),
                 replies=RepliesConfig(enabled=False))
config = replace(config, stt=replace(config.stt, language=sys.argv[3] if len(sys.argv) > 3 else "en"))
engines = LoadedModels(stt=FakeStt(), llm=FakeLlm(reply="Short answer."), tts=FakeTts(), vad=FakeVad())
window = KioskWindow(config, engines=engines, output=NullSink(config.audio.output_rate), use_microphone=False)
window.fill_screen()

def report():
    if window.showing() != "attract":
        QTimer.singleShot(100, report)
        return
    screen = app.primaryScreen().geometry()
    widgets = [w for w in window.findChildren(QLabel) + window.findChildren(QPushButton) if w.isVisible() and w.text()]
    clipped = []
    for w in widgets:
        top_left = w.mapTo(window, w.rect().topLeft())
        inside = window.rect().contains(top_left) and window.rect().contains(w.mapTo(window, w.rect().bottomRight()))
        need = w.heightForWidth(w.width()) if isinstance(w, QLabel) and w.wordWrap() else w.sizeHint().height()
        if not inside or need > w.height():
            clipped.append(w.text())
    window.grab().save(sys.argv[1])
    print(json.dumps({"window": [window.width(), window.height()], "screen": [screen.width(), screen.height()],
                      "clipped": clipped, "texts": [w.text() for w in widgets], "font_pt": window.font_pt}))
    window.leave()
    app.quit()

QTimer.singleShot(500, report)
app.exec()
"""


@pytest.fixture
def xvfb():
    """Start an X server of a given size; DISPLAY for the children."""
    if not shutil.which("Xvfb"):
        pytest.fail("Xvfb is not installed: the README's test command installs it (apt-get install xvfb xauth)")
    servers = []

    def start(width: int, height: int) -> str:
        for number in range(140, 240):
            if not Path(f"/tmp/.X11-unix/X{number}").exists() and not Path(f"/tmp/.X{number}-lock").exists():
                break
        display = f":{number}"
        server = subprocess.Popen(["Xvfb", display, "-screen", "0", f"{width}x{height}x24", "-nolisten", "tcp"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        servers.append(server)
        deadline = time.monotonic() + 10
        while not Path(f"/tmp/.X11-unix/X{number}").exists():
            assert server.poll() is None and time.monotonic() < deadline, "Xvfb did not start"
            time.sleep(0.05)
        return display

    yield start
    for server in servers:
        server.terminate()
        server.wait(timeout=10)


def xcb_env(display: str) -> dict:
    env = dict(os.environ, DISPLAY=display, QT_QPA_PLATFORM="xcb")
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS), str(TESTS.parent), env.get("PYTHONPATH", "")])
    return env


@pytest.mark.parametrize("width,height", SIZES)
def test_kiosk_fills_the_screen_and_nothing_is_clipped(xvfb, tmp_path, width, height):
    display = xvfb(width, height)
    shot = tmp_path / f"kiosk-{width}x{height}.png"
    child = subprocess.run([sys.executable, "-c", KIOSK_CHILD, str(shot), str(tmp_path / "logs")],
                           env=xcb_env(display), capture_output=True, text=True, timeout=120)
    assert child.returncode == 0, child.stderr[-2000:]
    seen = json.loads(child.stdout.strip().splitlines()[-1])
    assert seen["window"] == [width, height] == seen["screen"]
    assert any("Ask me anything" in text for text in seen["texts"])
    assert seen["clipped"] == []
    assert shot.stat().st_size > 1000


def test_kiosk_in_korean_on_xcb(xvfb, tmp_path):
    display = xvfb(1280, 800)
    shot = tmp_path / "kiosk-ko.png"
    child = subprocess.run([sys.executable, "-c", KIOSK_CHILD, str(shot), str(tmp_path / "logs"), "ko"],
                           env=xcb_env(display), capture_output=True, text=True, timeout=120)
    assert child.returncode == 0, child.stderr[-2000:]
    seen = json.loads(child.stdout.strip().splitlines()[-1])
    assert "안녕하세요! 무엇이든 물어보세요. 그냥 말씀하시면 돼요." in seen["texts"]
    assert "눌러서 말하기" in seen["texts"]
    assert seen["clipped"] == []


@pytest.mark.slow
def test_desktop_app_opens_and_stays_up_on_xcb(xvfb, tmp_path):
    """`assistant` itself, as a user starts it: the window opens, loads the models, stays up."""
    display = xvfb(1280, 800)
    app = subprocess.Popen([sys.executable, "-m", "assistant"], env=xcb_env(display),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(25)
        assert app.poll() is None, app.communicate()[1][-2000:]
        grab = subprocess.run(
            [sys.executable, "-c",
             "import sys; from PySide6.QtGui import QGuiApplication; a = QGuiApplication([]); "
             "image = a.primaryScreen().grabWindow(0).toImage(); "
             "colours = {image.pixel(x, y) for x in range(0, image.width(), 16) for y in range(0, image.height(), 16)}; "
             "print(len(colours))"],
            env=xcb_env(display), capture_output=True, text=True, timeout=60)
        assert grab.returncode == 0, grab.stderr[-2000:]
        assert int(grab.stdout.strip()) > 5  # a window with content, not a bare black screen
    finally:
        app.terminate()
        app.wait(timeout=30)


def test_no_display_is_a_clear_message():
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    proc = subprocess.run([sys.executable, "-m", "assistant"], env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert "no display" in proc.stderr and "assistant chat" in proc.stderr and "Traceback" not in proc.stderr
