"""Running timers and alarms: kept in a JSON file (or only in memory), rung by a thread
of their own.

Timers belong to a place: the desktop app keeps its own in a file, a ``chat`` run and a
kiosk visitor keep theirs in memory (see :mod:`assistant.think.skills.timers`).
Deadlines are wall-clock times (seconds since the epoch), since they must survive a
restart: the file is rewritten (atomically) at every change and read at start. A timer
that ran out while the app was closed rings as soon as the app is back. A file that
cannot be read is set aside (``timers.json.bad``), never lost, and the app starts with
no timers.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import json
import re
import logging
import os
import threading
import time
import uuid
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Callable

import numpy as np

from assistant import resources

log = logging.getLogger(__name__)

REMINDER = "reminder to "
"""How a reminder's timer is named: "reminder to call your mom" (its label as it is)."""
CLOCK_TIME = (r"(?P<hour>\d{1,2})(?:[:. -]?(?P<minute>[0-5]\d))?"
              r"(?: ?(?P<half>am|pm|oclock|in the morning|in the evening|at night|in the afternoon))?")
"""A clock time as the skills read it ("7", "7:30", "730", "7 pm", "11-20"): its hour, minute and half of the day."""
RECENT_S = 120.0
"""A correction that names no timer ("cancel that", "make it 12 minutes", "그거 취소해") is about the timer or
alarm set within this many seconds (:meth:`Timers.latest`)."""
ASK_S = 30.0
"""A request that lacked its length or time was asked for it ("For how long?"); the answer ("ten minutes",
"십 분") is taken within this many seconds (:meth:`Timers.asked`)."""
RUNG_S = 600.0
"""A snooze ("snooze", "five more minutes", "알람 미뤄 줘") is about the timer or alarm that rang within this many
seconds (:meth:`Timers.rung`)."""
SNOOZE_S = 540.0
"""How long a snooze lasts when none is said: nine minutes, as on most alarm clocks."""
POLL_S = 0.5
"""Longest the ringing thread sleeps between looks at the clock (a wall-clock change is
noticed within this)."""


@dataclass(frozen=True)
class Timer:
    id: str
    name: str
    """What the user called it ("pasta"); '' for an unnamed one."""
    kind: str
    """``timer`` or ``alarm``."""
    ends_at: float
    """Wall-clock deadline, seconds since the epoch."""
    duration_s: float = 0.0
    """What a timer was set for (0 for an alarm)."""
    paused_left: float | None = None
    """A paused timer's seconds left (None: it runs)."""

    @property
    def reminder(self) -> bool:
        """A reminder's timer ("reminder to call your mom")."""
        return self.name.startswith(REMINDER)

    @property
    def label(self) -> str:
        """How it is called on screen and in speech: "pasta timer", "alarm", "reminder to call your mom"."""
        if self.reminder:
            return self.name
        return f"{self.name} {self.kind}" if self.name else self.kind

    @property
    def paused(self) -> bool:
        return self.paused_left is not None

    def left_s(self, now: float) -> float:
        return self.paused_left if self.paused_left is not None else max(0.0, self.ends_at - now)


