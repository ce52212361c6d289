"""Parts, multiples and discounts of a number, for the arithmetic skill: "half of 84",
"double 21", "twice 21", "a third of 90", "two thirds of 90", "three quarters of 100",
"15 percent off 200", "200 with 15 percent off", "200 minus 15 percent", "a 15 percent
discount on 200 dollars", "200 plus 20 percent".

Guard: what follows the question words is one of these forms and every amount in it is
a number, so "half of the people", "double check this", "twice as good" or "a third of
the way through the book" go to the LLM.
"""

from __future__ import annotations

import re

from assistant.think.skills.text import NUMBER, spoken_number

_N = rf"(?P<n>{NUMBER})"
_M = rf"(?P<m>{NUMBER})"
_MONEY = r"(?: (?P<money>dollars?|bucks|euros?|pounds?|yen|won|cents?))?"
_PERCENT = rf"(?P<p>{NUMBER}) percent"
_DENOMINATORS = {  # normalize writes "third" as "3rd", "thirds" as "3rds"
    "half": 2, "halves": 2, "quarter": 4, "quarters": 4,
    **{f"{d}{'rd' if d == 3 else 'th'}{s}": d for d in (3, 4, 5, 6, 7, 8, 9, 10, 12, 100) for s in ("", "s")},
}
_SAID = {2: ("half", "halves"), 3: ("third", "thirds"), 4: ("quarter", "quarters"), 5: ("fifth", "fifths"),
         6: ("sixth", "sixths"), 7: ("seventh", "sevenths"), 8: ("eighth", "eighths"), 9: ("ninth", "ninths"),
         10: ("tenth", "tenths"), 12: ("twelfth", "twelfths"), 100: ("hundredth", "hundredths")}
_DENOMINATOR = "|".join(sorted(_DENOMINATORS, key=len, reverse=True))
_TIMES = {"double": 2, "doubled": 2, "twice": 2, "triple": 3, "tripled": 3, "treble": 3, "thrice": 3,
          "quadruple": 4, "quadrupled": 4, "halved": 0.5}
_FORMS = (
    ("part", re.compile(rf"^(?:(?P<k>a|an|one|{NUMBER}) )?(?P<d>{_DENOMINATOR}) (?:of )?(?:a )?{_N}$")),
    ("times", re.compile(rf"^(?P<w>double|twice|triple|treble|thrice|quadruple) (?:of |as much as )?{_N}$")),
    ("times", re.compile(rf"^{_N} (?P<w>doubled|tripled|quadrupled|halved)$")),
    ("off", re.compile(rf"^(?:a )?{_PERCENT} (?:off|discount (?:on|off|of|from)) (?:of )?(?:a )?{_M}{_MONEY}$")),
    ("off", re.compile(rf"^{_M}{_MONEY} (?:with|after) (?:a )?{_PERCENT} (?:off|discount)$")),
    ("off", re.compile(rf"^{_M}{_MONEY} (?:minus|less) {_PERCENT}$")),
    ("off", re.compile(rf"^(?:take|knock) {_PERCENT} off {_M}{_MONEY}$")),
    ("up", re.compile(rf"^{_M}{_MONEY} plus {_PERCENT}$")),
)


def match(body: str) -> str | None:
    """The reply to ``body`` (the question words taken off) when it is one of these
    forms, else None."""
    for kind, pattern in _FORMS:
        found = pattern.match(body)
        if found is None:
            continue
        if kind == "part":
            return _part(found)
        if kind == "times":
            times, n = _TIMES[found["w"]], float(found["n"])
            said = f"{found['n']} {found['w']}" if found["w"].endswith("ed") else f"{found['w']} {found['n']}"
            return f"{said[:1].upper()}{said[1:]} is {spoken_number(n * times)}."
        return _percent(kind, found)
    return None


def _part(found: re.Match) -> str | None:
    count = 1.0 if found["k"] in (None, "a", "an", "one") else float(found["k"])
    denominator = _DENOMINATORS[found["d"]]
    if count <= 0 or count != int(count):
        return None
    one, many = _SAID[denominator]
    if count == 1:
        said = "half" if denominator == 2 else f"{'an' if one[0] in 'aeiou' else 'a'} {one}"
    else:
        said = f"{int(count)} {many}"
    value = float(found["n"]) * count / denominator
    return f"{said[:1].upper()}{said[1:]} of {found['n']} is {spoken_number(value)}."


def _percent(kind: str, found: re.Match) -> str | None:
    percent, amount = float(found["p"]), float(found["m"])
    if kind == "off" and percent > 100:
        return None
    money = f" {found['money']}" if found["money"] else ""
    if kind == "up":
        return f"{found['m']}{money} plus {found['p']} percent is {price(amount * (1 + percent / 100))}{money}."
    return f"{found['p']} percent off {found['m']}{money} is {price(amount * (1 - percent / 100))}{money}."


def price(value: float) -> str:
    """A price: to the cent (16.99), whole when it is (170)."""
    cents = round(value, 2)
    return spoken_number(cents) if cents == int(cents) else f"{cents:.2f}".rstrip("0").rstrip(".")
