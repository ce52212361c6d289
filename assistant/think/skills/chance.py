"""Chance, really drawn: "flip a coin", "heads or tails", "roll a die", "roll two dice", "pick a number
between 1 and 10"; "동전 던져 줘", "주사위 굴려 줘", "1부터 10까지 숫자 하나 골라 줘".

A language model does not draw (SmolLM2-135M answered "Flip a coin." with "That's a classic."); the
skill draws from the system's randomness. Guard: the whole utterance must be one of these forms.
"""

from __future__ import annotations

import random
import re
import time

from assistant.think.skills import SkillContext, SkillReply, SkillSetup
from assistant.think.skills.korean_numbers import copula, parse, say, subject
from assistant.think.skills.text import capital, normalize
from assistant.writing import has_hangul, plain_words

NAME = "chance"
MOST_DICE = 10
_RANKS = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king")
MOST_NUMBER = 1_000_000
HOLD_S = 3.0
"""One request, one draw: asked again within this (the words read at a pause and again at the endpoint, or
with a misheard function word guessed in several ways), the same request gets the same answer."""

_FORMS = (
    ("coin", re.compile(r"^(?:(?:flip|toss) (?:a|the|1) coin|heads or tails|coin (?:flip|toss))(?: for me)?$")),
    ("coins", re.compile(r"^(?:flip|toss) (?:(?P<count>\d+) coins|(?:a|the|1) coin (?P<times>twice|3 times|\d+ times))"
                         r"(?: for me)?$")),
    ("card", re.compile(r"^(?:pick|draw|choose|deal|give me|deal me) (?:me )?(?:a|1|a random) (?:playing )?card"
                        r"(?: any card)?(?: for me)?$")),
    ("dice", re.compile(r"^(?:roll|throw|toss) (?:(?P<count>\d+|a|the|a pair of) )?(?:(?P<sides>\d+) sided )?"
                        r"(?:die|dice|dices)(?: for me)?$")),
    ("number", re.compile(r"^(?:pick|choose|give me|tell me|say|think of|generate) (?:me )?(?:a|1) (?:random )?number"
                          r"(?: between| from) (?P<low>-?\d+) (?:and|to) (?P<high>-?\d+)$")),
    ("number", re.compile(r"^(?:a )?random number (?:between|from) (?P<low>-?\d+) (?:and|to) (?P<high>-?\d+)$")),
)
_KOREAN_FORMS = (
    ("coin", re.compile(r"^(?:동전|코인) ?(?:을|좀|하나)? ?(?:던져|던저|던지기|튕겨|굴려)(?: ?(?:줘|줄래|줄래요|주세요|봐))?$")),
    ("coins", re.compile(r"^(?:동전|코인) ?(?:을|좀)? ?(?P<count>\S+?) ?(?:개|번) ?(?:던져|던저|던지기|튕겨|굴려)"
                         r"(?: ?(?:줘|줄래|줄래요|주세요|봐))?$")),
    ("dice", re.compile(r"^(?:주사위) ?(?:를|좀|하나)? ?(?:굴려|던져|던저|굴리기)(?: ?(?:줘|줄래|줄래요|주세요|봐))?$")),
    ("dice", re.compile(r"^(?:주사위) ?(?:를|좀)? ?(?P<count>\S+?) ?(?:개|번) ?(?:굴려|던져|던저|굴리기)"
                        r"(?: ?(?:줘|줄래|줄래요|주세요|봐))?$")),
    ("number", re.compile(r"^(?P<low>\S+?)(?:부터|에서) (?P<high>\S+?) ?(?:까지|사이|사이에서|사이의)? (?:숫자|수) ?(?:를|좀)? ?(?:하나|한 개)? ?"
                          r"(?:골라|뽑아|말해|정해)(?: ?(?:줘|줄래|줄래요|주세요|봐))?$")),
)


