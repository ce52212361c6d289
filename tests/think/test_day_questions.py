"""A day asked about in any tense ("What day was it yesterday?", "What day will it be tomorrow?"), yes or no
about the day ("Is today Friday?", "Is tomorrow a weekday?", "Is it the weekend yet?"), days to a date said
("How many days until the first of April?") or back from today ("What was the date a week ago?", "What day was
last Monday?"); in Korean too ("내일 토요일이야?", "사흘 뒤는 며칠이야?"). Look-alikes are the model's."""

from __future__ import annotations

from datetime import datetime

import pytest

from assistant.think.skills import SkillContext

NOW = SkillContext(now=datetime(2026, 12, 6, 15, 7).astimezone())  # a Sunday


@pytest.mark.parametrize("question, answer", [
    ("What day was it yesterday?", "Yesterday was Saturday, December 5, 2026."),
    ("What day will it be tomorrow?", "Tomorrow is Monday, December 7, 2026."),
    ("What will the date be the day after tomorrow?", "The day after tomorrow is Tuesday, December 8, 2026."),
    ("Which day of the week was it yesterday?", "Yesterday was Saturday."),
    ("Is today Sunday?", "Yes, today is Sunday."),
    ("Is tomorrow Friday?", "No, tomorrow is Monday."),
    ("Was yesterday a Saturday?", "Yes, yesterday was Saturday."),
    ("Is tomorrow a weekday?", "Yes, tomorrow is Monday."),
    ("Is it the weekend yet?", "Yes, today is Sunday."),
    ("Is it a weekday today?", "No, today is Sunday."),
    ("Are we in the weekend?", "Yes, today is Sunday."),
    ("What was the date a week ago?", "A week ago, it was Sunday, November 29."),
    ("What day of the week was it 3 days ago?", "3 days ago, it was Thursday, December 3."),
    ("What day is it in three days?", "In 3 days, it will be Wednesday, December 9."),
    ("What's the date in a week?", "In a week, it will be Sunday, December 13."),
    ("What day was last Friday?", "Last Friday was December 4."),
    ("What was the date last Sunday?", "Last Sunday was November 29."),
    ("How many days until the first of April?", "There are 116 days until April 1, 2027."),
    ("How many days is it until June the 10th?", "There are 186 days until June 10, 2027."),
    ("How many days until my birthday on March 3rd?", "There are 87 days until March 3, 2027."),
    ("How long until December 25?", "There are 19 days until December 25."),
    ("How many days until December 7th?", "December 7 is tomorrow."),
])
def test_days_asked_in_any_tense(english_skills, question, answer):
    reply = english_skills.match(question, NOW)
    assert reply is not None and reply.text == answer, (question, reply)


@pytest.mark.parametrize("question", [
    "Is tomorrow going to be sunny?", "Is today a good day to buy a car?",
    "Was yesterday a good day for you?", "What day do you recommend for a picnic?", "How many days until my birthday?",
    "How many days does it take to learn Spanish?", "What happened yesterday in the news?",
])
def test_look_alikes_are_the_models(english_skills, question):
    assert english_skills.match(question, NOW) is None


@pytest.mark.parametrize("question, answer", [
    ("오늘 일요일이야?", "네, 오늘은 일요일이에요."),
    ("내일 토요일이에요?", "아니요, 내일은 월요일이에요."),
    ("어제 토요일이었어?", "네, 어제는 토요일이었어요."),
    ("지금 주말이에요?", "네, 오늘은 일요일이에요."),
    ("내일 평일이야?", "네, 내일은 월요일이에요."),
    ("사흘 뒤는 며칠이야?", "삼 일 뒤는 십이월 구일 수요일이에요."),
    ("일주일 전은 무슨 요일이었어?", "칠 일 전은 일요일이었어요."),
    ("10일 후는 며칠이에요?", "십 일 뒤는 십이월 십육일 수요일이에요."),
])
def test_korean_days(english_skills, question, answer):
    reply = english_skills.match(question, NOW)
    assert reply is not None and (reply.skill, reply.text) == ("clock", answer), (question, reply)


@pytest.mark.parametrize("question", ["오늘 피곤해요", "내일 비 와요?", "주말에 뭐 해?", "사흘 뒤에 만나요"])
def test_korean_look_alikes_are_not_the_clocks(english_skills, question):
    reply = english_skills.match(question, NOW)
    assert reply is None or reply.skill != "clock", (question, reply)


@pytest.mark.parametrize("question, answer", [
    ("자정까지 얼마나 남았어?", "자정까지 여덟 시간 오십삼 분 남았어요."),
    ("정오까지 몇 시간 남았어요?", "정오까지 스무 시간 오십삼 분 남았어요."),
    ("다섯 시까지 얼마나 남았어?", "오후 다섯 시까지 한 시간 오십삼 분 남았어요."),
    ("올해 며칠 남았어?", "올해는 이십오 일 남았어요."),
])
def test_korean_time_left(english_skills, question, answer):
    reply = english_skills.match(question, NOW)
    assert reply is not None and reply.text == answer, (question, reply)


@pytest.mark.parametrize("locale, today, answer", [
    ("en_US", 10, "There are 2 days until the weekend."),  # Thursday: Saturday and Sunday
    ("en_IL", 10, "The weekend is tomorrow."),  # Thursday: Friday and Saturday
    ("en_IL", 12, "It's the weekend!"),  # Saturday
    ("en_IN", 12, "The weekend is tomorrow."),  # Saturday: Sunday alone
])
def test_the_weekend_counted_down_to_is_the_locales(locale, today, answer):
    """"How many days until the weekend?" and "Is it the weekend yet?" agree: the locale's weekend (CLDR's)."""
    from assistant.config import SkillsConfig
    from assistant.think.skills import Skills

    skills = Skills(SkillsConfig(locale=locale))
    try:
        moment = SkillContext(now=datetime(2026, 12, today, 10, 0).astimezone())
        assert skills.match("How many days until the weekend?", moment).text == answer
        weekend = answer == "It's the weekend!"
        assert skills.match("Is it the weekend yet?", moment).text.startswith("Yes" if weekend else "No")
    finally:
        skills.close()
