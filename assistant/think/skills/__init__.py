"""Skills: exact answers for what must never come from a language model's guess.

A skill is a module of this package with a ``create(setup)`` function returning an
object with a ``name`` and a ``match(text, context)`` method. ``match`` is pure: it
returns a :class:`SkillReply` when the whole utterance is a request the skill serves,
and None otherwise (then the next skill, the instant-reply table and the LLM get their
turn). Anything the reply changes (a timer started) is its ``effect``, run once the
turn is committed, so a speculative transcript the user talks over changes nothing.

Skills are asked in the order of :data:`SKILLS`. ``docs/skills.md`` shows how to add one.
"""

from __future__ import annotations

import importlib
import logging
import threading
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Callable, Protocol

import numpy as np

from assistant.config import Config, ConfigError, RepliesConfig, SkillsConfig
from assistant.writing import has_hangul
from assistant.think.said import SAID_ELSEWHERE, Said
from assistant.think.skills.text import numbers_misheard, one_word_off

log = logging.getLogger(__name__)

SKILLS = ("safety", "actions", "timers", "stopwatch", "clock", "calendar", "sky", "arithmetic", "units", "spelling", "live",
          "chance", "place", "notes", "reach", "jokes", "facts")
"""Modules of this package, in the order they are asked."""
AS_SAID = frozenset({"safety", "actions", "spelling", "live", "reach", "place", "notes", "jokes", "facts"})
"""Skills taken only as said: an action (stop, louder) is never guessed from misheard words, nor
the word to spell (a function word misheard is another word), nor a question about the weather ("is
it cold on Mars" is no "in Mars"), nor what the assistant cannot do or know (a place it has no map of), a joke or a fun fact (a question misheard
must not be turned away, joked at or told something else)."""


@dataclass(frozen=True)
class SkillContext:
    """What a skill may know about the moment it is asked."""

    now: datetime = field(default_factory=lambda: datetime.now().astimezone())
    """Local time, with its time zone."""


ASKED_OFTEN = {
    "en": tuple((f"set a timer for {n} minute{'s' if n > 1 else ''}", f"Timer set for {n} minute{'s' if n > 1 else ''}.")
                for n in (1, 2, 3, 5, 10, 15, 20, 30))
    + (("set a timer", "For how long?"), ("set an alarm", "For what time?"), ("start a stopwatch", "Stopwatch started."),
       ("reset the stopwatch", "Stopwatch reset."),
       ("where is the restroom", "Sorry, I don't know this place: I have no map or information about where I am.")),
    "ko": (("3분 타이머 맞춰 줘", "삼 분 타이머를 맞췄어요."), ("5분 타이머 맞춰 줘", "오 분 타이머를 맞췄어요."),
           ("10분 타이머 맞춰 줘", "십 분 타이머를 맞췄어요."), ("타이머 맞춰 줘", "몇 분으로 맞출까요?"),
           ("스톱워치 시작해 줘", "스톱워치를 시작했어요."), ("화장실 어디예요", "죄송해요, 저는 이곳의 지도나 정보가 없어서 알려 드릴 수 없어요.")),
}
"""Requests asked often and the skills' answers to them, which never change: their audio is made with the
instant replies' (kept on disk), so the answer plays at once instead of after the voice's first chunk."""


def often_answers(korean: bool) -> list[str]:
    """The answers of :data:`ASKED_OFTEN` (the Korean ones too where ``korean``)."""
    return [answer for _, answer in ASKED_OFTEN["en"] + (ASKED_OFTEN["ko"] if korean else ())]


