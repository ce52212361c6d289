"""Timers and alarms asked in Korean: "십 분 타이머 맞춰 줘", "라면 타이머 삼 분", "한 시간 반
타이머", "내일 아침 일곱 시에 깨워 주세요", "오후 세 시 반에 알람 맞춰 줘", "타이머 얼마나
남았어요", "라면 타이머 취소해 줘", "타이머 일시정지해 줘", "다시 시작해 줘", "알람 몇 시에 울려", "알람 미뤄 줘"
(after a ring); "타이머 맞춰 줘" is asked its length ("몇 분으로 맞출까요?") and takes "십 분" next; answered in
Korean ("십 분 타이머를 맞췄어요.").

They live in the timers skill's store with the English ones. A Korean timer without a
name is named by its length in Korean ("십 분"), an alarm by its time ("오전 일곱 시"), so
it rings in Korean ("라면 타이머가 끝났어요.", "오전 일곱 시예요. 알람이 울려요.").

Guard: the whole utterance is one of the forms below, with 타이머, 알람, 깨워 or 남은 시간
in it, or a length and "뒤에 알려 줘" (a reminder: "오 분 뒤에 알려 줘" sets a five-minute timer): "타이머는 어떻게 써요" (how do I use a timer) or "알람 시계를 사고 싶어요" go elsewhere.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Protocol

from assistant.writing import has_hangul, is_syllable
from assistant.think.korean import time_words
from assistant.think.skills import SkillContext, SkillReply
from assistant.think.skills.korean_numbers import copula, native, obj, parse, say, subject, topic, towards
from assistant.think.skills.korean_pattern import Form, first
from assistant.think.skills.timer_store import RECENT_S, SNOOZE_S, same_half_of_day, soonest

if TYPE_CHECKING:
    from assistant.think.skills.timer_store import Timer, Timers


class TimerSkill(Protocol):
    """What this module uses of :class:`assistant.think.skills.timers.TimerSkill`."""

    name: str
    timers: Timers

_DURATION = re.compile(r"(?:(?P<h>[^분초]+?)시간)?(?:(?P<m>[^시초]+?)분)?(?:(?P<s>[^시분]+?)초)?(?P<half>반)?")
_CLOCK = re.compile(r"(?P<h>.+?)시(?:(?P<m>.+?)분|(?P<half>반))?|(?P<hd>\d{1,2})[:.](?P<md>\d{2})")
_NOT_NAMES = frozenset({"모든", "모두", "전부", "그", "이", "저", "내", "제", "새", "다른", "지금", "반", "짜리", "오늘",
                        "내일", "다시", "잠깐", "잠시"})
"""Words before 타이머 that are no timer's name."""


def duration_s(words: str) -> float | None:
    """Seconds in "한시간반", "삼분삼십초", "10분", "1시간30분"; None when it is no duration."""
    found = _DURATION.fullmatch(words)
    if not found or not any(found[k] for k in "hms"):
        return None
    total = 0.0
    for key, size in (("h", 3600), ("m", 60), ("s", 1)):
        if found[key]:
            count = parse(found[key], counter=True)
            if count is None:
                return None
            total += count * size
    if found["half"]:
        total += 1800 if found["h"] else 30 if found["m"] else 0
    return total


def clock(words: str) -> tuple[int, int] | None:
    """(hour, minute) of "일곱시", "세시반", "7시30분", "7:30"."""
    found = _CLOCK.fullmatch(words)
    if not found:
        return None
    if found["hd"]:
        hour, minute = int(found["hd"]), int(found["md"])
    else:
        hour = parse(found["h"], counter=True)
        minute = 30 if found["half"] else parse(found["m"]) if found["m"] else 0
        if hour is None or minute is None or hour != int(hour) or minute != int(minute):
            return None
    return (int(hour), int(minute)) if 0 <= hour <= 24 and 0 <= minute <= 59 else None


def _name(words: str) -> str | None:
    """A timer's name: the noun before 타이머 ("라면"); a word ending in a particle is no such noun ("칠 분" misheard
    as "치옥은")."""
    if not 1 <= len(words) <= 4 or not all(is_syllable(c) for c in words) or words in _NOT_NAMES:
        return None
    if len(words) > 1 and words[-1] in "은는을를에":  # ("정오에": a time, not a name)
        return None
    return None if duration_s(words) or parse(words, counter=True) is not None else words


