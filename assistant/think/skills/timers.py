"""Timers and alarms, several at once and by name.

"set a pasta timer for 10 minutes", "set a 3 minute egg timer", "set a timer for an
hour and a half", "set an alarm for 7:30 am" (or "730", as Whisper often writes it), "wake
me up at 6", "how long is left on the pasta timer", "what timers do I have", "cancel the
egg timer", "cancel all timers".

A timer without a name is named by its length ("10 minute timer"). When one runs out,
the engine plays a chime and says so, even if nobody is talking to it. Timers live in
:class:`~assistant.think.skills.timer_store.Timers`, in the file of the place that set
them (:attr:`SkillSetup.timers_path`: the desktop's survive a restart) or in memory.

Guard: the whole utterance must be one of these commands, with "timer" or "alarm" in
it (a bare "how much time is left" only while a timer runs): "how long should I boil
an egg" or "what is a kitchen timer" go to the LLM.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Callable

from assistant.writing import has_hangul
from assistant.think.skills import SkillContext, SkillReply, SkillSetup, korean_timers
from assistant.think.skills.clock import resolve_locale
from assistant.think.skills.text import FUNCTION_WORDS, NUMBER, capital, normalize, spoken_duration, spoken_number
from assistant.think.skills.timer_store import (CLOCK_TIME, RECENT_S, REMINDER, Timer, Timers, chime, next_time,
                                                same_half_of_day, soonest)

NAME = "timers"

_UNIT_S = {"hour": 3600, "hr": 3600, "minute": 60, "min": 60, "second": 1, "sec": 1}
_COUNT = rf"(?:{NUMBER}|an?)"
_UNIT = r"(?:hours?|hrs?|minutes?|mins?|seconds?|secs?)"
_DURATION = rf"{_COUNT} {_UNIT}(?: and a half)?(?:(?: and)? {_COUNT} {_UNIT})?"
_NAME = r"[a-z]+(?: [a-z]+){0,2}?"
_ANY_NAME = r"[a-z0-9.]+(?: [a-z0-9.]+){0,3}?"
_VERB = r"(?:set|start|create|make|add|put on|begin|give me|i need|i want)"
_SET = rf"(?:(?:can you |could you |please )?{_VERB} )?"
_ARTICLE = r"(?:(?:a|an|the|my|your|our|another|one more) )?"
_OWNER = r"(?:the |my |your |our |a )?"
_REQUEST = re.compile(rf"\b{_VERB} ")
"""A request's verb (:data:`_VERB`) inside what would be a timer's name: the words before it are not the
request's ("Mike, set a timer...", its comma dropped)."""

_SET_TIMER = (
    re.compile(rf"^{_SET}{_ARTICLE}(?:(?P<duration>{_DURATION}) )?(?:(?P<name>{_NAME}) )?timer"
               rf"(?: (?:for|of|to|at|on) (?P<duration2>{_DURATION}))?(?: (?:for|called|named) {_OWNER}(?P<name2>{_NAME}))?$"),
    re.compile(rf"^{_SET}{_ARTICLE}timer (?:for|called|named) {_OWNER}(?P<name>{_NAME}) (?:for|of|to) "
               rf"(?P<duration>{_DURATION})$"),
)
_TIMER_HEARD_AS_TIME = re.compile(rf"^{_SET}(?:at |up |up a |a |an )?time (?:for|of) (?P<duration>{_DURATION})$")
"""A timer request whose "a timer" the recognizer heard as "at time" or "up time" (its r lost): "set at time for
10 minutes". A time set for a length is a timer; "set a time for the meeting" has no length and is not one."""
_REMIND = re.compile(rf"^remind me (?:in (?P<duration>{_DURATION})|at (?P<clock>\d{{1,2}}(?:[:. -]?[0-5]\d)?"
                     rf"(?: ?(?:am|pm|oclock))?))$")
"""A reminder with nothing to remind of is a timer ("remind me in 10 minutes") or an alarm ("remind me at 7")."""
_REMIND_TO = (re.compile(rf"^remind me to (?P<task>[a-z]+(?: [a-z]+){{0,5}}?) in (?P<duration>{_DURATION})$"),
              re.compile(rf"^in (?P<duration>{_DURATION}) remind me to (?P<task>[a-z]+(?: [a-z]+){{0,5}})$"))
