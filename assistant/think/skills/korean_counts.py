"""Fixed counts asked in Korean, for the units skill: "일주일은 며칠", "하루는 몇 시간",
"일 년은 몇 주야", "한 달은 며칠이에요", "이월은 며칠까지 있어요", "이번 달은 며칠까지
있어요", "한 다스는 몇 개", "육각형은 변이 몇 개예요"; the answer read the Korean way
("하루는 스물네 시간이에요.", "일 년은 열두 달이에요."). "한 시간은 몇 분" and the other
conversions with a number said are :mod:`~assistant.think.skills.korean_units`'.

Guard: the whole utterance is one of the forms below: "하루에 몇 시간 자야 해요" or
"일주일에 며칠 운동해요" go elsewhere.
"""

from __future__ import annotations

import calendar

from assistant.think.skills import SkillContext, SkillReply
from assistant.think.skills.korean_numbers import copula, native, say, subject, topic
from assistant.think.skills.korean_pattern import Form, first

_PERIOD = ("of=일주일:week|1주일:week|일_주일:week|한_주:week|하루:day|한_달:month|1달:month|1개월:month|일_개월:month"
           "|일_년:year|1년:year|한_해:year|윤년:leap|한_세기:century|1세기:century|일_세기:century"
           "|한_다스:dozen|1다스:dozen|일_다스:dozen")
_ASKED = ("ask=며칠:day|몇_일:day|몇_시간:hour|몇_분:minute|몇_초:second|몇_주:week|몇_주일:week|몇_달:month"
          "|몇_개월:months|몇_년:year|몇_개:piece")
_MONTH_NAMES = ("일월", "이월", "삼월", "사월", "오월", "유월", "칠월", "팔월", "구월", "시월", "십일월", "십이월")
_MONTH = "month=" + "|".join(
    [f"{name}:{n}" for n, name in enumerate(_MONTH_NAMES, 1)] + [f"{n}월:{n}" for n in range(1, 13)]
    + ["육월:6", "십월:10", "이번_달:this", "이번달:this"])
_SHAPES = {"삼각형": 3, "사각형": 4, "정사각형": 4, "직사각형": 4, "오각형": 5, "육각형": 6, "칠각형": 7, "팔각형": 8,
           "구각형": 9, "십각형": 10, "십이각형": 12}
_END = "[@IS|이나_돼요|돼요|인지|있어요|있나요|있어|있지|있죠]"
_FORMS = [
    ("period", f"{_PERIOD} [@TOPIC|에는|은_모두|는_모두|동안] {_ASKED} [@TOPIC] [이나|정도] {_END}"),
    ("month", f"{_MONTH} [@TOPIC|에는] 며칠까지|몇_일까지 [@IS|있어요|있나요|있어|있지|있죠]"),
    ("month", f"{_MONTH} [@TOPIC|에는] 며칠|몇_일 [이] 있어요|있나요|있어|있지|있죠"),
    ("shape", f"shape={'|'.join(_SHAPES)} [@TOPIC|에는|의] part=변|꼭짓점|꼭지점:꼭짓점|각|모서리 [@TOPIC] 몇_개 {_END}"),
]
FORMS = [(kind, Form(spec, {})) for kind, spec in _FORMS]
_SAID = {"week": "일주일", "day": "하루", "month": "한 달", "year": "일 년", "leap": "윤년", "century": "한 세기",
         "dozen": "한 다스"}
_SECONDS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400, "week": 604800, "year": 365 * 86400,
            "leap": 366 * 86400}
_COUNTER = {"second": "초", "minute": "분", "hour": "시간", "day": "일", "week": "주", "month": "달",
            "months": "개월", "year": "년", "piece": "개"}
_NATIVE = frozenset({"hour", "month", "piece"})
"""Counted in native numbers: "스물네 시간", "열두 달", "열두 개"."""
_OTHER = {  # (period, asked) → the count, where it is no division of seconds
    ("year", "month"): 12, ("year", "months"): 12, ("leap", "month"): 12, ("leap", "months"): 12,
    ("century", "year"): 100, ("dozen", "piece"): 12,
}
_SAYINGS = {
    ("year", "day"): "일 년은 삼백육십오 일이에요. 윤년은 삼백육십육 일이에요.",
    ("year", "week"): "일 년은 오십이 주하고 하루나 이틀이에요.",
    ("leap", "week"): "윤년은 오십이 주하고 이틀이에요.",
    ("month", "day"): "한 달은 이십팔 일에서 삼십일 일이에요.",
    ("month", "week"): "한 달은 사 주 조금 넘어요.",
}


def match(name: str, text: str, context: SkillContext) -> SkillReply | None:
    """The units skill's answer to Korean ``text`` when it asks for a fixed count, or None."""
    hit = first(FORMS, text)
    if hit is None:
        return None
    kind, found = hit
    v = found.values
    if kind == "month":
        return SkillReply(name, _month(v["month"], context))
    if kind == "shape":
        sides = native(_SHAPES[v["shape"]])
        return SkillReply(name, f"{topic(v['shape'])} {subject(v['part'])} {copula(sides + ' 개')}.")
    period, asked = v["of"], v["ask"]
    if (period, asked) in _SAYINGS:
        return SkillReply(name, _SAYINGS[(period, asked)])
    count = _OTHER.get((period, asked))
    if count is None and period in _SECONDS and asked in _SECONDS and _SECONDS[period] > _SECONDS[asked]:
        count = _SECONDS[period] // _SECONDS[asked]
    if count is None:
        return None
    number = native(count) if asked in _NATIVE and count <= 99 else say(count)
    return SkillReply(name, f"{topic(_SAID[period])} {copula(f'{number} {_COUNTER[asked]}')}.")


def _month(month: str, context: SkillContext) -> str:
    if month == "this":
        days = calendar.monthrange(context.now.year, context.now.month)[1]
        return f"이번 달은 {say(days)} 일까지 있어요."
    number = int(month)
    said = _MONTH_NAMES[number - 1]
    if number == 2:
        return "이월은 이십팔 일까지 있어요. 윤년에는 이십구 일까지 있어요."
    return f"{topic(said)} {say(calendar.monthrange(2001, number)[1])} 일까지 있어요."