@dataclass(frozen=True)
class SkillReply(Said):
    """A skill's answer: words to say and, maybe, an action or an effect."""

    skill: str
    """Name of the skill that answered (per-turn JSON: ``skill``)."""
    text: str
    """What to say ('' for a silent action)."""
    action: str | None = None
    """``stop``, ``repeat``, ``louder``, ``quieter``, ``slower``, ``faster``, ``recall`` or ``continue`` (the
    engine carries them out)."""
    effect: Callable[[], None] | None = field(default=None, compare=False)
    """Run once, when the turn is committed (never for a dropped speculative reply)."""
    audio: np.ndarray | None = field(default=None, compare=False)
    """Prerendered audio of ``text`` at the output rate, when there is some."""
    sound: np.ndarray | None = field(default=None, compare=False)
    """A sound played before the words (a timer's chime), at the output rate."""
    asks: bool = False
    """The reply asks for what the request lacked ("Set a timer." -> "For how long?"): the words may be a
    request's start ("Set a timer ... for ten minutes"), so they do not end the turn at once."""
    next_one: bool = False
    """The reply is one of a list told in turn (a joke, a fun fact): "another one" after it asks again for the next."""

    source = "skill"


class Skill(Protocol):
    name: str

    def match(self, text: str, context: SkillContext) -> SkillReply | None: ...


@dataclass
class SkillSetup:
    """What ``create`` receives: the configuration and the shared services."""

    config: SkillsConfig
    output_rate: int = 22050
    """Rate of the engine's audio output (for sounds)."""
    announce: Callable[[SkillReply], None] = lambda reply: None
    """Say something nobody asked for just now (a timer rings)."""
    replies: RepliesConfig = field(default_factory=RepliesConfig)
    """The instant-reply table's settings (the ``actions`` skill reads its phrases there)."""
    reply_audio: Callable[[str], np.ndarray | None] = lambda text: None
    """Prerendered audio of a fixed reply text, when it is ready."""
    closers: list[Callable[[], None]] = field(default_factory=list)
    """Called by :meth:`Skills.close` (a skill that runs a thread adds its stop here)."""
    timers_path: Path | None = None
    """The file the running timers and alarms are kept in; None keeps them in memory
    (they end with the skills)."""


