"""The sun and the moon (the sky skill): sunrise, sunset, dusk, the day's length, where the user is or in a place
said, the polar night; the moon's phase and the next full or new moon; Korean; and what it leaves to the model."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from assistant.config import SkillsConfig
from assistant.think.skills import SkillContext, Skills
from assistant.think.skills.sky import UNKNOWN_PLACE, coordinates, moon_phase, next_phase

LONDON = ZoneInfo("Europe/London")
NOON = SkillContext(now=datetime(2026, 12, 7, 12, 0, tzinfo=LONDON))  # a Monday
"""London's almanac that day: sunrise 07:52, sunset 15:52 (civil dusk 16:32); at noon the sunrise is past. (astral
is within a minute of the almanacs: Saturday's sunrise 07:58 there, 7:57 here.)"""


@pytest.fixture
def sky_skills(english_skills):
    """The skills with the user in London (the machine's own zone is not the test's)."""
    sky = english_skills.get("sky")
    kept, sky.here = sky.here, "Europe/London"
    yield english_skills
    sky.here = kept


@pytest.mark.parametrize("question, answer", [
    ("When is sunset?", "In London, the sun sets at 3:52 PM today."),
    ("What time does the sun go down tomorrow?", "In London, the sun sets at 3:52 PM tomorrow."),
    ("What time did the sun rise today?", "In London, the sun rose at 7:52 AM today."),
    ("When will the sun come up on Saturday?", "In London, the sun rises at 7:57 AM on Saturday."),
    ("When does it get dark tonight?", "In London, it gets dark at 4:32 PM today, after sunset at 3:52 PM."),
    ("How long is the day today?",
     "In London, the day is 8 hours long today: the sun rises at 7:52 AM and sets at 3:52 PM."),
    ("How many hours of sunlight will we get tomorrow?",
     "In London, the day is 7 hours and 59 minutes long tomorrow: the sun rises at 7:53 AM and sets at 3:52 PM."),
    ("What's the sunset time in Tokyo?", "In Tokyo, the sun set at 4:27 PM today."),  # 9 PM there: past
    ("When is sunrise in Japan tomorrow?", "In Tokyo, the sun rises at 6:38 AM tomorrow."),
    ("When does the sun set in Boston?", "In New York, the sun sets at 4:28 PM today."),  # the zone's city, said
    ("When does the sun rise in Longyearbyen?", "In Longyearbyen, the sun does not rise today."),  # the polar night
    ("What time is sunset in the United States?", "The United States has several time zones. Which city?"),
])
def test_the_sun_where_the_user_is_or_in_a_place_said(sky_skills, question, answer):
    reply = sky_skills.match(question, NOON)
    assert (reply.skill, reply.text) == ("sky", answer)


def test_nowhere_known_says_so_and_how_to_ask(english_skills):
    """A machine on UTC in a country of several zones (en_US): no guess, the way to ask; a place said still works."""
    sky = english_skills.get("sky")
    kept, sky.here = sky.here, None
    try:
        assert english_skills.match("When is sunset?", NOON).text == UNKNOWN_PLACE
        assert english_skills.match("When is sunset in London?", NOON).text == "In London, the sun sets at 3:52 PM today."
    finally:
        sky.here = kept


def test_a_country_of_one_zone_is_where_the_user_is():
    skills = Skills(SkillsConfig(locale="en_GB"))
    try:
        skills.get("sky").here = None
        assert skills.match("When is sunset?", NOON).text == "In London, the sun sets at 15:52 today."
    finally:
        skills.close()


@pytest.mark.parametrize("day, phase", [
    (9, "new moon"), (10, "waxing crescent"), (17, "first quarter"), (20, "waxing gibbous"), (24, "full moon"),
    (26, "waning gibbous"), (30, "last quarter"), (31, "waning crescent"),
])
def test_the_moon_phase_by_the_almanac(day, phase):
    """December 2026: new moon on the 9th, first quarter the 17th, full moon the 24th, last quarter the 30th (UTC)."""
    assert moon_phase(datetime(2026, 12, day).date())[0] == phase


