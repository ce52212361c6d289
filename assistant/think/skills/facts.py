"""A fun fact when asked for one, in English and Korean, told in turn from a list of true ones.

The small model makes facts up, or does not give one (SmolLM2-135M, asked "Can you tell me a fun fact?": "The
answer is no."); what a voice tells as a fact, people repeat. The facts are in ``data/facts.toml``, each with what
it is about, so "a fun fact about space" is one about space; a request about something no fact is about ("a fun
fact about Napoleon's horse") is the model's.

Guard (taken only as said): the whole utterance must ask for a fact or for something interesting or new ("tell me
a fun fact", "do you know any interesting facts", "teach me something new", "재미있는 사실 알려 줘"); questions
about facts stay the model's ("is it a fact that ...", "what is a fun thing to do in Paris"), and so does a story
("재미있는 이야기 해 주세요").
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from assistant.think import hangul
from assistant.think.skills import SkillContext, SkillReply, SkillSetup
from assistant.think.skills.in_turn import InTurn
from assistant.think.skills.korean_pattern import Form
from assistant.think.skills.text import normalize
from assistant.writing import has_hangul

NAME = "facts"


@dataclass(frozen=True)
class Fact:
    text: str
    about: tuple[str, ...]


@lru_cache(maxsize=1)
def facts() -> dict[str, tuple[Fact, ...]]:
    """The facts of ``data/facts.toml`` by language (``en``, ``ko``)."""
    text = resources.files("assistant.think").joinpath("data", "facts.toml").read_text(encoding="utf-8")
    table = tomllib.loads(text)
    return {language: tuple(Fact(row["text"], tuple(row["about"])) for row in table[language])
            for language in ("en", "ko")}


_KIND = (r"(?:fun|funny|interesting|cool|random|amazing|surprising|strange|weird|fascinating|good|great|little known|"
         r"quick|new|true|neat)")
_A_FACT = (rf"(?:(?:a|an|another|one more|some|any|a few|one|a couple of|your best) )?(?:{_KIND} )*"
           rf"(?:facts?|trivia|piece of trivia|bit of trivia)")
_SOMETHING = (r"something (?:(?:really|very|cool|fun|new|interesting|surprising|amazing|neat) )*"
              r"(?:interesting|cool|fun|new|surprising|amazing|neat|i (?:do not|don t|did not|didn t) know)")
_ABOUT = r"(?: (?:about|on|regarding) (?P<about>[a-z ]+?))?"
_END = r"(?: with (?:me|us))?(?: please| today| now)?"
_FORMS = tuple(re.compile(form) for form in (
    rf"^(?:tell|give|share|say|teach|read)(?: me| us)? {_A_FACT}{_ABOUT}{_END}$",
    rf"^(?:share|tell) {_A_FACT} with (?:me|us){_ABOUT}$",
    rf"^(?:do you )?(?:know|have|got)(?: any| a| some| another| more)? (?:{_KIND} )*"
    rf"(?:facts?|trivia){_ABOUT}$",
    rf"^(?:i want|i would like|i need|i would love|i would like you|i want you)"
    rf"(?: to hear| to know| to learn| to tell me)? {_A_FACT}{_ABOUT}{_END}$",
    rf"^(?:tell|teach|show)(?: me| us) {_SOMETHING}{_ABOUT}{_END}$",
    rf"^(?:say) {_SOMETHING}{_END}$",
    rf"^(?:i want to|i would like to|help me|let me) learn {_SOMETHING}{_ABOUT}$",
    rf"^(?:(?:another|one more|more) )?(?:{_KIND} )*(?:facts?|trivia)(?: of the day)?{_ABOUT}$",
))
_KOREAN_KIND = "재미있는|재밌는|신기한|흥미로운|놀라운|궁금한|새로운|특이한|쓸모있는|알아두면_좋은"
_KOREAN_ASK = ("[좀|하나|한_개|한_가지|몇_개|몇_가지] 알려|말해|들려|가르쳐|얘기해|이야기해|해 "
               "줘|주세요|줄래|줄래요|봐|봐요|줄_수_있어|줄_수_있어요")
_KOREAN_FORMS = tuple(Form(spec, {}) for spec in (
    f"[{_KOREAN_KIND}] 사실|상식|잡학|잡학_상식|지식 {_KOREAN_ASK}",
    f"[뭐|뭔가|아무거나] {_KOREAN_KIND} 거|것 {_KOREAN_ASK}",
    f"[뭐|뭔가] [{_KOREAN_KIND}] 사실|상식 [아는_거] 있어|있어요|없어|없어요|있니|있나요",
))
_KOREAN_ABOUT = re.compile(r"^(?P<about>\S+?)\s*(?:에\s*(?:대한|대해|관한|관해)|의)\s+(?P<rest>.+)$")


class Facts:
    name = NAME

    def __init__(self) -> None:
        self._facts = InTurn(NAME)

    def match(self, text: str, context: SkillContext) -> SkillReply | None:  # noqa: ARG002 - the skills' signature
        if has_hangul(text):
            return self._korean(text)
        said = normalize(text)
        for form in _FORMS:
            if (found := form.match(said)) is not None:
                return self._tell("en", found.groupdict().get("about"))
        return None

    def _korean(self, text: str) -> SkillReply | None:
        about, rest = None, text.strip()
        if (found := _KOREAN_ABOUT.match(rest)) is not None:
            about, rest = found["about"], found["rest"]
        if not any(form.match(rest) is not None for form in _KOREAN_FORMS):
            return None
        return self._tell("ko", about)

    def _tell(self, language: str, about: str | None) -> SkillReply | None:
        told = facts()[language]
        if about:
            told = tuple(fact for fact in told if _is_about(fact, about, language))
            if not told:
                return None
        return self._facts.next((language, about or ""), [fact.text for fact in told])


def _is_about(fact: Fact, about: str, language: str) -> bool:
    """Whether ``fact`` is about what a request named ("the moon", "animals", "우주")."""
    if language == "ko":
        return hangul.squeeze(about) in fact.about
    words = [word for word in about.split() if word not in ("the", "a", "an", "our", "my", "your")]
    named = " ".join(words)
    return any(named in (topic, topic + "s", topic + "es")
               or (topic.endswith("y") and named == topic[:-1] + "ies") for topic in fact.about)


def create(setup: SkillSetup) -> Facts:  # noqa: ARG001 - every skill gets the setup
    return Facts()
