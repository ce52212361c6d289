"""Timers belong to a place: the desktop keeps its own file, a chat run and a kiosk visitor
keep theirs in memory (and a visitor's go with them)."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from assistant.config import Config, SkillsConfig
from assistant.pipeline.session import desktop_timers, make_skills
from assistant.think.skills import Skills, SkillReply
from assistant.think.skills.timer_store import Timers


@pytest.fixture
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data"


def test_timers_in_memory_write_no_file(tmp_path):
    rung = []
    timers = Timers(None, rung.append, clock=lambda: 1000.0)
    timers.add("tea", "timer", 1000.0, 60)
    assert timers.ring_due()[0].name == "tea" and rung
    timers.add("egg", "timer", 2000.0, 240)
    assert [t.name for t in timers.active()] == ["egg"]
    assert list(tmp_path.iterdir()) == []


def test_skills_keep_timers_in_memory_unless_a_place_gives_a_file(data_home, tmp_path):
    skills = make_skills(Config())
    try:
        assert skills.setup.timers_path is None
        skills.timers.add("pasta", "timer", time.time() + 600, 600)
    finally:
        skills.close()
    assert not data_home.exists(), "a run without a place of its own wrote the desktop's timers"
    again = make_skills(Config())
    try:
        assert again.timers.active() == [], "the last run's timer rings in the next one"
    finally:
        again.close()


def test_the_desktop_keeps_its_own_file(data_home):
    skills = make_skills(Config(), timers_path=desktop_timers())
    try:
        skills.timers.add("pasta", "timer", time.time() + 600, 600)
    finally:
        skills.close()
    assert desktop_timers() == data_home / "offline-voice-assistant" / "timers.json"
    back = make_skills(Config(), timers_path=desktop_timers())
    try:
        assert [t.name for t in back.timers.active()] == ["pasta"]  # the desktop's timer survives a restart
    finally:
        back.close()


def test_a_configured_timers_file_is_used_by_every_place(tmp_path):
    chosen = tmp_path / "mine.json"
    config = replace(Config(), skills=SkillsConfig(timers_file=str(chosen)))
    skills = make_skills(config)
    try:
        assert skills.setup.timers_path == chosen
        skills.timers.add("tea", "timer", time.time() + 60, 60)
        assert chosen.is_file()
    finally:
        skills.close()


def test_forgetting_a_visitor_cancels_their_timers_and_unheard_announcements():
    skills = Skills(SkillsConfig())
    try:
        skills.timers.add("pasta", "timer", time.time() + 600, 600)
        skills.timers.add("", "alarm", time.time() + 3600)
        skills.setup.announce(SkillReply("timers", "Your egg timer is done."))  # nobody listened yet
        skills.forget_visitor()
        assert skills.timers.active() == []
        heard = []
        skills.subscribe(heard.append)
        assert heard == [], "the last visitor's ring reached the next one"
    finally:
        skills.close()


def test_the_kiosk_forgets_the_visitors_timers(tmp_path):
    from assistant.pipeline.kiosk.session import KioskSession
    from assistant.pipeline.session import LoadedModels, build_engine

    from fakes import FakeLlm, FakeStt, FakeTts, FakeVad, RecordingSink, kiosk_config

    config = kiosk_config(tmp_path)
    models = LoadedModels(stt=FakeStt(), llm=FakeLlm(reply="Short answer."), tts=FakeTts(), vad=FakeVad())
    skills = make_skills(config, output_rate=16000)
    output = RecordingSink()
    session = KioskSession(config, models.llm,
                           lambda listener: build_engine(config, models, output, skills=skills, on_event=listener))
    try:
        session.engine.submit_text("Set a pasta timer for ten minutes.")
        for _ in range(200):
            if skills.timers.active():
                break
            time.sleep(0.02)
        assert [t.name for t in skills.timers.active()] == ["pasta"]
        session.forget_visitor()
        assert skills.timers.active() == []
        assert session.engine.skills is skills  # the next visitor's engine has the skills, not the timers
    finally:
        session.close()
        skills.close()
