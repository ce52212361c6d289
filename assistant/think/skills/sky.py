"""The sun and the moon: sunrise, sunset, when it gets dark or light, the day's length ("What time is sunset today?",
"When does the sun rise in Tokyo tomorrow?", "How long is the day today?"), the moon's phase and the next full or new
moon ("Is it a full moon tonight?", "When is the next full moon?"); Korean too ("오늘 해 지는 시간 알려 줘",
"서울 일몰 몇 시예요?", "다음 보름달은 언제야?"). The small model made them up ("Sunset is at 12:54 PM.", "No, it's a
crescent moon." on a waning one, "The next full moon will occur on the 18th of November." in December).

Worked out offline by `astral` (the sun's and the moon's positions; no table, nothing fetched) at a place's
coordinates: the zone database's own (``zone1970.tab``: each time zone's principal city, in the ``tzdata`` package
or the system's). The place is one said ("in Paris": the world clock's names, :mod:`.world_clock`), else the
system's time zone (``tzlocal``), else the locale's country where it has one zone (a question in Korean: Korea's).
The answer names the city whose sky it is, the zone's ("In London, ..."; "in Boston" is answered for New York), so a
user elsewhere in the zone knows. Where nothing
says where the user is (a machine on UTC in a country of several zones), it says so and how to ask.
"""

from __future__ import annotations

import functools
import logging
import re
import zoneinfo
from datetime import date, datetime, timedelta
from importlib import resources
from pathlib import Path

import tzlocal
from astral import Observer
from astral.moon import phase
from astral.sun import elevation, sun
from babel import Locale
from babel.core import get_global
from babel.dates import format_date, format_time

from assistant.think.korean import date_words, time_words
from assistant.think.skills import SkillContext, SkillReply, SkillSetup, korean_timers
from assistant.think.skills.clock import resolve_locale
from assistant.think.skills.korean_numbers import copula, topic
from assistant.think.skills.text import WEEKDAY_NAMES, capital, normalize, spoken_duration
from assistant.think.skills.world_clock import place_name, place_zone
from assistant.writing import has_hangul, plain_words

log = logging.getLogger(__name__)

NAME = "sky"
QUARTERS = ((0.0, "new moon", "삭"), (7.0, "first quarter", "상현달"), (14.0, "full moon", "보름달"),
            (21.0, "last quarter", "하현달"))
"""The moon's quarters at astral's phase (0-28 over a synodic month), in English and Korean."""
BETWEEN = (("waxing crescent", "초승달"), ("waxing gibbous", "차오르는 달"), ("waning gibbous", "기우는 달"),
           ("waning crescent", "그믐달"))
"""What the moon is between its quarters, in order."""
UNKNOWN_PLACE = ("I don't know where you are: no time zone is set here. Ask with a city, for example: "
                 "when is sunset in Chicago?")

_PLACE = r"[a-z][a-z .'-]*?"
_DAY = (r"(?P<day>today|tonight|this (?:morning|evening|afternoon)|tomorrow(?: morning| evening| night)?"
        r"|the day after tomorrow|yesterday|on (?:mon|tues|wednes|thurs|fri|satur|sun)day|(?:mon|tues|wednes|thurs|fri"
        r"|satur|sun)day)")
