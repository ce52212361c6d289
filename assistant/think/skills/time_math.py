"""Times and dates worked out from now, for the clock skill: "how long until 5 pm", "what time will it be in 3 hours",
"what time was it 2 hours ago", "what was the date 30 days ago", "how many days until Friday", "what week number
is it", "how old is someone born in 1990", "what year was it 20 years ago", "how many days between March 1 and
June 1", "what day of the week was January 1, 2000".

The small model guesses these with confidence ("How long until 5 pm?" and every such sum of times and dates is
a count it gets wrong); they are exact here. Guard: the whole utterance must be one of these forms, with its
numbers said; "how long until the end of the world", "how old is the Eiffel Tower", "what year did the war end"
stay the model's.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from babel import Locale
from babel.dates import format_date, format_time, get_month_names
from dateutil.relativedelta import relativedelta

from assistant.think.skills.text import NUMBER, WEEKDAY_NAMES, capital, spoken_duration
from assistant.think.skills.timer_forms import duration_s
from assistant.think.skills.timer_store import CLOCK_TIME, next_time, soonest

_MONTHS = {name.lower(): number for number, name in get_month_names("wide", locale="en").items()}
_UNIT = r"(?:hours?|minutes?|seconds?)"
_COUNT = rf"(?:{NUMBER}|an?)"
_DURATION = (rf"(?:{_COUNT}(?: and a half)? {_UNIT}(?: and a half)?(?:(?: and)? {_COUNT} {_UNIT})?"
             rf"|half an? (?:hour|minute))")
_WHEN = rf"(?P<clock>{CLOCK_TIME}|midnight|noon|midday)(?: (?P<day>today|tonight|tomorrow))?"


def _date_said(n: int) -> str:
    """A date as said ("january 10", "july 4th 1776"), its parts named with ``n``."""
    return rf"(?P<month{n}>{'|'.join(_MONTHS)}) (?P<day{n}>\d{{1,2}})(?:st|nd|rd|th)?(?: (?P<year{n}>\d{{4}}))?"


_FORMS = tuple((kind, re.compile(form)) for kind, form in (
    ("until", rf"^how (?:long|much time|many (?:minutes|hours)) (?:is (?:it|there|left) |do (?:i|we) have |"
              rf"have (?:i|we) got )?(?:until|till|til|to|before) {_WHEN}$"),
    ("later", rf"^what (?:time )?(?:will it be|is it going to be|would it be|is it|is the time|will the time be|is)"
              rf"(?: in (?P<d>{_DURATION})| (?P<d2>{_DURATION}) from now)$"),
    ("earlier", rf"^what (?:time was it|was the time) (?P<d>{_DURATION}) ago$"),
    ("date_ago", r"^what (?:was the date|date was it|day was it|was the day|day of the week was it) (?P<n>\d+|an?) "
                 r"(?P<unit>days?|weeks?|months?|years?) ago$"),
    ("date_later", r"^what (?:is the date|will the date be|date will it be|day will it be|will be the date|is the day) "
                   r"(?P<n>\d+) (?P<unit>days?|weeks?|months?) (?:from (?:now|today)|after today)$"),
    ("days_to_date", rf"^how (?:many (?:more )?days|long) (?:are there |is it |are left |left |do (?:i|we) have )?"
                     rf"(?:until|till|til|to|before) (?:(?:my|our|his|her|their|the) [a-z ]+? (?:on|is on) )?{_date_said(1)}$"),
    ("last_day", rf"^what (?:(?:was|is) (?:the )?(?:date|day)(?: of)?|(?:date|day) (?:was|is) it|(?:date|day) was) last "
                 rf"(?P<day>{'|'.join(WEEKDAY_NAMES)})$"),
    ("days_to", rf"^how many (?:more )?days (?:are there |is it |are left |left )?(?:until|till|to|before) (?:next |this |the )?"
                rf"(?P<day>{'|'.join(WEEKDAY_NAMES)}|weekend)$"),
    ("week", r"^what (?:week number is it|is the week number|week of the year is it|week is it)(?: today| now)?$"),
    ("day_of_year", r"^what day of the year is it(?: today)?$"),
    ("born", r"^how old (?:is (?:someone|somebody|a person|a child)|would i be|am i|will i be|would someone be) "
             r"(?:if (?:i was|i am|i were|they were|he was|she was) )?born in (?P<year>\d{4})(?: this year)?$"),
    ("year_ago", r"^what year (?:was it|was) (?P<n>\d+) years? ago$"),
    ("year_later", r"^what year will it be in (?P<n>\d+) years?$"),
    ("between", rf"^how many days (?:are there |is it |are )?(?:between|from) {_date_said(1)} (?:and|to|until) "
                rf"{_date_said(2)}$"),
    ("weekday_of", rf"^what day(?: of the week)? (?:was|is|will be|is it on|was it on) {_date_said(1)}$"),
))


_DAY_FIRST = re.compile(rf"\bthe (\d{{1,2}}(?:st|nd|rd|th)?|first|second|third) of ({'|'.join(_MONTHS)})\b")
_MONTH_THE = re.compile(rf"\b({'|'.join(_MONTHS)}) the (\d{{1,2}}(?:st|nd|rd|th)?|first|second|third)\b")
_ORDINAL_WORDS = {"first": "1", "second": "2", "third": "3"}
"""The ordinals text2num leaves as words (it writes "tenth" as "10th")."""


def dates_as_month_day(said: str) -> str:
    """Dates said day first or with "the" ("the first of april", "june the 10th") as "april 1", "june 10th"."""
    said = _DAY_FIRST.sub(lambda m: f"{m[2]} {_ORDINAL_WORDS.get(m[1], m[1])}", said)
    return _MONTH_THE.sub(lambda m: f"{m[1]} {_ORDINAL_WORDS.get(m[2], m[2])}", said)


def english(said: str, now: datetime, locale: Locale) -> str | None:
    """The answer to ``said`` (as :func:`~assistant.think.skills.text.normalize` writes it), or None."""
    said = dates_as_month_day(said)
    hit = next(((kind, m) for kind, form in _FORMS if (m := form.match(said))), None)
    if hit is None:
        return None
    kind, found = hit
    answer = _ANSWERS[kind](found, now, locale)
    return answer.replace("\u202f", " ").replace("\xa0", " ") if answer else None


def _time(moment: datetime, locale: Locale, now: datetime) -> str:
    said = format_time(moment, format="short", locale=locale)
    days = (moment.date() - now.date()).days
    return said + {0: "", 1: " tomorrow", -1: " yesterday"}.get(days, f" on {format_date(moment, 'EEEE', locale=locale)}")


def _until(found: re.Match, now: datetime, locale: Locale) -> str | None:
    if found["clock"] in ("midnight", "noon", "midday"):
        when = soonest(now, [0 if found["clock"] == "midnight" else 12], 0, tomorrow=found["day"] == "tomorrow")
    else:
        when = next_time(now, found, "tomorrow" if found["day"] == "tomorrow" else None)
    if when is None:
        return None
    minutes = round((when - now).total_seconds() / 60)
    return f"It's {spoken_duration(minutes * 60)} until {_time(when, locale, now)}."


def _later(found: re.Match, now: datetime, locale: Locale) -> str | None:
    seconds = duration_s(found["d"] or found["d2"])
    if not seconds or seconds > 7 * 24 * 3600:
        return None
    return f"In {spoken_duration(seconds)}, it will be {_time(now + timedelta(seconds=seconds), locale, now)}."


def _earlier(found: re.Match, now: datetime, locale: Locale) -> str | None:
    seconds = duration_s(found["d"])
    if not seconds or seconds > 7 * 24 * 3600:
        return None
    return f"{capital(spoken_duration(seconds))} ago, it was {_time(now - timedelta(seconds=seconds), locale, now)}."


def _shifted(found: re.Match, now: datetime, sign: int) -> tuple[date, str] | None:
    count, unit = int(found["n"]) if found["n"].isdigit() else 1, found["unit"].rstrip("s")
    if not 0 < count <= 10000:
        return None
    when = now.date() + sign * relativedelta(**{f"{unit}s": count})
    return when, f"a {unit}" if count == 1 else f"{count} {unit}s"


def _date_ago(found: re.Match, now: datetime, locale: Locale) -> str | None:
    shifted = _shifted(found, now, -1)
    return shifted and f"{capital(shifted[1])} ago, it was {_day(shifted[0], locale, now)}."


def _date_later(found: re.Match, now: datetime, locale: Locale) -> str | None:
    shifted = _shifted(found, now, +1)
    return shifted and f"{capital(shifted[1])} from today, it will be {_day(shifted[0], locale, now)}."


def _day(when: date, locale: Locale, now: datetime) -> str:
    return format_date(when, "EEEE, MMMM d" if when.year == now.year else "EEEE, MMMM d, y", locale=locale)


def days_until(weekday: int | None, today: date, weekend: tuple[int, int] = (5, 6)) -> int | None:
    """Days from ``today`` to the next ``weekday`` (0 Monday; a week on the same day), or to the weekend (``weekday``
    None: its first and last days, ``weekend``, the locale's: Saturday and Sunday, Friday and Saturday, Sunday);
    None when it is the weekend already."""
    if weekday is None:
        return None if in_weekend(today.weekday(), weekend) else (weekend[0] - today.weekday()) % 7
    return (weekday - today.weekday()) % 7 or 7


def in_weekend(weekday: int, weekend: tuple[int, int]) -> bool:
    """``weekday`` (0 Monday) is a day of ``weekend`` (its first and last days: Fri-Sat, Sat-Sun, Sun-Sun...)."""
    start, end = weekend
    return start <= weekday <= end if start <= end else not end < weekday < start


def _days_to(found: re.Match, now: datetime, locale: Locale) -> str:
    weekend = found["day"] == "weekend"
    days = days_until(None if weekend else WEEKDAY_NAMES.index(found["day"]), now.date(),
                      (locale.weekend_start, locale.weekend_end))
    if days is None:
        return "It's the weekend!"
    name = "the weekend" if weekend else found["day"].capitalize()
    return f"{capital(name)} is tomorrow." if days == 1 else f"There are {days} days until {name}."


def _days_to_date(found: re.Match, now: datetime, locale: Locale) -> str | None:
    when = _date(found, 1, now.year)
    if when is None or found["year1"] and when < now.date():
        return None
    if when < now.date():
        when = _date(found, 1, now.year + 1) or when.replace(year=now.year + 4)  # February 29
    days, said = (when - now.date()).days, format_date(when, "MMMM d" if when.year == now.year else "MMMM d, y", locale=locale)
    if days < 2:
        return f"{said} is {'today' if days == 0 else 'tomorrow'}."
    return f"There are {days} days until {said}."


def _last_day(found: re.Match, now: datetime, locale: Locale) -> str:
    when = now.date() - timedelta(days=(now.weekday() - WEEKDAY_NAMES.index(found["day"])) % 7 or 7)
    return f"Last {found['day'].capitalize()} was {format_date(when, 'MMMM d', locale=locale)}."


def _week(found: re.Match, now: datetime, locale: Locale) -> str:  # noqa: ARG001
    return f"It's week {now.isocalendar()[1]} of {now.isocalendar()[0]}."


def _day_of_year(found: re.Match, now: datetime, locale: Locale) -> str:  # noqa: ARG001
    return f"Today is day {now.timetuple().tm_yday} of {now.year}."


def _born(found: re.Match, now: datetime, locale: Locale) -> str | None:  # noqa: ARG001
    year = int(found["year"])
    if not 1900 <= year <= now.year:
        return None
    age = now.year - year
    return f"Someone born in {year} turns {age} in {now.year}: {age - 1} until their birthday this year." if age else \
        f"Someone born in {year} is not a year old yet."


def _year_ago(found: re.Match, now: datetime, locale: Locale) -> str | None:  # noqa: ARG001
    count = int(found["n"])
    return f"{count} year{'' if count == 1 else 's'} ago, it was {now.year - count}." if 0 < count <= 5000 else None


def _year_later(found: re.Match, now: datetime, locale: Locale) -> str | None:  # noqa: ARG001
    count = int(found["n"])
    return f"In {count} year{'' if count == 1 else 's'}, it will be {now.year + count}." if 0 < count <= 5000 else None


def _date(found: re.Match, n: int, year: int) -> date | None:
    try:
        return date(int(found[f"year{n}"] or year), _MONTHS[found[f"month{n}"]], int(found[f"day{n}"]))
    except ValueError:  # "February 30"
        return None


def _between(found: re.Match, now: datetime, locale: Locale) -> str | None:
    first = _date(found, 1, now.year)
    second = _date(found, 2, first.year if first else now.year)
    if first is None or second is None:
        return None
    if second < first and not found["year2"]:
        second = _date(found, 2, first.year + 1)
    days = abs((second - first).days)
    said = (format_date(first, "MMMM d", locale=locale), format_date(second, "MMMM d", locale=locale))
    return f"There {'is' if days == 1 else 'are'} {days} day{'' if days == 1 else 's'} between {said[0]} and {said[1]}."


def _weekday_of(found: re.Match, now: datetime, locale: Locale) -> str | None:
    when = _date(found, 1, now.year)
    if when is None:
        return None
    verb = "was" if when < now.date() else "is" if when == now.date() else "will be"
    return f"{format_date(when, 'MMMM d, y', locale=locale)} {verb} a {format_date(when, 'EEEE', locale=locale)}."


_ANSWERS = {"until": _until, "later": _later, "earlier": _earlier, "date_ago": _date_ago, "date_later": _date_later,
            "days_to": _days_to, "days_to_date": _days_to_date, "last_day": _last_day, "week": _week, "day_of_year": _day_of_year, "born": _born, "year_ago": _year_ago,
            "year_later": _year_later, "between": _between, "weekday_of": _weekday_of}
