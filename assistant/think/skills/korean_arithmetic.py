"""Arithmetic asked in Korean: "삼 더하기 오는?", "칠 곱하기 팔은 얼마예요", "백 나누기 팔은",
"이십의 십오 퍼센트는", "구의 제곱은"; numbers Sino-Korean, native or digits, the answer
read in Sino-Korean ("삼 더하기 오는 팔이에요."). Parts, multiples and discounts ("84의
절반", "200의 15% 할인") are in :mod:`~assistant.think.skills.korean_portions`.

Guard: the whole utterance is numbers and operators (two or three numbers), then at most
a question ending: "더하기가 뭐예요" (what is addition) goes elsewhere.
"""

from __future__ import annotations

import operator

from assistant.think.skills import SkillContext, SkillReply, korean_portions
from assistant.think.skills.korean_numbers import copula, parse, say, topic
from assistant.think.skills.korean_pattern import Form, first
from assistant.think.skills.number_facts import COUNT_MOST, smallest_factor
from assistant.think.skills.text import spoken_number

LARGEST = 1e15
_OP = "더하기:+|플러스:+|빼기:-|마이너스:-|곱하기:*|곱:*|나누기:/"
_SAID = {"+": "더하기", "-": "빼기", "*": "곱하기", "/": "나누기"}
_ASK = "[@TOPIC|하면] [얼마|몇|뭐] [@IS|일까|일까요]"
_READERS = {"n": parse}
_FORMS = [
    ("two", f"{{a:n}} op={_OP} {{b:n}} {_ASK}"),
    ("three", f"{{a:n}} op={_OP} {{b:n}} op2={_OP} {{c:n}} {_ASK}"),
    ("percent", f"{{a:n}} [의] {{b:n}} 퍼센트|프로 {_ASK}"),
    ("square", f"{{a:n}} [의] 제곱 {_ASK}"),
    ("prime", "{a:n} [@TOPIC] 소수 [@IS|인가요|예요|야|니|일까|일까요|맞아|맞아요]"),
    ("parity", "{a:n} [@TOPIC] kind=짝수:even|홀수:odd [@IS|인가요|예요|야|니|일까|일까요|맞아|맞아요]"),
    ("count", "[하나부터|일부터] {a:n} 까지 세어|세|세어_줘|세어_주세요|세_줘|세_주세요|세어_봐|세_봐"),
]
FORMS = [(kind, Form(spec, _READERS)) for kind, spec in _FORMS]
_APPLY = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}


def match(name: str, text: str, context: SkillContext) -> SkillReply | None:  # noqa: ARG001 - skill form
    """The arithmetic skill's answer to Korean ``text``, or None."""
    portion = korean_portions.match(name, text)
    if portion is not None:
        return portion
    hit = first(FORMS, text.replace("%", " 퍼센트"))
    if hit is None:
        return None
    kind, found = hit
    v = found.values
    if kind in ("prime", "parity", "count"):
        return _fact(name, kind, v)
    if kind == "percent":
        said, value = f"{say(v['a'])}의 {say(v['b'])} 퍼센트", v["a"] * v["b"] / 100
    elif kind == "square":
        said, value = f"{say(v['a'])}의 제곱", v["a"] ** 2
    else:
        numbers = [v["a"], v["b"]] + ([v["c"]] if kind == "three" else [])
        ops = [v["op"]] + ([v["op2"]] if kind == "three" else [])
        said = " ".join([say(numbers[0])] + [f"{_SAID[o]} {say(n)}" for o, n in zip(ops, numbers[1:])])
        try:
            value = _evaluate(numbers, ops)
        except ZeroDivisionError:
            return SkillReply(name, "영으로는 나눌 수 없어요.")
    if not abs(value) <= LARGEST:
        return SkillReply(name, "너무 큰 수라서 말하기 어려워요.")
    return SkillReply(name, f"{topic(said)} {copula(say(float(spoken_number(value))))}.")


_COUNTED = ("", "하나", "둘", "셋", "넷", "다섯", "여섯", "일곱", "여덟", "아홉")
_COUNTED_TENS = ("", "열", "스물", "서른")


def _fact(name: str, kind: str, v: dict) -> SkillReply | None:
    """Whether a number is prime, even or odd ("십칠은 소수야?"), or counting to it ("열까지 세어 줘": 하나, 둘, ...)."""
    n = v["a"]
    if n != int(n) or n < 0:
        return None
    n = int(n)
    if kind == "count":
        if not 1 < n <= COUNT_MOST:
            return None
        return SkillReply(name, ", ".join(_COUNTED_TENS[k // 10] + _COUNTED[k % 10] for k in range(1, n + 1)) + ".")
    if kind == "parity":
        actual = "짝수" if n % 2 == 0 else "홀수"
        return SkillReply(name, f"{'네' if (actual == '짝수') == (v['kind'] == 'even') else '아니요'}, {topic(say(n))} {actual}예요.")
    if n > 10**12:
        return None
    if n < 2:
        return SkillReply(name, f"아니요, {topic(say(n))} 소수가 아니에요.")
    factor = smallest_factor(n)
    if factor is None:
        return SkillReply(name, f"네, {topic(say(n))} 소수예요.")
    return SkillReply(name, f"아니요, {topic(say(n))} 소수가 아니에요. {say(factor)} 곱하기 {copula(say(n // factor))}.")


def _evaluate(numbers: list[float], ops: list[str]) -> float:
    """Left to right, times and divide before plus and minus."""
    terms, signs = [numbers[0]], []
    for op, number in zip(ops, numbers[1:]):
        if op in "*/":
            terms[-1] = _APPLY[op](terms[-1], number)
        else:
            terms.append(number)
            signs.append(op)
    value = terms[0]
    for op, term in zip(signs, terms[1:]):
        value = _APPLY[op](value, term)
    return value
