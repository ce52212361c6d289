"""``assistant bench --quality --calibrate``: the confidence below which a model's answers
are hedged, chosen on the tuning half of the questions and judged on the test half.

The quality questions are asked with no hedge, and the confidence of every language-model
answer is kept (:mod:`assistant.think.confidence`). A threshold turns the answers below it
into declines: a wrong answer declined is a gain (a person is not told something false),
a right one declined a loss. The threshold kept declines the most wrong answers of the
tuning half while losing at most one right answer in twenty (:func:`choose`); the test
half, which took no part in choosing it, says what it is worth.
"""

from __future__ import annotations

from typing import Any

from assistant.commands.bench.quality import Answer
from assistant.commands.bench.questions import HALVES


def scored(answers: list[Answer]) -> list[Answer]:
    """The answers a threshold acts on: the model's, to questions with one right answer
    (one with no confidence, every word of it from the question, is never hedged)."""
    return [a for a in answers if a.source == "llm" and not a.question.open]


def outcome(answers: list[Answer], threshold: float) -> dict[str, int]:
    """Right, wrong and declined when the answers below ``threshold`` are hedged."""
    counts = {"right": 0, "wrong": 0, "declined": 0, "right_hedged": 0, "wrong_hedged": 0}
    for a in answers:
        if a.confidence is not None and a.confidence < threshold and a.verdict in ("right", "wrong"):
            counts["declined"] += 1
            counts[f"{a.verdict}_hedged"] += 1
        else:
            counts[a.verdict] += 1
    return counts


LOST_SHARE = 0.05
"""Of the right answers, the share a threshold may turn into declines (at least one)."""


def choose(answers: list[Answer]) -> float:
    """The threshold that declines the most wrong answers of ``answers`` while declining
    at most one right answer in twenty (at least one); the lowest of equals. A right
    answer lost is what a person notices first, so few may be."""
    levels = sorted({a.confidence for a in answers if a.confidence is not None})
    candidates = [0.0] + [(lo + hi) / 2 for lo, hi in zip(levels, levels[1:])]
    allowed = max(1, round(LOST_SHARE * sum(a.verdict == "right" for a in answers)))
    kept = [t for t in candidates if outcome(answers, t)["right_hedged"] <= allowed]
    return max(kept, key=lambda t: (outcome(answers, t)["wrong_hedged"], -t))


def calibrate(answers: list[Answer]) -> dict[str, Any]:
    """The threshold from the tuning half's typed answers (with those to the questions written
    for calibration), and what it does to each half and to those questions, apart."""
    typed = [a for a in scored(answers) if a.mode == "typed"]
    tune = [a for a in typed if a.question.half == "tune"]
    threshold = choose(tune)
    report: dict[str, Any] = {"threshold": round(threshold, 4), "tuned_on": len(tune)}
    groups: dict[str, list[Answer]] = {f"{half}_{mode}": [] for half in HALVES[::-1]
                                       for mode in dict.fromkeys(a.mode for a in answers)}
    for a in scored(answers):
        groups.setdefault(_group(a), []).append(a)
    for name, rows in groups.items():
        report[name] = {"without_hedge": outcome(rows, 0.0), "with_hedge": outcome(rows, threshold), "answers": len(rows)}
    return report


def _group(answer: Answer) -> str:
    """Where an answer is reported: its half and mode, or the questions written for calibration."""
    half = "calibration" if answer.question.tuning_only else answer.question.half
    return f"{half}_{answer.mode}"


def format_calibration(report: dict[str, Any]) -> str:
    lines = [f"hedge below confidence {report['threshold']:.3f} (chosen on {report['tuned_on']} typed answers "
             "of the tuning half)", f"{'':16s} {'right':>6s} {'wrong':>6s} {'declined':>9s}"]
    for key, value in report.items():
        if not isinstance(value, dict):
            continue
        for name in ("without_hedge", "with_hedge"):
            c = value[name]
            lines.append(f"{key:16s} {c['right']:6d} {c['wrong']:6d} {c['declined']:9d}   {name.replace('_', ' ')}")
    return "\n".join(lines)
