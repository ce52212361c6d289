"""Numbers worked out for the arithmetic skill, beyond a sum: a tip and a bill split, whether a number is prime,
even or odd, a factorial, an average, a remainder, whether one divides another, a number's zeros, a number
rounded, Roman numerals, counting.

"Is 91 prime?", "What's a 20 percent tip on 45 dollars?", "Count to ten." are what the small model answers with
confidence and gets wrong; they are exact here. Guard: the whole question (after "what is", "calculate"...) must be
one of these forms, with its numbers said: "what is a prime minister", "is it even possible", "how do I count
calories", "what is the average height of a man" stay the model's.
"""

from __future__ import annotations

import math
import re

from assistant.think.skills.text import NUMBER, spoken_number

_MONEY = r"(?: (?:dollars?|euros?|pounds?|bucks|bill))?"
_SOME = r"(?:(?:a |an |the )?)"
_ROMAN = ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
          (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))
_PLACES = {"1": 1, "one": 1, "2": 2, "two": 2, "3": 3, "three": 3, "4": 4, "four": 4}
_NEAREST = {"whole number": 0, "integer": 0, "10": -1, "100": -2, "1000": -3}
"""(the words as normalized: "the nearest hundred" is "the nearest 100")"""
COUNT_MOST = 30
"""The most numbers counted out loud at once."""
_FORMS = tuple((kind, re.compile(form)) for kind, form in (
    ("tip", rf"^{_SOME}(?P<p>{NUMBER}) percent tip (?:on|for|of) (?:a |an )?(?P<a>{NUMBER}){_MONEY}$"),
    ("tip", rf"^{_SOME}tip of (?P<p>{NUMBER}) percent (?:on|for) (?:a |an )?(?P<a>{NUMBER}){_MONEY}$"),
    ("split", rf"^(?:split|divide|share) (?:a |the )?(?P<a>{NUMBER}){_MONEY} (?:between|among|amongst) (?P<n>{NUMBER}|2)"
              rf"(?: people| persons| ways| friends| of us)?$"),
    ("split", rf"^(?:split|divide|share) (?:a |the )?(?P<a>{NUMBER}){_MONEY} (?P<n>{NUMBER}) ways$"),
    ("prime", rf"^is (?P<n>{NUMBER}) (?:a )?prime(?: number)?$"),
    ("parity", rf"^is (?P<n>{NUMBER}) (?:an? )?(?P<kind>even|odd)(?: number)?$"),
    ("factorial", rf"^(?:the )?(?:factorial of (?P<n>{NUMBER})|(?P<n2>{NUMBER}) factorial)$"),
    ("mean", rf"^the (?:average|mean) of (?P<list>{NUMBER}(?: {NUMBER})*(?: and {NUMBER}))$"),
    ("remainder", rf"^the remainder (?:of|when|if) (?P<a>{NUMBER}) (?:is )?(?:divided by|over) (?P<b>{NUMBER})$"),
    ("remainder", rf"^(?P<a>{NUMBER}) mod(?:ulo)? (?P<b>{NUMBER})$"),
    ("round", rf"^round (?P<x>{NUMBER}) to (?:the nearest )?(?P<places>1|2|3|4|one|two|three|four) decimal places?$"),
    ("round", rf"^round (?P<x>{NUMBER}) to the nearest (?P<nearest>whole number|integer|10|100|1000)$"),
    ("roman", rf"^(?P<n>{NUMBER}) in roman numerals?$"),
    ("roman", rf"^how do (?:you|i) write (?P<n>{NUMBER}) in roman numerals?$"),
    ("divisible", rf"^(?:is (?P<a>{NUMBER}) divisible|can (?P<a2>{NUMBER}) be divided(?: evenly)?) by (?P<b>{NUMBER})$"),
    ("zeros", r"^how many zeros? (?:are there |are |is there )?in (?:a |one |1 )?(?P<n>10+)$"),
    ("zeros", r"^how many zeros? (?:does|do) (?:a |one |1 )?(?P<n>10+) have$"),
    ("count", r"^count (?:to|up to|from 1 to|from one to) (?:a )?(?P<b>\d+)$"),
    ("count", r"^count from (?P<a>\d+) to (?P<b>\d+)$"),
    ("count", r"^count (?:down|backwards?|back) from (?P<a>\d+)(?: to (?P<b>0|1|zero|one))?$"),
))


def match(body: str) -> str | None:
    """The answer to ``body`` (the question without its "what is"), or None."""
    hit = next(((kind, m) for kind, form in _FORMS if (m := form.match(body))), None)
    return _ANSWERS[hit[0]](hit[1]) if hit else None


def _whole(said: str) -> int | None:
    value = float({"one": "1", "two": "2", "zero": "0"}.get(said, said))
    return int(value) if value == int(value) else None