class Chance:
    name = NAME

    def __init__(self, draw: random.Random | None = None, clock=time.monotonic):
        self.draw = draw or random.SystemRandom()
        self.clock = clock
        self._held: tuple[tuple, float, str | None] | None = None
        """The last request, when it was drawn, and its answer (:data:`HOLD_S`)."""

    def match(self, text: str, context: SkillContext) -> SkillReply | None:  # noqa: ARG002 - the skills' signature
        korean = has_hangul(text)
        said = plain_words(text) if korean else normalize(text)
        hit = next(((kind, m) for kind, form in (_KOREAN_FORMS if korean else _FORMS) if (m := form.match(said))), None)
        if hit is None:
            return None
        kind, found = hit
        asked = _asked(found)
        request, now = (korean, kind, *asked), self.clock()
        if self._held is not None and self._held[0] == request and now - self._held[1] < HOLD_S:
            answer = self._held[2]
        else:
            answer = self._korean(kind, found) if korean else self._english(kind, asked)
        self._held = (request, now, answer)
        return SkillReply(NAME, answer) if answer else None

    def _english(self, kind: str, asked: tuple) -> str | None:
        if kind == "coin":
            return f"{self.draw.choice(('Heads', 'Tails'))}."
        if kind == "coins":
            if not 2 <= asked[0] <= MOST_DICE:
                return None
            sides = [self.draw.choice(("heads", "tails")) for _ in range(asked[0])]
            return capital(f"{', '.join(sides[:-1])} and {sides[-1]}.")
        if kind == "card":
            return f"The {self.draw.choice(_RANKS)} of {self.draw.choice(('hearts', 'diamonds', 'clubs', 'spades'))}."
        if kind == "dice":
            dice, sides = asked
            if not 1 <= dice <= MOST_DICE or not 2 <= sides <= 100:
                return None
            rolled = [self.draw.randint(1, sides) for _ in range(dice)]
            if dice == 1:
                return f"You rolled a {rolled[0]}."
            return f"You rolled {', '.join(map(str, rolled[:-1]))} and {rolled[-1]}: {sum(rolled)} in all."
        low, high = sorted(map(int, asked))
        if high - low > MOST_NUMBER or low == high:
            return None
        return f"I picked {self.draw.randint(low, high)}."

    def _korean(self, kind: str, found: re.Match) -> str | None:
        if kind == "coin":
            return f"{self.draw.choice(('앞면', '뒷면'))}이에요."
        count = _korean_count(found)
        if kind == "coins":
            if count is None or not 2 <= count <= MOST_DICE:
                return None
            return f"{', '.join(self.draw.choice(('앞면', '뒷면')) for _ in range(count))}이에요."
        if kind == "dice" and count is not None and count != 1:
            if not 2 <= count <= MOST_DICE:
                return None
            rolled = [self.draw.randint(1, 6) for _ in range(count)]
            return f"{', '.join(say(n) for n in rolled)}, 합해서 {copula(say(sum(rolled)))}."
        if kind == "dice":
            return f"{subject(say(self.draw.randint(1, 6)))} 나왔어요."
        low, high = (parse(found["low"]), parse(found["high"]))
        if low is None or high is None or low != int(low) or high != int(high):
            return None
        low, high = sorted((int(low), int(high)))
        if high - low > MOST_NUMBER or low == high:
            return None
        return f"{copula(say(self.draw.randint(low, high)))}."


def _korean_count(found: re.Match) -> int | None:
    """How many coins or dice a Korean request asks for ("두 개", "세 번"; none said: one)."""
    said = found.groupdict().get("count")
    count = parse(said, counter=True) if said else 1
    return int(count) if count is not None and count == int(count) else None


def _asked(found: re.Match) -> tuple:
    """What a request asks for, however it was worded: how many dice ("a", "the", "1" are one), or the range."""
    named = found.groupdict()
    if "times" in named:  # coins: how many, or how many times one
        times = named["times"] or ""
        return (2 if times == "twice" else int(times.split()[0]) if times else int(named["count"]),)
    if not named:
        return ()
    if "count" in named and named["count"] and has_hangul(named["count"]):
        return (_korean_count(found),)
    if "count" in named:
        count = named["count"]
        dice = 2 if count == "a pair of" else 1 if count in (None, "a", "the") else int(count)
        return (dice, int(named.get("sides") or 6)) if "sides" in named else (dice,)
    return tuple(named.get(key) for key in ("low", "high"))


def create(setup: SkillSetup) -> Chance:  # noqa: ARG001 - every skill gets the setup
    return Chance()
