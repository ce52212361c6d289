"""The bench report: a JSON document and the table printed from it."""

from __future__ import annotations

import json
import platform
from pathlib import Path
from typing import Any

from assistant.commands.bench.runner import BenchResult
from assistant.commands.bench.stats import (
    METRICS,
    TurnRecord,
    median_stages,
    overlapped_stages,
    stages_ms,
    summarize,
    turn_figures,
    word_edits,
    word_error_rate,
)


def _turn_json(record: TurnRecord) -> dict[str, Any]:
    data = record.result.to_json()
    data.update(
        mode=record.mode,
        item=record.item,
        repeat=record.repeat,
        expected=record.expected,
        figures=turn_figures(record),
        stages_ms=stages_ms(record.timeline),
        stages_overlapped=overlapped_stages(record.timeline),
        first_audio_s=round(record.first_audio_s, 3) if record.first_audio_s else None,
    )
    if record.expected:
        edits, n = word_edits(record.expected, record.result.transcript)
        data["word_errors"] = edits
    return data


def _mode_json(records: list[TurnRecord], peak_rss_mb: float | None) -> dict[str, Any]:
    figures = [turn_figures(r) for r in records]
    return {
        "summary": {m.name: summarize(f[m.name] for f in figures) for m in METRICS},
        "stages_ms": median_stages(records),
        "stages_overlapped": _overlap_counts(records),
        "word_error_rate": word_error_rate(records),
        "turns_by_source": {s: sum(r.result.source == s for r in records) for s in ("llm", "cache", "")},
        "peak_rss_mb": peak_rss_mb,
        "turns": [_turn_json(r) for r in records],
    }


def _overlap_counts(records: list[TurnRecord]) -> dict[str, int]:
    """LLM turns in which each stage was done during an earlier one (counted as 0 ms)."""
    counts: dict[str, int] = {}
    for record in records:
        if record.result.source == "llm":
            for name in overlapped_stages(record.timeline):
                counts[name] = counts.get(name, 0) + 1
    return counts


def _conversation_json(records: list[TurnRecord]) -> dict[str, Any]:
    series = []
    for record in sorted(records, key=lambda r: r.conversation_turn or 0):
        counts = record.timeline.counts
        series.append({
            "turn": record.conversation_turn,
            "item": record.item,
            "source": record.result.source,
            "prompt_tokens": counts.get("prompt_tokens"),
            "prompt_reused": counts.get("prompt_reused"),
            "tokens": counts.get("tokens"),
            "ttft": record.timeline.latency_ms()["ttft"],
            "voice_to_voice": record.timeline.latency_ms()["voice_to_voice"],
            "transcript": record.result.transcript,
            "reply": record.result.reply,
        })
    llm = [s for s in series if s["ttft"] is not None]
    return {
        "ttft_first": llm[0]["ttft"] if llm else None,
        "ttft_last": llm[-1]["ttft"] if llm else None,
        "prompt_tokens_first": llm[0]["prompt_tokens"] if llm else None,
        "prompt_tokens_last": llm[-1]["prompt_tokens"] if llm else None,
        "series": series,
    }


def build_report(result: BenchResult, meta: dict[str, Any]) -> dict[str, Any]:
    opts = result.options
    modes = {
        mode: _mode_json([r for r in result.records if r.mode == mode], result.mode_peak_rss_mb.get(mode))
        for mode in opts.modes
    }
    report: dict[str, Any] = {
        "meta": {
            **meta,
            "modes": list(opts.modes),
            "repeat": opts.repeat,
            "real_time": not opts.fast,
            "python": platform.python_version(),
            "machine": platform.machine(),
        },
        "metrics": {m.name: {"unit": m.unit, "about": m.about} for m in METRICS},
        "modes": modes,
        "peak_rss_mb": result.peak_rss_mb,
        "missed": result.missed,
    }
    if "streaming" in modes and "serial" in modes:
        report["serial_over_streaming"] = {
            m.name: _ratio(modes["serial"]["summary"][m.name]["median"], modes["streaming"]["summary"][m.name]["median"])
            for m in METRICS
        }
    if opts.turns:
        report["conversation"] = {
            "turns": opts.turns,
            **{mode: _conversation_json([r for r in result.conversation if r.mode == mode]) for mode in opts.modes},
        }
    return report


def _ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 2) if a is not None and b else None


def write_json(report: dict[str, Any], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=1, ensure_ascii=False, default=_plain) + "\n", encoding="utf-8")


def _plain(value: Any) -> Any:
    """A NumPy number as JSON writes it (a count summed over NumPy booleans is an ``int64``)."""
    import numpy as np

    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


# ------------------------------------------------------------------ table


def _cell(value: float | int | None, width: int = 7) -> str:
    if value is None:
        return "–".rjust(width)
    if isinstance(value, float) and abs(value) < 10 and value != int(value):
        return f"{value:.2f}".rjust(width)
    return f"{value:.0f}".rjust(width)


