"""Reminders: "remind me to call my mom in ten minutes" is a timer named by what to be reminded of, said
back in the user's own terms when it runs out; "remind me in ten minutes" and "remind me at 7" are a
timer and an alarm; "remind me at 5 pm to call mom" an alarm named by it. When the next alarm rings, an alarm
cancelled by its time or day, and a repeating alarm said to be beyond it."""

from __future__ import annotations

import time

import pytest


def test_a_reminder_is_set_listed_and_cancelled(skills, tell):
    assert tell("Remind me to call my mom in ten minutes.") == "Okay, I'll remind you to call your mom in 10 minutes."
    assert tell("In five minutes, remind me to check the oven.") == (
        "Okay, I'll remind you to check the oven in 5 minutes.")
    assert [t.label for t in skills.timers.active()] == ["reminder to check the oven", "reminder to call your mom"]
    assert tell("What reminders do I have?").startswith("You have the reminder to check the oven with 5 minutes")
    assert tell("Cancel the reminder to call my mom.") == "Reminder to call your mom cancelled."
    assert [t.label for t in skills.timers.active()] == ["reminder to check the oven"]
    assert tell("What timers do I have?") == "The reminder to check the oven has 5 minutes left."  # a timer too
    assert tell("Remind me in an hour to water the plants.") == "Okay, I'll remind you to water the plants in 1 hour."


def test_a_reminder_with_nothing_to_remind_of_is_a_timer_or_an_alarm(skills, tell):
    assert tell("Remind me in two minutes.") == "Timer set for 2 minutes."
    assert tell("Wake me up in twenty minutes.") == "Timer set for 20 minutes."  # a nap
    assert tell("Remind me at seven thirty pm.") == "Alarm set for 7:30 PM today."
    assert tell("Remind me to call mom.") is None  # no time: the model's
    assert tell("Remind me what a timer is.") is None


def test_a_reminder_is_said_when_it_runs_out(skills, rings, tell):
    heard = rings(lambda: tell("remind me to stretch in one second"))
    assert [(r.skill, r.text) for r in heard] == [("timers", "This is your reminder to stretch.")]
    assert heard[0].sound is not None


@pytest.mark.parametrize("said, answer", [
    ("Remind me at 5 pm to call my mom.", "Okay, I'll remind you to call your mom at 5:00 PM today."),
    ("Remind me to water the plants at 8 am.", "Okay, I'll remind you to water the plants at 8:00 AM tomorrow."),
    ("Remind me tomorrow at noon to call the dentist.", "Okay, I'll remind you to call the dentist at 12:00 PM tomorrow."),
    ("At 10 pm remind me to lock the door.", "Okay, I'll remind you to lock the door at 10:00 PM today."),
    ("Remind me at 7 tomorrow morning to pack my lunch.", "Okay, I'll remind you to pack your lunch at 7:00 AM tomorrow."),
])
def test_a_reminder_at_a_clock_time_is_an_alarm_named_by_it(skills, tell, said, answer):
    assert tell(said) == answer
    [alarm] = skills.timers.active()
    assert alarm.kind == "alarm" and alarm.reminder


@pytest.mark.parametrize("said, answer", [  # asked at 3:07 PM
    ("Set an alarm for tomorrow morning at 7.", "Alarm set for 7:00 AM tomorrow."),
    ("Wake me up tomorrow at six.", "Alarm set for 6:00 AM tomorrow."),
    ("Set alarm for 730 tomorrow morning.", "Alarm set for 7:30 AM tomorrow."),  # Whisper writes seven thirty so
    ("Set an alarm for 9 this evening.", "Alarm set for 9:00 PM today."),
    ("Set an alarm for 6 tonight.", "Alarm set for 6:00 PM today."),
    ("Could you wake me up in the morning at 7?", "Alarm set for 7:00 AM tomorrow."),
    ("Set an alarm for half past six tomorrow.", "Alarm set for 6:30 AM tomorrow."),
    ("Set an alarm for a quarter to eight tonight.", "Alarm set for 7:45 PM today."),
    ("Set an alarm for ten after seven in the morning.", "Alarm set for 7:10 AM tomorrow."),
    ("Set an alarm for noon tomorrow.", "Alarm set for 12:00 PM tomorrow."),
    ("Set an alarm for 8 o'clock tomorrow evening.", "Alarm set for 8:00 PM tomorrow."),
    ("Set a wake up alarm for 6 am, please.", "Alarm set for 6:00 AM tomorrow."),
    ("Remind me tonight at 9 to take my pills.", "Okay, I'll remind you to take your pills at 9:00 PM today."),
])
def test_an_alarm_s_day_and_part_of_the_day_before_or_after_its_time(skills, tell, said, answer):
    assert tell(said) == answer
    [alarm] = skills.timers.active()
    assert alarm.kind == "alarm"


def test_that_alarm_is_no_alarm_named_that(skills, tell):
    assert tell("Delete that alarm.") == "There is no alarm set."
    assert tell("Cancel this timer.") == "There is no timer running."
    tell("Set an alarm for 7 am.")
    assert tell("Delete that alarm.") == "Alarm cancelled." and not skills.timers.active()


def test_an_alarm_s_reminder_rings_with_its_words(skills, rings):
    heard = rings(lambda: skills.timers.add("reminder to stretch", "alarm", time.time() + 0.3))
    assert len(heard) == 1 and heard[0].text.endswith("This is your reminder to stretch.")


def test_when_the_next_alarm_rings_and_an_alarm_cancelled_by_its_time_or_day(skills, tell):
    skills.timers.clock = tell.now.timestamp
    assert tell("What's my next alarm?") == "There is no alarm set."
    tell("Set an alarm for 6 am.")
    tell("Set an alarm for 9 pm.")
    assert tell("What is my next alarm?") == "The alarm is set for 9:00 PM."  # (3:07 PM now: 9 pm comes first)
    assert tell("When is my alarm?").startswith("You have the alarm set for 9:00 PM and the alarm set for 6:00 AM")
    assert tell("Cancel my 6 am alarm.") == "Alarm cancelled."
    assert tell("Cancel the alarm for today.") == "Alarm cancelled."
    assert skills.timers.active() == []
    assert tell("오후 세 시 반에 알람 맞춰 줘") is not None
    assert tell("알람 몇 시에 울려?") == "오후 세 시 삼십 분 알람은 오늘 오후 세 시 삼십 분에 울려요."


@pytest.mark.parametrize("said", ["Set an alarm for every weekday at 7.", "Wake me up at 7 every day.",
                                  "Set a recurring alarm for 7."])
def test_a_repeating_alarm_is_said_to_be_beyond_it(skills, tell, said):
    assert tell(said) == "I can't set a repeating alarm, only the next one: say, set an alarm for 7."
    assert skills.timers.active() == []
    assert tell("Cancel every alarm.") == "There is no alarm set."
