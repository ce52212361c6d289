"""The Korean screens: translations chosen by the setting or the system locale, the font check."""

from __future__ import annotations

from dataclasses import replace

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from assistant import languages  # noqa: E402
from assistant.speak.sinks import NullSink  # noqa: E402
from assistant.config import Config  # noqa: E402
from ui import i18n  # noqa: E402


def korean(config: Config) -> Config:
    return languages.for_language(replace(config, stt=replace(config.stt, language="ko")))


@pytest.mark.parametrize(
    "setting, system, language",
    [("ko", "en_US", "ko"), ("en", "ko_KR", "ko"), ("en", "en_US", "en"), ("fr", "fr_FR", "en"), ("en", "C", "en")],
)
def test_screen_language_comes_from_the_setting_or_the_system(setting, system, language):
    assert i18n.screen_language(setting, system) == language


def test_the_korean_translation_covers_every_string(tmp_path):
    """Every string the windows pass to tr() today has a Korean translation: the sources are
    scanned again (into a copy of the .ts file), so a new or changed string fails here."""
    import glob
    import shutil
    import subprocess
    import xml.etree.ElementTree as ET

    scanned = tmp_path / "assistant_ko.ts"
    shutil.copy(i18n.TRANSLATIONS / "assistant_ko.ts", scanned)
    lupdate = shutil.which("pyside6-lupdate")
    assert lupdate, "pyside6-lupdate (PySide6) is needed to check the translations"
    subprocess.run([lupdate, *sorted(glob.glob(str(i18n.TRANSLATIONS.parent / "*.py"))), "-ts", str(scanned)],
                   check=True, capture_output=True, timeout=120)
    root = ET.parse(scanned).getroot()
    unfinished = [m.find("source").text for m in root.iter("message")
                  if m.find("translation").get("type") in ("unfinished", "obsolete", "vanished")]
    assert not unfinished
    assert (i18n.TRANSLATIONS / "assistant_ko.qm").stat().st_mtime >= (i18n.TRANSLATIONS / "assistant_ko.ts").stat().st_mtime - 1


def test_every_skill_has_a_name_to_show():
    """The note under a reply names the skill that answered, translated: a skill missing here showed its module's
    English name on the Korean screens (the stopwatch did)."""
    from assistant.think.skills import SKILLS
    from ui.conversation import SKILL_NAMES

    assert set(SKILL_NAMES) == set(SKILLS)


def test_a_missing_korean_font_is_named(qtbot, monkeypatch):
    """No system font and no font package: the banner names both remedies."""
    monkeypatch.setattr(i18n.QFontDatabase, "families", staticmethod(lambda *_: []))
    monkeypatch.setattr(languages, "packaged_korean_font", lambda: None)
    problem = i18n.font_problem("ko")
    assert "fonts-noto-cjk" in problem and 'pip install ".[ko]"' in problem
    assert i18n.font_problem("en") is None


def test_the_packaged_korean_font_draws_hangul(qtbot):
    """With the ko extra's font package, Qt has a Korean family and its fallback draws every
    Hangul syllable with a font that has the glyph (no boxes), system font or none."""
    from PySide6.QtGui import QFontDatabase, QTextLayout
    from PySide6.QtWidgets import QApplication

    pytest.importorskip("pylopdf_fonts_ko")
    path = languages.packaged_korean_font()
    assert path is not None and path.name == "NotoSansKR-Regular.otf"
    assert i18n.load_packaged_font("ko") == ["Noto Sans KR"]
    assert i18n.load_packaged_font("ko") == ["Noto Sans KR"]  # once per process
    assert "Noto Sans KR" in QFontDatabase.families(QFontDatabase.WritingSystem.Korean)
    assert i18n.font_problem("ko") is None
    text = "오프라인 음성 비서"
    layout = QTextLayout(text, QApplication.font())
    layout.beginLayout()
    layout.createLine()
    layout.endLayout()
    runs = layout.glyphRuns()
    assert all(0 not in run.glyphIndexes() for run in runs)  # glyph 0, .notdef: the box
    drawn = {ch for ch in text for run in runs if run.rawFont().supportsCharacter(ch)}
    assert set(text.replace(" ", "")) <= drawn


def test_the_font_package_is_loaded_only_where_the_system_has_no_korean_font(qtbot, monkeypatch):
    monkeypatch.setattr(i18n.QFontDatabase, "families", staticmethod(lambda *_: ["Noto Sans CJK KR"]))
    monkeypatch.setattr(i18n, "load_packaged_font", lambda _: pytest.fail("the package font was loaded"))
    assert i18n.font_problem("ko") is None


@pytest.mark.slow
def test_the_window_speaks_korean(qtbot, engines, default_config):
    from ui.window import MainWindow

    config = korean(default_config)
    window = MainWindow(config, engines=engines, output=NullSink(config.audio.output_rate))
    qtbot.addWidget(window)
    assert window.screen_language == "ko"
    assert window.windowTitle() == "오프라인 음성 비서"
    assert window.talk_button.text() == "눌러서 말하기"
    qtbot.waitUntil(window.is_ready, timeout=60_000)
    assert window.duplex_status.text() in ("말 끊기 가능", "반이중")
    from assistant.events import TurnResult
    from assistant.timeline import Timeline
    from ui.conversation import TurnView

    notes = []
    for result in (TurnResult(1, Timeline(1), "지금 몇 시야", "한 시예요.", "skill", "clock"),
                   TurnResult(2, Timeline(2), "", "죄송해요, 잘 못 알아들었어요.", "misheard")):
        view = TurnView()
        qtbot.addWidget(view)
        view.finish(result)
        notes.append(view.note.text())
    assert notes == ["시계 기능", "알아들은 말 없음"]
    from assistant.timeline import Mark

    spoken = Timeline(3)
    for name, ms in dict(speech_start=-900, voice_end=-60, speech_end=0, endpoint=160, stt_start=0, stt_final=100,
                         llm_start=101, llm_first_token=150, first_chunk=200, tts_first_audio=410,
                         audio_out_start=420, reply_sound=423).items():
        spoken.mark(Mark(name), 100.0 + ms / 1000)
    window.meter.add_turn(spoken)
    tip = window.meter.toolTip()  # the meter's tooltip too: every label Korean, only the figures in Latin letters
    assert "들린 지연" in tip and "음성에서 음성까지" in tip and "기타" in tip, tip
    assert not any(word in tip for word in ("heard", "voice to voice", "other", "endpoint", "first token")), tip
    english = MainWindow(default_config, engines=engines, output=NullSink(default_config.audio.output_rate))
    qtbot.addWidget(english)
    assert english.windowTitle() == "Offline voice assistant"


def test_the_meter_names_the_voices_of_the_last_turn(qtbot):
    from assistant.timeline import Mark, Timeline
    from ui.meter import LatencyMeter

    meter = LatencyMeter()
    qtbot.addWidget(meter)
    timeline = Timeline(1)
    for mark in (Mark.SPEECH_END, Mark.ENDPOINT, Mark.AUDIO_OUT_START):
        timeline.mark(mark)
    meter.add_turn(timeline, ["espeak-ng (ko)", "piper (en_US-joe-medium)"])
    assert meter.voices == ["espeak-ng (ko)", "piper (en_US-joe-medium)"]
    assert not meter.grab().isNull()
    meter.show_turn(timeline)  # a turn in progress: its voices are not known yet
    assert meter.voices == []
