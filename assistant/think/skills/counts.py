"""Fixed counts, for the units skill: what a unit table does not hold or holds as an
average ("how many days are in a year" is 365, not pint's 365.25), "how many days in
February", "how many eggs in a dozen", "how many years in a decade", "how many sides
does a hexagon have", "how many days are in this month".

Guard: the whole utterance is "how many X (are there) in a Y", "how many X does a Y
have" or "how many X has a Y (got)", and the pair is in the tables below; anything else
("how many people live in Paris", "how many days until Christmas") is left to the units,
calendar skills and then the LLM.
"""

from __future__ import annotations

import calendar
import re

from assistant.think.skills import SkillContext

_WORDS = r"[a-z]+(?: [a-z]+)??"
_FORMS = (
    re.compile(rf"^how many (?:(?P<what>{_WORDS}) )?(?:are |is )?(?:there )?(?:in|on) (?P<of>(?:an? |1 |the |this )?"
               rf"(?:month of )?{_WORDS})$"),
    re.compile(rf"^how many (?P<what>{_WORDS}) (?:does|do) (?P<of>(?:an? |the |this )?{_WORDS}) have$"),
    re.compile(rf"^how many (?P<what>{_WORDS}) (?:has|have) (?P<of>(?:an? |the |this )?{_WORDS})(?: got)?$"),
    re.compile(rf"^how many (?P<what>{_WORDS}) (?:make|makes|make up) (?P<of>(?:an? |1 )?{_WORDS})$"),
)
_MONTHS = {name.lower(): number for number, name in enumerate(calendar.month_name) if name}
_SHAPES = {"triangle": 3, "square": 4, "rectangle": 4, "quadrilateral": 4, "rhombus": 4, "pentagon": 5,
           "hexagon": 6, "heptagon": 7, "septagon": 7, "octagon": 8, "nonagon": 9, "decagon": 10,
           "hendecagon": 11, "dodecagon": 12}
_SHAPE_PARTS = ("sides", "corners", "angles", "vertices", "edges")
_CUBE = {"sides": 6, "faces": 6, "edges": 12, "corners": 8, "vertices": 8}
_ANY = "*"
_FIXED = {  # (what, of) → the reply ("*": anything counted)
    ("days", "year"): "There are 365 days in a year, 366 in a leap year.",
    ("days", "common year"): "There are 365 days in a common year.",
    ("weeks", "year"): "There are 52 weeks in a year, and a day or two over.",
    ("days", "month"): "A month has 28 to 31 days.",
    ("weeks", "month"): "A month has a little over 4 weeks.",
    ("years", "decade"): "There are 10 years in a decade.",
    ("decades", "century"): "There are 10 decades in a century.",
    ("years", "millennium"): "There are 1000 years in a millennium.",
    ("centuries", "millennium"): "There are 10 centuries in a millennium.",
    ("years", "score"): "There are 20 years in a score.",
    (_ANY, "dozen"): "There are 12 {what} in a dozen.",
    (_ANY, "baker dozen"): "There are 13 {what} in a baker's dozen.",
    (_ANY, "gross"): "There are 144 {what} in a gross.",
    ("cards", "deck"): "There are 52 cards in a deck, not counting the jokers.",
    ("cards", "deck of cards"): "There are 52 cards in a deck, not counting the jokers.",
    ("letters", "alphabet"): "There are 26 letters in the English alphabet.",
    ("letters", "english alphabet"): "There are 26 letters in the English alphabet.",
}


def match(said: str, context: SkillContext) -> str | None:
    """The reply to ``said`` (normalized) when it asks for a fixed count, else None."""
    form = next((m for f in _FORMS if (m := f.match(said))), None)
    if form is None:
        return None
    what, of = form["what"] or "", form["of"]
    this = of.startswith("this ")
    of = re.sub(r"^(?:(?:an?|1|the|this) )?(?:month of )?", "", of)
    if what == "days" and of in _MONTHS and not this:
        return _month(of)
    if this and what == "days" and of in ("month", "year"):
        year, month = context.now.year, context.now.month
        days = calendar.monthrange(year, month)[1] if of == "month" else 365 + calendar.isleap(year)
        return f"This {of} has {days} days."
    if this:
        return None
    if of in _SHAPES and what in _SHAPE_PARTS:
        return f"A{'n' if of[0] in 'aeiou' else ''} {of} has {_SHAPES[of]} {what}."
    if of == "cube" and what in _CUBE:
        return f"A cube has {_CUBE[what]} {what}."
    reply = _FIXED.get((what, of))
    if reply is None:
        reply = _FIXED.get((_ANY, of))
    return None if reply is None else re.sub(" +", " ", reply.format(what=what))


def _month(name: str) -> str:
    number = _MONTHS[name]
    if number == 2:
        return "February has 28 days, 29 in a leap year."
    return f"{name.capitalize()} has {calendar.monthrange(2001, number)[1]} days."