_WHERE_WHEN = rf"(?: in (?P<place>{_PLACE}))?(?: {_DAY})?(?: in (?P<place2>{_PLACE}))?(?: please)?"
_SUN = (
    re.compile(r"^(?:what time|when|at what time) (?:is|was|will be|does|did) (?:the )?(?P<event>sunrise|sunset|dawn|dusk"
               rf"|first light|nightfall|daybreak)(?: (?:be|start|happen|come))?{_WHERE_WHEN}$"),
    re.compile(r"^(?:what time|when|at what time) (?:does|did|will|is) the sun (?:going to )?(?P<event>rise|set|come up|go down"
               rf"|coming up|going down|rising|setting){_WHERE_WHEN}$"),
    re.compile(r"^(?:what time|when|at what time) (?:does|did|will|is) it (?:going to )?(?:get|go|gets|getting|become) "
               rf"(?P<event>dark|light){_WHERE_WHEN}$"),
    re.compile(rf"^(?:what is |tell me )?(?:the )?time of (?:the )?(?P<event>sunrise|sunset|dawn|dusk){_WHERE_WHEN}$"),
    re.compile(rf"^(?:what is |tell me )?(?:the )?(?P<event>sunrise|sunset|dawn|dusk) times?{_WHERE_WHEN}$"),
    re.compile(rf"^(?P<event>sunrise|sunset){_WHERE_WHEN}$"),
    re.compile(r"^(?:how long is|what is the length of|how long will) (?:the )?(?P<event>day|daylight)(?: be| last)?"
               rf"{_WHERE_WHEN}$"),
    re.compile(r"^how many (?P<event>hours) of (?:daylight|sunlight|sun|light|day) (?:do we have|do we get|are there|is there|will there be"
               rf"|will we have|will we get)?{_WHERE_WHEN}$"),
)
"""The sun asked about (``event``), maybe with a day and a place."""
_EVENTS = {"sunrise": "sunrise", "rise": "sunrise", "come up": "sunrise", "coming up": "sunrise", "rising": "sunrise",
           "sunset": "sunset", "set": "sunset", "go down": "sunset", "going down": "sunset", "setting": "sunset",
           "dawn": "dawn", "first light": "dawn", "daybreak": "dawn", "light": "dawn",
           "dusk": "dusk", "nightfall": "dusk", "dark": "dusk", "day": "length", "daylight": "length",
           "hours": "length"}
_NOW = r"(?: (?:today|tonight|now|right now|at the moment|this evening))?"
_MOON = (
    ("phase", re.compile(rf"^(?:what is |tell me )?(?:the )?(?:moon phase|moon s phase|moons phase|phase of the moon"
                         rf"|current moon phase|current phase of the moon){_NOW}$")),
    ("phase", re.compile(rf"^what (?:phase is the moon(?: in)?|phase of the moon is it|is the moon like|does the moon look like"
                         rf"|kind of moon is it|moon is it){_NOW}$")),
    ("is", re.compile(rf"^is (?:it|there|tonight|today) (?:a |the )?(?P<kind>full|new) moon{_NOW}$")),
    ("is", re.compile(rf"^is the moon (?P<kind>full|new){_NOW}$")),
    ("next", re.compile(r"^(?:when is|when will be|what day is|what date is|when) (?:the )?(?:next )?(?P<kind>full|new) moon"
                        r"(?: be| coming)?(?: this month)?$")),
)
_KO_DAY = r"(?P<day>오늘|내일|모레|어제)?"
_KO_SUN = re.compile(
    rf"^{_KO_DAY}(?:밤|저녁|아침)?(?P<place>[가-힣]+?)?(?:의|은|는|에서|에선)?{_KO_DAY.replace('day', 'day2')}(?:밤|저녁|아침)?"
    r"(?:(?P<event>해뜨는|해지는|해가뜨는|해가지는|일출|일몰|해돋이|해넘이)(?:시간|시각)?(?:은|는|이|가)?"
    r"|(?P<length>낮(?:의)?길이)(?:는|가)?|해(?:가|는)?(?:몇시에|언제)(?P<verb>떠|져|뜨|지)(?:요|나요|니|냐)?)"
    r"(?:몇시(?:야|예요|에요|이야|인가요|입니까)?|언제(?:야|예요|에요|인가요)?|얼마나(?:돼|돼요|되나요|길어|길어요)?"
    r"|알려줘|알려주세요|말해줘|말해주세요)*\??$")
_KO_MOON = (
    ("is", re.compile(rf"^{_KO_DAY}(?:밤)?(?:은|에)?(?P<kind>보름달|보름)(?:이야|이에요|인가요|이니|이냐|이에요|일까)\??$")),
    ("next", re.compile(r"^(?:다음|이번)?(?P<kind>보름달|보름|그믐)(?:은|는|이)?(?:언제|며칠)(?:야|예요|에요|이야|인가요|이니)?\??$")),
    ("phase", re.compile(rf"^{_KO_DAY}(?:밤)?(?:은|에)?(?:달(?:의)?(?:모양|위상)|달이어떤모양)(?:은|이)?"
                         r"(?:뭐야|뭐예요|어때|어때요|알려줘|알려주세요|이야|이에요)?\??$")),
)
_KO_OFFSETS = {"오늘": 0, "내일": 1, "모레": 2, "어제": -1}