_READERS = {"d": duration_s, "t": clock, "name": _name}
_SET = "[좀] [맞춰_줘|맞춰_주세요|맞춰|맞춰줄래|설정|설정해|설정해_줘|설정해_주세요|시작|시작해|시작해_줘|시작해_주세요|" \
       "켜_줘|켜_주세요|해_줘|해_주세요|부탁해|부탁해요|맞춰_놔|맞춰_놔_줘|맞춰_주실래요]"
_SET_SAID = _SET.replace("[좀] [", "[좀] ").removesuffix("]")
"""The request's verb, said (a timer asked for with no length must be asked for: "타이머 맞춰 줘")."""
_DAY = "[day=오늘|내일] [half=오전:am|오후:pm|아침:am|저녁:pm|밤:pm|낮:pm|새벽:am]"
_CANCEL = "취소|취소해|취소해_줘|취소해_주세요|꺼|꺼_줘|꺼_주세요|끄기|끄기|삭제|삭제해_줘|지워|지워_줘|멈춰|멈춰_줘|그만"
_LEFT = "[얼마나|몇_분|얼마] 남았어|남았어요|남았나요|남았니|남았지|남았죠"
_FORMS = [
    ("set", f"[{{name}}] 타이머 [는|를|가] {{d}} [짜리|으로|로|동안] {_SET}"),  # 이 would eat 이십
    ("set", f"{{d}} [짜리] [{{name}}] 타이머 [을|를] {_SET}"),
    ("set", "{d} 뒤에|후에|있다가 [좀] 알려_줘|알려_주세요|알려줘|알려_줄래|알려_줄래요|말해_줘|말해_주세요|불러_줘"),  # a reminder
    ("set", "{d} 뒤에|후에|있다가 [좀] 깨워_줘|깨워_주세요|깨워|깨워_줄래|깨워_줄래요|깨워줘요"),  # "이십 분 뒤에 깨워 줘"
    ("alarm", f"{_DAY} {{t}} [에] 알람 [을|를|좀] {_SET}"),
    ("alarm", f"알람 [을|를] {_DAY} {{t}} [에|으로|로] {_SET}"),
    ("alarm", f"{_DAY} {{t}} [에] 깨워_줘|깨워_주세요|깨워|깨워_줄래|깨워_줄래요|깨워줘요"),
    ("cancel", f"[all=모든|모두|전부] [그|이|저] [{{name}}] kind=타이머:timer|알람:alarm [@TOPIC|을|를] [all2=다|모두|전부] "
               f"{_CANCEL}"),
    ("left", f"[그|이|저] [{{name}}] kind=타이머:timer|알람:alarm [@TOPIC] {_LEFT}"),
    ("left", "[그|이|저] [{name}] kind=타이머:timer [@TOPIC] [아직|지금] 돌아가|돌아가요|돌아가나요|돌아가니|가고_있어|가고_있어요"),
    ("left", "[kind=타이머:timer|알람:alarm] 남은_시간 [@TOPIC] [@TELL|얼마예요|얼마야|@IS]"),
    ("left", "[다음] [{name}] kind=알람:alarm [@TOPIC] 몇_시에|언제 울려|울려요|울리나요|울리지|울리니|울려"),
    ("left", "[다음] kind=알람:alarm [@TOPIC] 몇_시야|몇_시예요|몇_시로_맞춰져_있어|언제야|언제예요"),
    ("list", "kind=타이머:timer|알람:alarm [뭐|몇_개] 있어|있어요|있나요|있니"),
    # corrections of the timer or alarm just set (timer_store.RECENT_S): "그거 취소해", "십오 분으로 바꿔 줘", "오 분 더 늘려 줘"
    ("cancel_that", "그거|그것|방금_거|방금_그거|방금_맞춘_거 [좀] 취소|취소해|취소해_줘|취소해_주세요|지워_줘"),
    ("change", "[그거|방금_거] {d} [으로|로] 바꿔|바꿔_줘|바꿔_주세요|변경해|변경해_줘|변경해_주세요|해_줘|해_주세요"),
    ("change", "[그거|방금_거] [half=오전:am|오후:pm|아침:am|저녁:pm] {t} [으로|로] 바꿔|바꿔_줘|바꿔_주세요|변경해_줘|해_줘"),
    ("more", "{d} 더 [추가해|추가해_줘|추가해_주세요|늘려|늘려_줘|늘려_주세요|해_줘|해_주세요|줘|주세요]"),
]
_PAUSE = "일시정지|일시정지해|일시정지해_줘|일시정지해_주세요|잠깐_멈춰|잠깐_멈춰_줘|잠깐_멈춰_주세요|잠시_멈춰_줘|잠시_멈춰_주세요"
_RESUME = "다시_시작|다시_시작해|다시_시작해_줘|다시_시작해_주세요|계속|계속해|계속해_줘|계속해_주세요|재개|재개해_줘|재개해_주세요"
_PAUSE_AND_ASK = [
    # the timer or alarm that just rang, again later ("알람 미뤄 줘", "오 분만 더", "십 분 뒤에 다시 울려 줘")
    ("snooze", "[알람|타이머] [을|를|좀] 미뤄|미뤄_줘|미뤄_주세요|스누즈|다시_울려_줘|이따_다시_울려_줘|나중에_다시_울려_줘"),
    ("snooze", "{d} [만] 더 [잘게|잘래|잘래요|줘|주세요]"),
    ("snooze", "{d} 뒤에|후에 다시 울려|울려_줘|울려_주세요"),
    # a timer paused ("타이머 일시정지해 줘", "잠깐 멈춰 줘": 멈춰 alone cancels it) and run on ("다시 시작해 줘")
    ("pause", f"[{{name}}] 타이머 [@TOPIC|을|를|좀] {_PAUSE}"),
    ("resume", f"[{{name}}] 타이머 [@TOPIC|을|를|좀] {_RESUME}"),
    # a timer or an alarm asked for with no length or time: the length or time is asked for
    ("ask_timer", f"타이머 [을|를|좀|하나] {_SET_SAID}"),
    # with a word before 타이머, nobody's: a length misheard ("십 분" as "씹풍") as often as a name, and no longer
    # read, a letter or two off, as a cancel ("라면 타이머 맞춰 줘" as "라면 타이머 꺼 줘")
    ("not_ours", f"{{name}} 타이머 [을|를|좀|하나] {_SET_SAID}"),
    ("ask_alarm", f"알람 [을|를|좀|하나] {_SET_SAID}"),
    ("ask_alarm", "[좀] 깨워_줘|깨워_주세요|깨워|깨워_줄래|깨워_줄래요|깨워줘요"),
]
_ANSWERS = [  # what was asked for (timer_store.Timers.asked), said alone: "십 분", "일곱 시로 해 줘"
    ("timer", "{d} [이요|요|으로|로] [해_줘|해_주세요|맞춰_줘|맞춰_주세요|할게요]"),
    ("alarm", f"{_DAY} {{t}} [이요|요|에|으로|로] [해_줘|해_주세요|맞춰_줘|맞춰_주세요|할게요]"),
]
FORMS = [(kind, Form(spec, _READERS)) for kind, spec in _FORMS + _PAUSE_AND_ASK]
ANSWERS = [(kind, Form(spec, _READERS)) for kind, spec in _ANSWERS]
_KIND_SAID = {"timer": "타이머", "alarm": "알람"}


