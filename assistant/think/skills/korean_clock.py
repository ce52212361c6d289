"""The time, the date, the day of the week, the year and the month, asked in Korean and
answered the Korean way ("지금은 오후 세 시 이십오 분이에요.", "내일은 유월 십일일 수요일이에요.").

Guard: the whole utterance must be one of the forms below; "몇 시에 문을 닫아요" (when
does it close) or "몇 시간 걸려요" (how many hours) go elsewhere.
"""

from __future__ import annotations

import re
from datetime import timedelta

from assistant.think.korean import WEEKDAYS, date_words, time_words
from assistant.think.skills import SkillContext, SkillReply, korean_timers
from assistant.think.skills.time_math import days_until
from assistant.think.skills.korean_numbers import copula, parse, past_copula, say, topic
from assistant.think.skills.korean_pattern import Form, first

_DAY = "[day=오늘:0|내일:1|어제:-1|모레:2] [@TOPIC]"
_FORMS = [
    ("time", "[지금] 몇_시 [@IS]"),
    ("time", "[지금] [몇_시] 몇_분 [@IS]"),
    ("time", "[지금] 시간 [좀] @TELL"),
    ("time", "지금 시간 [@TOPIC] [몇_시] [@IS]"),
    ("date", f"{_DAY} [몇_월] 며칠 [@IS|@WAS]"),
    ("date", f"{_DAY} 날짜 [@TOPIC|좀] [@TELL|뭐예요|뭐야|어떻게_돼요]"),
    ("weekday", f"{_DAY} 무슨|몇 요일 [@IS|@WAS]"),
    ("weekday", f"{_DAY} 요일 [@TOPIC|좀] [@TELL|뭐예요|뭐야]"),
    ("year", "[올해|금년|지금] [@TOPIC] 몇_년 [도] [@IS]"),
    ("month", "[지금|이번_달] [@TOPIC] 몇_월 [@IS]"),
    ("is_day", "day=오늘:0|내일:1|어제:-1|모레:2|지금:0 [@TOPIC] asked=월요일:0|화요일:1|수요일:2|목요일:3|금요일:4|토요일:5|"
               "일요일:6|주말:weekend|평일:weekday|주중:weekday @IS|@WAS|맞아|맞아요|맞지|맞죠|인가요"),
    # worked out from now: "세 시간 뒤에 몇 시야", "금요일까지 며칠 남았어", "사흘 뒤는 며칠이야"
    ("shifted", "{n:days} way=뒤:1|후:1|뒤에:1|후에:1|있으면:1|전:-1|전에:-1 [@TOPIC] "
                "asked=며칠:date|몇_월_며칠:date|날짜:date|무슨_요일:weekday|몇_요일:weekday [@IS|@WAS|일까|일까요]"),
    ("later", "{d} 뒤에|뒤|후에|후|있으면 [@TOPIC] 몇_시 [@IS|일까|일까요|야|예요]"),
    ("until", "[half=오전:am|오후:pm|아침:am|저녁:pm|밤:pm|낮:pm|새벽:am] {t} 까지 [앞으로] 얼마나|몇_시간|몇_분|시간이 [더] "
              "남았어|남았어요|남았나요|남았지|남았니|@IS"),
    ("days_to", "[다음_주|이번_주] wd=월요일:0|화요일:1|수요일:2|목요일:3|금요일:4|토요일:5|일요일:6|주말:7 까지 며칠|몇_일 "
                "[남았어|남았어요|남았나요|남았지|@IS]"),
]
_DAYS_SAID = {"하루": 1, "이틀": 2, "사흘": 3, "나흘": 4, "닷새": 5, "엿새": 6, "이레": 7, "열흘": 10, "보름": 15}
_DAYS = re.compile(r"(?P<n>.+?)(?P<unit>일|주일|주)")


def days(words: str) -> int | None:
    """Days in "사흘", "삼일", "10일", "일주일", "이 주"; None when it is no count of days."""
    if words in _DAYS_SAID:
        return _DAYS_SAID[words]
    found = _DAYS.fullmatch(words)
    count = parse(found["n"]) if found else None
    if count is None or count != int(count) or not 0 < count <= 3650:
        return None
    return int(count) * (1 if found["unit"] == "일" else 7)


FORMS = [(kind, Form(spec, {"d": korean_timers.duration_s, "days": days, "t": korean_timers.clock}))
         for kind, spec in _FORMS]
_DAY_SAID = {0: "오늘", 1: "내일", -1: "어제", 2: "모레"}