@functools.cache
def coordinates() -> dict[str, tuple[float, float]]:
    """Each zone's principal city's latitude and longitude (the zone database's ``zone1970.tab`` and ``zone.tab``)."""
    found: dict[str, tuple[float, float]] = {}
    for name in ("zone1970.tab", "zone.tab"):
        for line in _tab(name).splitlines():
            fields = line.split("\t")
            if len(fields) >= 3 and not line.startswith("#"):
                point = re.fullmatch(r"([+-]\d{4,6})([+-]\d{5,7})", fields[1])
                if point:
                    found.setdefault(fields[2], (_degrees(point[1], 2), _degrees(point[2], 3)))
    return found


def _tab(name: str) -> str:
    try:
        return resources.files("tzdata").joinpath("zoneinfo", name).read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, OSError):
        system = Path("/usr/share/zoneinfo") / name
        return system.read_text(encoding="utf-8") if system.is_file() else ""


def _degrees(text: str, width: int) -> float:
    """ISO 6709 ("+3733" or "-0740030") as degrees."""
    sign = -1.0 if text[0] == "-" else 1.0
    digits = text[1:]
    degrees, minutes, seconds = int(digits[:width]), int(digits[width:width + 2]), int(digits[width + 2:] or 0)
    return sign * (degrees + minutes / 60 + seconds / 3600)


def local_zone() -> str | None:
    """The system's time zone by name, where it is one with a place (not UTC); None: not known."""
    try:
        name = tzlocal.get_localzone_name()
    except Exception as exc:  # noqa: BLE001 - no zone known is an answer too
        log.info("the system's time zone is not known: %s", exc)
        return None
    return name if name in coordinates() else None


def country_zone(country: str | None) -> str | None:
    """The one zone of ``country`` ("GB" -> Europe/London); None where it has several or none."""
    zones = get_global("territory_zones").get(country or "", ())
    return zones[0] if len(zones) == 1 and zones[0] in coordinates() else None