def match(skill: TimerSkill, text: str, context: SkillContext) -> SkillReply | None:
    """The timers skill's answer to Korean ``text``, or None."""
    handler = _Handler(skill, context)
    text = text.replace("정오", "낮 열두 시").replace("자정", "새벽 열두 시")  # noon, midnight: the clock's own words
    asked = skill.timers.asked()
    answer = first(ANSWERS, text) if asked is not None else None
    if answer is not None and answer[0] == asked[0]:
        values = {**answer[1].values, **({"name": asked[1]} if asked[1] else {})}
        reply = handler.set(values) if asked[0] == "timer" else handler.alarm(values)
        return replace(reply, effect=skill.timers.answering(reply.effect)) if reply and reply.effect else reply
    if (reminder := _REMIND.match(text.strip())) is not None:
        return handler.remind(reminder)
    hit = first(FORMS, text)
    if hit is None:
        return None
    kind, found = hit
    return getattr(handler, kind)(found.values)


_REMIND = re.compile(r"^(?P<d>.+?) ?(?:뒤에|후에|있다가) (?P<task>\S.*?(?:라|으라|하라|자))고 (?:좀 )?(?:알려|말해)"
                     r"(?: ?줘| ?주세요| ?줄래요?| ?주실래요)?[.!?]*$")  # a reminder with its task: "...빨래 꺼내라고 알려 줘"


