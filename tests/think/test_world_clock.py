"""The time in another place, from the zone database: English and Korean, cities and countries, a country
of several zones asked which city, and places not known left to the model."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from assistant.think.skills import SkillContext

NOW = SkillContext(now=datetime(2024, 3, 5, 15, 7, tzinfo=timezone.utc))  # a Tuesday, before any DST change


@pytest.mark.parametrize("question, answer", [
    ("What time is it in Tokyo?", "In Tokyo, it's 12:07 AM on Wednesday."),
    ("Is it night in Tokyo right now?", "In Tokyo, it's 12:07 AM on Wednesday."),  # (the time there answers it)
    ("What's the time in London right now?", "In London, it's 3:07 PM."),
    ("Time in New York.", "In New York, it's 10:07 AM."),
    ("What time is it in Japan?", "In Japan, it's 12:07 AM on Wednesday."),
    ("What time is it in Beijing?", "In Beijing, it's 11:07 PM."),
    ("Can you tell me the time in Los Angeles?", "In Los Angeles, it's 7:07 AM."),
    ("What time is it in the UK?", "In the UK, it's 3:07 PM."),
    ("What time is it in the United States?", "The United States has several time zones. Which city?"),
])
def test_the_time_elsewhere(english_skills, question, answer):
    reply = english_skills.match(question, NOW)
    assert (reply.skill, reply.text) == ("clock", answer)


@pytest.mark.parametrize("question, answer", [
    ("What's the time difference between London and New York?", "London is 5 hours ahead of New York."),
    ("What is the time difference between Los Angeles and Tokyo?", "Los Angeles is 17 hours behind Tokyo."),
    ("Time difference with India.", "India is 5 and a half hours ahead of here."),  # (here: NOW's zone, UTC)
    ("How many hours ahead is Tokyo?", "Tokyo is 9 hours ahead of here."),
    ("What's the time difference between Tokyo and Seoul?", "Tokyo keeps the same time as Seoul."),
    ("What's the time difference between Kathmandu and London?", "Kathmandu is 5 hours and 45 minutes ahead of London."),
])
def test_the_hours_between_two_places(english_skills, question, answer):
    """(The model was asked: "What's the time difference between London and New York?" went to it.)"""
    reply = english_skills.match(question, NOW)
    assert (reply.skill, reply.text) == ("clock", answer)


@pytest.mark.parametrize("question", ["What's the time difference between Paris and Narnia?",
                                      "What is the time difference between the US and the UK?"])  # (several zones)
def test_hours_between_a_place_not_known_or_of_several_zones_are_the_models(english_skills, question):
    assert english_skills.match(question, NOW) is None


@pytest.mark.parametrize("question", ["What time is it in Atlantis?", "What time is it in the morning?",
                                      "What time is it in your opinion?", "What time does it open in Paris?"])
def test_a_place_not_known_is_the_models(english_skills, question):
    assert english_skills.match(question, NOW) is None


@pytest.mark.parametrize("question, answer", [
    ("도쿄는 지금 몇 시야?", "도쿄는 지금 수요일 오전 열두 시 칠 분이에요."),
    ("뉴욕 시간 알려 줘", "뉴욕은 지금 오전 열 시 칠 분이에요."),
    ("런던은 지금 몇 시예요?", "런던은 지금 오후 세 시 칠 분이에요."),
    ("지금 도쿄는 몇 시야?", "도쿄는 지금 수요일 오전 열두 시 칠 분이에요."),  # "now" first: it went to the model
    ("현재 런던은 몇 시예요?", "런던은 지금 오후 세 시 칠 분이에요."),
    ("미국은 지금 몇 시야?", "미국은 시간대가 여러 개예요. 어느 도시요?"),
    ("지금 몇 시야?", None),  # here: the Korean clock's
    ("지금은 몇 시야?", None),
])
def test_the_time_elsewhere_in_korean(english_skills, question, answer):
    from assistant.think.skills import world_clock

    assert world_clock.korean(question, NOW.now) == answer
