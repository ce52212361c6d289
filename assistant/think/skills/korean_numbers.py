"""Korean numbers, read and said: Sino-Korean (일, 이, 삼… 십, 백, 천, 만), native (하나, 둘…
열, 스물… 아흔아홉; 한, 두, 세, 네, 스무 before a counter) and digits, and the particles
that follow a word (은/는, 이/가, 을/를, 으로/로, 이에요/예요).

Which numbers go with which counter is the speaker's business: ``parse`` reads any of
them, and the skills say them the Korean way: hours of the clock and of a duration in
native numbers ("세 시", "두 시간"), everything else Sino-Korean ("십 분", "삼 점 일 마일").
"""

from __future__ import annotations

import re

from assistant.think import hangul
from assistant.think.korean import sino

SINO_DIGITS = {"영": 0, "공": 0, "일": 1, "이": 2, "삼": 3, "사": 4, "오": 5, "육": 6, "륙": 6, "칠": 7, "팔": 8,
               "구": 9}
_SMALL_UNITS = {"십": 10, "백": 100, "천": 1000}
_BIG_UNITS = {"만": 10**4, "억": 10**8, "조": 10**12}
_NATIVE_ONES = {"하나": 1, "둘": 2, "셋": 3, "넷": 4, "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9}
_NATIVE_BOUND = {"한": 1, "두": 2, "세": 3, "석": 3, "네": 4, "넉": 4}
"""The forms of 1-4 that stand before a counter ("한 시간", "세 시")."""
_NATIVE_TENS = {"열": 10, "스물": 20, "스무": 20, "서른": 30, "마흔": 40, "쉰": 50, "예순": 60, "일흔": 70,
                "여든": 80, "아흔": 90}
_NATIVE_SAID = ("", "한", "두", "세", "네", "다섯", "여섯", "일곱", "여덟", "아홉")
_NATIVE_TENS_SAID = ("", "열", "스물", "서른", "마흔", "쉰", "예순", "일흔", "여든", "아흔")
_DIGITS = re.compile(r"\d+(?:\.\d+)?")


def parse(words: str, counter: bool = False) -> float | None:
    """The number ``words`` say (spaces ignored), or None: "삼십칠" 37, "이 점 오" 2.5,
    "3만" 30000, "12" 12, "스물다섯" 25; "한", "두", "세", "네", "스무" only with ``counter``
    (a counter follows: "한 시간")."""
    text = hangul.squeeze(words)
    if not text:
        return None
    if _DIGITS.fullmatch(text):
        return float(text)
    native = _native(text, counter)
    if native is not None:
        return float(native)
    whole, point, fraction = text.partition("점")
    if not point:
        value = _sino_whole(whole)
        return None if value is None else float(value)
    if not fraction or any(c not in SINO_DIGITS for c in fraction):
        return None
    value = _sino_whole(whole) if whole else 0
    return None if value is None else float(f"{value}.{''.join(str(SINO_DIGITS[c]) for c in fraction)}")


def _sino_whole(text: str) -> int | None:
    """A whole Sino-Korean number (digits may stand for its digits: "3만"); None unless its
    digits and units come in order ("삼사" and "십십" are no numbers)."""
    if text in ("영", "공"):
        return 0
    total, section, digit = 0, 0, None
    last_small, last_big = 10**5, 10**16
    for token in re.findall(r"\d+|.", text):
        if token.isdigit() or (token in SINO_DIGITS and SINO_DIGITS[token]):
            if digit is not None:
                return None
            digit = int(token) if token.isdigit() else SINO_DIGITS[token]
        elif token in _SMALL_UNITS:
            unit = _SMALL_UNITS[token]
            if unit >= last_small or (digit or 1) >= 10:
                return None
            section += (digit or 1) * unit
            digit, last_small = None, unit
        elif token in _BIG_UNITS:
            unit = _BIG_UNITS[token]
            if unit >= last_big:
                return None
            total += (section + (digit or 0) or 1) * unit
            section, digit, last_small, last_big = 0, None, 10**5, unit
        else:
            return None
    return total + section + (digit or 0)


def _native(text: str, counter: bool) -> int | None:
    ones = {**_NATIVE_ONES, **(_NATIVE_BOUND if counter else {})}
    tens = {k: v for k, v in _NATIVE_TENS.items() if counter or k != "스무"}
    if text in ones:
        return ones[text]
    for word, value in tens.items():
        if text == word:
            return value
        if text.startswith(word) and text[len(word):] in ones and word != "스무":
            return value + ones[text[len(word):]]
    return None


# ------------------------------------------------------------------ saying numbers


def say(value: float) -> str:
    """A number in Sino-Korean words: 37 → 삼십칠, 3.11 → 삼 점 일일, 120000 → 십이만,
    -2 → 마이너스 이."""
    if value < 0:
        return "마이너스 " + say(-value)
    text = f"{value:.10f}".rstrip("0").rstrip(".")
    whole, _, fraction = text.partition(".")
    words = _say_whole(int(whole))
    if fraction:
        words += " 점 " + "".join("영일이삼사오육칠팔구"[int(d)] for d in fraction)
    return words


def _say_whole(number: int) -> str:
    if number < 10000:
        return sino(number)
    parts = []
    for unit, size in (("조", 10**12), ("억", 10**8), ("만", 10**4)):
        count, number = divmod(number, size)
        if count:
            parts.append(("" if count == 1 and unit == "만" else sino(count)) + unit)
    if number:
        parts.append(sino(number))
    return " ".join(parts)


def native(number: int) -> str:
    """1-99 in native words as they stand before a counter: 1 → 한, 20 → 스무, 23 → 스물세;
    other numbers in Sino-Korean ones."""
    if not 1 <= number <= 99:
        return say(number)
    tens, ones = divmod(number, 10)
    if tens == 2 and ones == 0:
        return "스무"
    return _NATIVE_TENS_SAID[tens] + _NATIVE_SAID[ones]


# ------------------------------------------------------------------ particles


def _closed(word: str) -> bool:
    """Whether ``word`` ends in a consonant (a digit is read: 1, 3, 6, 7, 8, 0 do)."""
    tail = word.rstrip(" .,!?")[-1:]
    if tail.isdigit():
        return tail in "136780"
    return bool(hangul.final_consonant(word.rstrip(" .,!?")))


def topic(word: str) -> str:
    """``word`` with 은 or 는: 팔은, 오는."""
    return word + ("은" if _closed(word) else "는")


def subject(word: str) -> str:
    """``word`` with 이 or 가."""
    return word + ("이" if _closed(word) else "가")


def obj(word: str) -> str:
    """``word`` with 을 or 를."""
    return word + ("을" if _closed(word) else "를")


def towards(word: str) -> str:
    """``word`` with 으로 or 로 (로 after ㄹ too: 칠로)."""
    final = hangul.final_consonant(word.rstrip(" .,!?"))
    return word + ("으로" if final and final != "ㄹ" else "로")


def copula(word: str) -> str:
    """``word`` with 이에요 or 예요: 팔이에요, 오예요."""
    return word + ("이에요" if _closed(word) else "예요")


def past_copula(word: str) -> str:
    """``word`` with 이었어요 or 였어요: 일요일이었어요, 추석이었어요."""
    return word + ("이었어요" if _closed(word) else "였어요")
