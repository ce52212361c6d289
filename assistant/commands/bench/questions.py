"""The quality bench's question set and how an answer is scored.

An answer is right when it holds one of the question's accepted keywords as whole
words, after both are normalized the way skills read speech (lower case, numbers as
digits: "fifty-six" is "56").
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from datetime import datetime
from importlib import resources
from pathlib import Path

from assistant.sound import AudioError
from assistant.think.skills.text import normalize

SOURCES = ("skill", "cache", "llm")


@dataclass(frozen=True)
class Question:
    text: str
    accept: tuple[str, ...]
    expect: str
    """Which source should answer it: skill, cache or llm."""


def load_questions(path: Path | None = None) -> list[Question]:
    """The default set, or the TOML file at ``path`` (same layout); errors name the file."""
    where = str(path) if path else "the default question set"
    try:
        text = path.read_text(encoding="utf-8") if path else (
            resources.files(__package__).joinpath("questions.toml").read_text(encoding="utf-8"))
        rows = tomllib.loads(text)["question"]
        questions = [Question(r["text"], tuple(r["accept"]), r.get("expect", "llm")) for r in rows]
    except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError) as exc:
        raise AudioError(f"cannot read {where}: {exc!r}; each [[question]] needs text and accept") from exc
    bad = [q.text for q in questions if not q.accept or q.expect not in SOURCES]
    if bad:
        raise AudioError(f"{where}: '{bad[0]}' needs a non-empty accept list and expect in {', '.join(SOURCES)}")
    return questions


def keywords(question: Question, now: datetime) -> list[str]:
    """The accepted keywords with today's {weekday}, {month}, {year} and {hour} filled in."""
    values = {"weekday": now.strftime("%A"), "month": now.strftime("%B"), "year": str(now.year),
              "hour": str(now.hour % 12 or 12)}
    return [k.format_map(values) for k in question.accept]


def is_right(question: Question, reply: str, now: datetime | None = None) -> bool:
    said = normalize(reply)
    for keyword in keywords(question, now or datetime.now()):
        wanted = keyword if keyword.endswith(":") else normalize(keyword)  # "4:" is the start of a clock time
        end = r"(?!\w)" if wanted[-1:].isalnum() else ""
        if re.search(rf"(?<![\w.]){re.escape(wanted)}{end}", said):
            return True
    return False