def test_the_next_full_and_new_moon():
    today = datetime(2026, 12, 7).date()
    assert next_phase(today, 14.0).isoformat() == "2026-12-24"
    assert next_phase(today, 0.0).isoformat() == "2026-12-09"
    assert next_phase(datetime(2026, 12, 24).date(), 14.0).isoformat() == "2027-01-22"


@pytest.mark.parametrize("question, answer", [
    ("Is it a full moon tonight?",
     "No, the moon is a waning crescent tonight. The next full moon is on Thursday, December 24."),
    ("When is the next full moon?", "The next full moon is on Thursday, December 24."),
    ("When's the next new moon?", "The next new moon is on Wednesday, December 9."),
    ("What phase is the moon in?", "Tonight the moon is a waning crescent."),
])
def test_the_moon_asked(sky_skills, question, answer):
    reply = sky_skills.match(question, NOON)
    assert (reply.skill, reply.text) == ("sky", answer)


def test_the_full_moon_on_its_night(sky_skills):
    night = SkillContext(now=datetime(2026, 12, 24, 21, 0, tzinfo=LONDON))
    assert sky_skills.match("Is it a full moon tonight?", night).text == "Yes, tonight is the full moon."
    assert sky_skills.match("When is the next full moon?", night).text == "Tonight is the full moon."


@pytest.mark.parametrize("question, answer", [
    ("해 지는 시간 알려 줘", "서울은 오늘 오후 다섯 시 십삼 분에 해가 져요."),
    ("내일 해가 몇 시에 떠?", "서울은 내일 오전 일곱 시 삼십사 분에 해가 떠요."),
    ("어제 일몰 시간", "서울은 어제 오후 다섯 시 십삼 분에 해가 졌어요."),
    ("오늘 낮 길이 알려 줘", "서울은 오늘 낮 길이가 아홉 시간 사십 분이에요. 해는 오전 일곱 시 삼십삼 분에 뜨고 오후 다섯 시 십삼 분에 져요."),
    ("다음 보름달은 언제야?", "다음 보름달은 십이월 이십사일 목요일이에요."),
    ("오늘 밤 보름달이야?", "아니요, 오늘 밤은 그믐달이에요. 다음 보름달은 십이월 이십사일 목요일이에요."),
])
def test_korean_where_no_zone_is_known_is_korea(english_skills, question, answer):
    """A question in Korean on a machine with no zone: Korea's sky (Seoul's), as the holidays are Korea's."""
    sky = english_skills.get("sky")
    kept, sky.here = sky.here, None
    try:
        reply = english_skills.match(question, SkillContext(now=datetime(2026, 12, 7, 12, 0, tzinfo=ZoneInfo("Asia/Seoul"))))
        assert (reply.skill, reply.text) == ("sky", answer)
    finally:
        sky.here = kept


@pytest.mark.parametrize("question", [
    "What is a sunset?", "Why is the sunset red?", "Tell me about the sun.", "How far is the moon?",
    "Is it new?", "Is the moon a planet?", "When did people land on the moon?", "How long is a day on Mars?",
    "What time is it in London?", "When does the movie start?", "달은 왜 밝아?", "해는 뭐야?",
])
def test_look_alikes_are_left_to_others(sky_skills, question):
    reply = sky_skills.match(question, NOON)
    assert reply is None or reply.skill != "sky"


def test_every_zone_city_has_its_place_from_the_zone_database():
    places = coordinates()
    assert len(places) > 300
    latitude, longitude = places["Asia/Seoul"]
    assert (round(latitude, 2), round(longitude, 2)) == (37.55, 126.97)
    latitude, longitude = places["America/New_York"]
    assert (round(latitude, 2), round(longitude, 2)) == (40.71, -74.01)