class _Handler:
    def __init__(self, skill: TimerSkill, context: SkillContext):
        self.skill, self.context, self.store = skill, context, skill.timers

    def set(self, v: dict) -> SkillReply:
        seconds = v["d"]
        if not 0 < seconds <= 24 * 3600:
            return SkillReply(self.skill.name, "타이머는 일 초부터 스물네 시간까지 맞출 수 있어요.")
        name = v.get("name") or spoken_duration(seconds)
        again = any(t.kind == "timer" and t.name == name for t in self.store.active())
        clock_now = self.store.clock

        def start() -> None:
            self.store.add(name, "timer", clock_now() + seconds, seconds)

        label = f"{name} 타이머"
        said = f"{obj(label)} {towards(spoken_duration(seconds))}" if "name" in v else obj(label)
        return SkillReply(self.skill.name, f"{said} {'다시 ' if again else ''}맞췄어요.", effect=start)

    def alarm(self, v: dict) -> SkillReply | None:
        when = next_time_said(self.context.now, v["t"], v.get("half"), v.get("day"))
        if when is None:
            return None
        name = time_words(when)
        day = "내일" if when.date() != self.context.now.date() else "오늘"

        def start() -> None:
            self.store.add(name, "alarm", when.timestamp())

        return SkillReply(self.skill.name, f"{day} {name}에 알람을 맞췄어요.", effect=start)

    def remind(self, found: re.Match) -> SkillReply | None:
        """A timer named by the task as said ("빨래 꺼내라고"): it rings "알림이에요. 빨래 꺼내라고 하셨어요."."""
        seconds = duration_s(found["d"].replace(" ", ""))
        if seconds is None or not 0 < seconds <= 24 * 3600:
            return None if seconds is None else SkillReply(self.skill.name, "알림은 일 초부터 스물네 시간 뒤까지 맞출 수 있어요.")
        name, clock_now = f"{found['task']}고", self.store.clock
        return SkillReply(self.skill.name, f"{spoken_duration(seconds)} 뒤에 {name} 알려 드릴게요.",
                          effect=lambda: self.store.add(name, "timer", clock_now() + seconds, seconds))

    def ask_timer(self, v: dict) -> SkillReply:  # noqa: ARG002 - the forms' handlers take their values
        return SkillReply(self.skill.name, "몇 분으로 맞출까요?", effect=lambda: self.store.ask("timer"), asks=True)

    def not_ours(self, v: dict) -> None:  # noqa: ARG002 - the forms' handlers take their values
        return None

    def ask_alarm(self, v: dict) -> SkillReply:  # noqa: ARG002 - the forms' handlers take their values
        return SkillReply(self.skill.name, "몇 시로 맞출까요?", effect=lambda: self.store.ask("alarm"), asks=True)

    def pause(self, v: dict) -> SkillReply:
        return self._pause(v, pausing=True)

    def resume(self, v: dict) -> SkillReply:
        return self._pause(v, pausing=False)

    def _pause(self, v: dict, pausing: bool) -> SkillReply:
        chosen = self._choose(v.get("name"), "timer")
        if not chosen:
            return SkillReply(self.skill.name, f"{subject(_label(v.get('name'), 'timer'))} 없어요.")
        if len(chosen) > 1:
            listed = ", ".join(korean_label(t) for t in chosen)
            return SkillReply(self.skill.name, f"타이머가 {native(len(chosen))} 개 있어요: {listed}. 어느 것이요?")
        timer = chosen[0]
        label, left = korean_label(timer), spoken_duration(timer.left_s(self.store.clock()))
        if timer.paused == pausing:
            return SkillReply(self.skill.name, f"{topic(label)} {'이미 멈춰 있어요' if pausing else '돌아가고 있어요'}. {left} 남았어요.")
        if pausing:
            return SkillReply(self.skill.name, f"{obj(label)} 잠시 멈췄어요. {left} 남았어요.", effect=lambda: self.store.pause(timer))
        return SkillReply(self.skill.name, f"{obj(label)} 다시 시작했어요. {left} 남았어요.", effect=lambda: self.store.resume(timer))

    def cancel(self, v: dict) -> SkillReply:
        kind = v["kind"]
        chosen = self._choose(v.get("name"), kind)
        said_kind = _KIND_SAID[kind]
        if not chosen:
            return SkillReply(self.skill.name, f"{subject(_label(v.get('name'), kind))} 없어요.")
        every = bool(v.get("all") or v.get("all2"))
        if len(chosen) > 1 and not every:
            listed = ", ".join(korean_label(t) for t in chosen)
            return SkillReply(self.skill.name, f"{subject(said_kind)} {native(len(chosen))} 개 있어요: {listed}. "
                                               "어느 것을 취소할까요?")
        said = obj(korean_label(chosen[0])) if len(chosen) == 1 else f"{said_kind} {native(len(chosen))} 개를 모두"
        return SkillReply(self.skill.name, f"{said} 취소했어요.", effect=lambda: self.store.cancel(chosen))

    def left(self, v: dict) -> SkillReply | None:
        kind = v.get("kind", "timer")
        chosen = self._choose(v.get("name"), kind)
        if not chosen:
            if "kind" not in v:
                return None  # "남은 시간 알려 줘" with no timer running: not a timer question
            return SkillReply(self.skill.name, f"{subject(_label(v.get('name'), kind))} 없어요.")
        return SkillReply(self.skill.name, " ".join(self._left(t) for t in chosen))

    def list(self, v: dict) -> SkillReply:
        chosen = self._choose(None, v["kind"])
        if not chosen:
            return SkillReply(self.skill.name, f"{subject(_label(None, v['kind']))} 없어요.")
        return SkillReply(self.skill.name, " ".join(self._left(t) for t in chosen))

    def cancel_that(self, v: dict) -> SkillReply | None:  # noqa: ARG002 - the forms' handlers take their values
        latest = self.store.latest(RECENT_S)
        if latest is None:
            return None
        return SkillReply(self.skill.name, f"{obj(korean_label(latest))} 취소했어요.", effect=lambda: self.store.cancel([latest]))

    def change(self, v: dict) -> SkillReply | None:
        latest = self.store.latest(RECENT_S)
        if latest is None or ("d" in v) != (latest.kind == "timer"):
            return None
        if "d" in v:
            seconds = v["d"]
            if not 0 < seconds <= 24 * 3600:
                return None
            name = _named_anew(latest, seconds)
            label = "타이머" if name != latest.name else f"{name} 타이머"
            text = f"{obj(label)} {towards(spoken_duration(seconds))} 바꿨어요."
            return self._anew(latest, name, self.store.clock() + seconds, seconds, text)
        was = datetime.fromtimestamp(latest.ends_at, self.context.now.tzinfo)
        hour, minute = v["t"]
        if not v.get("half") and 1 <= hour <= 12:  # "일곱 시 반으로" after "오전 일곱 시": the same half of the day
            hour = same_half_of_day(hour, was)
        when = next_time_said(self.context.now, (hour, minute), v.get("half") or ("pm" if hour >= 12 else "am"), None)
        if when is None:
            return None
        day = "내일" if when.date() != self.context.now.date() else "오늘"
        return self._anew(latest, time_words(when), when.timestamp(), 0.0, f"알람을 {day} {towards(time_words(when))} 바꿨어요.")

    def snooze(self, v: dict) -> SkillReply | None:
        rung = self.store.rung()
        if rung is None:
            return SkillReply(self.skill.name, "지금 울린 알람이나 타이머가 없어요.") if "d" not in v else None
        seconds = v.get("d") or SNOOZE_S
        if not 0 < seconds <= 24 * 3600:
            return None
        if rung.kind == "alarm":  # a Korean alarm is named by the time it rings
            name = time_words(self.context.now + timedelta(seconds=seconds))
        else:
            name = _named_anew(rung, seconds)
        return SkillReply(self.skill.name, f"{spoken_duration(seconds)} 뒤에 다시 울릴게요.",
                          effect=lambda: self.store.snooze(rung, seconds, name))

    def more(self, v: dict) -> SkillReply | None:
        timer = self.store.to_extend()
        if timer is None:
            return self.snooze(v)  # "오 분 더" right after a ring
        if not 0 < v["d"] <= 24 * 3600:
            return None
        left = timer.left_s(self.store.clock()) + v["d"]
        text = f"{spoken_duration(v['d'])} 더 늘렸어요. {spoken_duration(left)} 남았어요."
        seconds = timer.duration_s + v["d"]
        name = _named_anew(timer, seconds)
        return self._anew(timer, name, timer.ends_at + v["d"], seconds, text)

    def _anew(self, timer: Timer, name: str, ends_at: float, seconds: float, text: str) -> SkillReply:
        def change() -> None:
            self.store.replace(timer, name, ends_at, seconds)

        return SkillReply(self.skill.name, text, effect=change)

    def _left(self, timer: Timer) -> str:
        if timer.kind == "alarm":
            when = datetime.fromtimestamp(timer.ends_at).astimezone(self.context.now.tzinfo)
            day = "내일" if when.date() != self.context.now.date() else "오늘"
            return f"{topic(korean_label(timer))} {day} {time_words(when)}에 울려요."
        paused = "멈춰 있고 " if timer.paused else ""
        return f"{topic(korean_label(timer))} {paused}{spoken_duration(timer.left_s(self.store.clock()))} 남았어요."

    def _choose(self, name: str | None, kind: str) -> list[Timer]:
        timers = [t for t in self.store.active() if t.kind == kind]
        if not name:
            return timers
        return [t for t in timers if t.name == name] or [t for t in timers if name in t.name]


