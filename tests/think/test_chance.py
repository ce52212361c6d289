"""Chance really drawn: a coin, dice, a number in a range, in English and Korean, each outcome in its
range and every outcome reached; look-alikes left to the model."""

from __future__ import annotations

import itertools
import random

import pytest

from assistant.think.skills import SkillContext
from assistant.think.skills.chance import Chance

NOW = SkillContext()


@pytest.fixture
def chance():
    """Each ask later than the one before by more than a draw is held (a new request each time)."""
    return Chance(random.Random(7), clock=itertools.count(step=10).__next__)


def outcomes(chance: Chance, question: str, times: int = 200) -> set[str]:
    return {chance.match(question, NOW).text for _ in range(times)}


def test_a_coin_lands_both_ways(chance):
    assert outcomes(chance, "Flip a coin.") == {"Heads.", "Tails."}
    assert outcomes(chance, "Heads or tails?") == {"Heads.", "Tails."}
    assert outcomes(chance, "동전 던져 줘") == {"앞면이에요.", "뒷면이에요."}


def test_a_die_rolls_one_to_six(chance):
    assert outcomes(chance, "Roll a die.") == {f"You rolled a {n}." for n in range(1, 7)}
    two = outcomes(chance, "Roll two dice.", 400)
    assert all(t.startswith("You rolled ") and t.endswith(" in all.") for t in two)
    assert {int(t.split(": ")[1].split()[0]) for t in two} == set(range(2, 13))
    assert outcomes(chance, "주사위 굴려 줘") == {"일이 나왔어요.", "이가 나왔어요.", "삼이 나왔어요.", "사가 나왔어요.",
                                                "오가 나왔어요.", "육이 나왔어요."}


def test_a_number_in_the_range_asked(chance):
    picked = outcomes(chance, "Pick a number between one and ten.", 400)
    assert picked == {f"I picked {n}." for n in range(1, 11)}
    assert outcomes(chance, "1부터 3까지 숫자 하나 골라 줘") == {"일이에요.", "이예요.", "삼이에요."}


def test_several_coins_and_a_card(chance):
    three = outcomes(chance, "Flip three coins.", 300)
    assert len(three) == 8 and all(len(t.rstrip(".").replace(" and ", ", ").split(", ")) == 3 for t in three)
    assert outcomes(chance, "Toss a coin twice.") == {"Heads and heads.", "Heads and tails.", "Tails and heads.",
                                                      "Tails and tails."}
    assert outcomes(chance, "동전 두 개 던져 줘") == {"앞면, 앞면이에요.", "앞면, 뒷면이에요.", "뒷면, 앞면이에요.", "뒷면, 뒷면이에요."}
    dice = outcomes(chance, "주사위 두 개 굴려 줘", 400)
    assert len(dice) == 36 and all(", 합해서 " in t for t in dice)  # every ordered pair, and the sum said
    assert outcomes(chance, "Roll a 20 sided die.", 600) == {f"You rolled a {n}." for n in range(1, 21)}
    cards = outcomes(chance, "Pick a card, any card.", 2000)
    assert len(cards) == 52 and "The queen of hearts." in cards  # (the model: "I'm not sure what card you mean.")


@pytest.mark.parametrize("question", ["What is a coin flip?", "How do dice work?", "Pick a number.",
                                      "Roll the window down.", "Pick a number between 5 and 5.",
                                      "What is the card game called poker?", "Flip 100 coins."])
def test_look_alikes_are_the_models(chance, question):
    assert chance.match(question, NOW) is None


def test_one_request_one_draw():
    """The words read at a pause and again at the endpoint, or guessed several ways, get the same draw."""
    now = [0.0]
    chance = Chance(random.Random(3), clock=lambda: now[0])
    rolls = set()
    for _ in range(50):
        first = chance.match("Roll a die.", NOW).text
        now[0] += 1.0
        assert chance.match("Roll the die.", NOW).text == first
        now[0] += 1.0
        assert chance.match("roll 1 die", NOW).text == first
        now[0] += 10.0
        rolls.add(first)
    assert len(rolls) == 6  # asked again later: drawn again


def test_a_draw_with_a_misheard_article_is_guessed(english_skills):
    """ "Flip at coin." (eSpeak NG en-gb+m3's "Flip a coin." as Whisper read it) has one meaning however its
    "at" is read back: a coin."""
    assert english_skills.match("Flip at coin.", NOW).text in ("Heads.", "Tails.")