"""A reminder of something after a while: a timer named by it, said when it runs out ("This is your reminder
to call your mom.")."""
_YOURS = {"me": "you", "my": "your", "i": "you", "myself": "yourself", "mine": "yours", "am": "are"}
_CLOCK = CLOCK_TIME
_SET_ALARM = (
    re.compile(rf"^{_SET}{_ARTICLE}alarm (?:for|at) (?P<clock>{_CLOCK})(?: (?P<day>tomorrow|today))?"
               rf"(?: (?:for|called|named) {_OWNER}(?P<name>{_NAME}))?$"),
    re.compile(rf"^(?:please )?wake me(?: up)? (?:at )?(?P<clock>{_CLOCK})(?: (?P<day>tomorrow|today))?$"),
)
_CANCEL = re.compile(
    rf"^(?:please )?(?:cancel|stop|delete|remove|clear|turn off|switch off|dismiss|end|kill) "
    rf"(?P<all>all (?:the |my |of the |of my )?|every )?{_OWNER}(?:(?P<name>{_ANY_NAME}) )?"
    rf"(?P<kind>timers?|alarms?|reminders?)"
    rf"(?: (?:for|called|named|to) {_OWNER}(?P<name2>{_ANY_NAME}))?$"
)
_ASK_LEFT = (
    re.compile(rf"^how (?:much time|long|much longer|many minutes) (?:is |are )?(?:there )?(?:left |remaining )?"
               rf"(?:on|for|in|until) {_OWNER}(?:(?P<name>{_ANY_NAME}) )?(?P<kind>timer|alarm|reminder)(?: goes off| rings)?$"),
    # A misheard "how long" ("how on is left on the pasta timer"): "left" and the timer decide.
    re.compile(rf"^how [a-z]+(?: [a-z]+)? (?:is |are )?(?:there )?(?:left|remaining) "
               rf"(?:on|for|in) {_OWNER}(?:(?P<name>{_ANY_NAME}) )?(?P<kind>timer|alarm|reminder)$"),
    re.compile(rf"^how long until {_OWNER}(?:(?P<name>{_ANY_NAME}) )?(?P<kind>timer|alarm|reminder)(?: goes off| rings)?$"),
    re.compile(r"^(?:what|which) (?P<kind>timers|alarms|reminders) (?:do i have|are (?:running|set|there|on))(?: now)?$"),
    re.compile(r"^(?:list|show)(?: me)? (?:my |the |all )?(?:running )?(?P<kind>timers|alarms|reminders)$"),
    re.compile(r"^(?:is there|are there|do i have) (?:a |an |any )?(?P<kind>timers?|alarms?|reminders?)(?: running| set| on)?$"),
)
_JUST = r"(?:(?:no|actually|oh|oops|sorry|wait|never mind|hmm) )*"
"""How a correction may open ("Actually, make it twelve minutes.", "Never mind, cancel it.")."""
_CANCEL_THAT = re.compile(rf"^{_JUST}(?:cancel|delete|remove|undo|scratch|forget) (?:that|it|this)(?: one)?$")
_CHANGE_THAT = re.compile(rf"^{_JUST}(?:make|change|set|switch|move) (?:it|that|this)(?: one)? (?:to |for |into )?(?P<what>.+)$")
_ADD_MORE = re.compile(rf"^{_JUST}(?:add|give (?:me|it)) (?:another |an extra )?(?P<count>{_COUNT}) (?:more |extra )?"
                       rf"(?P<unit>{_UNIT})(?: more| extra)?(?: (?:to|on) (?:it|that|this|the timer|my timer))?$")
_NO_TIME = re.compile(rf"^{_SET}{_ARTICLE}alarm(?: for me)?(?: please)?$"
                      rf"|^(?:please )?(?:can you |could you )?wake me(?: up)?(?: please)?$")
"""An alarm asked for with no time: the time is asked for ("For what time?")."""
_GIVEN_LENGTH = re.compile(rf"^{_JUST}(?:for |about |make it |let us say )?(?P<duration>{_DURATION})(?: please)?$")
_GIVEN_TIME = re.compile(rf"^{_JUST}(?:for |at |make it |let us say )?(?P<clock>{_CLOCK})(?: (?P<day>tomorrow|today))?"
                         rf"(?: please)?$")
"""The answer to "For how long?" or "For what time?": a length or a clock time alone ("Ten minutes.", "At 7 am.")."""
_ASK_BARE = re.compile(r"^how (?:much time|long|much longer) (?:is |are )?(?:there )?(?:left|remaining)(?: now)?$")


