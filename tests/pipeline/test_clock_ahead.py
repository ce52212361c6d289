"""The clock's answers rendered ahead: this minute's and the next one's time and date synthesized
while the engine is idle, found by the skill and the instant reply that say them, forgotten once
they are no longer true; and, with the real voice, an asked time played from that audio."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from datetime import datetime

import pytest

from assistant.config import RepliesConfig, SkillsConfig
from assistant.pipeline.clock_ahead import ClockAhead, passing_texts, start_clock_ahead
from assistant.pipeline.session import load_replies
from assistant.think.skills import SkillContext, Skills

from fakes import FakeTts

OUTPUT_RATE = 22050
AT = datetime(2026, 3, 5, 15, 7, 42).astimezone()


@dataclass
class ConcurrentTts(FakeTts):
    concurrent = True


@pytest.fixture
def user_dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path


@pytest.fixture
def skills():
    loaded = Skills(SkillsConfig(locale="en_US"))
    yield loaded
    loaded.close()


def replies_with(tts):
    replies = load_replies(RepliesConfig(), tts, OUTPUT_RATE, background=False)
    assert replies.wait_ready(10)
    tts.spoken.clear()
    return replies


def test_this_minute_and_the_next_are_rendered_and_the_older_forgotten(user_dirs, skills):
    tts = ConcurrentTts()
    replies = replies_with(tts)
    skills.use_reply_audio(replies.audio)
    now = [AT]
    ahead = ClockAhead(lambda moment: passing_texts(moment, skills, replies, korean=False), replies.render_passing,
                       busy=lambda: False, now=lambda: now[0])
    assert ahead.render_once() == len(set(tts.spoken)) > 0
    assert {"It's 3:07 PM.", "It's 3:08 PM.", "Today is Thursday, March 5, 2026.", "Today is Thursday."} <= set(tts.spoken)
    assert not any("시" in text for text in tts.spoken)  # Korean only where the language is Korean

    asked = skills.match("What time is it?", SkillContext(now=AT))
    assert asked.text == "It's 3:07 PM." and asked.audio is not None  # the skill's answer plays as it is
    assert skills.match("What's the date today?", SkillContext(now=AT)).audio is not None
    assert skills.match("What is 2 plus 2?", SkillContext(now=AT)).audio is None  # no other answer is
    assert replies.audio("It's 3:08 PM.") is not None

    tts.spoken.clear()
    now[0] = AT.replace(minute=8, second=50)
    assert ahead.render_once() == 1 and tts.spoken == ["It's 3:09 PM."]  # one text a minute
    assert replies.audio("It's 3:07 PM.") is None  # no longer true: forgotten
    assert replies.audio("It's 3:09 PM.") is not None


def test_the_instant_reply_table_finds_the_rendered_time(user_dirs, monkeypatch):
    import assistant.think.replies as table

    class Frozen(datetime):
        @classmethod
        def now(cls, tz=None):
            return AT.replace(tzinfo=None)

    monkeypatch.setattr(table, "datetime", Frozen)
    tts = ConcurrentTts()
    replies = replies_with(tts)
    replies.render_passing(passing_texts(AT.replace(tzinfo=None), None, replies, korean=True))
    hit = replies.lookup("what time is it")
    assert hit.text == "It's 3:07 PM." and hit.audio is not None and not hit.social
    assert "지금은 오후 세 시 칠 분이에요." in tts.spoken  # the Korean table's time, where Korean is spoken
    assert replies.lookup("지금 몇 시야").audio is not None


def test_rendering_waits_while_the_engine_is_busy_and_stops_when_asked(user_dirs, skills):
    tts = ConcurrentTts()
    replies = replies_with(tts)
    busy = threading.Event()
    busy.set()
    ahead = start_clock_ahead(skills, replies, tts, busy=busy.is_set, korean=False)
    assert ahead is not None
    threading.Event().wait(0.6)
    assert tts.spoken == []  # nothing while someone is heard or answered
    busy.clear()
    for _ in range(100):
        if tts.spoken:
            break
        threading.Event().wait(0.05)
    assert tts.spoken
    ahead.stop()
    assert not ahead._thread.is_alive()


def test_nothing_is_rendered_ahead_for_a_voice_that_must_not_run_twice_or_without_replies(user_dirs, skills):
    assert start_clock_ahead(skills, replies_with(FakeTts()), FakeTts(), busy=lambda: False, korean=False) is None
    assert start_clock_ahead(skills, None, ConcurrentTts(), busy=lambda: False, korean=False) is None


def test_a_failed_synthesis_leaves_the_answer_to_live_speech(user_dirs, skills):
    tts = ConcurrentTts(fail_on="PM")
    replies = replies_with(tts)
    made = replies.render_passing(["It's 3:07 PM.", "Today is Thursday."])
    assert made == 1 and replies.audio("It's 3:07 PM.") is None and replies.audio("Today is Thursday.") is not None


@pytest.mark.slow
def test_the_time_asked_plays_the_audio_rendered_ahead(engines, speak, capsys, tmp_path):
    """chat --input with the real voice: the skill's answer to "What time is it?" is played from the
    audio rendered while the question was said (no synthesis of its own: its first chunk took 0 ms)."""
    from assistant.commands.cli import main

    question = speak("What time is it?")
    capsys.readouterr()
    assert main(["chat", "--input", str(question), "--output", str(tmp_path / "answer.wav"), "--json"]) == 0
    turns = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert [(t["source"], t["skill"]) for t in turns] == [("skill", "clock")], turns
    assert turns[0]["reply"].startswith("It's ")
    assert turns[0]["latency_ms"]["tts_first_chunk"] == 0, turns[0]["latency_ms"]  # nothing synthesized for it


def test_the_engine_renders_ahead_and_its_close_ends_the_thread(user_dirs, skills):
    """A kiosk builds an engine per visitor: each engine's renderer goes with it."""
    from assistant.config import Config
    from assistant.pipeline import Engine

    from fakes import FakeLlm, FakeStt, FakeVad, RecordingSink

    tts = ConcurrentTts()
    replies = replies_with(tts)
    skills.use_reply_audio(replies.audio)
    for _ in range(2):
        engine = Engine(Config(), stt=FakeStt(), llm=FakeLlm(), tts=tts, vad=FakeVad(), output=RecordingSink(OUTPUT_RATE),
                        replies=replies, skills=skills)
        thread = engine.clock_ahead._thread
        for _ in range(100):
            if skills.match("What time is it?").audio is not None:
                break
            threading.Event().wait(0.05)
        engine.close()
        assert not thread.is_alive()
    assert skills.match("What time is it?").audio is not None
    assert not [t for t in threading.enumerate() if t.name == "clock-ahead"]


EXITING_WHILE_RENDERING = '''
import sys, threading
from assistant.pipeline.clock_ahead import ClockAhead

rendering = threading.Event()

def render(texts, before_each):  # stands for the voice: it synthesizes until told to stop
    rendering.set()
    while before_each():
        threading.Event().wait(0.01)
    print("stopped after the text at hand", flush=True)
    return 0

ClockAhead(lambda moment: ["It's 3:07 PM."], render, busy=lambda: False).start()
rendering.wait(5)
sys.exit(0)  # no close: the app ended some other way (app.exit, sys.exit)
'''


def test_a_render_under_way_is_stopped_and_waited_for_when_the_process_ends():
    """A daemon thread still in the voice's native code as Python shuts down aborted the process (a kiosk's
    exit, one in four): the renderer is stopped at exit, however the app ended, before the tear-down."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", EXITING_WHILE_RENDERING], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, PYTHONPATH=str(repo)))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "stopped after the text at hand", (done.stdout, done.stderr)
