"""Times and dates worked out from now (the clock skill): exact answers for what the model counted wrong, and the
look-alikes that stay the model's."""

from __future__ import annotations

from datetime import datetime

import pytest

from assistant.think.skills import SkillContext
from assistant.think.skills.time_math import duration_s

NOW = SkillContext(now=datetime(2024, 3, 5, 15, 7).astimezone())  # a Tuesday, in a leap year


@pytest.mark.parametrize("question, answer", [
    ("How long until 5 pm?", "It's 1 hour and 53 minutes until 5:00 PM."),
    ("How many minutes until 3 o'clock?", "It's 11 hours and 53 minutes until 3:00 AM tomorrow."),
    ("How long until midnight?", "It's 8 hours and 53 minutes until 12:00 AM tomorrow."),
    ("What time will it be in 3 hours?", "In 3 hours, it will be 6:07 PM."),
    ("What's the time in 3 hours?", "In 3 hours, it will be 6:07 PM."),
    ("What's 3 hours from now?", "In 3 hours, it will be 6:07 PM."),
    ("What time will it be in two and a half hours?", "In 2 hours and 30 minutes, it will be 5:37 PM."),
    ("What time will it be 90 minutes from now?", "In 1 hour and 30 minutes, it will be 4:37 PM."),
    ("What time will it be in 10 hours?", "In 10 hours, it will be 1:07 AM tomorrow."),
    ("What time was it 2 hours ago?", "2 hours ago, it was 1:07 PM."),
    ("What day was it 100 days ago?", "100 days ago, it was Sunday, November 26, 2023."),
    ("What's the date two weeks from today?", "2 weeks from today, it will be Tuesday, March 19."),
    ("How old is someone born in 1990?", "Someone born in 1990 turns 34 in 2024: 33 until their birthday this year."),
    ("What year was it 20 years ago?", "20 years ago, it was 2004."),
    ("What year will it be in 15 years?", "In 15 years, it will be 2039."),
    ("How many days between March 1 and June 1?", "There are 92 days between March 1 and June 1."),
    ("How many days between December 20 and January 5?", "There are 16 days between December 20 and January 5."),
    ("What day of the week was July 4th, 1776?", "July 4, 1776 was a Thursday."),
    ("What week of the year is it?", "It's week 10 of 2024."),
    ("What day of the year is it?", "Today is day 65 of 2024."),
    ("How many days until the weekend?", "There are 4 days until the weekend."),
    ("How many days until Friday?", "There are 3 days until Friday."),
    ("How many days until Tuesday?", "There are 7 days until Tuesday."),
    ("How many days until Wednesday?", "Wednesday is tomorrow."),
])
def test_times_and_dates_from_now(english_skills, question, answer):
    found = english_skills.match(question, NOW)
    assert found is not None and (found.skill, found.text) == ("clock", answer)


@pytest.mark.parametrize("question", [
    "How long until the end of the world?", "How old is the universe?", "What time does the sun set?",
    "What year was the Titanic built?", "How long until we get there?", "What was the date of the moon landing?",
    "How many days between the two meetings?", "What day was February 30?", "What time was it when you started?",
    "How old am I?",
])
def test_look_alikes_stay_the_models(english_skills, question):
    found = english_skills.match(question, NOW)
    assert found is None or found.skill != "clock", found


@pytest.mark.parametrize("said, seconds", [("2 hours", 7200), ("2 and a half hours", 9000), ("an hour and a half", 5400),
                                           ("half an hour", 1800), ("1 hour and 30 minutes", 5400), ("90 minutes", 5400)])
def test_lengths_of_time_as_said(said, seconds):
    assert duration_s(said) == seconds


@pytest.mark.parametrize("question, answer", [
    ("세 시간 뒤에 몇 시야", "세 시간 뒤에는 오후 여섯 시 칠 분이에요."),
    ("열 시간 뒤에는 몇 시야", "열 시간 뒤에는 내일 오전 한 시 칠 분이에요."),
    ("삼십 분 후에 몇 시예요", "삼십 분 뒤에는 오후 세 시 삼십칠 분이에요."),
    ("금요일까지 며칠 남았어", "금요일까지 삼 일 남았어요."),
    ("주말까지 며칠 남았어요", "주말까지 사 일 남았어요."),
    ("수요일까지 며칠 남았어", "내일이 수요일이에요."),
])
def test_in_korean_too(english_skills, question, answer):
    found = english_skills.match(question, NOW)
    assert found is not None and (found.skill, found.text) == ("clock", answer)
