"""End of turn on the split corpus: every pause replayed, each half scored apart.

The pauses are replayed as :mod:`.signals` does (the pipeline's VAD, endpointer,
recognizer and end-of-turn model at every pause); Korean takes go through the Korean
models. Each half is then scored, the test half first, English and Korean apart: the
share of thinking pauses cut off, other pauses cut off, and the silence waited after
finished turns (median and p90), the way LiveKit's eot-bench reports cut-offs at a budget.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

import numpy as np

from assistant.commands.bench.signals import PauseRecord, guard_of, replay, signals_of
from assistant.commands.bench.stats import median, word_edits
from assistant.commands.bench.turn_corpus import TurnTake
from assistant.commands.bench.turn_split import HALVES
from assistant.config import Config
from assistant.hear.end_of_turn import judge
from assistant.pipeline.session import LoadedModels
from assistant.think.replies import Replies

Engines = dict[str, tuple[LoadedModels, Config, Replies | None]]
"""Per language (``en``, ``ko``): the models, the configuration and the instant replies."""


def replay_halves(takes: list[TurnTake], engines: Engines, halves: tuple[str, ...] = HALVES
                  ) -> dict[str, dict[str, list[PauseRecord]]]:
    """half -> language -> every pause of its takes."""
    out: dict[str, dict[str, list[PauseRecord]]] = {}
    for half in halves:
        for language, (models, config, replies) in engines.items():
            chosen = [t for t in takes if t.half == half and t.language == language]
            out.setdefault(half, {})[language] = replay(chosen, models, config, replies)
    return out


def p90(values: list[float]) -> float | None:
    return round(float(np.percentile(values, 90)), 1) if values else None


SHORT_PAUSE_MS = 1000.0
"""Thinking pauses up to this long are the ones of the budget (at most 1 in 20 cut off); the
longer ones are counted too, and reported apart."""


def score_half(records: list[PauseRecord], config: Config, mode: str = "semantic",
               silence_alone: bool = False) -> dict[str, Any]:
    """Cut-offs and waits of one half in one language, deciding as ``config`` says
    (``silence_alone``: as the engine does where the model cannot read the language)."""
    turn = replace(config.turn, mode=mode)
    thinking = [r for r in records if r.thinking]
    other = [r for r in records if not r.final and not r.thinking]
    finished = [r for r in records if r.final and not r.trailing]
    guard = guard_of(config)
    wait = {id(r): judge(signals_of(r, misheard=guard), turn, config.vad.endpoint_ms, silence_alone=silence_alone,
                         language=config.stt.language).wait_ms for r in records}
    cut = [r for r in thinking if wait[id(r)] <= r.silence_ms]
    cut_other = [r for r in other if wait[id(r)] <= r.silence_ms]
    waits = [wait[id(r)] for r in finished]
    return {
        "thinking_pauses": len(thinking),
        "thinking_cut_off": len(cut),
        "thinking_pauses_to_1s": sum(bool(r.silence_ms <= SHORT_PAUSE_MS) for r in thinking),
        "thinking_to_1s_cut_off": sum(bool(r.silence_ms <= SHORT_PAUSE_MS) for r in cut),
        "other_pauses": len(other),
        "other_cut_off": len(cut_other),
        "finished_turns": len(finished),
        "wait_median_ms": median(waits),
        "wait_p90_ms": p90(waits),
        "cut_off_in": [f"{r.take}: {r.transcript[-50:]!r} ({r.silence_ms:.0f} ms)" for r in cut + cut_other],
        "slow": [f"{r.take}: {r.transcript[-50:]!r} waits {wait[id(r)]:.0f} ms" for r in finished
                 if wait[id(r)] >= 1000],
    }


def score_halves(records: dict[str, dict[str, list[PauseRecord]]], configs: dict[str, Config],
                 mode: str = "semantic", silence_alone: frozenset[str] = frozenset()) -> dict[str, dict[str, dict[str, Any]]]:
    """half -> language -> :func:`score_half`, the test half first (``silence_alone``: the
    languages the model cannot read)."""
    return {half: {language: score_half(rows, configs[language], mode, language in silence_alone)
                   for language, rows in by_language.items()}
            for half, by_language in sorted(records.items(), key=lambda item: HALVES.index(item[0]))}


def languages_read_by_silence(engines: Engines) -> frozenset[str]:
    """The languages whose turns the engine ends by the silence (Korean its model cannot answer)."""
    from assistant.think.korean_guard import KoreanGuard

    return frozenset(language for language, (models, config, _) in engines.items()
                     if KoreanGuard(models.llm.path, config.stt.language).ends_by_silence)


def format_halves(scores: dict[str, dict[str, dict[str, Any]]]) -> str:
    lines = ["half  lang  thinking cut off (up to 1 s)  other cut off  finished  wait median  wait p90"]
    for half, by_language in scores.items():
        for language, s in by_language.items():
            short = f"({s['thinking_to_1s_cut_off']} of {s['thinking_pauses_to_1s']})"
            lines.append(f"{half:5} {language:5} {s['thinking_cut_off']:>3} of {s['thinking_pauses']:<3} {short:<14} "
                         f"{s['other_cut_off']:>3} of {s['other_pauses']:<8} {s['finished_turns']:>8}  "
                         f"{s['wait_median_ms'] or 0:>8.0f} ms  {s['wait_p90_ms'] or 0:>5.0f} ms")
    return "\n".join(lines)


MISHEARD_ERRORS = 0.3
"""A turn with this share of its words wrong (or more) is badly misheard; none wrong is heard right."""


def score_misheard(records: list[PauseRecord], said: dict[str, str], config: Config,
                   taken: Callable[[str], bool]) -> dict[str, Any]:
    """What the misheard-words notice (``stt.misheard_below``) does to one half's finished
    turns: of those that go to the model (``taken``: a skill or an instant reply answers the
    words), how many heard right, a word or two wrong, and badly misheard it refuses (``said``:
    each take's words)."""
    below = config.stt.misheard_below
    groups: dict[str, list[PauseRecord]] = {"right": [], "some_wrong": [], "misheard": []}
    for record in records:
        if not record.final or record.trailing or not record.transcript.strip() or record.instant:
            continue
        if taken(record.transcript):
            continue
        edits, total = word_edits(said[record.take], record.transcript)
        share = edits / max(1, total)
        groups["right" if edits == 0 else "misheard" if share >= MISHEARD_ERRORS else "some_wrong"].append(record)
    refused = {name: [r for r in rows if r.least_word_p is not None and r.least_word_p < below]
               for name, rows in groups.items()}
    return {
        "threshold": below,
        **{name: len(rows) for name, rows in groups.items()},
        **{f"{name}_refused": len(rows) for name, rows in refused.items()},
        "right_refused_words": [f"{r.take}: {r.transcript!r} ({r.least_word_p:.2f})" for r in refused["right"]],
    }


def misheard_halves(records: dict[str, dict[str, list[PauseRecord]]], takes: list[TurnTake], config: Config
                    ) -> dict[str, dict[str, Any]]:
    """half -> :func:`score_misheard` of its English turns (the test half first)."""
    from assistant.think.skills import Skills

    said = {take.name: take.words for take in takes}
    skills = Skills(config.skills)
    try:
        return {half: score_misheard(by_language.get("en", []), said, config, lambda text: skills.match(text) is not None)
                for half, by_language in sorted(records.items(), key=lambda item: HALVES.index(item[0]))}
    finally:
        skills.close()


def format_misheard(results: dict[str, dict[str, Any]]) -> str:
    lines = ["half  misheard-words notice (English, turns for the model): refused of heard right / "
             "a word or two wrong / badly misheard"]
    for half, s in results.items():
        lines.append(f"{half:5} at {s['threshold']}: {s['right_refused']} of {s['right']} / "
                     f"{s['some_wrong_refused']} of {s['some_wrong']} / {s['misheard_refused']} of {s['misheard']}")
    return "\n".join(lines)


def korean_engines(config: Config) -> tuple[LoadedModels, Config, Replies | None]:
    """The Korean models, configuration and instant replies beside an English ``config``."""
    from assistant.config import with_overrides
    from assistant.languages import for_language
    from assistant.pipeline.session import load_models, make_replies

    korean = for_language(with_overrides(config, stt={"language": "ko"}))
    models = load_models(korean)
    return models, korean, make_replies(korean, models.tts, korean.audio.output_rate)


def real_time_halves(takes: list[TurnTake], engines: Engines, halves: tuple[str, ...] = ("test",),
                     progress=None) -> dict[str, dict[str, dict[str, Any]]]:
    """Every take of ``halves`` through the whole pipeline in real time: the heard latency
    (from the last audible sample of the whole question) of finished turns, and the takes
    answered before their last word (a cut-off, whatever the latency)."""
    from assistant.commands.bench.turn_taking import run_turn_taking

    out: dict[str, dict[str, dict[str, Any]]] = {}
    for half in halves:
        for language, (models, config, replies) in engines.items():
            chosen = [t for t in takes if t.half == half and t.language == language]
            rows = run_turn_taking(models, config, replies, chosen, progress=progress)
            paused = [r for r in rows if r["thinking_pauses"]]
            finished = [r for r in rows if not r["thinking_pauses"] and not r["trailing"]]
            heard = [r["heard_ms"] for r in finished if r["heard_ms"] is not None]
            out.setdefault(half, {})[language] = {
                "thinking_pause_takes": len(paused),
                "cut_off_in_thinking_pauses": sum(r["premature"] for r in paused),
                "finished_takes": len(finished),
                "cut_off_finished": sum(bool(r["premature"] or (r["heard_ms"] or 0) < 0) for r in finished),
                "heard_median_ms": median(heard),
                "heard_p90_ms": p90(heard),
                "unanswered": [r["take"] for r in finished if r["heard_ms"] is None],
                "takes": rows,
            }
    return out


def format_real_time(results: dict[str, dict[str, dict[str, Any]]]) -> str:
    lines = ["half  lang  thinking-pause takes cut off  finished  heard median  heard p90"]
    for half, by_language in results.items():
        for language, s in by_language.items():
            lines.append(f"{half:5} {language:5} {s['cut_off_in_thinking_pauses']:>3} of {s['thinking_pause_takes']:<22} "
                         f"{s['finished_takes']:>8}  {s['heard_median_ms'] or 0:>9.0f} ms  {s['heard_p90_ms'] or 0:>6.0f} ms")
    return "\n".join(lines)