def _named_anew(timer: Timer, seconds: float) -> str:
    """The name of a timer set anew for ``seconds``: its new length where its length named it ("십 분")."""
    return spoken_duration(seconds) if timer.kind == "timer" and timer.name == spoken_duration(timer.duration_s) else timer.name


def _label(name: str | None, kind: str) -> str:
    return f"{name} {_KIND_SAID[kind]}" if name else f"{'실행 중인' if kind == 'timer' else '맞춰 둔'} {_KIND_SAID[kind]}"


def korean_label(timer: Timer) -> str:
    """ "라면 타이머", "오전 일곱 시 알람", "빨래 꺼내라고 한 알림"; an English timer keeps its name ("pasta 타이머")."""
    if _reminding(timer):
        return f"{timer.name} 한 알림"
    return f"{timer.name} {_KIND_SAID[timer.kind]}" if timer.name else _KIND_SAID[timer.kind]


def _reminding(timer: Timer) -> bool:
    """A Korean reminder's timer: named by its task as said, "...라고"."""
    return timer.kind == "timer" and has_hangul(timer.name) and timer.name.endswith("고")


def is_korean(timer: Timer) -> bool:
    """Whether ``timer`` was set in Korean (its name is Hangul), so it rings in Korean."""
    return has_hangul(timer.name)