class Sky:
    name = NAME

    def __init__(self, locale: Locale, here: str | None):
        self.locale = locale
        self.here = here
        """The zone of the user's place (None: not known)."""

    def match(self, text: str, context: SkillContext) -> SkillReply | None:
        answer = self._korean(text, context.now) if has_hangul(text) else self._english(normalize(text), context.now)
        return None if answer is None else SkillReply(NAME, answer.replace("\u202f", " ").replace("\xa0", " "))

    # ------------------------------------------------------------ English

    def _english(self, said: str, now: datetime) -> str | None:
        for kind, pattern in _MOON:
            if found := pattern.match(said):
                return self._moon(kind, found.groupdict().get("kind"), now.date(), korean=False)
        found = next((m for pattern in _SUN if (m := pattern.match(said))), None)
        if found is None:
            return None
        said_place = (found["place"] or found["place2"] or "").strip()
        zone = self._zone(said_place, "en") if said_place else self.here or country_zone(self.locale.territory)
        if zone is None:
            return UNKNOWN_PLACE if not said_place else None
        if isinstance(zone, list):
            return capital(f"{place_name(said_place)} has several time zones. Which city?")
        name = _city(zone, "en")  # (the zone's city, whose sky it is: "in Boston" is New York's)
        there = now.astimezone(zoneinfo.ZoneInfo(zone))  # (its today, not ours)
        return self._sun(_EVENTS[found["event"]], zone, name, _day(found["day"], there), there)

    def _zone(self, place: str, language: str) -> str | list[str] | None:
        zone = place_zone(place, language)
        return zone if isinstance(zone, list) or zone in coordinates() else None

    def _sun(self, event: str, zone: str, name: str, day: date, now: datetime) -> str:
        where = ZoneSky(zone)
        when = _when(day, now.date())
        times = where.times(day)
        if times is None:
            up = where.up_all_day(day)
            return f"In {name}, the sun {'does not set' if up else 'does not rise'} {when.strip() or 'today'}."
        if event == "length":
            length = spoken_duration(round((times["sunset"] - times["sunrise"]).total_seconds() / 60) * 60)
            return (f"In {name}, the day is {length} long{when}: the sun rises at {self._clock(times['sunrise'])} "
                    f"and sets at {self._clock(times['sunset'])}.")
        moment = times[event]
        past = moment < now
        verb = {"sunrise": ("the sun rose", "the sun rises"), "sunset": ("the sun set", "the sun sets"),
                "dawn": ("it got light", "it gets light"), "dusk": ("it got dark", "it gets dark")}[event][0 if past else 1]
        more = f", after sunset at {self._clock(times['sunset'])}" if event == "dusk" else \
            f", before sunrise at {self._clock(times['sunrise'])}" if event == "dawn" else ""
        return f"In {name}, {verb} at {self._clock(moment)}{when}{more}."

    def _clock(self, moment: datetime) -> str:
        return format_time(moment, format="short", locale=self.locale)

    def _moon(self, kind: str, asked: str | None, today: date, korean: bool) -> str:
        if kind == "next":
            target = 0.0 if asked in ("new", "그믐") else 14.0
            day = next_phase(today - timedelta(days=1), target)  # (tonight's counts)
            what, korean_what = ("full moon", "보름달") if target else ("new moon", "삭")
            if korean:
                return f"오늘 밤이 {korean_what}이에요." if day == today else f"다음 {korean_what}은 {date_words(day)}이에요."
            if day == today:
                return f"Tonight is the {what}."
            return f"The next {what} is on {format_date(day, format='EEEE, MMMM d', locale=self.locale)}."
        name, korean_name = moon_phase(today)
        if kind == "is":
            full = asked in ("full", "보름달", "보름")
            wanted = "full moon" if full else "new moon"
            nxt = next_phase(today, 14.0 if full else 0.0)
            if korean:
                if name == wanted:
                    return "네, 오늘 밤은 보름달이에요."
                return f"아니요, 오늘 밤은 {korean_name}이에요. 다음 보름달은 {date_words(nxt)}이에요."
            if name == wanted:
                return f"Yes, tonight is the {wanted}."
            soon = "tomorrow" if nxt == today + timedelta(days=1) else \
                f"on {format_date(nxt, format='EEEE, MMMM d', locale=self.locale)}"
            now = f"tonight is the {name}" if name.endswith("moon") else f"the moon is {_article(name)} tonight"
            return f"No, {now}. The next {wanted} is {soon}."
        if korean:
            return f"오늘 밤 달은 {korean_name}이에요."
        if name.endswith("moon"):
            return f"Tonight is the {name}."
        return f"Tonight the moon is {_article(name)}."

    # ------------------------------------------------------------ Korean

    def _korean(self, text: str, now: datetime) -> str | None:
        said = re.sub(r"\s+", "", plain_words(text))
        for kind, pattern in _KO_MOON:
            if found := pattern.match(said):
                return self._moon(kind, found.groupdict().get("kind"), now.date(), korean=True)
        found = _KO_SUN.match(said)  # (one of its event, length and verb groups always matches)
        if found is None:
            return None
        place = found["place"] or ""
        zone = self._zone(place, "ko") if place else self.here or country_zone("KR")
        if not isinstance(zone, str):
            return None
        when = found["day"] or found["day2"] or "오늘"
        now = now.astimezone(zoneinfo.ZoneInfo(zone))  # (its today, not ours)
        day = now.date() + timedelta(days=_KO_OFFSETS[when])
        name = _city(zone, "ko")
        where = ZoneSky(zone)
        times = where.times(day)
        if times is None:
            return f"{topic(name)} {when} 해가 {'지지 않아요' if where.up_all_day(day) else '뜨지 않아요'}."
        if found["length"]:
            length = korean_timers.spoken_duration((times["sunset"] - times["sunrise"]).total_seconds())
            return (f"{topic(name)} {when} 낮 길이가 {copula(length)}. 해는 {time_words(times['sunrise'])}에 뜨고 "
                    f"{time_words(times['sunset'])}에 져요.")
        rises = (found["event"] or "") in ("해뜨는", "해가뜨는", "일출", "해돋이") or found["verb"] in ("떠", "뜨")
        moment = times["sunrise" if rises else "sunset"]
        past = moment < now
        verb = ("떴어요" if past else "떠요") if rises else ("졌어요" if past else "져요")
        return f"{topic(name)} {when} {time_words(moment)}에 해가 {verb}."


