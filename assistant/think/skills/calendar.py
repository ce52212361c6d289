"""Days and dates worked out from today: "how many days until Christmas", "what day is Christmas this
year", "when is Easter", "how many days are left in the year", "what's the date in ten days", "what's the
date next Friday", "is it a leap year"; "크리스마스까지 며칠 남았어?", "크리스마스는 무슨 요일이야?", "올해는 윤년이야?".

The small model counted them wrong ("It's 20 days until Christmas." on December 6) or not at all ("Is
it a leap year?" "No, it's not.", without the date, by chance right in 2026). Holidays on a fixed day, Easter (dateutil) and Thanksgiving
(the fourth Thursday of November); the Korean holidays of the solar calendar; then the country's public holidays
(:mod:`.public_holidays`: "is tomorrow a holiday", "when is Memorial Day", "추석은 언제야", the lunar calendar's
too). Days of one's own ("my birthday") are the model's.

Guard: the whole utterance must be one of these forms, with a holiday that is listed.
"""

from __future__ import annotations

import calendar as month_calendar
import re
from datetime import date, timedelta

from babel.dates import format_date
from dateutil.easter import easter

from assistant.think.korean import date_words
from assistant.think.skills import SkillContext, SkillReply, SkillSetup
from assistant.think.skills.clock import resolve_locale
from assistant.think.skills.public_holidays import OBSERVED, PublicHolidays
from assistant.think.skills.korean_numbers import copula, past_copula, say, topic
from assistant.think.skills.text import WEEKDAY_NAMES, capital, normalize
from assistant.think.skills.time_math import days_until
from assistant.writing import has_hangul, plain_words

NAME = "calendar"


def _fixed(month: int, day: int):
    return lambda year: date(year, month, day)


def _thanksgiving(year: int) -> date:
    first = date(year, 11, 1)
    return first + timedelta(days=(3 - first.weekday()) % 7 + 21)


