"""A correction of the timer or alarm just set: "cancel that", "make it twelve minutes", "add two more minutes",
"그거 취소해", "십오 분으로 바꿔 줘"; only within a while of setting it, and never from other words."""

from __future__ import annotations

from datetime import datetime

import pytest

from assistant.think.skills import Skills
from assistant.think.skills.timer_store import RECENT_S


def running(skills: Skills, tz) -> list[tuple[str, float]]:
    """(label, minutes left) of each timer; (label, hour:minute) of each alarm."""
    clock = skills.timers.clock()
    return [(t.label, round(t.left_s(clock) / 60, 2) if t.kind == "timer" else
             datetime.fromtimestamp(t.ends_at, tz).strftime("%H:%M")) for t in skills.timers.active()]


@pytest.mark.parametrize("first, then, answer, after", [
    ("Set a timer for ten minutes.", "Actually, make it twelve minutes.", "Okay, timer changed to 12 minutes.",
     [("12 minute timer", 12.0)]),
    ("Set a timer for ten minutes.", "Make it fifteen.", "Okay, timer changed to 15 minutes.",  # in the unit it was set in
     [("15 minute timer", 15.0)]),
    ("Set a pasta timer for 8 minutes.", "Change it to 10 minutes.", "Okay, pasta timer changed to 10 minutes.",
     [("pasta timer", 10.0)]),
    ("Set a five minute timer.", "Cancel that.", "5 minute timer cancelled.", []),
    ("Wake me up at 6.", "Never mind, cancel it.", "Alarm cancelled.", []),
    ("Set an alarm for 7 am.", "Make it 8.", "Okay, alarm changed to 8:00 AM tomorrow.",  # the morning, as the alarm was
     [("alarm", "08:00")]),
    ("Set an alarm for 9 pm.", "Make it 9:30.", "Okay, alarm changed to 9:30 PM today.", [("alarm", "21:30")]),
    ("Set a timer for 3 minutes.", "Add two more minutes.", "Okay, 2 minutes more: 5 minutes left.",
     [("5 minute timer", 5.0)]),
    ("Remind me to check the oven in 15 minutes.", "Make it 20 minutes.",
     "Okay, I'll remind you to check the oven in 20 minutes.", [("reminder to check the oven", 20.0)]),
    ("십 분 타이머 맞춰 줘", "그거 취소해", "십 분 타이머를 취소했어요.", []),
    ("십 분 타이머 맞춰 줘", "십오 분으로 바꿔 줘", "타이머를 십오 분으로 바꿨어요.", [("십오 분 timer", 15.0)]),
    ("라면 타이머 삼 분", "일 분 더 늘려 줘", "일 분 더 늘렸어요. 사 분 남았어요.", [("라면 timer", 4.0)]),
    ("오전 일곱 시에 알람 맞춰 줘", "여덟 시로 바꿔 줘", "알람을 내일 오전 여덟 시로 바꿨어요.", [("오전 여덟 시 alarm", "08:00")]),
])
def test_the_timer_just_set_is_corrected(skills, first, then, answer, after, tell):
    skills.timers.clock = tell.now.timestamp  # the store's clock stands still at the skills' now: the minutes left are
    # exact, and an alarm set from that now is not already due on the ringing thread's clock
    assert tell(first) is not None
    assert tell(then) == answer
    assert running(skills, tell.now.tzinfo) == after


def test_a_correction_is_about_a_timer_set_a_moment_ago_only(skills, tell):
    """Minutes later "cancel that" is no longer about the timer (nor "make it..."); "add" still finds the only
    timer running; with nothing set, none of them is the timers'."""
    for words in ("Cancel that.", "Make it 12 minutes.", "Add 2 minutes.", "그거 취소해", "오 분 더"):
        assert tell(words) is None, words
    now = [tell.now.timestamp()]
    skills.timers.clock = lambda: now[0]
    tell("Set a timer for ten minutes.")
    now[0] += RECENT_S + 1
    assert tell("Cancel that.") is None
    assert tell("Make it 12 minutes.") is None
    assert tell("Add 2 minutes.") == "Okay, 2 minutes more: 9 minutes and 59 seconds left."


@pytest.mark.parametrize("then", ["Make it a double.", "Make it louder.", "Cancel the meeting.", "Make it rain.",
                                  "Change it to blue."])
def test_other_words_leave_the_timer_alone(skills, then, tell):
    tell("Set a timer for 10 minutes.")
    reply = skills.match(then)
    assert reply is None or reply.skill != "timers", reply
    assert [label for label, _ in running(skills, tell.now.tzinfo)] == ["10 minute timer"]
