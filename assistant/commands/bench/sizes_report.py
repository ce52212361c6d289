"""The size sweep's table, chart and commands: ``assistant doctor --measure`` (a short
sweep and a recommendation) and ``assistant bench --sizes`` (the full table with heard
latencies, JSON and chart)."""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from pathlib import Path
from typing import Any

from assistant.machine import synthetic
from assistant.commands.bench.sizes import (
    DEFAULT_SWEEP,
    EMBEDDED,
    SPEECH_TOKENS_PER_S,
    SPEED_MARGIN,
    TTFT_LIMIT_MS,
    SizeRow,
    recommend,
    sweep,
)

NONSENSE = f"Synthetic models have random weights: {synthetic.NONSENSE}."
COLUMNS = ["model", "quant", "params", "file MB", "GPU", "TTFT", "TPOT", "tok/s", "heard", "RSS MB", "plan MB",
           "plan err", "verdict"]


def _num(value: float | None, digits: int = 0) -> str:
    return "–" if value is None else f"{value:,.{digits}f}"


def _params(n: int) -> str:
    return f"{n / 1e9:.2f}B" if n >= 1e9 else f"{n / 1e6:.0f}M"


def _verdict(row: SizeRow) -> str:
    if row.error:
        return "failed"
    if row.conversational:
        return "conversational"
    reasons = []
    if row.ttft_ms is None or row.ttft_ms >= TTFT_LIMIT_MS:
        reasons.append("slow start")
    if (row.tokens_per_s or 0) < SPEECH_TOKENS_PER_S * SPEED_MARGIN:
        reasons.append("slow decode")
    return ", ".join(reasons)


def _cells(row: SizeRow) -> list[str]:
    err = row.plan_error_pct
    return [
        row.model, row.quant, _params(row.parameters) if row.parameters else "–", _num(row.file_mb),
        f"{row.layers_on_gpu}/{row.layers}" if row.layers else "–", _num(row.ttft_ms), _num(row.tpot_ms),
        _num(row.tokens_per_s, 1), _num(row.heard_ms), _num(row.rss_mb), _num(row.planned_mb),
        "–" if err is None else f"{err:+.0f}%", _verdict(row),
    ]


def format_table(rows: list[SizeRow]) -> str:
    """Plain text, one row per model (times in ms)."""
    table = [COLUMNS] + [_cells(r) for r in rows]
    widths = [max(len(line[i]) for line in table) for i in range(len(COLUMNS))]

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) if i in (0, len(cells) - 1) else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    lines = [line(table[0])]
    for row, cells in zip(rows, table[1:]):
        lines.append(line(cells))
        if row.error:
            lines.append(f"  {row.model}: {row.error}")
    return "\n".join(lines)


