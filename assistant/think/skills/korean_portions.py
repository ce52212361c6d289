"""Parts, multiples and discounts asked in Korean, for the arithmetic skill: "84의 절반",
"84의 반은", "84를 반으로 나누면", "84의 두 배", "90의 삼분의 일", "100의 4분의 3",
"200의 15% 할인", "200원에서 15% 할인하면 얼마예요"; the answer read in Sino-Korean
("팔십사의 절반은 사십이예요.", "이백 원에서 십오 퍼센트 할인하면 백칠십 원이에요.").

Guard: the whole utterance is one of the forms below, numbers in every slot, so "우리 반의
절반은 어디 갔어요" or "두 배로 맛있어요" go elsewhere.
"""

from __future__ import annotations

from assistant.think.skills import SkillReply
from assistant.think.skills.korean_numbers import copula, native, parse, say, topic
from assistant.think.skills.korean_pattern import Form, first
from assistant.think.skills.portions import price
from assistant.think.skills.text import spoken_number

_ASK = "[@TOPIC|하면] [얼마|몇|뭐] [@IS|일까|일까요]"
_THEN = "[얼마|몇|뭐] [@IS|일까|일까요|돼요]"
_MONEY = "[money=원|달러|불:달러]"
_READERS = {"n": parse, "c": lambda words: parse(words, counter=True)}
_FORMS = [
    ("half", f"{{a:n}} [의] 절반 {_ASK}"),
    ("half", f"{{a:n}} 의 반 {_ASK}"),
    ("half", f"{{a:n}} [을|를] 반|절반 [으로|로] 나누면 {_THEN}"),
    ("times", f"{{a:n}} [의] {{k:c}} 배 {_ASK}"),
    ("times", f"{{a:n}} [을|를] {{k:c}} 배 하면|로_하면|로_늘리면 {_THEN}"),
    ("part", f"{{a:n}} [의] {{d:n}} 분의 {{m:n}} {_ASK}"),
    ("off", f"{{a:n}} {_MONEY} 의|에서 {{p:n}} 퍼센트|프로 할인 [가격|금액|된_가격|한_가격|된_금액|한_금액] {_ASK}"),
    ("off", f"{{a:n}} {_MONEY} 에서 {{p:n}} 퍼센트|프로 할인하면|빼면|깎으면|할인받으면 {_THEN}"),
]
FORMS = [(kind, Form(spec, _READERS)) for kind, spec in _FORMS]


def match(name: str, text: str) -> SkillReply | None:
    """The arithmetic skill's answer to Korean ``text`` when it asks for a part, a multiple
    or a discount, or None."""
    hit = first(FORMS, text.replace("%", " 퍼센트"))
    if hit is None:
        return None
    kind, found = hit
    v = found.values
    a = v["a"]
    if kind == "half":
        said, value = f"{say(a)}의 절반", a / 2
    elif kind == "times":
        if v["k"] != int(v["k"]) or not 2 <= v["k"] <= 99:
            return None
        said, value = f"{say(a)}의 {native(int(v['k']))} 배", a * v["k"]
    elif kind == "part":
        if not v["d"] or v["m"] != int(v["m"]) or v["d"] != int(v["d"]):
            return None
        said, value = f"{say(a)}의 {say(v['d'])}분의 {say(v['m'])}", a * v["m"] / v["d"]
    else:
        if v["p"] > 100:
            return None
        money = f" {v['money']}" if v.get("money") else ""
        left = f"{say(a)}{money}에서 {say(v['p'])} 퍼센트 할인하면"
        return SkillReply(name, f"{left} {copula(say(float(price(a * (1 - v['p'] / 100)))) + money)}.")
    return SkillReply(name, f"{topic(said)} {copula(say(float(spoken_number(value))))}.")
