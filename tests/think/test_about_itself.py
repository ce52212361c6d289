"""What the assistant can do, however it is asked, is the table's answer to "what can you do"; questions with a
content word of their own stay the model's."""

from __future__ import annotations

import pytest

from assistant.config import RepliesConfig
from assistant.pipeline.at_once import AtOnce
from assistant.think.about_itself import PLAIN, plain_question
from assistant.think.replies import InstantReplies, default_table


class NoAudio:
    def audio(self, text):  # noqa: ARG002 - the protocol's
        return None


@pytest.fixture(scope="module")
def at_once(english_skills):
    return AtOnce(english_skills, InstantReplies(RepliesConfig(), default_table(), NoAudio()))


@pytest.mark.parametrize("question", [
    "What things can you do?", "What are your abilities?", "What are you capable of?", "What is your purpose?",
    "What functions do you have?", "What can you help me do?", "What kind of questions do you answer?",
    "What commands do you understand?", "What can I tell you to do?", "List your skills.",
    "What can you do besides timers?", "What are you useful for?", "What's your job?", "Do you have any skills?",
    "What sort of things do you do?", "Could you tell me what you're good at?", "Hello, what else can you do?",
    "Tell me about yourself.", "Introduce yourself.", "Do you have a name?", "Tell me a fun fact about yourself.",
])
def test_asked_what_it_can_do(at_once, question):
    capabilities = at_once.replies.lookup(PLAIN)
    assert capabilities is not None
    found = at_once.find(question, 1)
    assert found is not None and found.text == capabilities.text, (question, found)


@pytest.mark.parametrize("question", [
    "What do you know about Paris?", "What can you tell me about dolphins?", "What are the skills of a good manager?",
    "What can a dolphin do?", "What is the purpose of life?", "What job should I get?", "How do I do a handstand?",
    "What are you doing later?", "What would you do in my place?", "What did you do yesterday?",
    "What do you have in the fridge?", "Tell me about yourself and your family, John.",
    "How do I introduce myself in an interview?",
])
def test_questions_of_their_own_stay_the_models(at_once, question):
    assert plain_question(question) is None
    found = at_once.find(question, 1)
    assert found is None or found.text != at_once.replies.lookup(PLAIN).text, (question, found)


@pytest.mark.parametrize("question", [
    "What's your favorite color?", "What is your favourite food?", "Do you have a favorite book?",
    "What food do you like best?", "Which is your favorite season?",
])
def test_its_favourite_anything_is_that_it_has_none(at_once, question):
    """"What's your favorite color?" got "My favorite color is blue."; "What is your favorite" alone is no question
    (words a longer one starts with), and the user's own favourite is the model's."""
    found = at_once.find(question, 1)
    assert found is not None and found.text == at_once.replies.lookup("do you have favorites").text, (question, found)


@pytest.mark.parametrize("question", ["What is your favorite", "What is my favorite color?",
                                      "What's your favorite color and why?"])
def test_not_its_favourite(at_once, question):
    found = at_once.find(question, 1)
    assert found is None or "favourites" not in found.text, (question, found)


@pytest.mark.parametrize(("question", "says"), [
    ("Sing me a song.", "I can't sing"), ("Can you sing?", "I can't sing"), ("Tell me a story.", "I don't know any stories"),
    ("노래 불러 줘", "노래는 못 해요"), ("노래 한 곡 불러 줄래?", "노래는 못 해요"), ("이야기 하나 해 줘", "아는 이야기가 없어요"),
    ("뭘 잘해요?", "음성 비서"),
])
def test_asked_to_sing_or_for_a_story_it_says_what_it_can_do_instead(at_once, question, says):
    """The model made a song and a story up; "노래 불러 줘" was the reach skill's "I can't order" (부르다, to call a
    taxi, is to sing too)."""
    found = at_once.find(question, 1)
    assert found is not None and says in found.text, (question, found)


@pytest.mark.parametrize(("question", "taken"), [
    ("제일 좋아하는 색이 뭐야?", True), ("좋아하는 동물 있어?", True), ("가장 좋아하는 계절은 뭐예요?", True),
    ("넌 무슨 음악 좋아해?", True),
    ("내가 좋아하는 색이 뭐야?", False),  # mine, not its: 내가 is a letter from 네가, so only 너는 and 넌 ask it
    ("좋아하는 사람", False), ("사람들이 제일 좋아하는 음식이 뭐야?", False),
])
def test_its_favourite_anything_in_korean(at_once, question, taken):
    found = at_once.find(question, 1)
    said = found is not None and "좋아하는 게 따로 없어요" in found.text
    assert said == taken, (question, found)
