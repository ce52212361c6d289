"""Timers and alarms, several at once and by name.

"set a pasta timer for 10 minutes", "set a 3 minute egg timer", "set a timer for an
hour and a half", "set an alarm for 7:30 am" (or "730", as Whisper often writes it), "wake
me up at 6", "how long is left on the pasta timer", "what timers do I have", "cancel the
egg timer", "cancel all timers", "pause the pasta timer", "resume the timer"; "set a timer"
asks "For how long?" and takes the length said alone next (the forms: :mod:`.timer_forms`).

A timer without a name is named by its length ("10 minute timer"). When one runs out, the engine plays a chime and
says so, even if nobody is talking to it. Timers live in :class:`~assistant.think.skills.timer_store.Timers`, in the
file of the place that set them (:attr:`SkillSetup.timers_path`: the desktop's survive a restart) or in memory. A name
not found is said with what runs instead (a name misheard: "There is no blade timer running. The bread timer has ...").

Guard: the whole utterance must be one of these commands, with "timer" or "alarm" in
it (a bare "how much time is left" only while a timer runs): "how long should I boil
an egg" or "what is a kitchen timer" go to the LLM.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Callable

from assistant.writing import has_hangul
from assistant.think.skills import SkillContext, SkillReply, SkillSetup, korean_timers, timer_forms as forms
from assistant.think.skills.clock import resolve_locale
from assistant.think.skills.text import FUNCTION_WORDS, NUMBER, capital, normalize, spoken_duration, spoken_number
from assistant.think.skills.timer_store import (RECENT_S, REMINDER, SNOOZE_S, Timer, Timers, chime, next_time, same_half_of_day,
                                                soonest)

NAME = "timers"


def _named_anew(timer: Timer, seconds: float) -> str:
    """The name of ``timer`` set anew for ``seconds``: its new length where its length named it ("10 minute")."""
    return length_name(seconds) if timer.kind == "timer" and timer.name == length_name(timer.duration_s) else timer.name


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
        said = forms.timer_words(normalize(text))
        if (heard := forms.TIMER_HEARD_AS_TIME.match(said)) is not None:
            said = f"set a timer for {heard['duration']}"
        if (reminder := forms.REMIND.match(said)) is not None:
            duration, clock = reminder["duration"], reminder["clock"]
            said = f"set a timer for {duration}" if duration else f"set an alarm for {clock}"
        if (answer := self._answer(said, context)) is not None:
            return answer
        if (change := self._change(said, context) or self._snooze(said) or self._pause(said)) is not None:
            return change
        if not any(word in said for word in ("timer", "alarm", "wake me", "remind")) and not forms.ASK_BARE.match(said):
            return None
        for handle in (self._remind, self._remind_at, self._set_timer, self._set_alarm, self._cancel, self._ask):
            reply = handle(said, context)
            if reply is not None:
                return reply
        return None

    # ------------------------------------------------------------ commands

    def _set_timer(self, said: str, context: SkillContext) -> SkillReply | None:
        command = next((m for p in forms.SET_TIMER if (m := p.match(said))), None)
        if command is None:
            return None
        found = command.groupdict()
        if found.get("name") and not forms.REQUEST.match(said) and (verb := forms.REQUEST.search(found["name"] + " ")):
            start = command.start("name") + verb.start()
            return self._set_timer(said[start:], context) if start > 0 else None
        durations = [d for d in (found.get("duration"), found.get("duration2")) if d]
        names = [n for n in (found.get("name"), found.get("name2")) if n and not _function_words(n)]
        if len(durations) > 1 or len(names) > 1 or any(_is_length(n) for n in names):
            return None
        if not durations:  # "Set a timer.": its length is asked for, and the answer taken (:meth:`_answer`)
            if not forms.ASKED_FOR.match(said):
                return None  # "pause the timer" is no timer named "pause the"
            name = names[0] if names else ""
            return _asking(f"How long should the {name} timer be?" if name else "For how long?",
                           lambda: self.timers.ask("timer", name))
        seconds = forms.duration_s(durations[0])
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
        command = next((m for p in forms.REMIND_TO if (m := p.match(said))), None)
        if command is None:
            return None
        seconds = forms.duration_s(command["duration"])
        if seconds <= 0 or seconds > 24 * 3600:
            return SkillReply(NAME, "A reminder can be from one second to 24 hours away.")
        task = forms.yours(command["task"])
        clock = self.timers.clock

        def start() -> None:
            self.timers.add(f"{REMINDER}{task}", "timer", clock() + seconds, seconds)

        return SkillReply(NAME, f"Okay, I'll remind you to {task} in {spoken_duration(seconds)}.", effect=start)

    def _remind_at(self, said: str, context: SkillContext) -> SkillReply | None:
        command = next((m for p in forms.REMIND_AT if (m := p.match(said))), None)
        when = when_said(command, context) if command is not None else None
        if when is None:
            return None
        task = forms.yours(command["task"])
        spoken = f"{self.clock_time(when)} {'tomorrow' if when.date() != context.now.date() else 'today'}"
        return SkillReply(NAME, f"Okay, I'll remind you to {task} at {spoken}.",
                          effect=lambda: self.timers.add(f"{REMINDER}{task}", "alarm", when.timestamp()))

    def _set_alarm(self, said: str, context: SkillContext) -> SkillReply | None:
        if forms.REPEATING.match(said):
            time = re.search(rf"\b(?:at|for) ({forms.CLOCK})\b", said)
            return SkillReply(NAME, "I can't set a repeating alarm, only the next one: say, set an alarm for "
                                    f"{time[1] if time else '7 am'}.")
        command = next((m for p in forms.SET_ALARM if (m := p.match(said))), None)
        if command is None:
            return _asking("For what time?", lambda: self.timers.ask("alarm")) if forms.NO_TIME.match(said) else None
        when = when_said(command, context)
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
        command = forms.CANCEL.match(said)
        if command is None:
            return None
        kind = command["kind"].rstrip("s")
        name = command["name"] or command["name2"]
        if name and kind == "reminder":
            name = forms.yours(name)
        every = bool(command["all"]) or command["kind"].endswith("s")
        chosen = self._choose(name, kind) or (self._ringing_at(name, context) if name and kind == "alarm" else [])
        if not chosen:
            return SkillReply(NAME, self._none_but(name, kind))
        if len(chosen) > 1 and not every:
            return SkillReply(NAME, f"You have {len(chosen)} {kind}s: {_listing(chosen, self)}. Which one?")
        said = " and ".join(t.label for t in chosen) if len(chosen) <= 2 else f"all {len(chosen)} {kind}s"
        return SkillReply(NAME, f"{capital(said)} cancelled.", effect=lambda: self.timers.cancel(chosen))

    def _ask(self, said: str, context: SkillContext) -> SkillReply | None:  # noqa: ARG002 - same form
        command = next((m for p in forms.ASK_LEFT if (m := p.match(said))), None)
        if command is None:
            if forms.ASK_BARE.match(said) and self.timers.active():
                return SkillReply(NAME, _listing(self.timers.active(), self, sentence=True))
            return None
        kind = command["kind"].rstrip("s")
        chosen = self._choose(command.groupdict().get("name"), kind)[:1 if command.groupdict().get("next") else None]
        if not chosen:
            return SkillReply(NAME, self._none_but(command.groupdict().get("name"), kind))
        return SkillReply(NAME, _listing(chosen, self, sentence=True))

    def _answer(self, said: str, context: SkillContext) -> SkillReply | None:
        """The length or time just asked for (:meth:`Timers.asked`), said alone ("Ten minutes.", "At 7."): the
        timer or alarm asked for, set."""
        asked = self.timers.asked()
        if asked is None:
            return None
        kind, name = asked
        if kind == "timer" and (length := forms.GIVEN_LENGTH.match(said)):
            reply = self._set_timer(f"set a {name + ' ' if name else ''}timer for {length['duration']}", context)
        elif kind == "alarm" and (time := forms.GIVEN_TIME.match(said)):
            reply = self._set_alarm(f"set an alarm for {time['clock']}{' ' + time['day'] if time['day'] else ''}",
                                    context)
        else:
            return None
        return replace(reply, effect=self.timers.answering(reply.effect)) if reply and reply.effect else reply

    def _change(self, said: str, context: SkillContext) -> SkillReply | None:
        """A correction of the timer or alarm just set (:data:`RECENT_S`): cancelled, set to another length or
        time, or given more ("add 2 minutes": the one just set, else the only timer running)."""
        latest = self.timers.latest(RECENT_S)
        if latest is not None and forms.CANCEL_THAT.match(said):
            return SkillReply(NAME, f"{capital(latest.label)} cancelled.", effect=lambda: self.timers.cancel([latest]))
        if latest is not None and (change := forms.CHANGE_THAT.match(said)):
            what = change["what"]
            if latest.kind == "alarm":
                clock = re.fullmatch(forms.CLOCK, what)
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
                what = f"{what} {next(u for u, size in forms.UNIT_S.items() if latest.duration_s % size == 0)}"
            seconds = forms.duration_s(what) if re.fullmatch(forms.DURATION, what) else 0
            return self._replace(latest, self.timers.clock() + seconds, seconds) if 0 < seconds <= 24 * 3600 else None
        more = forms.ADD_MORE.match(said)
        timer = self.timers.to_extend() if more is not None else None
        if timer is None:
            return None
        extra = forms.duration_s(f"{more['count']} {more['unit']}")
        left = timer.left_s(self.timers.clock()) + extra
        return self._replace(timer, timer.ends_at + extra, timer.duration_s + extra, spoken_duration(left), added=extra)

    def _snooze(self, said: str) -> SkillReply | None:
        """The timer or alarm that just rang, set to ring again: "snooze" (:data:`SNOOZE_S`), "snooze for 5
        minutes", "five more minutes" (or "add 2 more minutes" with no timer to add them to)."""
        snooze = forms.SNOOZE.match(said)
        more = forms.ADD_MORE.match(said) or forms.MORE_NOW.match(said)
        rung = self.timers.rung()
        if snooze is None and (more is None or rung is None):
            return None
        if rung is None:
            return SkillReply(NAME, "There is no alarm or timer ringing to snooze.")
        said_length = snooze["duration"] if snooze is not None else f"{more['count']} {more['unit']}"
        seconds = forms.duration_s(said_length) if said_length else SNOOZE_S
        if not 0 < seconds <= 24 * 3600:
            return None
        return SkillReply(NAME, f"Okay, I'll ring again in {spoken_duration(seconds)}.",
                          effect=lambda: self.timers.snooze(rung, seconds, _named_anew(rung, seconds)))

    def _pause(self, said: str) -> SkillReply | None:
        """A timer paused, or run on from where it was paused."""
        found = forms.PAUSE.match(said) or forms.RESUME.match(said)
        if found is not None:
            pausing = found.re is forms.PAUSE
            values = found.groupdict()
            kind = values.get("kind") or values["kind2"]
            chosen = self._choose(values.get("name") or values.get("name2"), kind)
        elif (it := forms.PAUSE_IT.match(said)) is not None and (timer := self.timers.to_extend()) is not None:
            pausing, kind, chosen = it["verb"] == "pause", "timer", [timer]
        else:
            return None
        if not chosen:
            return SkillReply(NAME, self._none_but("", kind))
        if len(chosen) > 1:
            return SkillReply(NAME, f"You have {len(chosen)} {kind}s: {_listing(chosen, self)}. Which one?")
        timer, left = chosen[0], spoken_duration(chosen[0].left_s(self.timers.clock()))
        if timer.paused == pausing:
            return SkillReply(NAME, f"The {timer.label} is {'already paused' if pausing else 'running'}, with {left} left.")
        if pausing:
            return SkillReply(NAME, f"{capital(timer.label)} paused, with {left} left.", effect=lambda: self.timers.pause(timer))
        return SkillReply(NAME, f"{capital(timer.label)} resumed, with {left} left.",
                          effect=lambda: self.timers.resume(timer))

    def _replace(self, timer: Timer, ends_at: float, seconds: float, said: str = "", added: float = 0.0) -> SkillReply:
        """``timer`` set anew to end at ``ends_at`` (named by its new length where its length named it)."""
        name = _named_anew(timer, seconds)

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

    def _none_but(self, name: str | None, kind: str) -> str:
        """None of ``name``, and what of ``kind`` there is instead (a name misheard: "blade" for "bread")."""
        others = self._choose(None, kind) if name else []
        none = f"There is no {name + ' ' if name else ''}{kind} {'running' if kind == 'timer' else 'set'}."
        return none + (f" {_listing(others, self, sentence=True)}" if others else "")

    def _ringing_at(self, said: str, context: SkillContext) -> list[Timer]:
        """The alarms that ring at the day or the time ``said`` ("tomorrow", "6 am", "9:30")."""
        alarms = [t for t in self.timers.active() if t.kind == "alarm"]
        moments = {t.id: datetime.fromtimestamp(t.ends_at, context.now.tzinfo) for t in alarms}
        if said in ("today", "tomorrow"):
            day = context.now.date() + timedelta(days=said == "tomorrow")
            return [t for t in alarms if moments[t.id].date() == day]
        clock = re.fullmatch(forms.CLOCK, said)
        when = next_time(context.now, clock, None) if clock else None
        if when is None:
            return []
        either_half = not clock["half"] and int(clock["hour"]) <= 12  # "my 6 alarm": 6 am or 6 pm
        return [t for t in alarms if moments[t.id].minute == when.minute and
                (moments[t.id].hour == when.hour or either_half and moments[t.id].hour % 12 == when.hour % 12)]

    def left(self, timer: Timer) -> str:
        if timer.kind == "alarm":
            when = datetime.fromtimestamp(timer.ends_at).astimezone()
            today = datetime.fromtimestamp(self.timers.clock()).astimezone().date()
            return f"set for {self.clock_time(when)}{' tomorrow' if when.date() != today else ''}"
        return f"{spoken_duration(timer.left_s(self.timers.clock()))} left{', paused' if timer.paused else ''}"

    def clock_time(self, moment: datetime) -> str:
        from babel.dates import format_time

        return format_time(moment, format="short", locale=self.clock).replace("\u202f", " ").replace("\xa0", " ")

    def _ring(self, timer: Timer) -> None:
        if korean_timers.is_korean(timer):
            self._setup.announce(SkillReply(NAME, korean_timers.ring_text(timer), sound=chime(self._setup.output_rate)))
            return
        if timer.kind == "alarm":
            now = self.clock_time(datetime.now().astimezone())
            text = (f"It's {now}. This is your {timer.label}." if timer.reminder else
                    f"It's {now}. Your {timer.label} is ringing." if timer.name else f"It's {now}. This is your alarm.")
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


