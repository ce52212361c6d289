"""A request in a frame ("Could you tell me what time it is?", "Turn it down a little.") is answered as
its plain form is: the frames a request is said in, and the look-alikes that stay the model's."""

from __future__ import annotations

from datetime import datetime

import pytest

from assistant.config import SkillsConfig
from assistant.think.replies import Matcher, default_table
from assistant.think.requests import follow_ups, plain_forms
from assistant.think.skills import SkillContext, Skills

NOW = SkillContext(now=datetime(2024, 3, 5, 15, 7).astimezone())


@pytest.fixture(scope="module")
def skills(tmp_path_factory):
    loaded = Skills(SkillsConfig(locale="en_US", timers_file=str(tmp_path_factory.mktemp("t") / "timers.json")))
    yield loaded
    loaded.close()


def answer(skills: Skills, text: str) -> str | None:
    """What the responder answers without the model: the words as said, then their plain forms."""
    matcher = Matcher(default_table(), 88.0)
    for said in [text, *plain_forms(text)]:
        if (reply := skills.match(said, NOW)) is not None:
            return f"{reply.skill}: {reply.action or reply.text}"
        if (entry := matcher.match(said)) is not None:
            return f"reply: {entry.action or entry.text}"
    return None


@pytest.mark.parametrize("text, forms", [
    ("Can you make it louder?", ["make it louder"]),
    ("Could you please turn it down?", ["turn it down"]),
    ("I want you to turn it up.", ["turn it up"]),
    ("Do you know what time it is?", ["what time it is", "what is time it", "what time is it"]),
    ("Can you tell me what nine plus seven is?",
     ["tell me what nine plus seven is", "what nine plus seven is", "what is nine plus seven",
      "what nine is plus seven", "what nine plus is seven"]),
    ("Could you tell me if it will rain today?", ["tell me if it will rain today", "if it will rain today",
                                                  "will it rain today", "tell me if it will rain", "if it will rain",
                                                  "will it rain"]),   # "today" left out too, the forms' last
    ("I'm really sad today.", ["i'm really sad", "i'm sad", "i'm sad today"]),  # how much and when left out
    ("Turn it down a little bit.", ["turn it down"]),
    ("Can we change the subject?", ["change the subject"]),   # "we" asked with the assistant
    ("A bit quieter, please.", ["quieter"]),
    ("Can you tell me a joke?", ["tell me a joke"]),   # no question inside: "a joke" is no form
    ("What time is it?", []),
    ("Can you", []),                                  # a frame with nothing in it
    ("지금 몇 시야?", []),
    ("지금 몇 시인지 알려 줄래요?", ["지금 몇 시야", "지금 몇 시인지 알려 줘"]),
    ("오늘 며칠인지 알려 줘", ["오늘 며칠이야"]),
    ("조용히 해 줄래?", ["조용히 해 줘"]),
    ("조금 더 크게", ["더 크게"]),
    ("소리 조금 키워 줘", ["소리 키워 줘"]),             # a softener before the verb too
    ("동화 하나 들려 줘", ["동화 들려 줘"]),
    ("저기요, 화장실 어디예요?", ["화장실 어디예요"]),                # excuse me
    ("비서야, 지금 몇 시인지 알려 줘", ["지금 몇 시인지 알려 줘", "지금 몇 시야"]),  # the assistant called
    ("그럼 안녕", []),                                   # (then bye: not "안녕", hello)
])
def test_the_forms_a_frame_leaves(text, forms):
    assert plain_forms(text) == forms


@pytest.mark.parametrize("text, reply", [
    ("Can you make it louder?", "actions: louder"),
    ("Could you turn it down?", "actions: quieter"),
    ("Could you speak up?", "actions: louder"),
    ("Can you say that again?", "actions: repeat"),
    ("A bit quieter.", "actions: quieter"),
    ("Turn it down a little.", "actions: quieter"),
    ("Can you please stop?", "actions: stop"),
    ("Do you know what time it is?", "clock: It's 3:07 PM."),
    ("Can you tell me what day it is?", "clock: Today is Tuesday, March 5, 2024."),
    ("Can you tell me what nine plus seven is?", "arithmetic: 9 plus 7 is 16."),
    ("Would you set a timer for ten minutes?", "timers: Timer set for 10 minutes."),
    ("Could you tell me if it is going to snow tomorrow?",
     "live: Sorry, I can't check the weather: I work offline, with no internet connection."),
    ("Good afternoon.", "reply: Good afternoon!"),
    ("Shh.", "actions: stop"),
    ("Can you tell me a joke?", "jokes: Why don't scientists trust atoms? Because they make up everything."),
    ("Could you turn off the lights?", "reach: Sorry, I can't control lights or other devices: I'm not connected to any."),
    ("지금 몇 시인지 알려 줄래요?", "clock: 지금은 오후 세 시 칠 분이에요."),
    ("오늘 며칠인지 알려 줘", "clock: 오늘은 삼월 오일 화요일이에요."),
    ("십 분 타이머 맞춰 줄 수 있어요?", "timers: 십 분 타이머를 맞췄어요."),
    ("조용히 해 줄래?", "actions: stop"),
    ("조금 더 크게", "actions: louder"),
])
def test_a_request_in_a_frame_is_answered_as_its_plain_form(skills, text, reply):
    assert answer(skills, text) == reply


