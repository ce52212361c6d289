"""Days and dates worked out from today, in English and Korean: holidays counted down to and placed in
the week, Easter, the year's days left, leap years, a date some days on; look-alikes left to the model."""

from __future__ import annotations

from datetime import datetime

import pytest

from assistant.think.skills import SkillContext

NOW = SkillContext(now=datetime(2026, 12, 6, 15, 7).astimezone())  # a Sunday


@pytest.mark.parametrize("question, answer", [
    ("How many days until Christmas?", "There are 19 days until Christmas."),
    ("How many days is it until New Year's?", "There are 26 days until New Year's Day."),
    ("How many sleeps till Christmas Eve?", "There are 18 days until Christmas Eve."),
    ("How many weeks until Halloween?", "Halloween is 47 weeks away."),
    ("How many weeks until Valentine's Day?", "Valentine's Day is 10 weeks away."),
    ("How many weeks until New Year's Eve?", "New Year's Eve is 3 weeks and 4 days away."),
    ("What day is Christmas this year?", "Christmas is on Friday, December 25."),
    ("What day of the week is New Year's Day?", "New Year's Day is on Friday, January 1, 2027."),
    ("When is Easter?", "Easter is on Sunday, March 28, 2027."),  # this year's has passed: next year's, said so
    ("When is Thanksgiving next year?", "Thanksgiving is on Thursday, November 25, 2027."),
    ("When is Thanksgiving this year?",
     "Thanksgiving was on Thursday, November 26. Next year, it's on Thursday, November 25, 2027."),
    ("How many days are left in the year?", "There are 25 days left in the year."),
    ("Is it a leap year?", "No, 2026 is not a leap year. The next one is 2028."),
    ("Is 2024 a leap year?", "Yes, 2024 is a leap year."),
    ("What's the date in three days?", "In 3 days, it will be Wednesday, December 9."),
    ("What day will it be in two weeks?", "In 2 weeks, it will be Sunday, December 20."),
    ("What's the date next Friday?", "Next Friday is December 11."),
])
def test_days_and_dates(english_skills, question, answer):
    reply = english_skills.match(question, NOW)
    assert (reply.skill, reply.text) == ("calendar", answer)


@pytest.mark.parametrize("question", [
    "How many days until my birthday?", "When is the next train?", "What day is it?",
    "How many days until the weekend?", "When is lunch?", "What is Easter?",
])
def test_days_it_does_not_know_are_not_its_own(english_skills, question):
    reply = english_skills.match(question, NOW)
    assert reply is None or reply.skill != "calendar"


@pytest.mark.parametrize("question, answer", [
    ("크리스마스까지 며칠 남았어?", "크리스마스까지 십구 일 남았어요."),
    ("크리스마스는 무슨 요일이야?", "크리스마스는 십이월 이십오일 금요일이에요."),
    ("한글날은 언제야?", "한글날은 내년 시월 구일 토요일이에요."),
    ("내년 크리스마스는 무슨 요일이야?", "크리스마스는 내년 십이월 이십오일 토요일이에요."),
    ("올해는 윤년이야?", "아니요, 올해는 윤년이 아니에요."),
])
def test_days_and_dates_in_korean(english_skills, question, answer):
    reply = english_skills.match(question, NOW)
    assert (reply.skill, reply.text) == ("calendar", answer)


@pytest.mark.parametrize("question", ["생일까지 며칠 남았어?", "크리스마스에 뭐 해?", "방학까지 며칠 남았어?"])
def test_korean_days_it_does_not_know_are_the_models(english_skills, question):
    reply = english_skills.match(question, NOW)
    assert reply is None or reply.skill != "calendar"
