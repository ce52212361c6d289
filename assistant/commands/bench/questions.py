"""The quality bench's question set and how an answer is scored.

The whole reply is read (:func:`verdict`): it is **wrong** when it says a rejected
answer anywhere ("A puppy is called a kitten."; for a question of a ``kind``, another
member of it: a second country), **right** when it says an accepted
one and no rejected one, **declined** when it says it is not sure (a hedge, or the
model's own "I don't know"), and wrong otherwise. Answers and replies are normalized
the way skills read speech (lower case, numbers as digits: "fifty-six" is "56").

Each question belongs to the tuning half or the test half by a hash of its text, so the
split is fixed before anything is tuned and no one chooses it (:func:`half_of`).
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass
from datetime import datetime
from importlib import resources
from pathlib import Path

from assistant.sound import AudioError
from assistant.think.skills.text import normalize

SOURCES = ("skill", "cache", "llm")
VERDICTS = ("right", "wrong", "declined", "answered")
"""``answered``: a question with no one right answer (``open``) got a reply."""
HALVES = ("tune", "test")

DECLINES = re.compile(r"\b(not sure|don'?t know|don t know|do not know|no idea|can'?t say|can t say|cannot say"
                      r"|didn'?t catch|didn t catch|did not catch)\b"
                      r"|확실하지 않|모르겠")
"""How a reply says it does not know (or did not hear the question well enough to answer it)."""


@dataclass(frozen=True)
class Question:
    text: str
    accept: tuple[str, ...]
    expect: str
    """Which source should answer it: skill, cache or llm."""
    reject: tuple[str, ...] = ()
    """Wrong answers a reply must not say."""
    open: bool = False
    """No one right answer (a tip, a suggestion): scored as answered or not."""
    kind: str = ""
    """The closed set the answer is one of (``kinds.toml``): naming another member is wrong."""
    tuning_only: bool = False
    """Written for calibration (``calibration_questions.toml``): in the tuning half, whatever its hash."""

    @property
    def half(self) -> str:
        return "tune" if self.tuning_only else half_of(self.text)

    @property
    def rejected(self) -> tuple[str, ...]:
        """The wrong answers: those listed, and the other members of its kind that neither
        an accepted answer nor the question itself names."""
        if not self.kind:
            return self.reject
        asked = normalize(self.text)
        accepted = [normalize(a) for a in self.accept]
        others = [m for m in KINDS[self.kind] if not _says(asked, (m,), None)
                  and not any(_says(a, (m,), None) or _says(m, (a,), None) for a in accepted)]
        return self.reject + tuple(others)


def half_of(text: str) -> str:
    """``tune`` or ``test``, by the first byte of the text's SHA-256 (lower case, trimmed)."""
    return HALVES[hashlib.sha256(text.strip().lower().encode("utf-8")).digest()[0] % 2]


def _kinds() -> dict[str, tuple[str, ...]]:
    text = resources.files(__package__).joinpath("kinds.toml").read_text(encoding="utf-8")
    return {kind: tuple(members) for kind, members in tomllib.loads(text).items()}


KINDS = _kinds()
"""The closed sets a question can ask for one of: countries, colours, planets..."""


CALIBRATION_SET = "calibration_questions.toml"
"""Questions written for calibrating the hedge, all in the tuning half (:func:`load_calibration_questions`)."""


def load_questions(path: Path | None = None, tuning_only: bool = False, built_in: str = "questions.toml"
                   ) -> list[Question]:
    """The default set, or the TOML file at ``path`` (same layout); errors name the file.
    ``tuning_only``: every question is in the tuning half."""
    where = str(path) if path else f"the built-in {built_in}"
    try:
        text = path.read_text(encoding="utf-8") if path else (
            resources.files(__package__).joinpath(built_in).read_text(encoding="utf-8"))
        rows = tomllib.loads(text)["question"]
        questions = [Question(r["text"], tuple(r["accept"]), r.get("expect", "llm"), tuple(r.get("reject", ())),
                              bool(r.get("open", False)), r.get("kind", ""), tuning_only) for r in rows]
    except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError) as exc:
        raise AudioError(f"cannot read {where}: {exc!r}; each [[question]] needs text and accept") from exc
    bad = [q.text for q in questions if not q.accept or q.expect not in SOURCES or q.kind and q.kind not in KINDS]
    if bad:
        raise AudioError(f"{where}: '{bad[0]}' needs a non-empty accept list, expect in {', '.join(SOURCES)} "
                         f"and a kind (if any) in {', '.join(KINDS)}")
    return questions


def load_calibration_questions() -> list[Question]:
    """The questions written for calibration only: more answers to choose a threshold on
    than the default set's tuning half holds, none of the default set's."""
    return load_questions(tuning_only=True, built_in=CALIBRATION_SET)


def keywords(answers: tuple[str, ...], now: datetime) -> list[str]:
    """The answers with today's {weekday}, {month}, {year} and {hour} filled in."""
    values = {"weekday": now.strftime("%A"), "month": now.strftime("%B"), "year": str(now.year),
              "hour": str(now.hour % 12 or 12)}
    return [k.format_map(values) for k in answers]


def _says(said: str, answers: tuple[str, ...], now: datetime | None) -> bool:
    for keyword in keywords(answers, now or datetime.now()):
        wanted = keyword if keyword.endswith(":") else normalize(keyword)  # "4:" is the start of a clock time
        end = r"(?!\w)" if wanted[-1:].isalnum() else ""
        if re.search(rf"(?<![\w.]){re.escape(wanted)}{end}", said):
            return True
    return False


def verdict(question: Question, reply: str, now: datetime | None = None) -> str:
    """right, wrong, declined (or answered, for an open question): see the module's text."""
    now = now or datetime.now()
    said = normalize(reply)
    if not said.strip():
        return "wrong"
    if question.open:
        return "answered"
    if _says(said, question.rejected, now):
        return "declined" if DECLINES.search(said) else "wrong"
    if DECLINES.search(said):
        return "declined"
    return "right" if _says(said, question.accept, now) else "wrong"


def is_right(question: Question, reply: str, now: datetime | None = None) -> bool:
    return verdict(question, reply, now) in ("right", "answered")