def _article(number: str) -> str:
    """ "An" before a number said with a vowel first (8, 11, 18, 80...), else "A"."""
    return "An" if number.startswith("8") or number in ("11", "18") or re.match(r"^1[18]\d{3}$", number) else "A"


def _tip(found: re.Match) -> str:
    percent, amount = float(found["p"]), float(found["a"])
    tip = amount * percent / 100
    return f"{_article(spoken_number(percent))} {spoken_number(percent)} percent tip on {spoken_number(amount)} is {spoken_number(round(tip, 2))}, " \
           f"so {spoken_number(round(amount + tip, 2))} in all."


def _split(found: re.Match) -> str | None:
    people = _whole(found["n"])
    if not people or people < 2:
        return None
    return f"{spoken_number(float(found['a']))} split {people} ways is {spoken_number(round(float(found['a']) / people, 2))} each."


def _prime(found: re.Match) -> str | None:
    n = _whole(found["n"])
    if n is None or n > 10**12:
        return None
    if n < 2:
        return f"No, {n} is not a prime number."
    factor = smallest_factor(n)
    if factor is None:
        return f"Yes, {n} is a prime number."
    return f"No, {n} is not prime: it's {factor} times {n // factor}."


def smallest_factor(n: int) -> int | None:
    """The least factor of ``n`` (2 or more) other than 1 and itself; None for a prime."""
    return next((f for f in range(2, math.isqrt(n) + 1) if n % f == 0), None)


def _parity(found: re.Match) -> str | None:
    n = _whole(found["n"])
    if n is None:
        return None
    actual = "even" if n % 2 == 0 else "odd"
    return f"{'Yes' if actual == found['kind'] else 'No'}, {n} is {actual}."


def _factorial(found: re.Match) -> str | None:
    n = _whole(found["n"] or found["n2"])
    if n is None or n > 20:
        return None if n is None else "That's too big a number to say: I say factorials up to 20."
    return f"{n} factorial is {math.factorial(n)}."


def _mean(found: re.Match) -> str:
    numbers = [float(x) for x in found["list"].replace(" and ", " ").split()]
    listed = ", ".join(spoken_number(x) for x in numbers[:-1]) + f" and {spoken_number(numbers[-1])}"
    return f"The average of {listed} is {spoken_number(sum(numbers) / len(numbers))}."


def _remainder(found: re.Match) -> str | None:
    a, b = _whole(found["a"]), _whole(found["b"])
    if a is None or not b:
        return None
    return f"{a} divided by {b} is {a // b}, remainder {a % b}."


def _round(found: re.Match) -> str:
    x = float(found["x"])
    if found.groupdict().get("nearest"):
        digits = _NEAREST[found["nearest"]]
        nearest = {"10": "ten", "100": "hundred", "1000": "thousand"}.get(found["nearest"], found["nearest"])
        return f"{found['x']} rounded to the nearest {nearest} is {spoken_number(round(x, digits))}."
    places = _PLACES[found["places"]]
    return f"{found['x']} rounded to {places} decimal place{'' if places == 1 else 's'} is {round(x, places):.{places}f}."


def _roman(found: re.Match) -> str | None:
    n = _whole(found["n"])
    if n is None or not 0 < n < 4000:
        return None if n is None else "Roman numerals go from 1 to 3999."
    letters = []
    for value, numeral in _ROMAN:
        count, n = divmod(n, value)
        letters.append(numeral * count)
    return f"{found['n']} in Roman numerals is {' '.join(''.join(letters))}."


def _divisible(found: re.Match) -> str | None:
    a, b = _whole(found["a"] or found["a2"]), _whole(found["b"])
    if a is None or not b:
        return None
    if a % b:
        return f"No, {a} divided by {b} is {a // b}, remainder {a % b}."
    return f"Yes, {a} divided by {b} is {a // b}."


def _zeros(found: re.Match) -> str:
    return f"{int(found['n']):,} has {len(found['n']) - 1} zeros."


def _count(found: re.Match) -> str | None:
    given = found.groupdict()
    start = _whole(given["a"]) if given.get("a") is not None else 1
    end = _whole(given["b"]) if given.get("b") is not None else 1
    if start is None or end is None or start == end:
        return None
    numbers = range(start, end + 1) if end > start else range(start, end - 1, -1)
    if len(numbers) > COUNT_MOST:
        return f"That's a lot of counting: I count {COUNT_MOST} numbers at a time."
    return ", ".join(map(str, numbers)) + "."


_ANSWERS = {"tip": _tip, "split": _split, "prime": _prime, "parity": _parity, "factorial": _factorial, "mean": _mean,
            "remainder": _remainder, "round": _round, "roman": _roman, "count": _count, "divisible": _divisible,
            "zeros": _zeros}
