"""Skills on what the recognizer writes: a request with one function word misheard is still the
request when every reading of it says the same; look-alikes and actions are never guessed."""

from __future__ import annotations

from datetime import datetime

import pytest

from assistant.think.skills import SkillContext
from assistant.think.skills.text import FUNCTION_WORDS, numbers_misheard, one_word_off

from test_skills import NOW, answer


def test_one_word_off_changes_one_function_word_and_nothing_else():
    readings = one_word_off("What time of it?")
    assert "what time is it" in readings
    assert len(readings) == 2 * (len(FUNCTION_WORDS) - 1)  # "of" and "it", each for every other
    assert all(r.split()[:2] == ["what", "time"] for r in readings)  # content words stay as heard
    assert one_word_off("Remind me to water the plants and the roses in the garden by the window") == []


@pytest.mark.parametrize("heard, reply", [
    ("What time of it?", ("clock", "It's 3:07 PM.")),
    ("What is 20% on 50?", ("arithmetic", "20 percent of 50 is 10.")),
    ("Set a timer on ten minutes.", ("timers", "Timer set for 10 minutes.")),
    ("How many cups are on a liter?", ("units", "There are 4.23 cups in a liter.")),
])
def test_a_request_with_one_function_word_misheard_is_answered(skills, heard, reply):
    assert answer(skills, heard) == reply


@pytest.mark.parametrize("heard", [
    "What size is it?",                 # a content word differs: not the time
    "What time is it in Atlantis?",     # a place the world clock does not know
    "What is it for?",
    "What time is the game?",
    "What is the date of Easter?",
    "How many miles are in London?",
    "What is 5 on 10?",
    "Set the table for dinner.",
])
def test_look_alikes_still_go_to_the_model(skills, heard):
    assert skills.match(heard, NOW) is None


def test_an_action_is_never_guessed_from_misheard_words(skills):
    assert skills.match("stop it", NOW).skill == "actions"
    assert skills.match("stop on", NOW) is None  # "stop it" one word off: not an action


@pytest.mark.parametrize("heard, reply", [
    ("Start at timer for 5 minutes.", "Timer set for 5 minutes."),  # "a" heard as "at": no name
    ("Set your timer for 10 minutes.", "Timer set for 10 minutes."),
    ("Set a timer called to for 5 minutes.", "Timer set for 5 minutes."),
    ("Set a pasta timer for 10 minutes.", "Pasta timer set for 10 minutes."),
])
def test_a_timer_is_not_named_after_function_words(skills, heard, reply):
    assert answer(skills, heard) == ("timers", reply)


@pytest.mark.parametrize("heard, reply", [
    ("set an alarm for 730.", "Alarm set for 7:30 PM today."),  # Whisper writes "seven thirty" so
    ("Wake me up at 1045 tomorrow.", "Alarm set for 10:45 AM tomorrow."),
    ("Set an alarm for 1230 am.", "Alarm set for 12:30 AM tomorrow."),
    ("Set an alarm for 11-20.", "Alarm set for 11:20 PM today."),  # and "eleven twenty" so, by some voices
])
def test_alarm_times_written_without_a_colon(skills, heard, reply):
    later = SkillContext(now=datetime(2099, 3, 5, 15, 7).astimezone())  # the alarms must not ring during the test
    reply_said = skills.match(heard, later)
    assert reply_said is not None and reply_said.text == reply


@pytest.mark.parametrize("heard", ["Set an alarm for 2599.", "Set an alarm for 790.", "Set an alarm for 12345.",
                                   "Set an alarm for 11-75."])
def test_digits_that_are_no_clock_time_set_no_alarm(skills, heard):
    assert skills.match(heard, NOW) is None


@pytest.mark.parametrize("heard, reply", [
    ("Set at time for 10 minutes", "Timer set for 10 minutes."),  # "a timer" heard with its r lost
    ("Can you set up time for 5 minutes?", "Timer set for 5 minutes."),
])
def test_a_timer_heard_as_a_time_for_a_length_is_a_timer(skills, heard, reply):
    assert answer(skills, heard) == ("timers", reply)


@pytest.mark.parametrize("heard", ["Set a time for the meeting.", "What time for 5 minutes?", "Set the time to 5 minutes past."])
def test_a_time_without_a_length_is_not_a_timer(skills, heard):
    assert skills.match(heard, NOW) is None


def test_numbers_misheard_reads_each_sound_alike_and_all_of_them_at_once():
    assert numbers_misheard("What's free plus free?") == ["what is 3 plus free", "what is free plus 3", "what is 3 plus 3"]
    assert numbers_misheard("What is the capital of France?") == []


@pytest.mark.parametrize("heard, reply", [
    ("What's free plus free?", ("arithmetic", "3 plus 3 is 6.")),
    ("What is 13 times free?", ("arithmetic", "13 times 3 is 39.")),
    ("What is three times for?", ("arithmetic", "3 times 4 is 12.")),
    ("Set a timer for free minutes.", ("timers", "Timer set for 3 minutes.")),
])
def test_a_number_heard_as_a_word_that_sounds_like_it_is_answered(skills, heard, reply):
    assert answer(skills, heard) == reply


@pytest.mark.parametrize("heard", [
    "Is it free to park here?",
    "I want to cook for two people.",
    "Is that too much sugar?",
    "What is it times two?",          # "it" may be the answer before: not read as eight
    "Set a timer for for minutes.",   # four minutes, or a minute: readings that disagree are the model's
])
def test_sound_alikes_that_are_no_number_request_go_to_the_model(skills, heard):
    assert skills.match(heard, NOW) is None


@pytest.mark.parametrize("heard, reply", [
    ("Convere 10 miles to kilometers", "10 miles is 16.1 kilometers."),  # "convert" a letter or two off
    ("Conveate 3 miles to kilometers.", "3 miles is 4.83 kilometers."),
])
def test_a_conversion_whose_verb_is_misheard_is_still_converted(skills, heard, reply):
    assert answer(skills, heard) == ("units", reply)


@pytest.mark.parametrize("heard", ["Comfort 10 miles to kilometers", "Cover three months of your monitor.",
                                   "Convert the file to a PDF."])
def test_no_conversion_without_a_verb_like_convert_and_two_units(skills, heard):
    assert skills.match(heard, NOW) is None
