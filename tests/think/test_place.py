"""What only someone there knows (where the restroom is, when the place closes, the wifi): said plainly, in English and
Korean, never the model's guess; where things of the world are stays the model's; the nearest shop is the maps'; a
kiosk with its own answers leaves the skill out."""

from __future__ import annotations

import json

import pytest

from assistant.config import SkillsConfig
from assistant.think.skills import Skills
from assistant.think.skills.place import ANSWER, KOREAN_ANSWER
from assistant.think.skills.reach import ANSWERS as REACH


@pytest.mark.parametrize("question", [
    "Where is the bathroom?", "Where's the restroom?", "Where is the exit?", "Which floor is the gift shop on?",
    "Is there a cafe here?", "Do you have lockers?", "Where can I find the information desk?",
    "What time do you close?", "What are your opening hours?", "Are you open on Sundays?", "When does this place open?",
    "How much is a ticket?", "Where am I?", "What is this place?", "What's the wifi password?",
])
def test_what_only_someone_there_knows_is_said_plainly(english_skills, question):
    found = english_skills.match(question)
    assert found is not None and (found.skill, found.text) == ("place", ANSWER), found


@pytest.mark.parametrize("question", [
    "Where is the nearest pharmacy?", "Where can I get something to eat around here?", "Is there parking nearby?",
])
def test_the_way_elsewhere_is_the_maps(english_skills, question):
    found = english_skills.match(question)
    assert found is not None and found.text in (REACH["maps"], ANSWER), found


@pytest.mark.parametrize("question", [
    "Where is the Eiffel Tower?", "Where is Mount Everest?", "What time does the sun set?", "Where do penguins live?",
    "Where is the heart in the body?", "What is a pharmacy?", "Where is the nearest star?", "What is an exit poll?",
    "Is there a god?", "Is there life on Mars?", "When does summer start?", "How much is a pound in kilograms?",
    "What is the time tonight?", "Do you have any information?",
    "서울이 어디예요?", "화장실 가고 싶어",
])
def test_where_things_of_the_world_are_stays_elsewhere(english_skills, question):
    found = english_skills.match(question)
    assert found is None or found.skill not in ("place", "reach"), found


@pytest.mark.parametrize("question", ["화장실 어디예요?", "화장실이 어디에 있어요?", "출구 어디야", "몇 시에 문 닫아요?",
                                      "몇 시에 문을 닫아요", "이 건물은 몇 시에 문을 닫아요",
                                      "여기 어디야?", "와이파이 비밀번호 뭐예요?"])
def test_in_korean_too(english_skills, question):
    found = english_skills.match(question)
    assert found is not None and (found.skill, found.text) == ("place", KOREAN_ANSWER), found


def test_a_kiosk_with_its_own_answers_leaves_it_out():
    loaded = Skills(SkillsConfig(locale="en_US", disabled=("place",)))
    try:
        assert loaded.match("Where is the bathroom?") is None  # (its replies.toml answers it)
    finally:
        loaded.close()


@pytest.mark.slow
def test_a_spoken_question_about_the_place_is_answered_plainly(speak, tmp_path, capsys):
    """chat --input: Piper asks "Where is the bathroom?" (the model said "The bathroom is in your home.")."""
    from assistant.commands.cli import main

    capsys.readouterr()
    assert main(["chat", "--input", str(speak("Where is the bathroom?")), "--output", str(tmp_path / "a.wav"),
                 "--json"]) == 0
    turns = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert [(t["source"], t["skill"], t["reply"]) for t in turns] == [("skill", "place", ANSWER)], turns
