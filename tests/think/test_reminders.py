"""Reminders: "remind me to call my mom in ten minutes" is a timer named by what to be reminded of, said
back in the user's own terms when it runs out; "remind me in ten minutes" and "remind me at 7" are a
timer and an alarm."""

from __future__ import annotations


def test_a_reminder_is_set_listed_and_cancelled(skills, tell):
    assert tell("Remind me to call my mom in ten minutes.") == "Okay, I'll remind you to call your mom in 10 minutes."
    assert tell("In five minutes, remind me to check the oven.") == (
        "Okay, I'll remind you to check the oven in 5 minutes.")
    assert [t.label for t in skills.timers.active()] == ["reminder to check the oven", "reminder to call your mom"]
    assert tell("What reminders do I have?").startswith("You have the reminder to check the oven with 5 minutes")
    assert tell("Cancel the reminder to call my mom.") == "Reminder to call your mom cancelled."
    assert [t.label for t in skills.timers.active()] == ["reminder to check the oven"]
    assert tell("What timers do I have?") == "The reminder to check the oven has 5 minutes left."  # a timer too


def test_a_reminder_with_nothing_to_remind_of_is_a_timer_or_an_alarm(skills, tell):
    assert tell("Remind me in two minutes.") == "Timer set for 2 minutes."
    assert tell("Remind me at seven thirty pm.") == "Alarm set for 7:30 PM today."
    assert tell("Remind me to call mom.") is None  # no time: the model's
    assert tell("Remind me what a timer is.") is None


def test_a_reminder_is_said_when_it_runs_out(skills, rings, tell):
    heard = rings(lambda: tell("remind me to stretch in one second"))
    assert [(r.skill, r.text) for r in heard] == [("timers", "This is your reminder to stretch.")]
    assert heard[0].sound is not None