class Timers:
    """The running timers, kept in the file ``path`` (None: in memory only, they end with
    the store); ``on_ring`` hears each one as it runs out (on this store's thread)."""

    def __init__(self, path: Path | None, on_ring: Callable[[Timer], None], clock: Callable[[], float] = time.time):
        self.path = path
        self.on_ring = on_ring
        self.clock = clock
        self._timers: list[Timer] = self._read()
        self._added: tuple[str, float] | None = None
        """The id of the timer added last and when (on :attr:`clock`): what "cancel that" is about."""
        self._asked: tuple[str, str, float] | None = None
        """What was asked for last (:meth:`ask`): the kind, the name, and when."""
        self._rung: tuple[Timer, float] | None = None
        """The timer or alarm that rang last, and when."""
        self._wake = threading.Condition()
        self._stopped = False
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------ what the skill calls

    def active(self) -> list[Timer]:
        """The running timers, soonest first (safe to call from any thread)."""
        now = self.clock()
        with self._wake:
            return sorted(self._timers, key=lambda t: (t.left_s(now), t.ends_at))  # a paused one by its time left

    def add(self, name: str, kind: str, ends_at: float, duration_s: float = 0.0) -> Timer:
        """Start a timer; a named one replaces one of the same name and kind."""
        timer = Timer(uuid.uuid4().hex[:8], name, kind, ends_at, duration_s)
        with self._wake:
            self._timers = [t for t in self._timers if not (name and t.name == name and t.kind == kind)] + [timer]
            self._added = (timer.id, self.clock())
            self._save()
            self._wake.notify()
        return timer

    def latest(self, within_s: float) -> Timer | None:
        """The timer or alarm set last, if it was set within ``within_s`` and still runs."""
        with self._wake:
            if self._added is None or self.clock() - self._added[1] > within_s:
                return None
            return next((t for t in self._timers if t.id == self._added[0]), None)

    def ask(self, kind: str, name: str = "") -> None:
        """A ``kind`` ("timer", "alarm") named ``name`` was asked for without its length or time, and the
        user was asked for it: their next words may be just that ("ten minutes")."""
        with self._wake:
            self._asked = (kind, name, self.clock())

    def asked(self) -> tuple[str, str] | None:
        """The kind and name of what the user was asked about (:meth:`ask`) within :data:`ASK_S`, else None."""
        with self._wake:
            if self._asked is None or self.clock() - self._asked[2] > ASK_S:
                return None
            return self._asked[0], self._asked[1]

    def answering(self, effect: Callable[[], None]) -> Callable[[], None]:
        """``effect`` (the timer or alarm asked about, set), after which the question is answered: the next
        words are no answer to it."""
        def answered() -> None:
            with self._wake:
                self._asked = None
            effect()

        return answered

    def rung(self) -> Timer | None:
        """The timer or alarm that rang within :data:`RUNG_S` and was not snoozed yet, else None."""
        with self._wake:
            if self._rung is None or self.clock() - self._rung[1] > RUNG_S:
                return None
            return self._rung[0]

    def snooze(self, timer: Timer, seconds: float, name: str) -> Timer:
        """``timer``, which rang, set to ring again in ``seconds``, named ``name``."""
        with self._wake:
            self._rung = None
        return self.add(name, timer.kind, self.clock() + seconds, seconds if timer.kind == "timer" else 0.0)

    def to_extend(self) -> Timer | None:
        """The timer "add 2 minutes" is about: the one set a moment ago (:data:`RECENT_S`), else the only one running."""
        latest = self.latest(RECENT_S)
        if latest is not None and latest.kind == "timer":
            return latest
        running = [t for t in self.active() if t.kind == "timer"]
        return running[0] if len(running) == 1 else None

    def replace(self, timer: Timer, name: str, ends_at: float, duration_s: float = 0.0) -> Timer:
        """``timer`` set anew (a correction): named ``name``, ending at ``ends_at``."""
        self.cancel([timer])
        return self.add(name, timer.kind, ends_at, duration_s)

    def pause(self, timer: Timer) -> None:
        """Stop ``timer``'s countdown where it is (it keeps its time left, and does not ring)."""
        self._swap(timer, lambda t: replace(t, paused_left=t.left_s(self.clock())) if not t.paused else t)

    def resume(self, timer: Timer) -> None:
        """Run a paused ``timer`` on from the time it had left."""
        self._swap(timer, lambda t: replace(t, ends_at=self.clock() + t.paused_left, paused_left=None) if t.paused else t)

    def _swap(self, timer: Timer, changed: Callable[[Timer], Timer]) -> None:
        with self._wake:
            self._timers = [changed(t) if t.id == timer.id else t for t in self._timers]
            self._save()
            self._wake.notify()

    def cancel(self, timers: list[Timer]) -> None:
        ids = {t.id for t in timers}
        with self._wake:
            self._timers = [t for t in self._timers if t.id not in ids]
            self._save()
            self._wake.notify()

    def clear(self) -> list[Timer]:
        """Cancel every timer and alarm (a kiosk's visitor left); returns them."""
        with self._wake:
            cleared, self._timers, self._asked, self._rung = self._timers, [], None, None
            self._save()
            self._wake.notify()
        return cleared

    # ------------------------------------------------------------ ringing

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="timers", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        with self._wake:
            self._stopped = True
            self._wake.notify()
        if self._thread is not None:
            self._thread.join(timeout=2)

    def ring_due(self) -> list[Timer]:
        """Ring every timer whose time has come (it is then gone); returns them."""
        now = self.clock()
        with self._wake:
            due = [t for t in self._timers if t.ends_at <= now and not t.paused]
            if due:
                self._timers = [t for t in self._timers if t not in due]
                self._rung = (max(due, key=lambda t: t.ends_at), now)
                self._save()
        for timer in sorted(due, key=lambda t: t.ends_at):
            try:
                self.on_ring(timer)
            except Exception:  # noqa: BLE001 - one failed ring must not stop the others
                log.exception("ringing %s failed", timer.label)
        return due

    def _run(self) -> None:
        while True:
            with self._wake:
                if self._stopped:
                    return
                soonest = min((t.ends_at for t in self._timers if not t.paused), default=None)
                wait = POLL_S if soonest is None else min(POLL_S, max(0.0, soonest - self.clock()))
                if wait > 0:
                    self._wake.wait(wait)
                if self._stopped:
                    return
            self.ring_due()

    # ------------------------------------------------------------ the file

    def _read(self) -> list[Timer]:
        if self.path is None or not self.path.exists():
            return []
        try:
            rows = json.loads(self.path.read_text(encoding="utf-8"))
            timers = [Timer(str(r["id"]), str(r["name"]), str(r["kind"]), float(r["ends_at"]),
                            float(r.get("duration_s", 0.0)),
                            None if r.get("paused_left") is None else float(r["paused_left"])) for r in rows]
        except (OSError, ValueError, TypeError, KeyError) as exc:
            aside = self.path.with_name(self.path.name + ".bad")
            log.warning("timers file %s is unreadable (%s); it is kept as %s and no timers run", self.path, exc,
                        aside.name)
            try:
                os.replace(self.path, aside)
            except OSError:
                pass
            return []
        return [t for t in timers if t.kind in ("timer", "alarm")]

    def _save(self) -> None:
        """Write the timers (the caller holds the lock); a failure costs only persistence."""
        if self.path is None:
            return
        try:
            resources.write_text(self.path, json.dumps([asdict(t) for t in self._timers], indent=1))
        except OSError as exc:
            log.warning("cannot save the timers to %s: %s", self.path, exc)


