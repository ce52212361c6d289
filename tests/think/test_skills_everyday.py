"""Everyday forms the skills answer in English: parts and multiples of a number ("half of
84"), prices after a discount ("15 percent off 200"), fixed counts ("how many days are in
a year"); numbers as a recognizer writes them; and the look-alikes left to the LLM."""

from __future__ import annotations

from datetime import datetime

import pytest

from assistant.config import SkillsConfig
from assistant.think.skills import SkillContext, Skills

NOW = SkillContext(now=datetime(2024, 3, 5, 15, 7).astimezone())  # a leap year's March


@pytest.fixture(scope="module")
def skills(tmp_path_factory):
    loaded = Skills(SkillsConfig(locale="en_US", timers_file=str(tmp_path_factory.mktemp("t") / "timers.json")))
    yield loaded
    loaded.close()


def answer(skills: Skills, text: str) -> tuple[str, str] | None:
    reply = skills.match(text, NOW)
    return None if reply is None else (reply.skill, reply.text)


@pytest.mark.parametrize("question, reply", [
    ("What is half of 84?", "Half of 84 is 42."),
    ("what's half of eighty four", "Half of 84 is 42."),
    ("Half of eighty-four.", "Half of 84 is 42."),
    ("What's half 84?", "Half of 84 is 42."),
    ("one half of 9", "Half of 9 is 4.5."),
    ("What's half of a hundred?", "Half of 100 is 50."),
    ("Double 21.", "Double 21 is 42."),
    ("What is twice twenty one?", "Twice 21 is 42."),
    ("triple 15", "Triple 15 is 45."),
    ("What's twice as much as 4?", "Twice 4 is 8."),
    ("21 doubled", "21 doubled is 42."),
    ("What is a third of 90?", "A third of 90 is 30."),
    ("a quarter of 100", "A quarter of 100 is 25."),
    ("What is two thirds of ninety?", "2 thirds of 90 is 60."),
    ("two-thirds of 90", "2 thirds of 90 is 60."),
    ("What's three quarters of 100?", "3 quarters of 100 is 75."),
    ("three fifths of 100", "3 fifths of 100 is 60."),
    ("an eighth of 10", "An eighth of 10 is 1.25."),
    ("What's fifteen percent of two hundred?", "15 percent of 200 is 30."),  # the percent form stays
])
def test_parts_and_multiples(skills, question, reply):
    assert answer(skills, question) == ("arithmetic", reply)


@pytest.mark.parametrize("question, reply", [
    ("What is 15 percent off 200?", "15 percent off 200 is 170."),
    ("15% off $200", "15 percent off 200 dollars is 170 dollars."),  # ("$200": dollars said)
    ("What's fifteen percent off two hundred dollars?", "15 percent off 200 dollars is 170 dollars."),
    ("200 with 15 percent off", "15 percent off 200 is 170."),
    ("What is 200 minus 15 percent?", "15 percent off 200 is 170."),
    ("a 20 percent discount on 49.99", "20 percent off 49.99 is 39.99."),
    ("15 percent discount on 19.99", "15 percent off 19.99 is 16.99."),
    ("What is 80 plus 25 percent?", "80 plus 25 percent is 100."),
])
def test_prices_after_a_discount(skills, question, reply):
    assert answer(skills, question) == ("arithmetic", reply)


@pytest.mark.parametrize("question, reply", [
    ("How many days are in a week?", "There are 7 days in a week."),
    ("How many days are there in a year?", "There are 365 days in a year, 366 in a leap year."),
    ("how many days in a leap year", "There are 366 days in a leap year."),
    ("How many hours are in a day?", "There are 24 hours in a day."),
    ("how many hours in a week", "There are 168 hours in a week."),
    ("How many hours are in a year?", "There are 8760 hours in a year."),
    ("how many minutes in an hour", "There are 60 minutes in an hour."),
    ("How many minutes are in a day?", "There are 1440 minutes in a day."),
    ("how many seconds in a minute", "There are 60 seconds in a minute."),
    ("how many seconds in an hour", "There are 3600 seconds in an hour."),
    ("How many seconds are in a day?", "There are 86400 seconds in a day."),
    ("how many months in a year", "There are 12 months in a year."),
    ("How many weeks are in a year?", "There are 52 weeks in a year, and a day or two over."),
    ("how many days in a month", "A month has 28 to 31 days."),
    ("How many days are in January?", "January has 31 days."),
    ("how many days does april have", "April has 30 days."),
    ("How many days are in February?", "February has 28 days, 29 in a leap year."),
    ("how many days are in the month of september", "September has 30 days."),
    ("How many days are in this month?", "This month has 31 days."),
    ("how many days are in this year", "This year has 366 days."),
    ("How many inches are in a foot?", "There are 12 inches in a foot."),
    ("how many feet in a mile", "There are 5280 feet in a mile."),
    ("how many feet are in a yard", "There are 3 feet in a yard."),
    ("How many centimeters are in a meter?", "There are 100 centimeters in a meter."),
    ("how many meters in a kilometer", "There are 1000 meters in a kilometer."),
    ("How many grams are in a kilogram?", "There are 1000 grams in a kilogram."),
    ("how many ounces in a pound", "There are 16 ounces in a pound."),
    ("how many cups are in a quart", "There are 4 cups in a quart."),
    ("How many quarts are in a gallon?", "There are 4 quarts in a gallon."),
    ("How many eggs are in a dozen?", "There are 12 eggs in a dozen."),
    ("how many donuts in a baker's dozen", "There are 13 donuts in a baker's dozen."),
    ("How many years are in a decade?", "There are 10 years in a decade."),
    ("how many years in a century", "There are 100 years in a century."),
    ("How many sides does a triangle have?", "A triangle has 3 sides."),
    ("how many sides are in a hexagon", "A hexagon has 6 sides."),
    ("How many sides has a square got?", "A square has 4 sides."),
    ("how many corners does an octagon have", "An octagon has 8 corners."),
    ("How many edges does a cube have?", "A cube has 12 edges."),
    ("how many cards are in a deck", "There are 52 cards in a deck, not counting the jokers."),
    ("How many days are in three years?", "There are 1095 days in 3 years."),
])
def test_fixed_counts(skills, question, reply):
    assert answer(skills, question) == ("units", reply)


@pytest.mark.parametrize("question", [
    "Half of the people left.", "What is half of the people?", "Double check this.", "Double check the timer.",
    "How far is a third of the way through the book?", "a third of the way through the book", "twice as good",
    "Is it twice as good?", "half of 84 people", "What is half?", "What is a quarter?", "a quarter past 3",
    "What is double?", "Triple the recipe.", "Double the recipe for 4 people.",
    "What is 15 percent off?", "Is 15 percent off a good deal?", "200 with free shipping",
    "How many people live in Paris?", "How many days until my birthday?", "How many calories are in an egg?",
    "How many calories in a dozen eggs?", "How many sides does a circle have?", "How many days in a row?",
    "How many sides to every story?", "How many players are on a team?", "How many days are left in the school year?",
    "How many legs does a spider have?", "How many weeks pregnant am I?",
])
def test_look_alikes_go_to_the_llm(skills, question):
    assert skills.match(question, NOW) is None, question