HOLIDAYS = {  # English name as normalized -> (name as said, the day in a year)
    "christmas": ("Christmas", _fixed(12, 25)), "christmas day": ("Christmas Day", _fixed(12, 25)),
    "christmas eve": ("Christmas Eve", _fixed(12, 24)), "new year": ("New Year's Day", _fixed(1, 1)),
    "new years": ("New Year's Day", _fixed(1, 1)), "new year day": ("New Year's Day", _fixed(1, 1)),
    "new years day": ("New Year's Day", _fixed(1, 1)), "the new year": ("New Year's Day", _fixed(1, 1)),
    "new year eve": ("New Year's Eve", _fixed(12, 31)), "new years eve": ("New Year's Eve", _fixed(12, 31)),
    "halloween": ("Halloween", _fixed(10, 31)), "valentine day": ("Valentine's Day", _fixed(2, 14)),
    "valentines day": ("Valentine's Day", _fixed(2, 14)), "valentines": ("Valentine's Day", _fixed(2, 14)),
    "easter": ("Easter", easter), "easter sunday": ("Easter", easter), "thanksgiving": ("Thanksgiving", _thanksgiving),
    "the 4th of july": ("the Fourth of July", _fixed(7, 4)), "4th of july": ("the Fourth of July", _fixed(7, 4)),
    "st patrick day": ("St. Patrick's Day", _fixed(3, 17)), "saint patrick day": ("St. Patrick's Day", _fixed(3, 17)),
}
KOREAN_HOLIDAYS = {
    "크리스마스": _fixed(12, 25), "성탄절": _fixed(12, 25), "크리스마스이브": _fixed(12, 24), "새해": _fixed(1, 1),
    "신정": _fixed(1, 1), "할로윈": _fixed(10, 31), "핼러윈": _fixed(10, 31), "밸런타인데이": _fixed(2, 14),
    "발렌타인데이": _fixed(2, 14), "삼일절": _fixed(3, 1), "어린이날": _fixed(5, 5), "어버이날": _fixed(5, 8),
    "현충일": _fixed(6, 6), "광복절": _fixed(8, 15), "개천절": _fixed(10, 3), "한글날": _fixed(10, 9),
    "부활절": easter,
}
_EVENT = r"(?P<event>[a-z0-9 ]+?)"
_YEAR = r"(?: this year| next year)?"
_DAYS = "today|tomorrow|yesterday"
_PUBLIC = r"(?:public |bank |national |federal |legal |official )?"
_FORMS = (
    ("until", re.compile(rf"^how (?:many|much) (?P<unit>days|weeks|sleeps|time)(?: is it| are there| are| do we have)?"
                         rf"(?: left)? (?:until|till|til|to|before) {_EVENT}{_YEAR}$")),
    ("until", re.compile(rf"^how long (?:is it )?(?:until|till|til|to|before) {_EVENT}{_YEAR}$")),
    ("when", re.compile(rf"^(?:what day(?: of the week)?|which day|what date) (?:is|will be|does) {_EVENT}"
                        rf"(?: fall| fall on| be| on)?{_YEAR}$")),
    ("when", re.compile(rf"^when is {_EVENT}{_YEAR}$")),
    ("year_left", re.compile(r"^how many days (?:are )?(?:left|remaining|remain) (?:in|of) (?:the|this) year$")),
    ("leap", re.compile(r"^is (?:it|this|this year|(?P<year>\d{4})) a leap year$")),
    ("in_days", re.compile(r"^what (?:is the date|date is it|day is it|day will it be|will the date be|date will it be"
                           r"|day of the week (?:is it|will it be)) in (?P<count>\d+|an?) (?P<unit>days?|weeks?)$")),
    ("next_day", re.compile(rf"^what (?:is the date|date is|day is|is the date of) (?P<which>next|this|on) "
                            rf"(?P<weekday>{'|'.join(WEEKDAY_NAMES)})$")),
    ("is_holiday", re.compile(rf"^(?:is|was|will) (?:it|(?P<day>{_DAYS}))(?: be)? (?:a |an )?{_PUBLIC}holiday"
                              rf"(?: (?P<day2>{_DAYS}))?$")),
    ("is_holiday", re.compile(rf"^what holiday (?:is it|is|was it|was) (?P<day>{_DAYS})$")),
    ("next_holiday", re.compile(rf"^(?:what|when|which) is the next {_PUBLIC}holiday$")),
)
_KOREAN_NAMES = r"[가-힣]+?(?: [가-힣]+?){0,2}?"
"""A holiday's name ("추석", "부처님 오신 날"): looked up in :data:`KOREAN_HOLIDAYS`, then in Korea's public holidays."""
_KOREAN_DAY = "(?P<day>오늘|내일|어제|모레)"
_KOREAN_OFF = r"(?:공휴일|휴일|빨간 ?날|쉬는 ?날)"
_KOREAN_FORMS = (
    ("until", re.compile(rf"^(?:(?:올해|이번) )?(?P<event>{_KOREAN_NAMES}) ?까지 (?:며칠|몇 ?일|얼마나) ?(?:남았|남은|남았어|남았어요|"
                         rf"남았나요|남았지|남았니|남았습니까|있어|있어요|이야|예요|야)?(?:\S*)$")),
    ("when", re.compile(rf"^(?:(?:올해|이번|내년) )?(?P<event>{_KOREAN_NAMES}) ?(?:은|는|이|가)? (?:무슨|몇) ?요일(?:\S*)$")),
    ("when", re.compile(rf"^(?:(?:올해|이번|내년) )?(?P<event>{_KOREAN_NAMES}) ?(?:은|는|이|가)? (?:언제|며칠)(?:\S*)$")),
    ("leap", re.compile(r"^(?:올해|금년) ?(?:은|는)? 윤년(?:\S*)$")),
    ("year_left", re.compile(r"^(?:올해|금년) ?(?:는|도)? ?(?:남은 ?날 ?(?:이|은)? ?)?(?:며칠|몇 ?일) ?(?:남았|남은|이야|예요|"
                             r"이에요|야)?\S*$")),
    ("is_holiday", re.compile(rf"^{_KOREAN_DAY} ?(?:은|는)? ?{_KOREAN_OFF}(?:이야|이에요|인가요|이니|이지|이죠|예요|야|이었어|이었어요|"
                              rf"이었나요|맞아|맞아요)?$")),
    ("next_holiday", re.compile(rf"^(?:다음|이번) {_KOREAN_OFF} ?(?:은|는|이)? ?(?:언제|며칠)(?:\S*)$")),
)


