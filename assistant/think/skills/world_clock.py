"""The time in another place: "what time is it in Tokyo", "what's the time in London right now", "time in
New York", "도쿄는 지금 몇 시야", "뉴욕 시간 알려 줘". The small model guessed it ("The time in Tokyo is 9:52."); the
zone database knows it.

Places are CLDR's (through babel), in English and in Korean: every time zone's city ("New York", "뉴욕"; in
English also the zone's own name, "Asia/Tokyo" is Tokyo) and every country ("Japan", "일본"), with a few big
cities that name no zone ("Beijing", "San Francisco", "부산"). A country whose zones keep different times now
("the United States") is asked which city. A place not known is never guessed: the question goes to the
model, as before. The zones come from the zoneinfo database (the ``tzdata`` package where the system has
none, as on a fresh Debian).
"""

from __future__ import annotations

import functools
import re
import zoneinfo
from datetime import datetime

from babel import Locale
from babel.core import get_global
from babel.dates import format_date, format_time

from assistant.think.korean import WEEKDAYS, time_words
from assistant.think.skills.korean_numbers import copula, topic
from assistant.think.skills.text import spoken_duration
from assistant.writing import plain_words

ALIASES = {
    "en": {"beijing": "Asia/Shanghai", "china": "Asia/Shanghai", "hong kong": "Asia/Hong_Kong",
           "washington": "America/New_York", "washington dc": "America/New_York", "boston": "America/New_York",
           "miami": "America/New_York", "atlanta": "America/New_York", "philadelphia": "America/New_York",
           "san francisco": "America/Los_Angeles", "seattle": "America/Los_Angeles", "las vegas": "America/Los_Angeles",
           "san diego": "America/Los_Angeles", "houston": "America/Chicago", "dallas": "America/Chicago",
           "austin": "America/Chicago", "delhi": "Asia/Kolkata", "new delhi": "Asia/Kolkata",
           "mumbai": "Asia/Kolkata", "bangalore": "Asia/Kolkata", "osaka": "Asia/Tokyo", "kyoto": "Asia/Tokyo",
           "busan": "Asia/Seoul", "korea": "Asia/Seoul", "england": "Europe/London", "britain": "Europe/London",
           "great britain": "Europe/London", "uk": "Europe/London", "scotland": "Europe/London",
           "america": "US", "usa": "US", "us": "US", "the us": "US", "the states": "US", "the uk": "Europe/London"},
    "ko": {"베이징": "Asia/Shanghai", "북경": "Asia/Shanghai", "중국": "Asia/Shanghai", "워싱턴": "America/New_York",
           "샌프란시스코": "America/Los_Angeles", "시애틀": "America/Los_Angeles", "엘에이": "America/Los_Angeles",
           "부산": "Asia/Seoul", "한국": "Asia/Seoul", "오사카": "Asia/Tokyo", "영국": "Europe/London"},
}
"""Big cities whose zone is named after another (Beijing keeps Shanghai's time), and the names people use."""

_PLACE = r"[a-z][a-z .'-]*?"
"""A place's name as said (the zone database says whether it is one)."""
ENGLISH = (
    re.compile(r"^(?:what time is it|what is the(?: current| local)? time|what time|(?:the )?(?:current |local )?time"
               r"|(?:can you |could you )?tell me the time|do you (?:have|know) the time)"
               rf"(?: now| right now)? in (?P<place>{_PLACE})(?: now| right now| at the moment)?$"),
    re.compile(rf"^what time is it (?:now |right now )?in (?P<place>{_PLACE})$"),
    re.compile(r"^is it (?:still |already )?(?:the )?(?:day|daytime|night|nighttime|night time|morning|afternoon|evening)"
               rf"(?: or (?:day|night|morning|afternoon|evening))?(?: yet| now| right now| already)? in (?P<place>{_PLACE})"
               r"(?: now| right now| at the moment| yet)?$"),  # ("Is it night in London?": the time there answers it)
)
DIFFERENCE = (
    re.compile(rf"^(?:what is |tell me )?(?:the )?time difference (?:between|from) (?P<a>{_PLACE}) (?:and|to) (?P<b>{_PLACE})$"),
    re.compile(rf"^(?:what is |tell me )?(?:the )?time difference (?:with|to|in) (?P<a>{_PLACE})$"),
    re.compile(rf"^how many hours (?:ahead|behind) is (?P<a>{_PLACE})(?: (?:of|than|from) (?P<b>{_PLACE}))?$"),
    re.compile(rf"^(?:how far ahead|how far behind) is (?P<a>{_PLACE})(?: (?:of|than|from) (?P<b>{_PLACE}))?$"),
)
"""The hours between two places ("the time difference between London and New York"), or a place and here."""
KOREAN = re.compile(r"^(?:(?:지금|현재) ?)?(?P<place>[가-힣a-zA-Z ]+?)(?:은|는|이|가|의|에서|에선|에서는)? ?"
                    r"(?:지금|현재)? ?(?:은|는)? ?"
                    r"(?:몇 ?시|시간|현재 시각|시각)(?: ?(?:야|예요|이에요|이야|인가요|입니까|일까요?|에요))?"
                    r"(?: ?(?:좀 )?(?:알려|말해) ?(?:줘|주세요|줄래요?))?$")


