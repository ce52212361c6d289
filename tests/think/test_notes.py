"""Lists and things to remember: kept when the turn is committed (the reply's effect), in the place's file beside its
timers or in memory, forgotten with a kiosk's visitor; a note said back only to a question it answers; Korean too;
look-alikes are the model's."""

from __future__ import annotations

import json

import pytest

from assistant.config import SkillsConfig
from assistant.think.skills import SkillContext, SkillSetup, Skills, notes


def tell(skills, text: str) -> str | None:
    reply = skills.match(text, SkillContext())
    if reply is None:
        return None
    if reply.effect:
        reply.effect()
    return reply.text


@pytest.fixture
def skills(tmp_path):
    loaded = Skills(SkillsConfig(locale="en_US"), timers_path=tmp_path / "timers.json")
    yield loaded
    loaded.close()


def test_a_shopping_list(skills):
    assert tell(skills, "What do I need to buy?") == "Your shopping list is empty."
    assert tell(skills, "Add milk to my shopping list.") == "Added milk to your shopping list."
    assert tell(skills, "Can you add butter, cheese and yogurt to the grocery list?") == \
        "Added butter, cheese and yogurt to your shopping list."
    assert tell(skills, "Put milk on my shopping list.") == "Milk is already on your shopping list."
    assert tell(skills, "What's on my shopping list?") == "Your shopping list has milk, butter, cheese and yogurt."
    assert tell(skills, "What do we need to buy?") == "Your shopping list has milk, butter, cheese and yogurt."
    assert tell(skills, "Take cheese off my shopping list.") == "Took cheese off your shopping list."
    assert tell(skills, "Remove bread from my shopping list.") == \
        "Bread isn't on your shopping list. Your shopping list has milk, butter and yogurt."
    assert tell(skills, "Add call the plumber to my to-do list.") == "Added call the plumber to your to-do list."
    assert tell(skills, "Read me my to-do list.") == "Your to-do list has call the plumber."
    assert tell(skills, "Clear my shopping list.") == "Your shopping list is empty now."
    assert tell(skills, "What's on my list?") == "Your to-do list has call the plumber."  # the one with something on it


def test_things_to_remember_and_a_question_they_answer(skills):
    assert tell(skills, "Where did I park my car?") is None  # nothing told: the model's
    assert tell(skills, "Remember that my car is parked on level 3.") == \
        "Okay, I'll remember that your car is parked on level 3."
    assert tell(skills, "Where did I park my car?") == "You told me your car is parked on level 3."
    assert tell(skills, "Where is the nearest car park?").startswith("Sorry, I can't give directions")  # not all its words
    assert tell(skills, "Remember that my passport is in the top drawer.") is not None
    assert tell(skills, "What is my password?") is None  # (not "passport")
    assert tell(skills, "What is a car?") is None  # a question of the world's, not of what was told
    assert tell(skills, "Where is my passport?") == "You told me your passport is in the top drawer."
    assert tell(skills, "What did I ask you to remember?") == \
        "You told me 2 things: your car is parked on level 3; and your passport is in the top drawer."
    assert tell(skills, "Forget everything.") == "Okay, I've forgotten what you told me."
    assert tell(skills, "What do you remember?") == "You haven't asked me to remember anything."


def test_nothing_is_kept_before_the_turn_is_committed(skills):
    reply = skills.match("Add milk to my shopping list.", SkillContext())
    assert reply is not None and reply.effect is not None
    assert tell(skills, "What's on my shopping list?") == "Your shopping list is empty."  # a dropped reply changes nothing


def test_kept_beside_the_timers_and_read_back(tmp_path):
    first = Skills(SkillsConfig(locale="en_US"), timers_path=tmp_path / "timers.json")
    tell(first, "Add eggs to my shopping list.")
    tell(first, "Remember that the key is under the mat.")
    first.close()
    kept = json.loads((tmp_path / notes.FILE).read_text(encoding="utf-8"))
    assert kept == {"lists": {"shopping": ["eggs"]}, "notes": ["the key is under the mat"]}
    again = Skills(SkillsConfig(locale="en_US"), timers_path=tmp_path / "timers.json")
    assert tell(again, "What's on my shopping list?") == "Your shopping list has eggs."
    again.close()


def test_a_broken_file_is_said_and_nothing_is_lost_after(tmp_path, caplog):
    (tmp_path / notes.FILE).write_text("{not json", encoding="utf-8")
    skills = Skills(SkillsConfig(locale="en_US"), timers_path=tmp_path / "timers.json")
    assert "could not read the lists and notes" in caplog.text
    assert (tmp_path / f"{notes.FILE}.bad").read_text(encoding="utf-8") == "{not json"  # kept aside, not lost
    assert tell(skills, "What's on my shopping list?") == "Your shopping list is empty."
    tell(skills, "Add tea to my shopping list.")
    assert json.loads((tmp_path / notes.FILE).read_text(encoding="utf-8"))["lists"] == {"shopping": ["tea"]}
    skills.close()


def test_a_kiosk_visitor_takes_theirs_along():
    skills = Skills(SkillsConfig(locale="en_US"))  # a kiosk's: in memory
    assert notes.notes_path(skills.setup) is None
    tell(skills, "Add milk to my shopping list.")
    tell(skills, "Remember that my son is called Tom.")
    skills.forget_visitor()
    assert tell(skills, "What's on my shopping list?") == "Your shopping list is empty."
    assert tell(skills, "What do you remember?") == "You haven't asked me to remember anything."
    skills.close()


@pytest.mark.parametrize("question", [
    "Do you remember me?", "Remember when we went to the beach?", "What is a shopping list?",
    "How do I make a to-do list?", "Where did I leave my keys?", "I need to remember my password.",
])
def test_look_alikes_are_not_its_own(skills, question):
    reply = skills.match(question, SkillContext())
    assert reply is None or reply.skill != "notes"


def test_in_korean(skills):
    assert tell(skills, "우유 장보기 목록에 추가해 줘") == "장보기 목록에 우유를 넣었어요."
    assert tell(skills, "장보기 목록 읽어 줘") == "장보기 목록에는 우유가 있어요."
    assert tell(skills, "장보기 목록에서 우유 빼 줘") == "장보기 목록에서 우유를 뺐어요."
    assert tell(skills, "장보기 목록 읽어 줘") == "장보기 목록이 비어 있어요."
    assert tell(skills, "차를 지하 이층에 세웠다고 기억해 줘") == "네, 차를 지하 이층에 세웠다고 기억해 둘게요."
    assert tell(skills, "내가 뭐 기억하라고 했지?") == "차를 지하 이층에 세웠다고 하셨어요."
