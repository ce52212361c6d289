"""A stopwatch: "start a stopwatch", "stop the stopwatch" ("Stopwatch stopped at 1 minute and 5 seconds."),
"how long has the stopwatch been running", "resume the stopwatch", "reset the stopwatch"; "스톱워치 시작해
줘", "스톱워치 멈춰 줘", "스톱워치 몇 분 됐어?", "스톱워치 초기화해 줘".

A language model does not keep time (SmolLM2-135M answered "Start a stopwatch." with "You could start a fire,
play a game of chess.", and "How long has the stopwatch been running?" with "The stopwatch has been running for 12
years."): the skill reads the monotonic clock. One stopwatch, in memory: it goes with the app, and with a
kiosk's visitor (:meth:`Stopwatch.forget`). Each change is made when the turn is committed (a speculative reply
dropped changes nothing). Guard: the whole utterance is one of the forms below.
"""

from __future__ import annotations

import re
import threading
import time

from assistant.think.skills import SkillContext, SkillReply, SkillSetup
from assistant.think.skills.korean_numbers import copula
from assistant.think.skills.korean_pattern import Form, first
from assistant.think.skills.korean_timers import spoken_duration as korean_duration
from assistant.think.skills.text import normalize, spoken_duration
from assistant.writing import has_hangul

NAME = "stopwatch"
_SW = r"(?:stop ?watch|(?<=this )top ?watch)"
"""The word, also as Whisper writes "the stopwatch" for some voices: "this top watch"."""
_WATCH = rf"(?:the |my |a |this )?{_SW}"
_FORMS = (
    ("start", re.compile(rf"^(?:please )?(?:start|begin|restart) {_WATCH}(?: please| for me| now)?$")),
    ("start", re.compile(rf"^{_SW} (?:start|go|on)$|^(?:time me|start timing(?: me)?)(?: please| now)?$")),
    ("stop", re.compile(rf"^(?:please )?(?:stop|pause|end|halt) {_WATCH}(?: please| now)?$")),
    ("stop", re.compile(rf"^{_SW} (?:stop|off)$")),
    ("resume", re.compile(rf"^(?:please )?(?:resume|continue|unpause) {_WATCH}(?: please)?$")),
    ("reset", re.compile(rf"^(?:please )?(?:reset|clear|zero) {_WATCH}(?: please)?$")),
    ("check", re.compile(rf"^(?:how long has {_WATCH} been (?:running|going|on)|what is (?:the |my |this ){_SW} at"
                         rf"|what is on (?:the |my |this ){_SW}|what time is on (?:the |my |this ){_SW}"
                         rf"|how much time is on {_WATCH}|(?:check|read) {_WATCH}|{_SW} time"
                         rf"|how long is {_WATCH}(?: at)?|where is {_WATCH}(?: at)?)$")),
    ("check", re.compile(rf"^(?:how long|how much time)\b.* (?:the|my|this) {_SW}(?: been running| been going| at| on)?$"
                         rf"|^what (?:does|time does) (?:the|my|this) {_SW} (?:say|show|read)$")),
)
_KOREAN_WATCH = "스톱워치|스탑워치|스톱_워치|스탑_워치"
_PLEASE = "[줘|주세요|줄래|줄래요|봐]"
_KOREAN_FORMS = [(kind, Form(spec, {})) for kind, spec in (
    ("start", f"{_KOREAN_WATCH} [를|좀] 시작해|시작|켜|돌려|시작하기 {_PLEASE}"),
    ("stop", f"{_KOREAN_WATCH} [를|좀] 멈춰|정지해|정지|꺼|세워|멈추기 {_PLEASE}"),
    ("resume", f"{_KOREAN_WATCH} [를|좀] 계속|이어서 돌려|켜|시작해 {_PLEASE}"),
    ("reset", f"{_KOREAN_WATCH} [를|좀] 초기화해|초기화|리셋해|리셋 {_PLEASE}"),
    ("check", f"{_KOREAN_WATCH} [@TOPIC] 몇_분|몇_초|몇_시간|얼마나 [나|이나] 됐어|됐어요|됐지|됐나요|지났어|지났어요|흘렀어|흘렀어요"),
    ("check", f"{_KOREAN_WATCH} [@TOPIC] 몇_분|몇_초|몇_시간 @IS"),
    ("check", f"{_KOREAN_WATCH} [시간] [좀] 알려|확인해|보여 {_PLEASE}"),
)]