class Calendar:
    name = NAME

    def __init__(self, setup: SkillSetup):
        self.locale = resolve_locale(setup.config.locale)
        self.public = PublicHolidays.of(self.locale)
        """The public holidays of the locale's country (None where there is no table for it)."""
        self.korean_public = PublicHolidays.of(self.locale, korean=True)

    def match(self, text: str, context: SkillContext) -> SkillReply | None:
        today = context.now.date()
        korean = has_hangul(text)
        said = plain_words(text) if korean else normalize(text)
        answer_of = self._korean if korean else self._english
        answer = next(filter(None, (answer_of(kind, m, today) for kind, form in (_KOREAN_FORMS if korean else _FORMS)
                                    if (m := form.match(said)))), None)  # "what day is it in 3 days" is no holiday's
        return SkillReply(NAME, answer) if answer else None

    def _english(self, kind: str, found: re.Match, today: date) -> str | None:
        if kind == "year_left":
            left = (date(today.year, 12, 31) - today).days
            return f"There {'is' if left == 1 else 'are'} {left} day{'' if left == 1 else 's'} left in the year."
        if kind == "leap":
            year = int(found["year"] or today.year)
            if month_calendar.isleap(year):
                return f"Yes, {year} is a leap year."
            following = next(y for y in range(year + 1, year + 9) if month_calendar.isleap(y))
            return f"No, {year} is not a leap year. The next one is {following}."
        if kind == "in_days":
            count = found["count"] if found["count"].isdigit() else "1"
            days = int(count) * (7 if found["unit"].startswith("week") else 1)
            return f"In {'a' if count == '1' and found['unit'].startswith('week') else count} {found['unit']}, it will be {self._day(today + timedelta(days=days))}."
        if kind == "next_day":
            ahead = days_until(WEEKDAY_NAMES.index(found["weekday"]), today)
            return f"{found['which'].capitalize() if found['which'] != 'on' else 'This'} {found['weekday'].capitalize()} is " \
                   f"{format_date(today + timedelta(days=ahead), format='MMMM d', locale=self.locale)}."
        if kind in ("is_holiday", "next_holiday"):
            return self._public_day(kind, found, today)
        holiday = HOLIDAYS.get(found["event"].strip()) or _public_named(self.public, found["event"], today)
        if holiday is None:
            return None
        name, day_in = holiday
        when = _next(day_in, today, next_year=found[0].endswith("next year"))
        if when is None:
            return None
        days = (when - today).days
        if kind == "when" and found[0].endswith("this year") and (day_in(today.year) or today) < today:
            return f"{capital(name)} was on {self._day(day_in(today.year))}. Next year, it's on {self._day(when, today)}."
        if kind == "when":
            return f"{capital(name)} is on {self._day(when, today)}." if days else f"{capital(name)} is today!"
        if days == 0:
            return f"It's {name} today!"
        if days == 1:
            return f"{capital(name)} is tomorrow!"
        if found.groupdict().get("unit") == "weeks":
            weeks, rest = divmod(days, 7)
            extra = f" and {rest} day{'' if rest == 1 else 's'}" if rest else ""
            return f"{capital(name)} is {weeks} week{'' if weeks == 1 else 's'}{extra} away."
        return f"There are {days} days until {name}."

    def _public_day(self, kind: str, found: re.Match, today: date) -> str | None:
        """Whether today, tomorrow or yesterday is a public holiday; the next one."""
        if self.public is None:
            return None
        where = f"public holiday in {self.public.country_name}"
        if kind == "next_holiday":
            when, name = self.public.next_after(today)
            return f"The next {where} is {_said(name)}, on {self._day(when, today)}."
        said = found["day"] or found.groupdict().get("day2") or "today"
        day = today + timedelta(days={"today": 0, "tomorrow": 1, "yesterday": -1}[said])
        verb, name = "was" if said == "yesterday" else "is", self.public.on(day)
        answer = f"{said.capitalize()} {verb} {_said(name)}." if name else f"{said.capitalize()} {verb} not a {where}."
        if not found[0].startswith("what"):
            answer = f"{'Yes' if name else 'No'}, {answer[0].lower()}{answer[1:]}"
        if name or said == "yesterday":
            return answer
        when, upcoming = self.public.next_after(day)
        return f"{answer} The next one is {_said(upcoming)}, on {self._day(when, today)}."

    def _korean(self, kind: str, found: re.Match, today: date) -> str | None:
        if kind == "leap":
            return "네, 올해는 윤년이에요." if month_calendar.isleap(today.year) else "아니요, 올해는 윤년이 아니에요."
        if kind == "year_left":
            left = (date(today.year, 12, 31) - today).days
            return f"올해는 {say(left)} 일 남았어요." if left else "오늘이 올해 마지막 날이에요."
        public = self.korean_public
        if kind == "next_holiday":
            when, name = public.next_after(today) if public else (None, "")
            return f"다음 공휴일은 {date_words(when)}, {copula(name)}." if when else None
        if kind == "is_holiday":
            if public is None:
                return None
            offset = {"오늘": 0, "내일": 1, "어제": -1, "모레": 2}[found["day"]]
            day = today + timedelta(days=offset)
            name = public.on(day)
            if name:
                return f"네, {topic(found['day'])} {past_copula(name) if offset < 0 else copula(name)}."
            when, upcoming = public.next_after(day)
            no = f"아니요, {topic(found['day'])} 공휴일이 {'아니었어요' if offset < 0 else '아니에요'}."
            return no if offset < 0 else f"{no} 다음 공휴일은 {date_words(when)}, {copula(upcoming)}."
        event = found["event"]
        day_in = KOREAN_HOLIDAYS.get(event.replace(" ", ""))
        if day_in is None and (holiday := _public_named(public, event, today)) is not None:
            event, day_in = holiday
        return _korean_day(kind, event, day_in, today, next_year=found[0].startswith("내년")) if day_in else None

    def _day(self, when: date, today: date | None = None) -> str:
        """The weekday and date; the year too where it is not ``today``'s (next year's holiday)."""
        said = "EEEE, MMMM d" if today is None or when.year == today.year else "EEEE, MMMM d, y"
        return format_date(when, format=said, locale=self.locale)


