"""A fun fact when asked for one, in English and Korean: told in turn, one about what the request names where a
fact is about it, the model's where none is; questions about facts stay the model's."""

from __future__ import annotations

import pytest

from assistant.think.skills import SkillContext
from assistant.think.skills.facts import Facts, facts

NOW = SkillContext()
ENGLISH = [fact.text for fact in facts()["en"]]
KOREAN = [fact.text for fact in facts()["ko"]]


def tell(told: Facts, question: str) -> str:
    reply = told.match(question, NOW)
    assert reply is not None and reply.skill == "facts", question
    reply.effect()
    return reply.text


def test_facts_are_told_in_turn_and_come_round_again():
    told = Facts()
    said = [tell(told, "Tell me a fun fact.") for _ in range(len(ENGLISH) + 1)]
    assert said[:-1] == ENGLISH and said[-1] == ENGLISH[0]
    assert [tell(told, "재미있는 사실 알려 줘") for _ in range(2)] == KOREAN[:2]


def test_a_fact_read_twice_before_it_is_told_is_the_same_fact():
    told = Facts()
    first, again = told.match("Tell me a fun fact.", NOW), told.match("Tell me a fun fact.", NOW)
    assert first.text == again.text == ENGLISH[0]
    first.effect()
    again.effect()
    assert told.match("Another fun fact.", NOW).text == ENGLISH[1]


@pytest.mark.parametrize(("question", "about"), [
    ("Tell me a fun fact about the moon.", "moon"), ("Do you know any facts about the sun?", "sun"),
    ("Tell me an interesting fact about animals.", "animal"), ("Give me a fact about space, please.", "space"),
    ("Tell me something interesting about the ocean.", "ocean"), ("Tell me a fun fact about butterflies.", None),
    ("동물에 대한 재미있는 사실 알려 줘", "동물"), ("우주에 관한 신기한 사실 알려 주세요", "우주"), ("공룡에 대한 재미있는 사실 알려 줘", None),
])
def test_a_fact_about_what_was_named_or_none(question, about):
    """Each fact of a topic in turn; a topic no fact is about is the model's (it may know; a wrong fact is not
    made less wrong by coming from a skill)."""
    told = Facts()
    if about is None:
        assert told.match(question, NOW) is None
        return
    language = "ko" if about[0] >= "가" else "en"
    expected = [fact.text for fact in facts()[language] if about in fact.about]
    assert len(expected) >= 2
    assert [tell(told, question) for _ in expected] == expected


def test_every_fact_is_about_something_and_said_in_its_language():
    for language, told in facts().items():
        for fact in told:
            assert fact.about and fact.text.endswith((".", "?", "!")), fact
            assert any("가" <= c <= "힣" for c in fact.text) == (language == "ko"), fact


@pytest.mark.parametrize("question", [
    "Tell me a fun fact.", "Give me a random fact.", "Do you know any interesting facts?", "Got any fun facts?",
    "Tell me something I don't know.", "Teach me something new.", "Share a fun fact with me.",
    "I'd like to hear an interesting fact.", "Could you tell me a cool fact, please?", "Say something interesting.",
    "Fun fact.", "I want to learn something new.",
    "재미있는 사실 하나 알려 줘", "신기한 상식 말해 주세요", "뭐 재밌는 거 알려 줘", "재미있는 사실 있어?",
])
def test_asked_for_a_fact(english_skills, question):
    from assistant.pipeline.at_once import AtOnce

    found = AtOnce(english_skills, None).find(question, 1)  # as the engine asks: a request in a frame too
    assert found is not None and found.skill == "facts" and found.text in ENGLISH + KOREAN, found


@pytest.mark.parametrize("question", [
    "Is it a fact that the earth is round?", "What is a fact?", "Tell me about the moon.", "Tell me a story.",
    "What are some facts about World War Two?", "What is a fun thing to do in Paris?", "Tell me a joke.",
    "Tell me something.", "Tell me a fun fact abut the moon.", "사실 오늘 좀 피곤해", "그게 사실이야?", "얘기 좀 해 줘", "재미있는 이야기 해 주세요",
])
def test_questions_about_facts_stay_the_models(english_skills, question):
    """"Tell me a fun fact abut the moon": a word misheard is no fact about something else (taken only as said)."""
    found = english_skills.match(question)
    assert found is None or found.skill != "facts", found


def test_another_one_after_a_fact_or_a_joke_is_the_next():
    """"Another one." after a fun fact is the next fact (of the same topic), after a joke the next joke, "하나 더"
    after a Korean one the next Korean one; after anything else it is the model's (it went there after all)."""
    from assistant.config import SkillsConfig
    from assistant.pipeline.at_once import AtOnce
    from assistant.think.skills import Skills
    from assistant.think.skills.jokes import JOKES

    skills = Skills(SkillsConfig(locale="en_US"))  # its own: what was told before moves the lists on
    at_once = AtOnce(skills, None)
    turns = iter(range(1, 100))

    def said(text: str) -> str | None:
        found = at_once.find(text, next(turns))
        if found is not None and found.effect is not None:
            found.effect()
        return None if found is None else found.text

    moon = [fact.text for fact in facts()["en"] if "moon" in fact.about]
    assert [said("Tell me a fun fact about the moon."), said("Another one!")] == moon[:2]
    assert said("One more, please.") == moon[0]  # round again: the moon's facts are two
    assert said("What time is it?") is not None and said("Another one.") is None
    first, second = said("재미있는 사실 알려 줘"), said("하나 더")
    assert [first, second] == KOREAN[:2]
    assert [said("Tell me a joke."), said("Another.")] == list(JOKES[:2])
    skills.close()