def ring_text(timer: Timer, now: datetime | None = None) -> str:
    """What is said when a Korean timer or alarm goes off (``now``: the time it is)."""
    if timer.kind == "alarm":
        return f"{copula(time_words(now or datetime.now()))}. 알람이 울려요."
    if _reminding(timer):
        return f"알림이에요. {timer.name} 하셨어요."
    return f"{subject(korean_label(timer))} 끝났어요."


def spoken_duration(seconds: float) -> str:
    """ "한 시간 삼십 분", "이 분 삼십 초", "사십오 초" (seconds left out past ten minutes)."""
    seconds = round(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{native(hours)} 시간"] if hours else []
    parts += [f"{say(minutes)} 분"] if minutes else []
    parts += [f"{say(secs)} 초"] if secs and not hours and minutes < 10 else []
    return " ".join(parts[:2]) if parts else "영 초"


def next_time_said(now: datetime, hour_minute: tuple[int, int], half: str | None, day: str | None) -> datetime | None:
    """The next moment the time comes (tomorrow if asked or if it has passed); a bare hour
    from 1 to 12 is the sooner of its morning and its afternoon."""
    hour, minute = hour_minute
    if half == "pm" and hour < 12:
        hour += 12
    elif half == "am" and hour == 12:
        hour = 0
    if hour >= 24:
        return None
    hours = [hour] if half or hour == 0 or hour > 12 else [hour % 12, hour % 12 + 12]
    return soonest(now, hours, minute, tomorrow=day == "내일")