def duration_s(words: str) -> float:
    """Seconds in "1 hour and 30 minutes", "a minute and a half", "0.5 hour"."""
    total = 0.0
    for count, unit, half in re.findall(rf"({_COUNT}) ({_UNIT})( and a half)?", words):
        seconds = _UNIT_S[unit.rstrip("s")]
        total += (1.0 if count in ("a", "an") else float(count)) * seconds + (seconds / 2 if half else 0)
    return total


def _asking(question: str, ask: Callable[[], None]) -> SkillReply:
    """A question for what the request lacked; the request is remembered once the turn is committed."""
    return SkillReply(NAME, question, effect=ask, asks=True)


def length_name(seconds: float) -> str:
    """A timer's name from its length: "10 minute", "1 hour", "90 second"."""
    for unit, size in (("hour", 3600), ("minute", 60)):
        if seconds >= size and (seconds % size == 0 or unit == "minute" and seconds >= 600):
            return f"{spoken_number(seconds / size)} {unit}"
    if seconds >= 60 and seconds % 30 == 0:
        return f"{spoken_number(seconds / 60)} minute"
    return f"{spoken_number(seconds)} second"


class TimerSkill:
    name = NAME

    def __init__(self, timers_path: Path | None, setup: SkillSetup):
        self.clock = resolve_locale(setup.config.locale)
        self._setup = setup
        self.timers = Timers(timers_path, self._ring)

    def match(self, text: str, context: SkillContext) -> SkillReply | None:
        if has_hangul(text):
            return korean_timers.match(self, text, context)
        said = normalize(text)
        if (heard := _TIMER_HEARD_AS_TIME.match(said)) is not None:
            said = f"set a timer for {heard['duration']}"
        if (reminder := _REMIND.match(said)) is not None:
            duration, clock = reminder["duration"], reminder["clock"]
            said = f"set a timer for {duration}" if duration else f"set an alarm for {clock}"
        if (answer := self._answer(said, context)) is not None:
            return answer
        if (change := self._change(said, context)) is not None:
            return change
        if not any(word in said for word in ("timer", "alarm", "wake me", "remind")) and not _ASK_BARE.match(said):
            return None
        for handle in (self._remind, self._set_timer, self._set_alarm, self._cancel, self._ask):
            reply = handle(said, context)
            if reply is not None:
                return reply
        return None

    # ------------------------------------------------------------ commands

    def _set_timer(self, said: str, context: SkillContext) -> SkillReply | None:
        command = next((m for p in _SET_TIMER if (m := p.match(said))), None)
        if command is None:
            return None
        found = command.groupdict()
        if found.get("name") and not _REQUEST.match(said) and (verb := _REQUEST.search(found["name"] + " ")):
            start = command.start("name") + verb.start()
            return self._set_timer(said[start:], context) if start > 0 else None
        durations = [d for d in (found.get("duration"), found.get("duration2")) if d]
        names = [n for n in (found.get("name"), found.get("name2")) if n and not _function_words(n)]
        if len(durations) > 1 or len(names) > 1 or any(_is_length(n) for n in names):
            return None
        if not durations:  # "Set a timer.": its length is asked for, and the answer taken (:meth:`_answer`)
            name = names[0] if names else ""
            return _asking(f"How long should the {name} timer be?" if name else "For how long?",
                           lambda: self.timers.ask("timer", name))
        seconds = duration_s(durations[0])
        if seconds <= 0 or seconds > 24 * 3600:
            return SkillReply(NAME, "A timer can run from one second to 24 hours.")
        name = names[0] if names else length_name(seconds)
        verb = "reset to" if self._find(name, "timer") else "set for"
        clock = self.timers.clock

        def start() -> None:
            self.timers.add(name, "timer", clock() + seconds, seconds)

        label = f"{capital(name)} timer" if names else "Timer"
        return SkillReply(NAME, f"{label} {verb} {spoken_duration(seconds)}.", effect=start)

    def _remind(self, said: str, context: SkillContext) -> SkillReply | None:  # noqa: ARG002 - same form
        command = next((m for p in _REMIND_TO if (m := p.match(said))), None)
        if command is None:
            return None
        seconds = duration_s(command["duration"])
        if seconds <= 0 or seconds > 24 * 3600:
            return SkillReply(NAME, "A reminder can be from one second to 24 hours away.")
        task = _yours(command["task"])
        clock = self.timers.clock

        def start() -> None:
            self.timers.add(f"{REMINDER}{task}", "timer", clock() + seconds, seconds)

        return SkillReply(NAME, f"Okay, I'll remind you to {task} in {spoken_duration(seconds)}.", effect=start)

    def _set_alarm(self, said: str, context: SkillContext) -> SkillReply | None:
        command = next((m for p in _SET_ALARM if (m := p.match(said))), None)
        if command is None:
            return _asking("For what time?", lambda: self.timers.ask("alarm")) if _NO_TIME.match(said) else None
        when = next_time(context.now, command, command.groupdict().get("day"))
        if when is None:
            return None
        name = command.groupdict().get("name") or ""
        day = "tomorrow" if when.date() != context.now.date() else "today"
        spoken = f"{self.clock_time(when)} {day}"

        def start() -> None:
            self.timers.add(name, "alarm", when.timestamp())

        label = f"{capital(name)} alarm" if name else "Alarm"
        return SkillReply(NAME, f"{label} set for {spoken}.", effect=start)

    def _cancel(self, said: str, context: SkillContext) -> SkillReply | None:  # noqa: ARG002 - same form
        command = _CANCEL.match(said)
        if command is None:
            return None
        kind = command["kind"].rstrip("s")
        name = command["name"] or command["name2"]
        if name and kind == "reminder":
            name = _yours(name)
        every = bool(command["all"]) or command["kind"].endswith("s")
        chosen = self._choose(name, kind)
        if not chosen:
            what = f"{name} {kind}" if name else kind
            return SkillReply(NAME, f"There is no {what} running.")
        if len(chosen) > 1 and not every:
            return SkillReply(NAME, f"You have {len(chosen)} {kind}s: {_listing(chosen, self)}. Which one?")
        said = " and ".join(t.label for t in chosen) if len(chosen) <= 2 else f"all {len(chosen)} {kind}s"
        return SkillReply(NAME, f"{capital(said)} cancelled.", effect=lambda: self.timers.cancel(chosen))

    def _ask(self, said: str, context: SkillContext) -> SkillReply | None:  # noqa: ARG002 - same form
        command = next((m for p in _ASK_LEFT if (m := p.match(said))), None)
        if command is None:
            if _ASK_BARE.match(said) and self.timers.active():
                return SkillReply(NAME, _listing(self.timers.active(), self, sentence=True))
            return None
        kind = command["kind"].rstrip("s")
        chosen = self._choose(command.groupdict().get("name"), kind)
        if not chosen:
            name = command.groupdict().get("name")
            return SkillReply(NAME, f"There is no {name + ' ' if name else ''}{kind} running.")
        return SkillReply(NAME, _listing(chosen, self, sentence=True))

    def _answer(self, said: str, context: SkillContext) -> SkillReply | None:
        """The length or time just asked for (:meth:`Timers.asked`), said alone ("Ten minutes.", "At 7."): the
        timer or alarm asked for, set."""
        asked = self.timers.asked()
        if asked is None:
            return None
        kind, name = asked
        if kind == "timer" and (length := _GIVEN_LENGTH.match(said)):
            reply = self._set_timer(f"set a {name + ' ' if name else ''}timer for {length['duration']}", context)
        elif kind == "alarm" and (time := _GIVEN_TIME.match(said)):
            reply = self._set_alarm(f"set an alarm for {time['clock']}{' ' + time['day'] if time['day'] else ''}",
                                    context)
        else:
            return None
        return replace(reply, effect=self.timers.answering(reply.effect)) if reply and reply.effect else reply

    def _change(self, said: str, context: SkillContext) -> SkillReply | None:
        """A correction of the timer or alarm just set (:data:`RECENT_S`): cancelled, set to another length or
        time, or given more ("add 2 minutes": the one just set, else the only timer running)."""
        latest = self.timers.latest(RECENT_S)
        if latest is not None and _CANCEL_THAT.match(said):
            return SkillReply(NAME, f"{capital(latest.label)} cancelled.", effect=lambda: self.timers.cancel([latest]))
        if latest is not None and (change := _CHANGE_THAT.match(said)):
            what = change["what"]
            if latest.kind == "alarm":
                clock = re.fullmatch(_CLOCK, what)
                when = next_time(context.now, clock, None) if clock else None
                if when is None:
                    return None
                was = datetime.fromtimestamp(latest.ends_at, context.now.tzinfo)
                if not clock["half"] and 1 <= int(clock["hour"]) <= 12:
                    # "make it 8" after "7 am": the same half of the day as the alarm it changes
                    when = soonest(context.now, [same_half_of_day(int(clock["hour"]), was)], when.minute)
                return self._replace(latest, when.timestamp(), 0.0, f"{self.clock_time(when)} "
                                     f"{'today' if when.date() == context.now.date() else 'tomorrow'}")
            if re.fullmatch(NUMBER, what):  # "make it 12": in the unit it was set in
                what = f"{what} {next(u for u, size in _UNIT_S.items() if latest.duration_s % size == 0)}"
            seconds = duration_s(what) if re.fullmatch(_DURATION, what) else 0
            return self._replace(latest, self.timers.clock() + seconds, seconds) if 0 < seconds <= 24 * 3600 else None
        more = _ADD_MORE.match(said)
        timer = self.timers.to_extend() if more is not None else None
        if timer is None:
            return None
        extra = duration_s(f"{more['count']} {more['unit']}")
        left = timer.left_s(self.timers.clock()) + extra
        return self._replace(timer, timer.ends_at + extra, timer.duration_s + extra, spoken_duration(left), added=extra)

    def _replace(self, timer: Timer, ends_at: float, seconds: float, said: str = "", added: float = 0.0) -> SkillReply:
        """``timer`` set anew to end at ``ends_at`` (named by its new length where its length named it)."""
        name = length_name(seconds) if timer.kind == "timer" and timer.name == length_name(timer.duration_s) else timer.name

        def change() -> None:
            self.timers.replace(timer, name, ends_at, seconds)

        if added:
            text = f"Okay, {spoken_duration(added)} more: {spoken_duration(ends_at - self.timers.clock())} left."
        elif timer.reminder:
            text = f"Okay, I'll remind you to {timer.name.removeprefix(REMINDER)} in {spoken_duration(seconds)}."
        else:
            label = timer.label if name == timer.name else "timer"
            text = f"Okay, {label} changed to {said or spoken_duration(seconds)}."
        return SkillReply(NAME, capital(text), effect=change)

    # ------------------------------------------------------------ helpers

    def _find(self, name: str, kind: str) -> Timer | None:
        return next((t for t in self.timers.active() if t.kind == kind and t.name == name), None)

    def _choose(self, name: str | None, kind: str) -> list[Timer]:
        timers = [t for t in self.timers.active() if (t.reminder if kind == "reminder" else t.kind == kind)]
        if name:
            exact = [t for t in timers if t.name == name]
            return exact or [t for t in timers if name in t.name or t.name in name and t.name]
        return timers

    def left(self, timer: Timer) -> str:
        if timer.kind == "alarm":
            return f"set for {self.clock_time(datetime.fromtimestamp(timer.ends_at).astimezone())}"
        return f"{spoken_duration(timer.left_s(self.timers.clock()))} left"

    def clock_time(self, moment: datetime) -> str:
        from babel.dates import format_time

        return format_time(moment, format="short", locale=self.clock).replace("\u202f", " ").replace("\xa0", " ")

    def _ring(self, timer: Timer) -> None:
        if korean_timers.is_korean(timer):
            self._setup.announce(SkillReply(NAME, korean_timers.ring_text(timer), sound=chime(self._setup.output_rate)))
            return
        if timer.kind == "alarm":
            now = self.clock_time(datetime.now().astimezone())
            text = f"It's {now}. Your {timer.label} is ringing." if timer.name else f"It's {now}. This is your alarm."
        else:
            text = f"This is your {timer.label}." if timer.reminder else f"Your {timer.label} is done."
        self._setup.announce(SkillReply(NAME, text, sound=chime(self._setup.output_rate)))


def _listing(timers: list[Timer], skill: TimerSkill, sentence: bool = False) -> str:
    if sentence and len(timers) == 1:
        timer = timers[0]
        verb = "is" if timer.kind == "alarm" else "has"
        return f"The {timer.label} {verb} {skill.left(timer)}."
    parts = [f"the {t.label} with {skill.left(t)}" if t.kind == "timer" else f"the {t.label} {skill.left(t)}"
             for t in timers]
    listed = ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]
    return f"You have {listed}." if sentence else listed


def _yours(words: str) -> str:
    """What the user said of themselves, said back to them: "call my mom" -> "call your mom"."""
    return " ".join(_YOURS.get(word, word) for word in words.split())



def _is_length(name: str) -> bool:
    """ "minute" or "hour" taken for a name: the duration was not understood."""
    return bool(re.search(rf"\b{_UNIT}\b", name))


def _function_words(name: str) -> bool:
    """Whether a timer's name is only words no name is made of ("start at timer": "a" misheard)."""
    return all(word in FUNCTION_WORDS for word in name.split())



def create(setup: SkillSetup) -> TimerSkill:
    skill = TimerSkill(setup.timers_path, setup)
    skill.timers.start()
    setup.closers.append(skill.timers.stop)
    return skill
