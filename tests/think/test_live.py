"""What only the internet knows (the weather, the news, exchange rates): said plainly, in English and Korean, never the
model's guess; how weather works, and look-alikes, stay the model's."""

from __future__ import annotations

import json

import pytest

from assistant.think.skills.live import ANSWERS, KOREAN_ANSWERS



@pytest.mark.parametrize("question, kind", [
    ("What's the weather like tomorrow?", "weather"), ("Will it rain today?", "weather"), ("What's the weather?", "weather"),
    ("What is the weather like in Paris?", "weather"), ("What's the weather going to be like this weekend?", "weather"),
    ("Is it going to snow tomorrow?", "weather"), ("Is it raining outside?", "weather"),
    ("Do I need an umbrella today?", "weather"), ("How cold is it outside?", "weather"),
    ("Tell me the weather forecast for tomorrow.", "weather"), ("Will it be sunny tomorrow in Seoul?", "weather"),
    ("What's the news?", "news"), ("What are the latest headlines?", "news"), ("What's in the news today?", "news"),
    ("Convert ten dollars to euros.", "money"), ("How much is a dollar in yen?", "money"),
    ("What's the exchange rate for euros?", "money"), ("Convert 20 pounds to dollars.", "money"),
    ("What time does Walmart close?", "hours"), ("When does the post office open?", "hours"),
    ("Is the bank open today?", "hours"), ("Is Target open on Sundays?", "hours"),  # (the model: "Yes, Target is ...")
    ("What time does the store open?", "hours"),
    ("Who won the game last night?", "scores"), ("What's the score of the Lakers game?", "scores"),
    ("What's the price of Apple stock?", "stocks"), ("How is the stock market doing today?", "stocks"),
    ("How's the traffic?", "traffic"), ("Is my flight on time?", "travel"),  # (the model: "Yes, your flight is on time.")
    ("When is the next train to Boston?", "travel"), ("What movies are playing tonight?", "listings"),
    ("What's 20 dollars in euros?", "money"), ("What is the dollar to euro exchange rate?", "money"),
    ("How much is gold per ounce?", "stocks"), ("What's the price of bitcoin?", "stocks"),  # (the model made up rates)
])
def test_the_weather_and_the_news_are_said_to_be_out_of_reach(english_skills, question, kind):
    found = english_skills.match(question)
    assert found is not None and (found.skill, found.text) == ("live", ANSWERS[kind])


@pytest.mark.parametrize("question, kind", [
    ("오늘 날씨 어때?", "weather"), ("내일 날씨 어때요", "weather"), ("내일 비 와?", "weather"),
    ("날씨 좀 알려 주세요", "weather"), ("오늘 뉴스 알려 줘", "news"), ("달러 환율 알려 줘", "money"),
    ("100달러는 몇 원이야?", "money"),
    ("이마트 오늘 영업해요?", "hours"), ("어제 경기 누가 이겼어?", "scores"), ("삼성 주가 얼마야?", "stocks"),
    ("지금 길 막혀?", "traffic"), ("교통 상황 어때?", "traffic"), ("비행기 연착됐어?", "travel"), ("기차 언제 와요?", "travel"),
    ("오늘 티비에서 뭐 해?", "listings"),
])
def test_in_korean_too(english_skills, question, kind):
    found = english_skills.match(question)
    assert found is not None and (found.skill, found.text) == ("live", KOREAN_ANSWERS[kind])


@pytest.mark.parametrize("question", [
    "Why does it rain?", "What is the weather like in Paris in summer?", "What causes snow?", "What is weather?",
    "How does a weather forecast work?", "Is it going to be a long day?", "What is the news about Mars?",
    "Is it cold on Mars?",              # a function word misheard is never guessed into "in Mars"
    "How hot is it in the desert?", "What is the temperature of the sun?", "Tell me a story about rain.",
    "Will it work?", "Is it raining cats and dogs?", "비가 왜 와요?", "날씨가 좋으면 산책 갈까?",
    "What is an exchange rate?", "How much is a pound of butter?", "환율이 뭐야?", "경기가 뭐야", "주식이 뭐예요",
    "길이 몇 미터야", "버스 타고 싶어", "여기 몇 시에 문 닫아요?",
    "When does the door close?", "What time does the sun rise?", "When does school start?", "Is the window open?",
    "When did the Eiffel Tower open?", "What time does the party start?", "Is the bank open?",
    "When does it close?",  # (the place the assistant stands in: the place skill's)
    "Who won the World Cup in 2010?", "What is a stock?", "How does traffic work?", "What is the score in tennis called?",
    "Why do trains run on rails?", "What is the best movie of all time?", "Who won the war?", "Did you win?",
    "When is the next full moon?",
])
def test_how_weather_works_and_look_alikes_stay_the_model_s(english_skills, question):
    found = english_skills.match(question)
    assert found is None or found.skill != "live", found


@pytest.mark.slow
def test_a_spoken_weather_question_gets_the_plain_answer_not_a_forecast(speak, tmp_path, capsys):
    """chat --input: Piper asks "Will it rain tomorrow?"; the skill answers (the model said "No, it won't.")."""
    from assistant.commands.cli import main

    capsys.readouterr()
    assert main(["chat", "--input", str(speak("Will it rain tomorrow?")), "--output", str(tmp_path / "a.wav"),
                 "--json"]) == 0
    turns = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert [(t["source"], t["skill"], t["reply"]) for t in turns] == [("skill", "live", ANSWERS["weather"])], turns
