"""Public holidays of a country (the `holidays` package: its tables ship with it, nothing is fetched), for the calendar
skill: whether a day is one ("Is tomorrow a holiday?", "내일 공휴일이야?"), the next one ("What's the next holiday?",
"다음 공휴일은 언제야?"), and a named one's date where the calendar's own list lacks it ("When is Memorial Day?",
"추석은 언제야?", "설날까지 며칠 남았어?": the lunar calendar's days too).

The country is the locale's (en_US: the United States); a question in Korean is about Korea's. Where the package has
no table for the country, none of this answers and the model is asked, as before.
"""

from __future__ import annotations

import functools
import logging
import re
from datetime import date

import holidays
from babel import Locale

log = logging.getLogger(__name__)

ALIASES = {"en_US": {"presidents": "washington birthday", "president": "washington birthday", "mlk": "martin luther king",
                     "indigenous peoples": "columbus", "indigenous people": "columbus"},
           "ko": {"석가탄신일": "부처님오신날", "석탄일": "부처님오신날", "구정": "설날"}}
"""What people call a holiday where its table's name is another (the table's names compared as :func:`_plain` makes
them): Presidents' Day is the law's Washington's Birthday, 석가탄신일 the old name of 부처님오신날."""
OBSERVED = " (observed)"
"""The English tables' mark of a day off in place of a holiday that fell on a weekend."""


@functools.lru_cache(maxsize=1)
def _supported() -> dict[str, list[str]]:
    return holidays.list_supported_countries()


def _plain(name: str) -> str:
    """A holiday's name as compared: lower case, letters and digits only, no "day", "jr", "national" or
    "'s" ("Martin Luther King Jr. Day" -> "martin luther king"); Korean without spaces."""
    words = re.sub(r"'s\b", "", name.casefold()).replace("'", "")
    words = re.sub(r"[^\w]+", " ", words).split()
    return " ".join(w for w in words if w not in ("day", "jr", "national")) if words else ""


class PublicHolidays:
    """One country's public holidays, its names in one language ("en_US" or "ko")."""

    def __init__(self, country: str, language: str):
        self.country = country
        self.language = language

    @classmethod
    def of(cls, locale: Locale, korean: bool = False) -> PublicHolidays | None:
        """Korea's in Korean for a question in Korean; else the locale's country's, in English; None where there is
        no table for it."""
        country = "KR" if korean else locale.territory
        if not country or country not in _supported():
            return None
        return cls(country, "ko" if korean else "en_US")

    @property
    def country_name(self) -> str:
        """The country as English says it ("the United States")."""
        name = Locale.parse("en").territories.get(self.country, self.country)
        return f"the {name}" if name.startswith(("United", "Netherlands", "Philippines", "Czech")) else name

    def year(self, year: int) -> dict[date, str]:
        return _table(self.country, self.language, year)

    def on(self, day: date) -> str | None:
        """The holiday ``day`` is, or None."""
        return self.year(day.year).get(day)

    def next_after(self, day: date) -> tuple[date, str]:
        """The first holiday after ``day``."""
        for year in (day.year, day.year + 1):
            later = sorted((d, n) for d, n in self.year(year).items() if d > day)
            if later:
                return later[0]
        raise LookupError(f"no holiday after {day} in {self.country}")  # (every table has one a year)

    def named(self, said: str, today: date) -> str | None:
        """The table's name of the holiday ``said`` names ("memorial day", "추석", "부처님 오신 날"), or None. The
        words must be the name's, or its first words ("juneteenth"), never a day off in its place."""
        asked = _plain(said).replace(" ", "") if self.language == "ko" else _plain(said)
        if not asked:
            return None
        asked = ALIASES.get(self.language, {}).get(asked, asked)
        names = {n for y in (today.year, today.year + 1) for n in self.year(y).values()}
        for name in sorted(names, key=len):
            if OBSERVED in name or "대체" in name:
                continue
            plain = _plain(name).replace(" ", "") if self.language == "ko" else _plain(name)
            if plain == asked or self.language != "ko" and plain.startswith(asked + " "):
                return name
        return None

    def day_of(self, name: str, year: int) -> date | None:
        """The day ``name`` falls on in ``year`` (None where it has none that year)."""
        return next((d for d, n in sorted(self.year(year).items()) if n == name), None)


@functools.lru_cache(maxsize=16)
def _table(country: str, language: str, year: int) -> dict[date, str]:
    try:
        return dict(holidays.country_holidays(country, years=year, language=language))
    except (NotImplementedError, KeyError, ValueError) as exc:  # a country or a language the package lacks
        log.warning("no public holidays for %s in %s: %s", country, language, exc)
        return {}