def format_table(report: dict[str, Any]) -> str:
    meta, modes = report["meta"], report["modes"]
    names = list(modes)
    ratios = report.get("serial_over_streaming")
    lines = [
        f"stt {meta.get('stt')} · llm {meta.get('llm')} · tts {meta.get('tts')} · "
        f"{'real time' if meta['real_time'] else 'FAST (not real time)'} · "
        f"{meta.get('items')} utterances × {meta['repeat']} repeat(s) per mode",
        "",
    ]
    head = f"{'metric':<28}{'unit':>6}"
    sub = " " * 34
    for name in names:
        head += f" │ {name:^30}"
        sub += f" │ {'n':>3}{'median':>9}{'p95':>9}{'max':>9}"
    if ratios:
        head += " │ serial÷"
        sub += " │ streaming"
    lines += [head, sub, "─" * len(sub)]
    for metric, info in report["metrics"].items():
        row = f"{metric:<28}{info['unit']:>6}"
        for name in names:
            s = modes[name]["summary"][metric]
            row += f" │ {s['n']:>3}{_cell(s['median'], 9)}{_cell(s['p95'], 9)}{_cell(s['max'], 9)}"
        if ratios:
            row += f" │ {_cell(ratios[metric], 8)}"
        lines.append(row)
    lines.append("")
    for name in names:
        wer = modes[name]["word_error_rate"]
        wer_text = f"{wer['wer']:.1%} over {wer['words']} words" if wer["wer"] is not None else "–"
        stages = " + ".join(f"{k} {v:.0f}" for k, v in modes[name]["stages_ms"].items())
        lines.append(f"{name:>10}: WER {wer_text}; peak RSS {modes[name]['peak_rss_mb']} MB")
        lines.append(f"{'':>10}  median stages (ms): {stages or '–'}")
        overlapped = modes[name].get("stages_overlapped") or {}
        if overlapped:
            done = ", ".join(f"{stage} in {n}" for stage, n in overlapped.items())
            lines.append(f"{'':>10}  counted as 0, done during an earlier stage (turns): {done}")
    if "conversation" in report:
        lines += ["", _conversation_table(report["conversation"], names)]
    if "turn_taking" in report:
        lines += ["", _turn_taking_table(report["turn_taking"])]
    if report["missed"]:
        lines += ["", f"no answer in: {', '.join(report['missed'])}"]
    return "\n".join(lines)


def _turn_taking_table(turn_taking: dict[str, Any]) -> str:
    summary = turn_taking["summary"]
    lines = [
        "turn taking (the corpus replayed pause by pause; compute time not counted):",
        f"{'decided by':<16}{'premature in thinking pauses':>30}{'other pauses':>14}{'mean wait':>11}{'median':>8}{'waits >= 1 s':>14}",
    ]
    for name, score in turn_taking["signals"].items():
        lines.append(
            f"{name:<16}{score['premature_in_thinking_pauses']:>20} of {score['thinking_pauses']:<7}"
            f"{score['premature'] - score['premature_in_thinking_pauses']:>6} of {score['other_pauses']:<5}"
            f"{_cell(score['mean_wait_ms'], 9)} ms{_cell(score['median_wait_ms'], 6)} ms"
            f"{score['slow_turns']:>8} of {score['finished_turns']}"
        )
    lines += [
        "",
        f"turn taking in real time ({turn_taking['mode']} mode, {summary['takes']} takes): "
        f"premature commits in {summary['premature_in_thinking_pauses']} of {summary['thinking_pause_takes']} "
        f"takes with a thinking pause; on {summary['complete_takes']} complete questions the turn was taken "
        f"{_cell(summary['mean_wait_ms'], 0)} ms (mean, median {_cell(summary['median_wait_ms'], 0)} ms) after "
        f"the last word; heard voice-to-voice median {_cell(summary['heard_median_ms'], 0)} ms",
    ]
    for label, key in (("monologue", "monologue"), ("trailing 'um'", "trailing_um"), ("noise", "noise")):
        for take in summary[key]:
            lines.append(f"  {label}: {take['turns']} turn(s), taken {_cell(take['wait_ms'], 0)} ms after the last "
                         f"word: {take['transcript'][-70:]!r}")
    if summary["premature_takes"]:
        lines.append(f"  premature: {', '.join(summary['premature_takes'])}")
    if summary["split_turns"]:
        lines.append(f"  taken as more or fewer than one turn: {', '.join(summary['split_turns'])}")
    return "\n".join(lines)


def _conversation_table(conversation: dict[str, Any], names: list[str]) -> str:
    lines = [f"conversation of {conversation['turns']} turns (history grows): TTFT and prompt tokens per turn"]
    head = f"{'turn':>4}"
    for name in names:
        head += f" │ {name + ' ttft':>15}{'prompt':>8}{'reused':>8}"
    lines += [head, "─" * len(head)]
    rows: dict[int, str] = {}
    for name in names:
        for point in conversation[name]["series"]:
            rows.setdefault(point["turn"], f"{point['turn']:>4}")
    for turn in sorted(rows):
        row = rows[turn]
        for name in names:
            point = next((p for p in conversation[name]["series"] if p["turn"] == turn), {})
            row += f" │ {_cell(point.get('ttft'), 15)}{_cell(point.get('prompt_tokens'), 8)}{_cell(point.get('prompt_reused'), 8)}"
        lines.append(row)
    for name in names:
        c = conversation[name]
        lines.append(
            f"{name}: TTFT turn 1 → {conversation['turns']}: {_cell(c['ttft_first'], 0)} → {_cell(c['ttft_last'], 0)} ms; "
            f"prompt tokens {_cell(c['prompt_tokens_first'], 0)} → {_cell(c['prompt_tokens_last'], 0)}"
        )
    return "\n".join(lines)