class Skills:
    """The loaded skills, asked in order; and who hears what they announce."""

    def __init__(self, config: SkillsConfig, output_rate: int = 22050, replies: RepliesConfig | None = None,
                 timers_path: Path | None = None):
        """``timers_path``: where the place these skills serve keeps its timers (None: in
        memory); ``skills.timers_file``, when set, wins."""
        self.config = config
        self._listeners: list[Callable[[SkillReply], None]] = []
        self._unheard: list[SkillReply] = []
        self._lock = threading.Lock()
        unknown = sorted(set(config.disabled) - set(SKILLS))
        if unknown:
            raise ConfigError(f"'skills.disabled' names no skill '{unknown[0]}' (skills: {', '.join(SKILLS)})")
        if config.timers_file:
            timers_path = Path(config.timers_file).expanduser()
        self.setup = SkillSetup(config, output_rate, self._announce, replies or RepliesConfig(), timers_path=timers_path)
        self.skills: list[Skill] = [_create(name, self.setup) for name in SKILLS if name not in config.disabled]
        self._guessable = [s for s in self.skills if s.name not in AS_SAID]
        """The skills a misheard reading may reach (:meth:`match`)."""

    def get(self, name: str) -> Skill | None:
        return next((s for s in self.skills if s.name == name), None)

    @property
    def timers(self):
        """The running timers and alarms (:class:`~assistant.think.skills.timer_store.Timers`), or None."""
        skill = self.get("timers")
        return skill.timers if skill is not None else None

    def match(self, text: str, context: SkillContext | None = None) -> SkillReply | None:
        """The first skill's reply to ``text``, or None (the LLM answers). A skill that
        fails is logged and skipped: it must never cost the user an answer.

        English words that no skill takes as they are may still be a request with one function
        word misheard ("what time of it"), or a number heard as a word that sounds like it ("what's free
        plus free"): taken when every such reading gives the same reply
        (:func:`~assistant.think.skills.text.one_word_off`, :func:`~assistant.think.skills.text.numbers_misheard`;
        never an action: "stop" must be said)."""
        context = context or SkillContext()
        reply = self._with_audio(self._first(text, context, self.skills))
        if reply is not None or has_hangul(text):
            return reply
        replies = {}
        for variant in one_word_off(text) + numbers_misheard(text):
            found = self._first(variant, context, self._guessable)
            if found is not None:
                replies.setdefault((found.skill, found.text), (variant, found))
                if len(replies) > 1:
                    return None  # readings that disagree: the words are the model's
        if not replies:
            return None
        variant, reply = next(iter(replies.values()))
        log.info("%r taken as %r (a word misheard)", text, variant)
        return self._with_audio(reply)

    def _with_audio(self, reply: SkillReply | None) -> SkillReply | None:
        """``reply`` with its words' audio where it is ready (a fixed reply's, or the passing
        minute's answer rendered ahead: :meth:`passing_answers`)."""
        if reply is None or reply.audio is not None or not reply.text or reply.action in SAID_ELSEWHERE:
            return reply
        audio = self.setup.reply_audio(reply.text)
        return reply if audio is None else replace(reply, audio=audio)

    def passing_answers(self, moment: datetime, questions: tuple[str, ...]) -> list[str]:
        """What the skills would answer at ``moment`` to ``questions`` (the clock's, whose answers
        change with it: :data:`~assistant.think.skills.clock.ASKED_MOST`), to synthesize ahead."""
        context = SkillContext(now=moment)
        answers = (self._first(question, context, self.skills) for question in questions)
        return list(dict.fromkeys(reply.text for reply in answers if reply is not None and reply.text))

    @staticmethod
    def _first(text: str, context: SkillContext, skills: list[Skill]) -> SkillReply | None:
        for skill in skills:
            try:
                reply = skill.match(text, context)
            except Exception:  # noqa: BLE001 - a broken skill leaves the question to the others
                log.exception("skill %s failed on %r", skill.name, text)
                continue
            if reply is not None:
                return reply
        return None

    def use_reply_audio(self, audio: Callable[[str], np.ndarray | None]) -> None:
        """Where fixed reply texts find their prerendered audio (the instant replies)."""
        self.setup.reply_audio = audio

    # ------------------------------------------------------------ announcements

    def subscribe(self, listener: Callable[[SkillReply], None]) -> None:
        """``listener`` says what skills announce (an engine); what was announced while
        nobody listened is handed over now."""
        with self._lock:
            self._listeners.append(listener)
            unheard, self._unheard = self._unheard, []
        for reply in unheard:
            listener(reply)

    def unsubscribe(self, listener: Callable[[SkillReply], None]) -> None:
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def _announce(self, reply: SkillReply) -> None:
        with self._lock:
            listeners = list(self._listeners)
            if not listeners:
                self._unheard.append(reply)
        for listener in listeners:
            listener(reply)

    def forget_visitor(self) -> None:
        """A kiosk's visitor left: their timers and alarms go, their stopwatch, lists and notes, and
        anything announced that nobody heard yet."""
        with self._lock:
            self._unheard = []
        timers = self.timers
        if timers is not None:
            cleared = timers.clear()
            if cleared:
                log.info("the visitor's %d timer(s) and alarm(s) were cancelled", len(cleared))
        for kept in ("stopwatch", "notes"):  # their stopwatch, lists and notes too
            if (skill := self.get(kept)) is not None:
                skill.forget()

    def close(self) -> None:
        for close in self.setup.closers:
            close()


def _create(name: str, setup: SkillSetup) -> Skill:
    module = importlib.import_module(f"{__name__}.{name}")
    return module.create(setup)


def load_skills(config: Config, output_rate: int | None = None, timers_path: Path | None = None) -> Skills | None:
    """The configured skills (their timers running, kept in ``timers_path``; None: in
    memory), or None when skills are off."""
    if not config.skills.enabled:
        return None
    return Skills(config.skills, output_rate or config.audio.output_rate, config.replies, timers_path)
