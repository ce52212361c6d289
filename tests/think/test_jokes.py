"""A joke when asked for one, told in turn, in English and Korean: the next one only once a joke was told (a
reading at a pause and the endpoint's tell the same); questions about jokes stay the model's."""

from __future__ import annotations

import pytest

from assistant.think.skills import SkillContext
from assistant.think.skills.jokes import JOKES, KOREAN_JOKES, Jokes

NOW = SkillContext()


def tell(jokes: Jokes, question: str) -> str:
    reply = jokes.match(question, NOW)
    assert reply is not None and reply.skill == "jokes", question
    reply.effect()
    return reply.text


def test_jokes_are_told_in_turn_and_come_round_again():
    jokes = Jokes()
    told = [tell(jokes, "Tell me a joke.") for _ in range(len(JOKES) + 1)]
    assert told[:-1] == list(JOKES) and told[-1] == JOKES[0]
    assert [tell(jokes, "농담 해 줘") for _ in range(2)] == list(KOREAN_JOKES[:2])


def test_a_joke_read_twice_before_it_is_told_is_the_same_joke():
    """The words read at a pause and again at the endpoint: one joke; a dropped reading skips none."""
    jokes = Jokes()
    first, again = jokes.match("Tell me a joke.", NOW), jokes.match("Tell me a joke.", NOW)
    assert first.text == again.text == JOKES[0]
    first.effect()
    again.effect()
    assert jokes.match("Another joke.", NOW).text == JOKES[1]


@pytest.mark.parametrize("question", [
    "Tell me a joke.", "Tell me another joke.", "Do you know any jokes?", "Tell me something funny.",
    "Make me laugh.", "Got any jokes?", "I want to hear a joke.", "Say a pun.",
    "농담 하나 해 줘", "웃긴 이야기 해 주세요", "웃겨 줘", "아재개그 해 줘",
    "Tell me a riddle.", "Do you know any riddles?", "수수께끼 내 줘", "넌센스 퀴즈 하나 내 줘",  # (each joke is one)
])
def test_asked_for_a_joke(english_skills, question):
    found = english_skills.match(question)
    assert found is not None and found.skill == "jokes" and found.text in JOKES + KOREAN_JOKES


@pytest.mark.parametrize("question", [
    "What is a good joke for a wedding speech?", "Why do people laugh?", "What is a joke?", "Is this a joke?",
    "Who is the funniest comedian?", "재미있는 이야기 해 주세요", "농담이 뭐예요?", "What is a riddle?",
    "Why do people like riddles?",
])
def test_questions_about_jokes_stay_the_models(english_skills, question):
    found = english_skills.match(question)
    assert found is None or found.skill != "jokes", found
