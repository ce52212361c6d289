"""Unit conversions with pint: length, weight, temperature, volume, time and speed.

"convert 5 miles to kilometers", "what is 100 degrees fahrenheit in celsius", "how many
cups are in a liter", "how many miles is 10 kilometers", "10 kilos in pounds", "how many
seconds in a day".

Guard: the whole utterance must be one of these forms, both units must be units pint
knows, of the same kind and one of the five kinds above; "how many people live in
Paris" or "what is the speed of light in a vacuum" go to the LLM. The reply repeats
the user's own words for the units. A year is counted as 365 days ("how many hours are
in a year": 8760); fixed counts no unit table holds ("how many eggs in a dozen", "how
many days in February") are in :mod:`~assistant.think.skills.counts`.
"""

from __future__ import annotations

import re
import threading

from rapidfuzz import fuzz

from assistant.writing import has_hangul
from assistant.think.skills import SkillContext, SkillReply, SkillSetup, counts, korean_units
from assistant.think.skills.text import NUMBER, normalize, spoken_number

NAME = "units"
KINDS = ("[length]", "[mass]", "[temperature]", "[length] ** 3", "[time]", "[length] / [time]")
"""Dimensions converted (pint's notation)."""

_UNIT = r"[a-z]+(?: [a-z]+){0,2}?"
_AMOUNT = rf"(?P<amount>(?:minus )?{NUMBER}|an?)"
"""How much: a number ("minus 10": a temperature below zero), or "a"."""
_FORMS = (
    re.compile(rf"^(?:how many|how much) (?P<to>{_UNIT}) (?:(?:are |is )?(?:there )?in |are |is ){_AMOUNT} (?P<from>{_UNIT})$"),
    re.compile(
        rf"^(?:(?:can you |could you )?(?:please )?(?:convert|change|what is|what are|how much is|how much are"
        rf"|how many|how long is|how heavy is|how far is|how hot is|how cold is|how warm is|how fast is|how tall is) )?"
        rf"{_AMOUNT} "
        rf"(?P<from>{_UNIT}) (?:to|in|into|as) (?P<to>{_UNIT})$"
    ),
)
_HEIGHT = re.compile(rf"^(?:(?:convert|what is|how tall is|how much is) )?(?P<feet>{NUMBER}) (?:feet|foot) (?:and )?"
                     rf"(?P<inches>{NUMBER})(?: inch| inches)? (?:to|in|into|as) (?P<to>{_UNIT})$")
"""A height in feet and inches ("5 foot 10 in centimeters"): the model's before."""
_SPOKEN_AS = (  # words people say for units pint spells otherwise
    (r"^degrees? ", ""), (r"^fluid ounces?$", "fluid_ounce"), (r"^(?:metric )?tonnes?$", "metric_ton"),
    (r"^kilos?$", "kilogram"), (r"^centigrade$", "celsius"),
)
_WITHIN_A_YEAR = frozenset({"week", "day", "hour", "minute", "second"})
CONVERT_LIKE = 75
"""How alike a first word must be to "convert" (rapidfuzz's ratio) to be read as it: one or two letters off."""
_NOT_UNITS = frozenset({"a", "an", "in", "at", "to", "of", "is", "it", "the", "one", "s", "m", "c", "f"})