def when_said(said: re.Match, context: SkillContext) -> datetime | None:
    """The moment an alarm or a reminder is asked for (:data:`timer_forms.WHEN`): its clock time, in the part of
    the day said ("tomorrow morning", "tonight", "this evening"), on its day."""
    clock = {"noon": "12 pm", "midnight": "12 am"}.get(said["clock"], said["clock"])
    part = said["part"] or said["part0"] or said["part1"]
    if "tonight" in (said["day"], said["day2"]):
        part = part or "night"
    if part and not re.search(r"am|pm|in the|at night", clock):
        clock = re.sub(r" ?oclock$", "", clock) + (" am" if part == "morning" else " pm")
    day = said["day"] or said["day2"]
    return next_time(context.now, re.fullmatch(forms.CLOCK, clock), "tomorrow" if day == "tomorrow" else None)


def _is_length(name: str) -> bool:
    """ "minute" or "hour" taken for a name: the duration was not understood."""
    return bool(re.search(rf"\b{forms.UNIT}\b", name))


def _function_words(name: str) -> bool:
    """Whether a timer's name is only words no name is made of ("start at timer": "a" misheard)."""
    return all(word in FUNCTION_WORDS for word in name.split())


def create(setup: SkillSetup) -> TimerSkill:
    skill = TimerSkill(setup.timers_path, setup)
    skill.timers.start()
    setup.closers.append(skill.timers.stop)
    return skill
