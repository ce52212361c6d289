"""The stopwatch: started, read, stopped, resumed and reset, in English and Korean, each change made when the
turn is committed; look-alikes left to the model; a kiosk's visitor takes theirs along."""

from __future__ import annotations

import pytest

from assistant.config import SkillsConfig
from assistant.think.skills import SkillContext, Skills
from assistant.think.skills.stopwatch import Stopwatch

NOW = SkillContext()


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def watch(clock):
    return Stopwatch(clock=clock)


def said(watch: Stopwatch, text: str) -> str:
    """The reply, its change made (the turn committed)."""
    reply = watch.match(text, NOW)
    assert reply is not None, text
    if reply.effect is not None:
        reply.effect()
    return reply.text


def test_started_read_stopped_resumed_and_reset(watch, clock):
    assert said(watch, "How long has the stopwatch been running?") == "The stopwatch isn't running."
    assert said(watch, "Start a stopwatch.") == "Stopwatch started."
    clock.now += 65
    assert said(watch, "What's the stopwatch at?") == "The stopwatch is at 1 minute and 5 seconds."
    assert said(watch, "Start the stopwatch.") == "Stopwatch started."  # a new one, from zero
    clock.now += 42
    assert said(watch, "Stop the stopwatch.") == "Stopwatch stopped at 42 seconds."
    clock.now += 600  # stopped: the time does not run on
    assert said(watch, "How long has the stopwatch been running?") == "The stopwatch is stopped at 42 seconds."
    assert said(watch, "Stop the stopwatch.") == "The stopwatch is stopped at 42 seconds."
    assert said(watch, "Resume the stopwatch.") == "Stopwatch running again from 42 seconds."
    clock.now += 20
    assert said(watch, "What's on the stopwatch?") == "The stopwatch is at 1 minute and 2 seconds."
    assert said(watch, "Reset the stopwatch.") == "Stopwatch reset."
    assert said(watch, "What's the stopwatch at?") == "The stopwatch isn't running."


@pytest.mark.parametrize("asked", ["How much time has passed on the stopwatch?", "What does the stopwatch say?",
                                   "How long has it been since I started the stopwatch?",
                                   "How long has this top watch been running?"])  # Whisper, for some voices
def test_other_ways_to_read_it(watch, clock, asked):
    said(watch, "Time me.")
    clock.now += 3
    assert said(watch, asked) == "The stopwatch is at 3 seconds."


def test_a_reply_not_committed_changes_nothing(watch, clock):
    assert watch.match("Start a stopwatch.", NOW).text == "Stopwatch started."  # read at a pause, then dropped
    clock.now += 30
    assert said(watch, "What's the stopwatch at?") == "The stopwatch isn't running."


def test_korean(watch, clock):
    assert said(watch, "스톱워치 몇 분 됐어?") == "실행 중인 스톱워치가 없어요."
    assert said(watch, "스톱워치 시작해 줘") == "스톱워치를 시작했어요."
    clock.now += 125
    assert said(watch, "스톱워치 몇 분 됐어?") == "스톱워치는 지금 이 분 오 초예요."
    assert said(watch, "스탑워치 멈춰 줘") == "스톱워치를 멈췄어요. 이 분 오 초예요."
    assert said(watch, "스톱워치 계속 돌려 줘") == "스톱워치를 이 분 오 초부터 다시 시작했어요."
    clock.now += 600
    assert said(watch, "스톱워치 시간 알려 줘") == "스톱워치는 지금 십이 분이에요."
    assert said(watch, "스톱워치 초기화해 줘") == "스톱워치를 초기화했어요."
    assert said(watch, "스톱워치 몇 초야?") == "실행 중인 스톱워치가 없어요."


@pytest.mark.parametrize("heard", ["What is a stopwatch?", "Do you have a stopwatch?", "How does a stopwatch work?",
                                   "Stop watching TV.", "Start.", "How long does a stopwatch battery last?",
                                   "What does the stopwatch look like?", "How long is the stopwatch in the kitchen drawer?",
                                   "스톱워치가 뭐야?", "스톱워치 하나 사고 싶어요"])
def test_look_alikes_go_to_the_model(heard):
    skills = Skills(SkillsConfig(locale="en_US"))
    try:
        assert skills.match(heard, NOW) is None or skills.match(heard, NOW).skill != "stopwatch"
    finally:
        skills.close()


def test_the_skills_take_it_in_a_frame_and_a_kiosk_visitor_takes_it_along():
    from assistant.pipeline.at_once import AtOnce

    skills = Skills(SkillsConfig(locale="en_US"))
    try:
        reply = AtOnce(skills, None).find("Could you start a stopwatch, please?", 1)
        assert (reply.skill, reply.text) == ("stopwatch", "Stopwatch started.")
        reply.effect()
        assert skills.get("stopwatch").running
        skills.forget_visitor()
        assert skills.match("What's the stopwatch at?", NOW).text == "The stopwatch isn't running."
    finally:
        skills.close()


def test_the_answers_asked_often_are_what_the_skills_say():
    """Their audio is made ahead under these texts: a skill that words its answer otherwise would find none."""
    from assistant.think.skills import ASKED_OFTEN, often_answers

    skills = Skills(SkillsConfig(locale="en_US"))
    try:
        for asked, answer in ASKED_OFTEN["en"] + ASKED_OFTEN["ko"]:
            reply = skills.match(asked, NOW)
            assert reply is not None and reply.text == answer, (asked, reply)
        assert "Timer set for 5 minutes." in often_answers(korean=False)
        assert "오 분 타이머를 맞췄어요." not in often_answers(korean=False)
        assert "오 분 타이머를 맞췄어요." in often_answers(korean=True)
    finally:
        skills.close()