@functools.cache
def places(language: str) -> dict[str, str]:
    """A place's name (lower case, spaces as said; Korean without spaces) -> its zone, or a country's
    code where it has several."""
    locale = Locale.parse("ko" if language == "ko" else "en")
    found: dict[str, str] = {}
    for zone in sorted(zoneinfo.available_timezones()):
        names = [locale.time_zones.get(zone, {}).get("city")]
        if language != "ko" and "/" in zone and not zone.startswith(("Etc/", "SystemV/", "US/")):
            names.append(zone.rsplit("/", 1)[1].replace("_", " "))
        for name in filter(None, names):
            found.setdefault(_key(name, language), zone)
    for code, zones in get_global("territory_zones").items():
        name = locale.territories.get(code)
        if name and zones:
            found.setdefault(_key(name, language), zones[0] if len(zones) == 1 else code)
    return {**found, **{_key(name, language): zone for name, zone in ALIASES[language].items()}}


def _key(name: str, language: str) -> str:
    name = name.casefold().replace("\u2019", "'")
    return re.sub(r"\s+", "", name) if language == "ko" else " ".join(name.split())


def place_zone(place: str, language: str) -> str | list[str] | None:
    """The zone of ``place``; a country's zones where they keep different times now; None: not known."""
    found = places(language).get(_key(place, language))
    if found is None and language != "ko" and place.startswith("the "):
        found = places(language).get(_key(place[4:], language))
    if found is None or "/" in found:
        return found
    zones = get_global("territory_zones")[found]
    now = datetime.now().astimezone()
    offsets = {now.astimezone(zoneinfo.ZoneInfo(zone)).utcoffset() for zone in zones}
    return zones[0] if len(offsets) == 1 else list(zones)


def english(said: str, now: datetime, locale: Locale) -> str | None:
    """The answer to ``said`` (normalized) where it asks the time in a known place, or the hours between two, else
    None."""
    if (between := next((m for pattern in DIFFERENCE if (m := pattern.match(said))), None)) is not None:
        return _difference(between["a"].strip(), (between.groupdict().get("b") or "").strip(), now)
    asked = next((m for pattern in ENGLISH if (m := pattern.match(said))), None)
    if asked is None:
        return None
    place = asked["place"].strip()
    zone = place_zone(place, "en")
    if zone is None:
        return None
    name = place_name(place)
    if isinstance(zone, list):
        return f"{name[:1].upper()}{name[1:]} has several time zones. Which city?"
    there = now.astimezone(zoneinfo.ZoneInfo(zone))
    clock = format_time(there, format="short", locale=locale).replace("\u202f", " ").replace("\xa0", " ")
    day = "" if there.date() == now.date() else f" on {format_date(there, format='EEEE', locale=locale)}"
    return f"In {name}, it's {clock}{day}."


def place_name(place: str) -> str:
    """A place as it is written ("new york" -> "New York", "the uk" -> "the UK")."""
    return " ".join(word if word in ("the", "of", "and") else word.upper() if word in ("uk", "us", "usa", "dc")
                    else word[:1].upper() + word[1:] for word in place.split())


def _difference(a: str, b: str, now: datetime) -> str | None:
    """"London is 5 hours ahead of New York." (``b`` '': here); None where a place is not known or has several zones."""
    zones = [place_zone(a, "en"), place_zone(b, "en") if b else None]
    if not isinstance(zones[0], str) or (b and not isinstance(zones[1], str)):
        return None
    offsets = [now.astimezone(zoneinfo.ZoneInfo(z)).utcoffset() if z else now.utcoffset() for z in zones]
    minutes = round((offsets[0] - offsets[1]).total_seconds() / 60)
    other = place_name(b) if b else "here"
    if minutes == 0:
        return f"{place_name(a)} keeps the same time as {other}."
    hours, rest = divmod(abs(minutes), 60)
    size = ("half an hour" if (hours, rest) == (0, 30) else f"{hours} and a half hours" if rest == 30
            else spoken_duration(abs(minutes) * 60))
    return f"{place_name(a)} is {size} {'ahead of' if minutes > 0 else 'behind'} {other}."


def korean(text: str, now: datetime) -> str | None:
    """The Korean answer to ``text`` where it asks the time in a known place, else None."""
    asked = KOREAN.match(plain_words(text))
    if asked is None:
        return None
    place = asked["place"].strip()
    zone = place_zone(place, "ko")
    if zone is None:
        return None
    if isinstance(zone, list):
        return f"{topic(place)} 시간대가 여러 개예요. 어느 도시요?"
    there = now.astimezone(zoneinfo.ZoneInfo(zone))
    day = "" if there.date() == now.date() else f"{WEEKDAYS[there.weekday()]} "
    return f"{topic(place)} 지금 {copula(day + time_words(there))}."
