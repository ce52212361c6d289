"""The time, the date and the day of the week, in the user's locale (babel).

Guard: only the whole question counts ("what time is it", "what's today's date", "what
day is it tomorrow"); "what time does the shop open" goes to the LLM, "what day is Christmas" to the calendar.
The time in another place ("what time is it in Tokyo") is :mod:`world_clock`'s; times and dates worked out from
now ("how long until 5 pm", "what time will it be in 3 hours") :mod:`time_math`'s.
"""

from __future__ import annotations

import logging
import re
from datetime import timedelta

from babel import Locale, UnknownLocaleError, default_locale
from babel.dates import format_date, format_time

from assistant.writing import has_hangul
from assistant.think.skills import SkillContext, SkillReply, SkillSetup, korean_clock, time_math, world_clock
from assistant.think.skills.text import WEEKDAY_NAMES, normalize

log = logging.getLogger(__name__)

NAME = "clock"
FALLBACK_LOCALE = "en_US"

_NOW = r"(?: now| right now| DAY)?"
_PART_OF_DAY = r"(?:morning|afternoon|evening|night|daytime|nighttime|day|night time)"
"""("Is it morning or afternoon?", "Is it still morning?": the time answers it.)"""
_IS = r"(?:is|was|will be)"
_IT_IS = r"(?:is it|was it|will it be)"
_DAY_WORD = re.compile(r"\b(the day after tomorrow|the day before yesterday|today|tomorrow|yesterday)\b")
_QUESTIONS = (  # "DAY" stands for today, tomorrow or yesterday
    ("time", re.compile(
        rf"^(?:what time is it|what is the (?:current )?time|(?:can you |could you )?tell me the time"
        rf"|do you (?:have|know) the time|(?:have you |you )?got the time|time){_NOW}$"
        rf"|^is it (?:still |already )?(?:the )?{_PART_OF_DAY}(?: or (?:the )?{_PART_OF_DAY})?(?: yet| now| already| still)?$")),
    ("weekday", re.compile(
        rf"^(?:(?:what|which) (?:day of (?:the|a) week|weekday) {_IT_IS}(?: DAY)?|what (?:day of the week|weekday) {_IS} DAY)$")),
    ("date", re.compile(
        rf"^(?:what is (?:the )?(?:date|day)(?: DAY)?|what is DAY(?: date| day)?|(?:what|which) (?:date|day) {_IT_IS}(?: DAY)?"
        rf"|(?:what|which) day of the month is(?: it)?(?: DAY)?|(?:what|which) (?:day|date) {_IS} DAY|(?:can you |could you )?tell me (?:the|DAY) date|DAY date"
        rf"|what (?:was|will) (?:the )?(?:date|day)(?: be)? DAY|what was DAY(?: date)?)$")),
    ("is_day", re.compile(
        rf"^(?:(?:is|was|will) (?:it|DAY)(?: be)?(?: still| already)? (?:a |an |the )?(?P<asked>{'|'.join(WEEKDAY_NAMES)}|weekday|week day|weekend)"
        rf"(?: DAY| yet| already| now)?|are we (?:in|at|on) the weekend(?: yet| already| now)?)$")),
    ("year", re.compile(r"^(?:what year is it(?: now)?|what is the (?:current )?year|what year are we in)$")),
    ("month", re.compile(r"^(?:what month is it(?: now)?|what is the (?:current )?month|what month are we in)$")),
)
_OFFSETS = {"today": 0, "tomorrow": 1, "yesterday": -1, "the day after tomorrow": 2, "the day before yesterday": -2, None: 0}
ASKED_MOST = {
    "en": ("what time is it", "what is the date today", "what day of the week is it"),
    "ko": ("지금 몇 시야", "오늘 며칠이야", "오늘 무슨 요일이야"),
}
"""The clock's questions asked most, per language: their answers at the coming minute are synthesized
ahead (:meth:`~assistant.think.skills.Skills.passing_answers`), so the answer plays at once."""


def system_locale() -> str:
    """The locale the system's environment asks for (LC_TIME, LC_ALL, LANG), else en_US."""
    return default_locale(("LC_ALL", "LC_TIME", "LANG", "LANGUAGE")) or FALLBACK_LOCALE


def resolve_locale(name: str) -> Locale:
    """``name`` as a babel locale ('' follows the system); an unknown one falls back to en_US."""
    try:
        return Locale.parse(name or system_locale())
    except (UnknownLocaleError, ValueError, TypeError) as exc:
        log.warning("unknown locale %r (%s); times and dates are said as in %s", name, exc, FALLBACK_LOCALE)
        return Locale.parse(FALLBACK_LOCALE)


class Clock:
    name = NAME

    def __init__(self, locale: Locale):
        self.locale = locale

    def match(self, text: str, context: SkillContext) -> SkillReply | None:
        if has_hangul(text):
            elsewhere = world_clock.korean(text, context.now)
            return SkillReply(NAME, elsewhere) if elsewhere else korean_clock.match(NAME, text, context)
        said = normalize(text)
        if (elsewhere := world_clock.english(said, context.now, self.locale)) is not None:
            return SkillReply(NAME, elsewhere)
        if (worked_out := time_math.english(said, context.now, self.locale)) is not None:
            return SkillReply(NAME, worked_out)
        days = _DAY_WORD.findall(said)
        if len(days) > 1:
            return None
        said = _DAY_WORD.sub("DAY", said)
        for kind, pattern in _QUESTIONS:
            if found := pattern.match(said):
                day = days[0] if days else None
                answer = self._is_day(found["asked"] or "weekend", day, context) if kind == "is_day" else \
                    self._answer(kind, day, context)
                return SkillReply(NAME, answer.replace("\u202f", " ").replace("\xa0", " "))
        return None

    def _answer(self, kind: str, day: str | None, context: SkillContext) -> str:
        now, locale = context.now, self.locale
        when = now + timedelta(days=_OFFSETS[day])
        verb = {"tomorrow": "Tomorrow is", "yesterday": "Yesterday was", "the day after tomorrow": "The day after tomorrow is",
                "the day before yesterday": "The day before yesterday was"}.get(day or "", "Today is")
        if kind == "time":
            return f"It's {format_time(now, format='short', locale=locale)}."
        if kind == "weekday":
            return f"{verb} {format_date(when, format='EEEE', locale=locale)}."
        if kind == "year":
            return f"It's {format_date(now, format='y', locale=locale)}."
        if kind == "month":
            return f"It's {format_date(now, format='LLLL', locale=locale)}."
        return f"{verb} {format_date(when, format='full', locale=locale)}."

    def _is_day(self, asked: str, day: str | None, context: SkillContext) -> str:
        """Yes or no to "Is today Friday?", "Is tomorrow a weekday?", "Is it the weekend yet?", with the day it is."""
        weekday = (context.now + timedelta(days=_OFFSETS[day])).weekday()
        weekend = time_math.in_weekend(weekday, (self.locale.weekend_start, self.locale.weekend_end))
        yes = weekend if asked == "weekend" else not weekend if asked in ("weekday", "week day") else \
            WEEKDAY_NAMES.index(asked) == weekday
        said = self._answer("weekday", day, context)
        return f"{'Yes' if yes else 'No'}, {said[0].lower()}{said[1:]}"

    def time_of(self, moment) -> str:
        """A clock time as this locale says it ("7:30 AM")."""
        return format_time(moment, format="short", locale=self.locale).replace("\u202f", " ").replace("\xa0", " ")


def create(setup: SkillSetup) -> Clock:
    return Clock(resolve_locale(setup.config.locale))
