"""Someone in danger is told where help is, before anything else is asked. The small model answered "My house is on
fire." with "That's a great idea.", "I want to kill myself." with "You can take a bath, go for a walk or just relax."
and "I think I'm having a heart attack." with "You're taking care of yourself, that's a great way to feel."

Two answers: an emergency told (a fire, someone not breathing, collapsed, bleeding, a heart attack or a stroke, a
break-in) gets the emergency number (this assistant cannot call: "call 911" is the reach skill's), and words of
ending one's life or harming oneself get a crisis line. Guard: an emergency is told, not asked about ("what are the
signs of a stroke", "how do I put out a grease fire" stay the model's): a question word first leaves it alone. Words
of harming oneself are taken wherever they are said. Korean too: "불이 났어요", "숨을 못 쉬겠어요", "죽고 싶어". And what a
wrong answer would harm (a medicine's dose, medicines with alcohol, chemicals mixed, raw food) is not answered by a
model that may be wrong: a pharmacist, a doctor or a poison center is.
"""

from __future__ import annotations

import re

from assistant.think.skills import SkillContext, SkillReply, SkillSetup
from assistant.think.skills.text import normalize
from assistant.writing import has_hangul, plain_words

NAME = "safety"
CRISIS = ("I'm sorry you're going through this, and you don't have to face it alone. Please reach out now: call your "
          "local emergency number, or a crisis line, such as 988 in the US and Canada.")
KOREAN_CRISIS = "많이 힘드시군요. 혼자 견디지 마세요. 지금 자살예방상담전화 109나 119에 전화해 주세요."
EMERGENCY = "Call your local emergency number now, from a phone. I can't call for you."
KOREAN_EMERGENCY = "지금 바로 휴대폰으로 119나 112에 전화하세요. 저는 전화를 걸 수 없어요."

_SELF_HARM = re.compile(
    r"\b(?:kill(?:ing)? myself|end(?:ing)? my (?:own )?life|take my (?:own )?life|hurt(?:ing)? myself|harm(?:ing)? myself"
    r"|cut(?:ting)? myself|i (?:am |feel )?suicidal|(?:think|thinking|thought) (?:about|of) suicide|commit suicide"
    r"|(?:want|wanna) to die|(?:don t|do not) want to (?:live|be alive|be here)|better off dead|no reason to live"
    r"|end it all|not worth living)\b")
_ASKED = re.compile(r"^(?:what|how|why|when|who|which|where|is it|are|does|do|can|could|should|tell me|explain|define"
                    r"|describe|list)\b")
"""A question about an emergency ("what are the signs of a stroke"), not one told."""
_EMERGENCY = re.compile(
    r"\b(?:(?:having|had) a (?:heart attack|stroke|seizure)|heart attack|choking|(?:can t|cannot|can not) breathe"
    r"|(?:is|are|s|am) not breathing|stopped breathing|collapsed|passed out|unconscious|(?:is|are|s) not waking up"
    r"|bleeding (?:a lot|badly|heavily|everywhere)|overdos(?:e|ed)|(?:is|are|s) on fire|caught fire|there is a fire"
    r"|house is burning|fire broke out|gas leak|smell gas|broke into|breaking into|intruder|being attacked"
    r"|(?:fallen|fell) and (?:i |he |she )?(?:can t|cannot) get up|drowning|poisoned)\b|^(?:help )?fire$")
_MEDICINE = (r"(?:ibuprofen|paracetamol|acetaminophen|tylenol|advil|aspirin|motrin|aleve|naproxen|pills?|tablets?"
             r"|medicines?|medications?|drugs?|antibiotics?|insulin|melatonin|benadryl|antihistamines?|painkillers?"
             r"|sleeping pills?|cough syrup|antidepressants?|opioids?|codeine|morphine|xanax|valium)")
_RISKY = re.compile(
    rf"^(?:how (?:much|many)|what is the (?:right |correct |maximum |max |safe |recommended )?(?:dose|dosage|amount))"
    rf"\b.*\b{_MEDICINE}\b"
    rf"|^(?:can|should|may) (?:i|you|we|my [a-z]+) (?:take|give|mix|combine|drink|have)\b.*\b(?:{_MEDICINE}|alcohol)\b"
    rf"|^what is the (?:maximum |max |safe |right )?(?:dose|dosage) of\b"
    r"|^is it (?:safe|ok|okay) to (?:mix|combine)\b|^(?:can|should) i (?:mix|combine) [a-z ]*(?:bleach|ammonia|chemicals?)"
    r"|^(?:is it (?:safe|ok|okay) to|can i|can you|should i) (?:eat|drink) (?:raw|undercooked|spoiled|expired|moldy)\b")
"""Doses, medicines with alcohol or each other, chemicals mixed, raw food: a wrong answer harms, and the small model
said "Yes, it's safe to mix bleach and ammonia." and "A child should take 15mg of paracetamol every day."."""
RISKY = "I can't answer that safely: I'm a small model, and I may be wrong. Please ask a pharmacist, a doctor or a poison center."
KOREAN_RISKY = "저는 작은 모델이라 틀릴 수 있어서 안전하게 답할 수 없어요. 약사나 의사에게 물어보세요."
_KOREAN_RISKY = re.compile(r"(?:약|타이레놀|진통제|수면제|감기약|해열제|항생제).{0,12}(?:몇 ?알|얼마나|용량|같이 ?먹|술이랑|술하고|술과)"
                           r"|(?:락스|표백제).{0,12}(?:섞어|섞으면|같이)")
_KOREAN_SELF_HARM = re.compile(r"죽고 ?싶|자살|극단적 ?선택|살기 ?싫|살고 ?싶지 ?않|사라지고 ?싶|자해")
_KOREAN_EMERGENCY_SAID = re.compile(r"불이 ?났|불났|숨을 ?못 ?쉬|숨이 ?안 ?쉬어|숨을 ?안 ?쉬|심장 ?마비|쓰러졌|의식이 ?없|피가 ?많이"
                               r"|가스 ?(?:가 )?새|도둑이 ?들|누가 ?집에 ?들어왔")


class Safety:
    name = NAME

    def match(self, text: str, context: SkillContext) -> SkillReply | None:  # noqa: ARG002 - the skills' signature
        if has_hangul(text):
            said = plain_words(text)
            if _KOREAN_SELF_HARM.search(said):
                return SkillReply(NAME, KOREAN_CRISIS)
            if _KOREAN_EMERGENCY_SAID.search(said):
                return SkillReply(NAME, KOREAN_EMERGENCY)
            return SkillReply(NAME, KOREAN_RISKY) if _KOREAN_RISKY.search(said) else None
        said = normalize(text)
        if _SELF_HARM.search(said):
            return SkillReply(NAME, CRISIS)
        if _EMERGENCY.search(said) and not _ASKED.match(said):
            return SkillReply(NAME, EMERGENCY)
        return SkillReply(NAME, RISKY) if _RISKY.search(said) else None


def create(setup: SkillSetup) -> Safety:  # noqa: ARG001 - every skill gets the setup
    return Safety()
