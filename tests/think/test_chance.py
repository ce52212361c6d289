"""Chance really drawn: a coin, dice, a number in a range, in English and Korean, each outcome in its
range and every outcome reached; look-alikes left to the model."""

from __future__ import annotations

import random

import pytest

from assistant.think.skills import SkillContext
from assistant.think.skills.chance import Chance

NOW = SkillContext()


@pytest.fixture
def chance():
    return Chance(random.Random(7))


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


@pytest.mark.parametrize("question", ["What is a coin flip?", "How do dice work?", "Pick a number.",
                                      "Roll the window down.", "Pick a number between 5 and 5."])
def test_look_alikes_are_the_models(chance, question):
    assert chance.match(question, NOW) is None
