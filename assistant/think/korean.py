"""Korean words for the clock and the calendar, spelled out as they are read aloud.

A voice reads "3시" as "삼 시"; Koreans say "세 시": hours take native numbers (한, 두,
세...), minutes, months and days Sino-Korean ones (일, 이, 삼...), and June and October
lose a sound (유월, 시월). Replies spell them out so any Korean voice reads them right.
"""

from __future__ import annotations

from datetime import datetime

_NATIVE_HOURS = ("열두", "한", "두", "세", "네", "다섯", "여섯", "일곱", "여덟", "아홉", "열", "열한")
_SINO_DIGITS = ("", "일", "이", "삼", "사", "오", "육", "칠", "팔", "구")
_MONTHS = {6: "유월", 10: "시월"}
WEEKDAYS = ("월요일", "화요일", "수요일", "목요일", "금요일", "토요일", "일요일")


def sino(number: int) -> str:
    """A number from 0 to 9999 in Sino-Korean words: 25 → 이십오, 10 → 십, 0 → 영."""
    if number == 0:
        return "영"
    words = []
    for value, unit in ((1000, "천"), (100, "백"), (10, "십")):
        digit, number = divmod(number, value)
        if digit:
            words.append(("" if digit == 1 else _SINO_DIGITS[digit]) + unit)
    words.append(_SINO_DIGITS[number])
    return "".join(words)


def time_words(now: datetime) -> str:
    """``오후 세 시 이십오 분``; on the hour ``오전 열 시``."""
    half = "오전" if now.hour < 12 else "오후"
    hour = f"{half} {_NATIVE_HOURS[now.hour % 12]} 시"
    return hour if now.minute == 0 else f"{hour} {sino(now.minute)} 분"


def date_words(now: datetime) -> str:
    """``십일월 삼십일 일요일``."""
    month = _MONTHS.get(now.month, f"{sino(now.month)}월")
    return f"{month} {sino(now.day)}일 {WEEKDAYS[now.weekday()]}"


def clock_values(now: datetime) -> dict[str, str]:
    """The Korean placeholders of a reply text: {ko_time}, {ko_date}, {ko_weekday}."""
    return {"ko_time": time_words(now), "ko_date": date_words(now), "ko_weekday": WEEKDAYS[now.weekday()]}