class Stopwatch:
    name = NAME

    def __init__(self, clock=time.monotonic):
        self.clock = clock
        self._lock = threading.Lock()
        self._since: float | None = None
        """When it was started or resumed (None: not running)."""
        self._before = 0.0
        """Seconds counted before that (a stopwatch stopped and resumed)."""

    def elapsed_s(self) -> float | None:
        """Seconds on the stopwatch; None when it was never started (or was reset)."""
        with self._lock:
            if self._since is None:
                return self._before or None
            return self._before + self.clock() - self._since

    @property
    def running(self) -> bool:
        return self._since is not None

    def match(self, text: str, context: SkillContext) -> SkillReply | None:  # noqa: ARG002 - the skills' signature
        korean = has_hangul(text)
        if korean:
            found = first(_KOREAN_FORMS, text)
            kind = found[0] if found else None
        else:
            said = normalize(text)
            kind = next((kind for kind, form in _FORMS if form.match(said)), None)
        if kind is None:
            return None
        answer, effect = getattr(self, f"_{kind}")()
        return SkillReply(NAME, _korean(answer) if korean else _english(answer), effect=effect)

    def forget(self) -> None:
        """A kiosk's visitor left: their stopwatch goes too."""
        with self._lock:
            self._since, self._before = None, 0.0

    # Each returns (what happened, seconds on the watch) and the change made when the turn is committed.

    def _start(self):
        return ("started", None), self._run_from(0.0)

    def _resume(self):
        seconds = self.elapsed_s()
        if self.running:
            return ("running", seconds), None
        if seconds is None:
            return ("started", None), self._run_from(0.0)
        return ("resumed", seconds), self._run_from(seconds)

    def _stop(self):
        seconds = self.elapsed_s()
        if not self.running:
            return self._check()  # what a stopwatch not running says when asked

        def stop() -> None:
            with self._lock:
                if self._since is not None:
                    self._before += self.clock() - self._since
                    self._since = None

        return ("stopped", seconds), stop

    def _reset(self):
        return ("reset", None), self.forget

    def _check(self):
        seconds = self.elapsed_s()
        if seconds is None:
            return ("none", None), None
        return ("running" if self.running else "stopped at", seconds), None

    def _run_from(self, seconds: float):
        def run() -> None:
            with self._lock:
                self._since, self._before = self.clock(), seconds

        return run


def _english(answer: tuple[str, float | None]) -> str:
    what, seconds = answer
    said = spoken_duration(seconds) if seconds is not None else ""
    return {
        "started": "Stopwatch started.",
        "resumed": f"Stopwatch running again from {said}.",
        "running": f"The stopwatch is at {said}.",
        "stopped": f"Stopwatch stopped at {said}.",
        "stopped at": f"The stopwatch is stopped at {said}.",
        "reset": "Stopwatch reset.",
        "none": "The stopwatch isn't running.",
    }[what]


def _korean(answer: tuple[str, float | None]) -> str:
    what, seconds = answer
    said = korean_duration(seconds) if seconds is not None else ""
    return {
        "started": "스톱워치를 시작했어요.",
        "resumed": f"스톱워치를 {said}부터 다시 시작했어요.",
        "running": f"스톱워치는 지금 {copula(said)}.",
        "stopped": f"스톱워치를 멈췄어요. {copula(said)}.",
        "stopped at": f"스톱워치는 {said}에 멈춰 있어요.",
        "reset": "스톱워치를 초기화했어요.",
        "none": "실행 중인 스톱워치가 없어요.",
    }[what]


def create(setup: SkillSetup) -> Stopwatch:  # noqa: ARG001 - every skill gets the setup
    return Stopwatch()