class ZoneSky:
    """The sun at a zone's principal city."""

    def __init__(self, zone: str):
        latitude, longitude = coordinates()[zone]
        self.observer = Observer(latitude, longitude)
        self.zone = zoneinfo.ZoneInfo(zone)

    def times(self, day: date) -> dict[str, datetime] | None:
        """Dawn, sunrise, noon, sunset and dusk of ``day`` (local times, to the nearest minute), or None where the sun
        does not rise or set."""
        try:
            found = sun(self.observer, date=day, tzinfo=self.zone)
        except ValueError:  # the polar day or night (or twilight that never ends): no rise, no set
            return None
        return {event: (moment + timedelta(seconds=30)).replace(second=0, microsecond=0) for event, moment in found.items()}

    def up_all_day(self, day: date) -> bool:
        noon = datetime(day.year, day.month, day.day, 12, tzinfo=self.zone)
        return elevation(self.observer, noon) > 0


def moon_phase(day: date) -> tuple[str, str]:
    """The moon's phase on ``day``, in English and Korean: a quarter's name on the day nearest it, else what it is
    between them."""
    for value, name, korean in QUARTERS:
        if day in (_passed(day - timedelta(days=1), value), _passed(day, value)):
            return name, korean
    return BETWEEN[min(3, int(phase(day) // 7))]


def next_phase(after: date, value: float) -> date:
    """The first day after ``after`` nearest the moment the moon's phase passes ``value`` (0 new, 14 full)."""
    for days in range(32):
        found = _passed(after + timedelta(days=days), value)
        if found is not None and found > after:
            return found
    raise LookupError(f"no phase {value} in a month after {after}")


def _passed(day: date, value: float) -> date | None:
    """Where the phase passes ``value`` between ``day`` and the next: the one of the two nearer it; else None."""
    before, after = phase(day), phase(day + timedelta(days=1))
    passed = (value == 0.0 or value > before) if after < before else before < value <= after  # (< : a new moon)
    if not passed:
        return None
    return day if _distance(before, value) < _distance(after, value) else day + timedelta(days=1)


def _distance(age: float, value: float) -> float:
    gap = abs(age - value) % 28
    return min(gap, 28 - gap)


def _city(zone: str, language: str) -> str:
    """The city a zone is named after, as ``language`` says it ("Asia/Seoul": "Seoul", "서울")."""
    return Locale.parse(language).time_zones.get(zone, {}).get("city") or zone.rsplit("/", 1)[-1].replace("_", " ")


def _article(name: str) -> str:
    """"a waxing crescent", "at its first quarter"."""
    return f"at its {name}" if "quarter" in name else f"a {name}"


def _day(said: str | None, now: datetime) -> date:
    """The day said ("tomorrow", "on Saturday": the next one, today's own where it is that day) from ``now``."""
    today = now.date()
    if not said or said.startswith(("today", "tonight", "this")):
        return today
    if said.startswith("tomorrow"):
        return today + timedelta(days=1)
    if said == "the day after tomorrow":
        return today + timedelta(days=2)
    if said == "yesterday":
        return today - timedelta(days=1)
    weekday = WEEKDAY_NAMES.index(said.removeprefix("on "))
    return today + timedelta(days=(weekday - today.weekday()) % 7)


def _when(day: date, today: date) -> str:
    days = (day - today).days
    return {0: " today", 1: " tomorrow", -1: " yesterday"}.get(days, f" on {WEEKDAY_NAMES[day.weekday()].title()}")


def create(setup: SkillSetup) -> Sky:
    return Sky(resolve_locale(setup.config.locale), local_zone())