def chime(rate: int, beeps: int = 3) -> np.ndarray:
    """A bell-like chime (two partials, fading), ``beeps`` times: a timer's ring."""
    t = np.arange(int(0.35 * rate)) / rate
    tone = (np.sin(2 * np.pi * 880 * t) + 0.5 * np.sin(2 * np.pi * 1320 * t)) * np.exp(-t * 9) * 0.4
    gap = np.zeros(int(0.12 * rate))
    return np.concatenate([np.concatenate([tone, gap]) for _ in range(beeps)]).astype(np.float32)


def soonest(now: datetime, hours: list[int], minute: int, tomorrow: bool = False) -> datetime:
    """The first of ``hours`` (24-hour clock, ``minute`` past) still to come: later today,
    else tomorrow; on the next day itself when ``tomorrow``."""
    start = now + timedelta(days=1) if tomorrow else now
    moments = []
    for h in hours:
        moment = start.replace(hour=h, minute=minute, second=0, microsecond=0)
        if not tomorrow and moment <= now:
            moment += timedelta(days=1)
        moments.append(moment)
    return min(moments)


def next_time(now: datetime, command: re.Match, day: str | None) -> datetime | None:
    """The next moment the spoken clock time comes (tomorrow if asked, or if it has passed)."""
    hour, minute = int(command["hour"]), int(command["minute"] or 0)
    half = command["half"] or ""
    if hour > 23 or minute > 59 or (half in ("am", "pm") and not 1 <= hour <= 12):
        return None
    if half in ("pm", "in the evening", "at night", "in the afternoon") and hour < 12:
        hour += 12
    elif half in ("am", "in the morning") and hour == 12:
        hour = 0
    hours = [hour] if half not in ("", "oclock") or hour == 0 or hour > 12 else [hour % 12, hour % 12 + 12]
    return soonest(now, hours, minute, tomorrow=day == "tomorrow")


def same_half_of_day(hour: int, was: datetime) -> int:
    """A bare hour from 1 to 12 ("make it 8") in the half of the day the alarm it changes was in (``was``)."""
    return min((hour % 12 + h for h in (0, 12)), key=lambda h: abs(h - was.hour))
