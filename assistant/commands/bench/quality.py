"""``assistant bench --quality``: are the answers right?

Every question of the set is asked typed (as the text box does) and spoken (a WAV said
by the configured voice, through the real listening pipeline, not paced), in order, on
a fresh conversation each; timers set by one question are there for the next. In the
``conversation`` mode the questions are typed one after another into one conversation, a
half's in one and the other half's in another, as a person asks them, so what the model
does with its own earlier answers is in the score (a small model copies them). The whole
reply is read and judged right, wrong or declined (:mod:`.questions`). The report gives
the test half first, then the tuning half, each with right, wrong and declined, by mode
and by source (skill, cache, LLM), the model's confidence in each answer and whether it
was hedged, and the questions answered by another source than expected. Calibrating a
model's hedge threshold is :mod:`.calibrate`.
"""

from __future__ import annotations

import logging
import sys
import tempfile
import threading
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from assistant.sound import load_wav
from assistant.config import Config
from assistant.resources import cache_dir
from assistant.commands.spoken import question_wav
from assistant.events import Event, EventType, TurnResult
from assistant.think.replies import Replies
from assistant.pipeline.session import LoadedModels, build_engine
from assistant.think.skills import load_skills
from assistant.commands.bench.questions import HALVES, SOURCES, VERDICTS, Question, verdict
from assistant.commands.bench.streaming import run_streaming
from assistant.commands.bench.takes import InstantSink, open_take
from assistant.commands.bench.stats import slug

log = logging.getLogger(__name__)

MODES = ("typed", "spoken", "conversation")
TURN_TIMEOUT_S = 120.0


@dataclass
class Answer:
    mode: str
    question: Question
    transcript: str
    reply: str
    source: str
    skill: str
    verdict: str
    """right, wrong, declined, or answered (an open question)."""
    confidence: float | None = None
    hedged: str = ""
    us_per_token: float | None = None
    """What computing the confidence cost, a token."""

    @property
    def right(self) -> bool:
        return self.verdict in ("right", "answered")

    def to_json(self) -> dict[str, Any]:
        return {"mode": self.mode, "half": self.question.half, "question": self.question.text,
                "expect": self.question.expect, "transcript": self.transcript, "reply": self.reply,
                "source": self.source, "skill": self.skill, "verdict": self.verdict, "right": self.right,
                "confidence": self.confidence, "hedged": self.hedged}


class _OneTurn:
    def __init__(self) -> None:
        self.result: TurnResult | None = None
        self.done = threading.Event()

    def __call__(self, event: Event) -> None:
        if event.type is EventType.TURN_END and self.result is None:
            self.result = event.data
            self.done.set()


def run_quality(engines: LoadedModels, config: Config, replies: Replies | None, questions: list[Question],
                modes: tuple[str, ...] = MODES) -> list[Answer]:
    """Ask every question in every mode; the answers, scored."""
    from tqdm import tqdm

    answers: list[Answer] = []
    now = datetime.now()
    with tempfile.TemporaryDirectory(prefix="quality-") as scratch, \
            tqdm(total=len(questions) * len(modes), unit="question", file=sys.stderr, dynamic_ncols=True) as bar:
        for mode in modes:
            # Each pass has timers of its own, never the user's.
            skills_config = replace(config.skills, timers_file=str(Path(scratch) / f"timers-{mode}.json"))
            skills = load_skills(replace(config, skills=skills_config))
            if skills is not None and replies is not None:
                skills.use_reply_audio(replies.audio)
            half = None
            try:
                for question in _in_order(questions, mode):
                    bar.set_postfix_str(f"{mode}: {question.text}"[:48])
                    if mode != "conversation" or question.half != half:
                        engines.llm.reset()  # a conversation of its own: every question's, or each half's
                        half = question.half
                    result = _ask(mode, question, engines, config, replies, skills)
                    answers.append(_scored(mode, question, result, now))
                    bar.update()
            finally:
                if skills is not None:
                    skills.close()
    engines.llm.reset()
    return answers


def _in_order(questions: list[Question], mode: str) -> list[Question]:
    """The questions as asked: in a conversation, a half's one after another (in the set's order)."""
    return sorted(questions, key=lambda q: HALVES.index(q.half)) if mode == "conversation" else questions