def markdown_table(rows: list[SizeRow]) -> str:
    """The table with the fastest replies beside the medians (for a shared machine)."""
    head = list(COLUMNS)
    head[6:6] = ["best TTFT", "best TPOT"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        cells = _cells(row)
        cells[6:6] = [_num(row.ttft_best_ms), _num(row.tpot_best_ms)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def recommendation(rows: list[SizeRow]) -> str:
    best = recommend(rows)
    rule = (f"TTFT under {TTFT_LIMIT_MS:.0f} ms and decoding at {SPEECH_TOKENS_PER_S * SPEED_MARGIN:.0f}+ tokens/s "
            f"({SPEED_MARGIN:.0f}x spoken English)")
    if best is None:
        return f"No model of this sweep is conversational on this machine ({rule})."
    if best.model == EMBEDDED:
        return (f"Largest conversational model here ({rule}): the embedded {best.real} "
                f"(TTFT {best.ttft_ms:.0f} ms, {best.tokens_per_s} tokens/s); larger sizes start too slowly.")
    return (f"Largest conversational model here ({rule}): {best.model}, the shape of {best.real} {best.quant} "
            f"(TTFT {best.ttft_ms:.0f} ms, {best.tokens_per_s} tokens/s): the real model will answer as fast.")


def write_chart(rows: list[SizeRow], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    measured = [r for r in rows if not r.error]
    names = [f"{r.real or r.model}\n{r.quant}" for r in measured]
    x = range(len(measured))
    fig, (speed, memory) = plt.subplots(1, 2, figsize=(12, 4.8))
    width = 0.27
    for offset, (label, values) in enumerate((("TTFT", [r.ttft_ms for r in measured]),
                                              ("TPOT", [r.tpot_ms for r in measured]),
                                              ("heard voice-to-voice", [r.heard_ms for r in measured]))):
        speed.bar([i + (offset - 1) * width for i in x], [v or 0 for v in values], width, label=label)
    speed.axhline(TTFT_LIMIT_MS, color="green", linestyle="--", linewidth=1, label=f"TTFT limit {TTFT_LIMIT_MS:.0f} ms")
    speed.axhline(1000 / (SPEECH_TOKENS_PER_S * SPEED_MARGIN), color="red", linestyle=":", linewidth=1,
                  label="TPOT limit (2x speech)")
    speed.set_yscale("log")
    speed.set_ylabel("ms (log)")
    speed.set_title("Latency by model size")
    speed.set_xticks(list(x), names, fontsize=8)
    speed.legend(fontsize=8)
    memory.bar([i - 0.2 for i in x], [r.rss_mb for r in measured], 0.4, label="measured RSS")
    memory.bar([i + 0.2 for i in x], [r.planned_mb for r in measured], 0.4, label="planner estimate")
    memory.set_ylabel("MB")
    memory.set_title("Memory: planner vs measured")
    memory.set_xticks(list(x), names, fontsize=8)
    memory.legend(fontsize=8)
    fig.suptitle(f"{platform.node() or 'this machine'}: {_cpu()}", fontsize=9)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _cpu() -> str:
    from assistant.machine.hardware import detect

    return detect(probe_gpus=False).describe_cpu()


def report_json(rows: list[SizeRow]) -> dict[str, Any]:
    best = recommend(rows)
    return {
        "machine": _cpu(),
        "load_average": [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None,
        "rule": {"ttft_limit_ms": TTFT_LIMIT_MS, "min_tokens_per_s": SPEECH_TOKENS_PER_S * SPEED_MARGIN},
        "note": NONSENSE,
        "rows": [r.to_json() for r in rows],
        "recommended": best.model if best else None,
        "recommendation": recommendation(rows),
    }


# ------------------------------------------------------------------ commands


def parse_models(text: str | None, default: tuple[str, ...] = DEFAULT_SWEEP) -> list[str]:
    """``0.5b,1.5b:q8_0,embedded,file.gguf`` -> models to sweep (sizes become ``synthetic:`` specs)."""
    if not text:
        return list(default)
    models = []
    for part in (p.strip() for p in text.split(",") if p.strip()):
        if part == EMBEDDED or part.endswith(".gguf") or synthetic.is_synthetic(part):
            models.append(part)
        else:
            models.append(synthetic.PREFIX + part)
    for model in models:
        if synthetic.is_synthetic(model):
            synthetic.parse(model)  # an unknown size fails before anything is built
    return models


def _print_row(row: SizeRow) -> None:
    state = row.error or (f"TTFT {row.ttft_ms} ms, TPOT {row.tpot_ms} ms, RSS {row.rss_mb:.0f} MB "
                          f"(planned {row.planned_mb:.0f} MB)")
    print(f"  {row.model}: {state}", file=sys.stderr, flush=True)


def run_measure(args: argparse.Namespace) -> int:
    """``assistant doctor --measure``: a short sweep, smallest first, ending at the first
    size that is too slow; prints the table and the recommendation."""
    models = parse_models(args.sizes)
    print(f"Timing model sizes on this machine ({', '.join(models)}; stops at the first too slow)…", file=sys.stderr)
    print(NONSENSE, file=sys.stderr)
    rows = sweep(models, questions=3, max_tokens=24, stop_when_slow=not args.sizes, on_row=_print_row)
    if args.json:
        print(json.dumps(report_json(rows), indent=1))
    else:
        print(format_table(rows))
        print("(times in ms; TTFT with the prompt prefix cached; TPOT on the decoding threads)")
        print(recommendation(rows))
    return 0 if recommend(rows) else 1


def run_sizes(args: argparse.Namespace) -> int:
    """``assistant bench --sizes``: every size of the list, with heard latencies through
    the streaming bench; JSON, chart and table."""
    models = parse_models(args.sizes)
    questions = args.questions if args.questions is not None else 4
    print(NONSENSE, file=sys.stderr)
    rows = sweep(models, questions=6, max_tokens=32, heard=questions, out=args.out, on_row=_print_row)
    report = report_json(rows)
    json_path = args.json or args.out / "sizes.json"
    chart_path = args.chart or args.out / "sizes.png"
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    json_path.with_suffix(".md").write_text(f"{markdown_table(rows)}\n\n{report['recommendation']}\n", encoding="utf-8")
    write_chart(rows, chart_path)
    print(format_table(rows))
    print(report["recommendation"])
    print(f"\nreport: {json_path}\nchart: {chart_path}", file=sys.stderr)
    return 0
