"""Public holidays of the locale's country, and Korea's for a question in Korean (the `holidays` package's tables):
whether a day is one, the next one, a named one's date, the lunar calendar's days (추석, 설날); look-alikes are the
model's, and a country the package has no table for leaves them all to the model."""

from __future__ import annotations

from datetime import datetime

import pytest

from assistant.config import SkillsConfig
from assistant.think.skills import SkillContext, SkillSetup, calendar

NOW = SkillContext(now=datetime(2026, 12, 6, 15, 7).astimezone())  # a Sunday
CHRISTMAS_EVE = SkillContext(now=datetime(2026, 12, 24, 9, 0).astimezone())


@pytest.fixture(scope="module")
def us():
    return calendar.create(SkillSetup(SkillsConfig(locale="en_US")))


@pytest.mark.parametrize("question, answer", [
    ("Is tomorrow a holiday?", "No, tomorrow is not a public holiday in the United States. "
                               "The next one is Christmas Day, on Friday, December 25."),
    ("Is it a public holiday today?", "No, today is not a public holiday in the United States. "
                                      "The next one is Christmas Day, on Friday, December 25."),
    ("What's the next holiday?", "The next public holiday in the United States is Christmas Day, on Friday, December 25."),
    ("When is Memorial Day?", "Memorial Day is on Monday, May 31, 2027."),
    ("When is Martin Luther King Day?", "Martin Luther King Jr. Day is on Monday, January 18, 2027."),
    ("When is Juneteenth?", "Juneteenth National Independence Day is on Saturday, June 19, 2027."),
    ("How many days until Labor Day?", "There are 274 days until Labor Day."),
    ("When is Labor Day this year?", "Labor Day was on Monday, September 7. Next year, it's on Monday, September 6, 2027."),
    ("When is Christmas?", "Christmas is on Friday, December 25."),  # the calendar's own list first
])
def test_public_holidays_in_english(us, question, answer):
    reply = us.match(question, NOW)
    assert reply is not None and reply.text == answer, (question, reply)


def test_a_holiday_is_said_by_its_name(us):
    assert us.match("Is tomorrow a holiday?", CHRISTMAS_EVE).text == "Yes, tomorrow is Christmas Day."
    assert us.match("What holiday is it tomorrow?", CHRISTMAS_EVE).text == "Tomorrow is Christmas Day."
    observed = SkillContext(now=datetime(2026, 7, 2, 9, 0).astimezone())  # July 4, 2026 is a Saturday
    assert us.match("Is tomorrow a holiday?", observed).text == "Yes, tomorrow is the day off for Independence Day."


@pytest.mark.parametrize("question, answer", [
    ("When is Presidents' Day?", "Washington's Birthday is on Monday, February 15, 2027."),
    ("How many days until MLK Day?", "There are 43 days until Martin Luther King Jr. Day."),  # January 18
    ("석가탄신일은 언제야?", "부처님오신날은 내년 오월 십삼일 목요일이에요."),
    ("구정은 언제야?", "설날은 내년 이월 칠일 일요일이에요."),
])
def test_a_holiday_called_by_another_name(us, question, answer):
    """The names people use where the law's is another (the answer says the table's, so it is plain which day)."""
    assert us.match(question, NOW).text == answer


@pytest.mark.parametrize("question", [
    "What is a holiday?", "Where should I go on holiday?", "When does the holiday season start?",
    "How was your holiday?", "When is the next train?", "When is my birthday?",
])
def test_look_alikes_are_the_models(us, question):
    assert us.match(question, NOW) is None


@pytest.mark.parametrize("question, answer", [
    ("추석은 언제야?", "추석은 내년 구월 십오일 수요일이에요."),
    ("설날까지 며칠 남았어?", "설날까지 육십삼 일 남았어요."),
    ("부처님 오신 날은 언제야?", "부처님오신날은 내년 오월 십삼일 목요일이에요."),
    ("내일 공휴일이야?", "아니요, 내일은 공휴일이 아니에요. 다음 공휴일은 십이월 이십오일 금요일, 기독탄신일이에요."),
    ("다음 공휴일은 언제예요?", "다음 공휴일은 십이월 이십오일 금요일, 기독탄신일이에요."),
    ("크리스마스는 무슨 요일이야?", "크리스마스는 십이월 이십오일 금요일이에요."),  # the calendar's own list first
])
def test_public_holidays_in_korean(us, question, answer):
    reply = us.match(question, NOW)
    assert reply is not None and reply.text == answer, (question, reply)


@pytest.mark.parametrize("question", ["휴일에 뭐 해?", "공휴일이 뭐야?", "방학은 언제야?"])
def test_korean_look_alikes_are_the_models(us, question):
    assert us.match(question, NOW) is None


def test_a_country_with_no_table_leaves_it_to_the_model():
    nowhere = calendar.create(SkillSetup(SkillsConfig(locale="en_001")))  # English of the world: no country
    assert nowhere.match("Is tomorrow a holiday?", NOW) is None
    assert nowhere.match("When is Memorial Day?", NOW) is None
    assert nowhere.match("When is Christmas?", NOW).text == "Christmas is on Friday, December 25."