class Units:
    name = NAME

    def __init__(self) -> None:
        self._registry = None
        self._lock = threading.Lock()

    @property
    def registry(self):
        """pint's registry, built at first use (about a second) or by :meth:`warm`."""
        with self._lock:
            if self._registry is None:
                import pint

                self._registry = pint.UnitRegistry()
            return self._registry

    def warm(self) -> None:
        self.registry.parse_units("meter")

    def match(self, text: str, context: SkillContext) -> SkillReply | None:
        if has_hangul(text):
            return korean_units.match(NAME, text, context, self.registry)
        said = normalize(text)
        count = counts.match(said, context)
        if count is not None:
            return SkillReply(NAME, count)
        if (height := _HEIGHT.match(said)) is not None:
            return self._height(height)
        form = next((m for f in _FORMS if (m := f.match(said))), None) or _FORMS[1].match(_convert_misheard(said))
        if form is None:
            return None
        source, target = self._unit(form["from"]), self._unit(form["to"])
        if source is None or target is None:
            return None
        if source.dimensionality != target.dimensionality:
            if not {str(source), str(target)} & {"ounce"}:
                return None
            source, target = (self._fluid(u) for u in (source, target))
            if source.dimensionality != target.dimensionality:
                return None
        amount = 1.0 if form["amount"] in ("a", "an") else float(form["amount"].replace("minus ", "-"))
        if amount < 0 and str(source.dimensionality) != "[temperature]":
            return None  # (minus 5 miles is no distance)
        if str(source) == "year" and str(target) in _WITHIN_A_YEAR:  # pint's year is 365.25 days
            amount, source = amount * 365, self.registry.parse_units("day")
        value = self.registry.Quantity(amount, source).to(target).magnitude
        spoken, target_words = spoken_number(value), _with_degrees(form["to"], target)
        if form.re is _FORMS[0]:
            return SkillReply(NAME, f"There {'is' if spoken == '1' else 'are'} {spoken} {target_words} in "
                                    f"{form['amount']} {form['from']}.")
        said = f"{form['amount']} {_with_degrees(form['from'], source)}"
        return SkillReply(NAME, f"{said[:1].upper()}{said[1:]} is {spoken} {target_words}{_feet_and_inches(value, target)}.")

    def _height(self, height: re.Match) -> SkillReply | None:
        target = self._unit(height["to"])
        if target is None or str(target.dimensionality) != "[length]":
            return None
        inches = float(height["feet"]) * 12 + float(height["inches"])
        value = self.registry.Quantity(inches, "inch").to(target).magnitude
        return SkillReply(NAME, f"{height['feet']} feet {height['inches']} inches is {spoken_number(value)} {height['to']}.")

    def _unit(self, words: str):
        """pint's unit for the words said, when it is one of :data:`KINDS`."""
        if words in _NOT_UNITS or len(words) < 2:
            return None
        for pattern, replacement in _SPOKEN_AS:
            words = re.sub(pattern, replacement, words)
        try:  # "fluid ounce" is one unit; "miles per hour" is two, divided
            unit = self.registry.parse_units(words if " per " in words else words.replace(" ", "_"))
        except Exception:  # noqa: BLE001 - pint raises several kinds for words that are no unit
            return None
        return unit if str(unit.dimensionality) in KINDS else None

    def _fluid(self, unit):
        """Ounces next to a volume are fluid ounces."""
        return self.registry.parse_units("fluid_ounce") if str(unit) == "ounce" else unit


def _convert_misheard(said: str) -> str:
    """``said`` with its first word read as "convert" where it is a letter or two off ("convere 10 miles to
    kilometers", "conveate 3 miles to kilometers": eSpeak NG's Scottish voices through Whisper tiny.en); the
    units on both sides still decide."""
    first, _, rest = said.partition(" ")
    return f"convert {rest}" if rest and first != "convert" and fuzz.ratio(first, "convert") >= CONVERT_LIKE else said


def _feet_and_inches(value: float, target) -> str:
    """A person's height in feet also in feet and inches, as it is said ("5.91 feet, or 5 feet 11 inches")."""
    if str(target) != "foot" or not 3 <= value < 8:
        return ""
    feet, inches = divmod(round(value * 12), 12)
    return f", or {feet} feet {inches} inch{'' if inches == 1 else 'es'}" if inches else ""


def _with_degrees(words: str, unit) -> str:
    """"celsius" said as "degrees celsius" (kelvin stays kelvin)."""
    if str(unit.dimensionality) == "[temperature]" and "degree" not in words and str(unit) != "kelvin":
        return f"degrees {words}"
    return words


def create(setup: SkillSetup) -> Units:  # noqa: ARG001 - every skill gets the setup
    units = Units()
    units.warm()  # here, not during the first turn: pint's registry takes about a second to build
    return units
