"""What the assistant cannot reach (music, calls, lights, apps, the web, maps, orders, lists and calendars): said
plainly, in English and Korean, never the model's echo of the request as if done; questions about these things,
games, the assistant's own volume and alarms stay where they were."""

from __future__ import annotations

import json

import pytest

from assistant.think.skills.reach import ANSWERS, KOREAN_ANSWERS


@pytest.mark.parametrize("question, kind", [
    ("Play some music.", "music"), ("Play the Beatles.", "music"), ("Put on some music.", "music"),
    ("Turn on the radio.", "music"), ("Stop the music.", "music"), ("Next song.", "music"),
    ("Play a podcast.", "music"),
    ("Call 911.", "emergency"), ("Call an ambulance!", "emergency"), ("Call the police.", "emergency"),
    ("Call my mom.", "calls"), ("Give my brother a call.", "calls"),
    ("Send a message to Anna saying I'll be late.", "calls"), ("Text my wife.", "calls"),
    ("Email my boss.", "calls"), ("Read my emails.", "calls"), ("Do I have any new messages?", "calls"),
    ("Turn on the lights.", "devices"), ("Turn off the kitchen lights.", "devices"),
    ("Turn the lights off.", "devices"), ("Switch on the fan.", "devices"), ("Turn up the heat.", "devices"),
    ("Set the temperature to 22 degrees.", "devices"), ("Unlock the door.", "devices"),
    ("Open the garage door.", "devices"),
    ("Open the browser.", "apps"), ("Open Chrome.", "apps"), ("Launch the calculator app.", "apps"),
    ("Search the web for pasta recipes.", "web"), ("Google the weather in Paris.", "web"),
    ("Navigate to the nearest gas station.", "maps"), ("Directions to the airport.", "maps"),
    ("Take me home.", "maps"), ("Find a pharmacy near me.", "maps"), ("Restaurants near me.", "maps"),
    ("Order a pizza.", "orders"), ("Buy some milk.", "orders"), ("Book a flight to London.", "orders"),
    ("Call me a taxi.", "orders"),
    ("What's on my calendar today?", "lists"), ("Schedule a meeting for Monday.", "lists"),  # (lists and notes: notes)
    ("Schedule a meeting with Tom at three.", "lists"), ("Do I have any appointments tomorrow?", "lists"),
])
def test_what_the_assistant_cannot_do_is_said_plainly(english_skills, question, kind):
    found = english_skills.match(question)
    assert found is not None and (found.skill, found.text) == ("reach", ANSWERS[kind])


@pytest.mark.parametrize("question, kind", [
    ("음악 좀 틀어 줘", "music"), ("라디오 틀어 주세요", "music"), ("다음 곡", "music"),
    ("구급차 불러 줘", "emergency"), ("119 불러 줘", "emergency"), ("엄마에게 전화해 줘", "calls"), ("동생한테 문자 보내 줘", "calls"), ("문자 확인해 줘", "calls"),
    ("불 켜 줘", "devices"), ("안방 불 꺼 줘", "devices"), ("문 잠가 줘", "devices"),
    ("넷플릭스 열어 줘", "apps"), ("맛집 검색해 줘", "web"), ("공항까지 길 안내해 줘", "maps"),
    ("치킨 주문해 줘", "orders"), ("택시 불러 줘", "orders"), ("대리 좀 불러 주세요", "orders"), ("메모해 줘", "lists"), ("내일 일정 알려 줘", "lists"),
])
def test_in_korean_too(english_skills, question, kind):
    found = english_skills.match(question)
    assert found is not None and (found.skill, found.text) == ("reach", KOREAN_ANSWERS[kind])


@pytest.mark.parametrize("question", [
    "How do I play chess?", "Play is important for children.", "Play a game with me.", "Play the piano.",
    "Who made the first car?", "What does call mean?", "How do I turn off my phone?", "Should I buy a new car?",
    "How do you make pizza?", "What's the best way to learn to play the guitar?", "Why do we dream?",
    "How do I get to sleep faster?", "Who sang Yesterday?", "Call me Ishmael.", "Order these numbers by size.",
    "Make a list of five fruits.", "Write a note to my teacher about the trip.",
    "음악은 왜 좋아요", "전화는 언제 발명됐어요", "불은 어떻게 만들어요", "노래를 잘 부르는 방법 알려 줘",
    "김치찌개 만드는 법 알려 줘", "노래 불러 줘", "노래 한 곡 불러 줄래?",  # 부르다 is to sing too: only a ride is called
    "검사합리사", "이십다옥이사",  # misheard readings: a verb's ending is needed after a free slot ("사" alone is no "buy")
])
def test_questions_about_these_things_stay_the_models(english_skills, question):
    found = english_skills.match(question)
    assert found is None or found.skill != "reach", found


@pytest.mark.parametrize("question, skill", [
    ("Turn off the alarm.", "timers"), ("Turn it up.", "actions"), ("Turn the volume down.", "actions"),
    ("Stop.", "actions"), ("Set an alarm for seven.", "timers"),
    ("Play it again.", "actions"), ("Play that back.", "actions"),  # what it just said, again: it plays no music
])
def test_the_assistant_s_own_volume_and_alarms_stay_theirs(english_skills, question, skill):
    found = english_skills.match(question)
    assert found is not None and found.skill == skill, found


@pytest.mark.slow
def test_a_spoken_request_to_play_music_is_turned_down_plainly(speak, tmp_path, capsys):
    """chat --input: Piper asks "Play some music."; the skill says it cannot (the model said "You could play a
    guitar, sing, or just listen to music.")."""
    from assistant.commands.cli import main

    capsys.readouterr()
    assert main(["chat", "--input", str(speak("Play some music.")), "--output", str(tmp_path / "a.wav"),
                 "--json"]) == 0
    turns = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert [(t["source"], t["skill"], t["reply"]) for t in turns] == [("skill", "reach", ANSWERS["music"])], turns
