"""A joke when asked for one, from a short list told in turn, in English and Korean.

The small model cannot tell one (SmolLM2-135M, asked "Tell me a joke.": 'A: "What's the most important thing you can
do to make your life better?"'). The next joke is the one after the last told: moving on is the reply's effect,
so a reading at a pause and the one at the endpoint tell the same joke, and a dropped reading skips none.

Guard (taken only as said): the whole utterance must ask for a joke or something funny ("tell me a joke", "do you know
any jokes", "make me laugh", "농담 해 줘"); questions about jokes stay the model's ("what is a good joke for a wedding
speech", "why do people laugh").
"""

from __future__ import annotations

import re

from assistant.think.skills import SkillContext, SkillReply, SkillSetup
from assistant.think.skills.in_turn import InTurn
from assistant.think.skills.korean_pattern import Form, first
from assistant.think.skills.text import normalize
from assistant.writing import has_hangul

NAME = "jokes"
JOKES = (
    "Why don't scientists trust atoms? Because they make up everything.",
    "What do you call a fake noodle? An impasta.",
    "Why did the scarecrow win an award? He was outstanding in his field.",
    "Why don't eggs tell jokes? They'd crack each other up.",
    "What do you call a bear with no teeth? A gummy bear.",
    "Why did the bicycle fall over? It was two tired.",
    "What do you call cheese that isn't yours? Nacho cheese.",
    "How does a penguin build its house? Igloos it together.",
    "Why was the math book sad? It had too many problems.",
    "What did the ocean say to the beach? Nothing. It just waved.",
    "Why are ghosts bad liars? You can see right through them.",
    "What do you call a sleeping dinosaur? A dino-snore.",
)
KOREAN_JOKES = (
    "왕이 넘어지면 뭐게요? 킹콩!",
    "소가 웃으면 뭐게요? 우하하!",
    "세상에서 가장 뜨거운 과일은요? 천도복숭아!",
    "오리가 얼면 뭐게요? 언덕!",
    "세상에서 가장 쉬운 숫자는요? 십구만. 쉽구만!",
    "자동차를 톡 치면 뭐게요? 카톡!",
)

_A_JOKE = (r"(?:a |another |one more |some |any |a good |a funny |a short |a quick |a new |one )?"
           r"(?:jokes?|puns?|dad jokes?|riddles?)")
"""(Each joke is a riddle with its answer: "Tell me a riddle." gets one too; the model's riddles had no answer.)"""
_FORMS = tuple(re.compile(form) for form in (
    rf"^(?:tell|give|say)(?: me| us)? {_A_JOKE}$",
    rf"^(?:do you )?(?:know|have|got)(?: any| a)? (?:good |funny )?(?:jokes?|puns?|riddles?)$",
    rf"^(?:i want|i would like|i need)(?: to hear)? {_A_JOKE}$",
    r"^(?:tell me|say|tell us) something (?:funny|silly)$",
    r"^(?:make me|make us) (?:laugh|smile)$",
    rf"^(?:another|one more|a)? ?(?:jokes?|puns?|riddles?)$",
    rf"^(?:can i hear|let us hear|let me hear) {_A_JOKE}$",
))
_KOREAN = [Form(spec, {}) for spec in (
    "[재미있는|재밌는|웃긴] 농담|아재개그 [좀|하나|한_개] [해|말해|들려] [줘|주세요|줄래|줄래요|봐|봐요]",
    "웃긴 얘기|이야기|거 [좀|하나] [해|말해|들려] [줘|주세요|줄래|줄래요|봐|봐요]",
    "[나|저] [좀] 웃겨 [줘|주세요|봐|봐요]",
    "[재미있는|재밌는] 수수께끼|넌센스_퀴즈 [좀|하나|한_개] [내|내_봐|해|들려] [줘|주세요|줄래|줄래요|봐|봐요]",
)]


class Jokes:
    name = NAME

    def __init__(self) -> None:
        self._jokes = InTurn(NAME)

    def match(self, text: str, context: SkillContext) -> SkillReply | None:  # noqa: ARG002 - the skills' signature
        if has_hangul(text):
            if not any(form.match(text) is not None for form in _KOREAN):
                return None
            return self._jokes.next("ko", KOREAN_JOKES)
        said = normalize(text)
        return self._jokes.next("en", JOKES) if any(form.match(said) for form in _FORMS) else None


def create(setup: SkillSetup) -> Jokes:  # noqa: ARG001 - every skill gets the setup
    return Jokes()
