"""The window's and the kiosk's timers panel (offscreen Qt)."""

from __future__ import annotations

from ui.timers import TimersPanel, chip_text, countdown

from assistant.think.skills.timer_store import Timers


def test_countdowns_read_like_a_kitchen_timer():
    assert [countdown(s) for s in (0, 5.2, 59.5, 600, 3723)] == ["0:00", "0:06", "1:00", "10:00", "1:02:03"]


def test_the_panel_shows_each_running_timer_and_hides_when_none_runs(qtbot, tmp_path):
    now = [1000.0]
    timers = Timers(tmp_path / "timers.json", lambda timer: None, clock=lambda: now[0])
    panel = TimersPanel(lambda: timers)
    qtbot.addWidget(panel)
    panel.show()
    panel.refresh()
    assert panel.texts() == [] and panel.isHidden()
    pasta = timers.add("pasta", "timer", 1600.0, 600.0)
    timers.add("egg", "timer", 1240.0, 240.0)
    now[0] = 1010.0
    panel.refresh()
    assert panel.texts() == ["egg timer  3:50", "pasta timer  9:50"] and panel.isVisible()
    timers.cancel([pasta])
    panel.refresh()
    assert panel.texts() == ["egg timer  3:50"]
    assert chip_text(timers.add("", "alarm", 1e9), now[0]).startswith("alarm at ")


def test_a_paused_timer_stands_still_on_its_chip(qtbot, tmp_path):
    now = [1000.0]
    timers = Timers(tmp_path / "timers.json", lambda timer: None, clock=lambda: now[0])
    panel = TimersPanel(lambda: timers)
    qtbot.addWidget(panel)
    timers.pause(timers.add("pasta", "timer", 1600.0, 600.0))
    now[0] = 1100.0
    panel.refresh()
    assert panel.texts() == ["pasta timer  10:00 paused"]


def test_no_skills_means_no_panel(qtbot):
    panel = TimersPanel(lambda: None)
    qtbot.addWidget(panel)
    panel.refresh()
    assert panel.texts() == [] and panel.isHidden()


def test_the_stopwatch_has_a_chip_while_it_has_a_time(qtbot, tmp_path):
    from assistant.think.skills import SkillContext
    from assistant.think.skills.stopwatch import Stopwatch

    now = [1000.0]
    timers = Timers(tmp_path / "timers.json", lambda timer: None, clock=lambda: now[0])
    watch = Stopwatch(clock=lambda: now[0])
    panel = TimersPanel(lambda: timers, stopwatch=lambda: watch)
    qtbot.addWidget(panel)
    panel.refresh()
    assert panel.texts() == [] and panel.isHidden()
    watch.match("Start a stopwatch.", SkillContext()).effect()
    timers.add("egg", "timer", 1240.0, 240.0)
    now[0] = 1065.9
    panel.refresh()
    assert panel.texts() == ["egg timer  2:55", "Stopwatch  1:05"] and panel.isVisible()
    watch.match("Stop the stopwatch.", SkillContext()).effect()
    now[0] = 1200.0
    panel.refresh()
    assert panel.texts()[-1] == "Stopwatch  1:05 stopped"
    watch.match("Reset the stopwatch.", SkillContext()).effect()
    panel.refresh()
    assert panel.texts() == ["egg timer  0:40"]


def test_a_timer_set_in_korean_has_its_chip_in_korean(qtbot, tmp_path):
    now = [1000.0]
    timers = Timers(tmp_path / "timers.json", lambda timer: None, clock=lambda: now[0])
    panel = TimersPanel(lambda: timers)
    qtbot.addWidget(panel)
    timers.pause(timers.add("라면", "timer", 1300.0, 300.0))
    timers.add("pasta", "timer", 1600.0, 600.0)
    panel.refresh()
    assert panel.texts() == ["라면 타이머  5:00 일시 정지", "pasta timer  10:00"]
    alarm = timers.add("오전 일곱 시", "alarm", 1e9)
    assert chip_text(alarm, now[0]).startswith("오전 일곱 시 알람 ") and " at " not in chip_text(alarm, now[0])