@pytest.mark.parametrize("text, reply", [
    ("Got the time?", "clock: It's 3:07 PM."),
    ("Is it morning or afternoon?", "clock: It's 3:07 PM."),
    ("Is it still morning?", "clock: It's 3:07 PM."),
    ("What day of the month is it?", "clock: Today is Tuesday, March 5, 2024."),
    ("Start a countdown for two minutes.", "timers: Timer set for 2 minutes."),
    ("Count down from one minute.", "timers: Timer set for 1 minute."),
    ("Count down from ten.", "arithmetic: 10, 9, 8, 7, 6, 5, 4, 3, 2, 1."),  # no length: counted, no timer
    ("I can't hear you.", "actions: louder"),
    ("That's too loud.", "actions: quieter"),
    ("Unmute.", "actions: continue"),
    ("Turn the sound back on.", "actions: continue"),
    ("Which day of the month is it today?", "clock: Today is Tuesday, March 5, 2024."),
    ("What year are we in?", "clock: It's 2024."),
])
def test_everyday_wordings_of_the_clock_timers_and_actions(skills, text, reply):
    """(Wordings that went to the model: the clock said without "what", a countdown, the volume as a complaint, and
    "unmute" after "mute", which stops the voice: it goes on with what was cut.)"""
    assert answer(skills, text) == reply


@pytest.mark.parametrize("text, reply", [
    ("I'm feeling sad today.", "reply: I'm sorry you're feeling that way. It can help to talk with someone you trust."),
    ("I'm really lonely tonight.", "reply: I'm sorry you're feeling that way. It can help to talk with someone you trust."),
    ("I feel so tired right now.", "reply: Maybe it's time for a rest. I can set a timer for a nap."),
    ("I'm feeling really tired today.", "reply: Maybe it's time for a rest. I can set a timer for a nap."),  # "I feel"
    ("How are you doing today?", "reply: I'm doing well, thanks for asking."),
    ("That's really helpful.", "reply: Glad I could help."),
    ("You're not very smart.", "reply: Sorry about that. I'm a small model, and I get things wrong."),
    ("That's not correct.", "reply: Sorry about that. I'm a small model, and I get things wrong."),
    ("My mistake.", "reply: No problem."),
])
def test_how_one_is_said_with_how_much_or_when(skills, text, reply):
    """(The model answered "I'm feeling sad today." with "I'm not sure what to say." and "You're not very smart."
    with "I'm not very smart.": a degree word or a time after how one is kept the table's phrase from matching.)"""
    assert answer(skills, text) == reply


@pytest.mark.parametrize("text", [
    "I'm really interested in history.", "I feel like pizza tonight.", "I'm so excited about the trip!",
    "That is really far away.", "I'm sad that the shop is closed today.",
])
def test_how_one_is_about_something_else_stays_the_models(skills, text):
    assert answer(skills, text) is None


@pytest.mark.parametrize("text", [
    "Do you know who wrote Hamlet?", "Could you tell me why the sky is blue?",
    "Would you like to play a game?", "Can you help me with my homework?", "Do you know where Paris is?",
    "Can you tell me what the capital of France is?", "Could you explain what a timer is?",
    "Do you know what time zone London is in?", "Can you turn into a robot?",
    "서울이 어디인지 알려 줘", "재미있는 이야기 해 줄래?", "김치 만드는 법 알려 줘",
])
def test_questions_in_a_frame_that_no_skill_takes_stay_the_models(skills, text):
    assert answer(skills, text) is None


@pytest.mark.parametrize("text, before, first", [
    ("And in London?", "What time is it in Tokyo?", "what time is it in london"),
    ("What about Halloween?", "How many days until Christmas?", "how many days until halloween"),
    ("How about 20 percent?", "What's 15 percent of 80?", "what's 20 percent of 80"),
    ("What about tomorrow?", "Will it rain today?", "will it rain tomorrow"),
    ("And 50?", "Convert 100 Fahrenheit to Celsius.", "convert 50 fahrenheit to celsius"),  # a number for a number
    ("What about nine?", "What is 12 times 8?", "what is 12 times nine"),                   # the last one
    ("And 30 percent?", "What's 15% of 80?", "what's 30 percent of 80"),
    ("런던은?", "도쿄는 지금 몇 시야?", "런던은 지금 몇 시야"),
    ("그럼 할로윈은요?", "크리스마스까지 며칠 남았어?", "할로윈까지 며칠 남았어"),
])
def test_a_follow_up_names_what_changes(text, before, first):
    assert follow_ups(text, before)[0] == first


@pytest.mark.parametrize("text, before", [
    ("Tell me a joke.", "What time is it in Tokyo?"),          # no follow-up
    ("And?", "What time is it in Tokyo?"),                     # nothing named
    ("런던은?", "What time is it in Tokyo?"),                   # another language
    ("And in a little town near the sea by the old mill?", "What time is it in Tokyo?"),  # too long
])
def test_what_is_no_follow_up(text, before):
    assert follow_ups(text, before) == []


def test_a_follow_up_is_answered_only_where_a_skill_takes_it_whole(skills):
    forms = follow_ups("What about my birthday?", "How many days until Christmas?")
    assert forms and all(skills.match(form, NOW) is None for form in forms)


def test_a_follow_up_asks_and_never_sets_or_cancels_anything(skills):
    """After a timer was set, "and 30 seconds" (a misheard "add 30 seconds") is no second timer: a follow-up is
    taken only where the skill's answer does nothing; after a question it still goes on from it."""
    from assistant.pipeline.at_once import AtOnce

    at_once = AtOnce(skills, None)
    set_one = at_once.find("Set a timer for ten minutes.", turn=1)
    set_one.effect()
    assert at_once.find("and 30 seconds.", turn=2) is None
    assert at_once.find("What time is it in Tokyo?", turn=3).skill == "clock"
    assert at_once.find("And in London?", turn=4).text.startswith("In London, it's")
    skills.timers.clear()