def match(name: str, text: str, context: SkillContext) -> SkillReply | None:
    """The clock's answer to Korean ``text``, or None."""
    hit = first(FORMS, text.replace("정오", "낮 열두 시").replace("자정", "새벽 열두 시"))  # noon, midnight: the clock's words
    if hit is None:
        return None
    kind, found = hit
    if kind == "until":
        named = next((word for word in ("자정", "정오") if word in text), None)
        return _until(name, found.values, context, named)
    if kind == "later":
        return _later(name, found.values["d"], context)
    if kind == "days_to":
        weekday = int(found.values["wd"])
        return _days_to(name, min(weekday, 5), weekday == 7, context)  # 7: the weekend (from Saturday)
    if kind == "is_day":
        return _is_day(name, int(found.values["day"]), found.values["asked"], context)
    if kind == "shifted":
        return _shifted(name, found.values["n"] * int(found.values["way"]), found.values["asked"], context)
    offset = int(found.values.get("day", 0))
    when = context.now + timedelta(days=offset)
    day = topic(_DAY_SAID[offset])
    past = offset < 0
    if kind == "time":
        return SkillReply(name, f"지금은 {copula(time_words(context.now))}.")
    if kind == "date":
        return SkillReply(name, f"{day} {_is(date_words(when), past)}.")
    if kind == "weekday":
        return SkillReply(name, f"{day} {_is(WEEKDAYS[when.weekday()], past)}.")
    if kind == "year":
        return SkillReply(name, f"올해는 {say(context.now.year)} {copula('년')}.")
    month = date_words(context.now).split()[0]
    return SkillReply(name, f"지금은 {copula(month)}.")


def _later(name: str, seconds: float | None, context: SkillContext) -> SkillReply | None:
    if not seconds or seconds > 7 * 24 * 3600:
        return None
    when = context.now + timedelta(seconds=seconds)
    days = (when.date() - context.now.date()).days
    day = {0: "", 1: "내일 "}.get(days, f"{WEEKDAYS[when.weekday()]} ")
    return SkillReply(name, f"{korean_timers.spoken_duration(seconds)} 뒤에는 {day}{copula(time_words(when))}.")


def _until(name: str, v: dict, context: SkillContext, named: str | None) -> SkillReply | None:
    """"자정까지 얼마나 남았어?" -> "자정까지 칠 시간 오십 분 남았어요."; "다섯 시까지" is the sooner five o'clock."""
    when = korean_timers.next_time_said(context.now, v["t"], v.get("half"), None)
    if when is None:
        return None
    minutes = round((when - context.now).total_seconds() / 60)
    return SkillReply(name, f"{named or time_words(when)}까지 {korean_timers.spoken_duration(minutes * 60)} 남았어요.")


def _days_to(name: str, weekday: int, weekend: bool, context: SkillContext) -> SkillReply:
    days = days_until(None if weekend else weekday, context.now.date())
    if days is None:
        return SkillReply(name, "오늘이 주말이에요!")
    said = "주말" if weekend else WEEKDAYS[weekday]
    return SkillReply(name, f"내일이 {copula(said)}." if days == 1 else f"{said}까지 {say(days)} 일 남았어요.")


def _is_day(name: str, offset: int, asked: str, context: SkillContext) -> SkillReply:
    """네 or 아니요 to "오늘 금요일이야?", "내일 평일이에요?", "지금 주말이야?", with the day it is (Saturday and Sunday are the
    weekend, as in Korea)."""
    weekday = (context.now + timedelta(days=offset)).weekday()
    yes = weekday >= 5 if asked == "weekend" else weekday < 5 if asked == "weekday" else int(asked) == weekday
    said = f"{topic(_DAY_SAID[offset])} {_is(WEEKDAYS[weekday], offset < 0)}"
    return SkillReply(name, f"{'네' if yes else '아니요'}, {said}.")


def _shifted(name: str, offset: int, asked: str, context: SkillContext) -> SkillReply:
    """"사흘 뒤는 며칠이야?" -> "삼 일 뒤는 십이월 십일 목요일이에요.", "일주일 전은 무슨 요일이었어?" -> "칠 일 전은 월요일이었어요."."""
    when = context.now + timedelta(days=offset)
    said = date_words(when) if asked == "date" else WEEKDAYS[when.weekday()]
    return SkillReply(name, f"{say(abs(offset))} 일 {'전은' if offset < 0 else '뒤는'} {_is(said, offset < 0)}.")


def _is(words: str, past: bool) -> str:
    """``words`` with "이에요"/"예요", or "이었어요"/"였어요" for yesterday."""
    return past_copula(words) if past else copula(words)