def _next(day_in, today: date, next_year: bool = False) -> date | None:
    """The holiday's next day, today included (next year's where asked); None where it has none."""
    for year in (today.year + 1,) if next_year else (today.year, today.year + 1):
        if (when := day_in(year)) is not None and when >= today:
            return when
    return None


def _public_named(public: PublicHolidays | None, said: str, today: date):
    """(The name, the day in a year) of the public holiday ``said`` names, or None."""
    name = public.named(said, today) if public else None
    return (name, lambda year: public.day_of(name, year)) if name else None


def _said(name: str) -> str:
    """A holiday's name as said: a day off in place of one is said so."""
    return f"the day off for {name[: -len(OBSERVED)]}" if name.endswith(OBSERVED) else name


def _korean_day(kind: str, event: str, day_in, today: date, next_year: bool = False) -> str | None:
    when = _next(day_in, today, next_year)
    if when is None:
        return None
    days = (when - today).days
    if kind == "when":
        said = date_words(when) if when.year == today.year else f"내년 {date_words(when)}"  # next year's, at most
        return f"{topic(event)} {copula(said)}." if days else f"오늘이 {copula(event)}!"
    if days == 0:
        return f"오늘이 {copula(event)}!"
    if days == 1:
        return f"{topic(event)} 내일이에요!"
    return f"{event}까지 {say(days)} 일 남았어요."


def create(setup: SkillSetup) -> Calendar:
    return Calendar(setup)