def _ask(mode, question, engines, config, replies, skills) -> TurnResult | None:
    if mode in ("typed", "conversation"):
        turn = _OneTurn()
        engine = build_engine(config, engines, InstantSink(config.audio.output_rate), replies=replies,
                              skills=skills, on_event=turn)
        try:
            engine.submit_text(question.text)
            turn.done.wait(TURN_TIMEOUT_S)
        finally:
            engine.close()
        return turn.result
    wav = question_wav(engines.tts, question.text, cache_dir() / "quality" / slug(engines.tts.voice_id))
    rate = config.audio.sample_rate
    take = open_take(load_wav(wav, rate), rate, config.audio.output_rate, fast=True, wav=None)
    return run_streaming(engines, config, replies, take, TURN_TIMEOUT_S, skills=skills)


def _scored(mode: str, question: Question, result: TurnResult | None, now: datetime) -> Answer:
    if result is None:
        return Answer(mode, question, "", "", "", "", "wrong")
    cost = result.timeline.counts.get("confidence_us_per_token")
    return Answer(mode, question, result.transcript, result.reply, result.source, result.skill,
                  verdict(question, result.reply, now), result.confidence, result.hedged, cost)


# ------------------------------------------------------------------ report


def _share(answers: list[Answer]) -> dict[str, Any]:
    counts = {v: sum(a.verdict == v for a in answers) for v in VERDICTS}
    right = counts["right"] + counts["answered"]
    return {"right": right, "asked": len(answers), "share": round(right / len(answers), 3) if answers else None,
            "wrong": counts["wrong"], "declined": counts["declined"],
            "hedged": sum(bool(a.hedged) for a in answers)}


def _half_report(answers: list[Answer]) -> dict[str, Any]:
    modes = list(dict.fromkeys(a.mode for a in answers))
    return {
        "overall": _share(answers),
        "by_mode": {m: _share([a for a in answers if a.mode == m]) for m in modes},
        "by_source": {s: _share([a for a in answers if a.source == s]) for s in (*SOURCES, "")},
        "llm_only": _share([a for a in answers if a.source == "llm"]),
    }


def build_quality_report(answers: list[Answer], meta: dict[str, Any]) -> dict[str, Any]:
    costs = sorted(a.us_per_token for a in answers if a.us_per_token is not None)
    return {
        "meta": meta,
        **_half_report(answers),
        "halves": {h: _half_report([a for a in answers if a.question.half == h]) for h in HALVES[::-1]},
        "confidence_us_per_token": {"median": costs[len(costs) // 2], "max": costs[-1]} if costs else None,
        "misrouted": [a.to_json() for a in answers if a.source != a.question.expect],
        "answers": [a.to_json() for a in answers],
    }


def _percent(share: dict[str, Any]) -> str:
    if not share["asked"]:
        return "—"
    return (f"{100 * share['share']:5.1f}% right ({share['right']}/{share['asked']}), "
            f"{share['wrong']} wrong, {share['declined']} declined")


def _format_half(name: str, half: dict[str, Any]) -> list[str]:
    lines = [f"{name}: {_percent(half['overall'])}"]
    lines += [f"  {mode:16s} {_percent(share)}" for mode, share in half["by_mode"].items()]
    names = {"skill": "skills", "cache": "instant replies", "llm": "language model", "": "no answer"}
    lines += [f"  {names[s]:16s} {_percent(share)}" for s, share in half["by_source"].items() if share["asked"]]
    return lines


def format_quality(report: dict[str, Any]) -> str:
    lines = []
    for half in HALVES[::-1]:
        lines += _format_half(f"{half} half", report["halves"][half])
    lines += _format_half("all", report)
    if report.get("confidence_us_per_token"):
        cost = report["confidence_us_per_token"]
        lines.append(f"confidence: {cost['median']:.0f} us a token (median), {cost['max']:.0f} us at most")
    wrong = [a for a in report["answers"] if a["verdict"] in ("wrong", "declined")]
    if wrong:
        lines.append("wrong or declined:")
        lines += [f"  [{a['half']}, {a['mode']}, {a['source'] or 'none'}, {a['verdict']}"
                  f"{', ' + a['hedged'] if a['hedged'] else ''}] {a['question']} -> {a['reply'][:70]!r}" for a in wrong]
    return "\n".join(lines)
