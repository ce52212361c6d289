"""Unit conversions asked in Korean: "오 킬로미터는 몇 마일이에요", "섭씨 백 도는 화씨 몇
도예요", "십 킬로그램을 파운드로 바꿔 줘", "한 시간은 몇 분이에요"; the answer read the
Korean way ("오 킬로미터는 삼 점 일일 마일이에요.", hours in native numbers: "두 시간").

Guard: the whole utterance is one of the forms below, with two units of one kind that
the English skill converts (length, weight, temperature, volume, time): "서울에서 부산까지
몇 킬로미터예요" (how far is Busan) goes elsewhere. Fixed counts ("일주일은 며칠", "하루는 몇
시간") are in :mod:`~assistant.think.skills.korean_counts`.
"""

from __future__ import annotations

from assistant.think.skills import SkillContext, SkillReply, korean_counts
from assistant.think.skills.korean_numbers import copula, native, parse, say, topic
from assistant.think.skills.korean_pattern import Form, first
from assistant.think.skills.text import spoken_number

UNITS = {  # what a Korean speaker says → pint's unit
    "킬로미터": "kilometer", "미터": "meter", "센티미터": "centimeter", "센티": "centimeter",
    "밀리미터": "millimeter", "마일": "mile", "피트": "foot", "인치": "inch", "야드": "yard",
    "킬로그램": "kilogram", "그램": "gram", "파운드": "pound", "온스": "ounce", "톤": "metric_ton",
    "리터": "liter", "밀리리터": "milliliter", "컵": "cup", "갤런": "gallon",
    "시간": "hour", "분": "minute", "초": "second", "주": "week",
}
_DEGREES = {"섭씨": "degC", "화씨": "degF"}
_UNIT = "|".join(UNITS)
_DEGREE = "|".join(_DEGREES)
_ASK = "[이나|정도] [@IS|이나_돼요|돼요|인지]"
_READERS = {"n": lambda words: parse(words, counter=True)}
_FORMS = [
    ("plain", f"{{n}} from={_UNIT} [@TOPIC|을|를] 몇 to={_UNIT} {_ASK}"),
    ("plain", f"{{n}} from={_UNIT} [@TOPIC|을|를] to={_UNIT} [으로|로] [얼마|몇] {_ASK}"),
    ("plain", f"{{n}} from={_UNIT} [을|를] to={_UNIT} 으로|로 바꿔_줘|바꿔_주세요|바꾸면|환산해_줘|환산해_주세요|"
              f"변환해_줘|변환해_주세요|환산하면|변환하면 [@IS|얼마예요]"),
    ("degrees", f"from={_DEGREE} {{n}} 도 [@TOPIC|을|를] to={_DEGREE} [으로|로] [몇_도|몇] {_ASK}"),
    ("degrees", f"from={_DEGREE} {{n}} 도 [@TOPIC|을|를] to={_DEGREE} 으로|로 바꿔_줘|바꿔_주세요|바꾸면|"
                f"환산하면|변환하면 [@IS|얼마예요]"),
]
FORMS = [(kind, Form(spec, _READERS)) for kind, spec in _FORMS]


def match(name: str, text: str, context: SkillContext, registry) -> SkillReply | None:
    """The units skill's answer to Korean ``text`` (``registry``: pint's), or None."""
    count = korean_counts.match(name, text, context)
    if count is not None:
        return count
    hit = first(FORMS, text)
    if hit is None:
        return None
    kind, found = hit
    amount, source, target = found.values["n"], found.values["from"], found.values["to"]
    if source == target:
        return None
    table = _DEGREES if kind == "degrees" else UNITS
    units = registry.parse_units(table[source]), registry.parse_units(table[target])
    if units[0].dimensionality != units[1].dimensionality:
        return None
    value = float(spoken_number(registry.Quantity(amount, units[0]).to(units[1]).magnitude))
    if kind == "degrees":
        return SkillReply(name, f"{source} {topic(say(amount) + ' 도')} {target} {copula(say(value) + ' 도')}.")
    return SkillReply(name, f"{topic(_amount(amount, source))} {copula(_amount(value, target))}.")


def _amount(value: float, unit: str) -> str:
    """ "오 킬로미터", "두 시간" (hours counted in native numbers)."""
    if unit == "시간" and value == int(value) and 1 <= value <= 99:
        return f"{native(int(value))} 시간"
    return f"{say(value)} {unit}"
