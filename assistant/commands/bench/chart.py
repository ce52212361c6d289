"""The bench chart (PNG): where the time goes per mode, the latency distribution, and
TTFT and prompt size over a conversation. Drawn from the JSON report alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from assistant.commands.bench.stats import STAGES

COLORS = ["#8c8c8c", "#4c72b0", "#c0c0c0", "#dd8452", "#e8c07d", "#55a868", "#64b5cd"]
MODE_COLORS = {"streaming": "#4c72b0", "serial": "#c44e52"}


def write_chart(report: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    conversation = report.get("conversation")
    fig = plt.figure(figsize=(13, 9.5 if conversation else 5.5), dpi=100, layout="constrained")
    grid = fig.add_gridspec(2 if conversation else 1, 2, width_ratios=[1.5, 1])
    _stages(fig.add_subplot(grid[0, 0]), report)
    _distribution(fig.add_subplot(grid[0, 1]), report)
    if conversation:
        _conversation(fig.add_subplot(grid[1, :]), conversation, list(report["modes"]))
    meta = report["meta"]
    fig.suptitle(
        f"Voice-to-voice latency — {meta.get('llm')}, {meta.get('stt')}, {meta.get('tts')}"
        f"{'' if meta['real_time'] else '  (FAST mode: not real time)'}",
        fontsize=13,
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png")
    plt.close(fig)


def _stages(ax, report: dict[str, Any]) -> None:
    modes = list(report["modes"])
    stage_names = list(STAGES.values())
    longest = max((sum(report["modes"][m]["stages_ms"].values()) for m in modes), default=0.0) or 1.0
    for row, mode in enumerate(modes):
        stages = report["modes"][mode]["stages_ms"]
        left = 0.0
        for color, name in zip(COLORS, stage_names):
            ms = stages.get(name, 0.0)
            ax.barh(row, ms, left=left, height=0.6, color=color, edgecolor="white", label=name if row == 0 else None)
            if ms >= 0.06 * longest:
                ax.text(left + ms / 2, row, f"{ms:.0f}", ha="center", va="center", fontsize=9)
            left += ms
        summary = report["modes"][mode]["summary"]
        heard, v2v = summary["heard_voice_to_voice"]["median"], summary["voice_to_voice"]["median"]
        if heard is not None:
            ax.text(left, row, f"  {heard:.0f} ms median heard\n  ({v2v:.0f} ms timeline)", va="center",
                    fontsize=10, fontweight="bold")
        elif v2v is not None:
            ax.text(left, row, f"  {v2v:.0f} ms median v2v", va="center", fontsize=10, fontweight="bold")
    ax.set_yticks(range(len(modes)), modes)
    ax.invert_yaxis()
    ax.set_xlabel("ms after the VAD's end of speech (median of each stage, LLM turns)")
    ax.set_title("Where the time goes")
    ax.set_xlim(0, longest * 1.45)
    ax.legend(ncols=4, fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16), frameon=False)
    ax.grid(axis="x", alpha=0.3)


def _distribution(ax, report: dict[str, Any]) -> None:
    data, labels, colors = [], [], []
    for mode, body in report["modes"].items():
        figures = [t["figures"] for t in body["turns"]]
        heard = any(f["heard_voice_to_voice"] is not None for f in figures)
        keys = (("heard_voice_to_voice", "LLM"), ("heard_cache_voice_to_voice", "cache")) if heard else (
            ("voice_to_voice", "LLM"), ("cache_voice_to_voice", "cache"))
        for key, suffix in keys:
            values = [f[key] for f in figures if f[key] is not None]
            if values:
                data.append(values)
                labels.append(f"{mode}\n{suffix}")
                colors.append(MODE_COLORS.get(mode, "#777777"))
    if not data:
        ax.text(0.5, 0.5, "no answered turns", ha="center", transform=ax.transAxes)
        return
    parts = ax.boxplot(data, patch_artist=True, widths=0.5, showfliers=False)
    for patch, color in zip(parts["boxes"], colors):
        patch.set(facecolor=color, alpha=0.35)
    for i, (values, color) in enumerate(zip(data, colors), start=1):
        jitter = [i + 0.12 * ((k % 5) - 2) / 2 for k in range(len(values))]
        ax.scatter(jitter, values, s=14, color=color, zorder=3)
    ax.axhline(200, color="#2ca02c", linestyle="--", linewidth=1)
    ax.text(0.02, 200, " human turn gap ~200 ms", color="#2ca02c", fontsize=8, va="bottom",
            transform=ax.get_yaxis_transform())
    ax.set_xticks(range(1, len(labels) + 1), labels)
    ax.set_ylim(bottom=0)
    ax.set_ylabel("voice-to-voice (ms), heard off the WAVs" if data and report["meta"]["real_time"] else "voice-to-voice (ms)")
    ax.set_title("Latency distribution")
    ax.grid(axis="y", alpha=0.3)


def _conversation(ax, conversation: dict[str, Any], modes: list[str]) -> None:
    tokens_ax = ax.twinx()
    for mode in modes:
        series = [p for p in conversation[mode]["series"] if p["ttft"] is not None]
        if not series:
            continue
        turns = [p["turn"] for p in series]
        color = MODE_COLORS.get(mode, "#777777")
        ax.plot(turns, [p["ttft"] for p in series], marker="o", color=color, label=f"TTFT, {mode}")
        tokens_ax.plot(turns, [p["prompt_tokens"] for p in series], linestyle="--", color=color, alpha=0.6,
                       label=f"prompt tokens, {mode}")
        tokens_ax.plot(turns, [p["prompt_reused"] for p in series], linestyle=":", color=color, alpha=0.6,
                       label=f"of which cached, {mode}")
    ax.set_xlabel("turn of one conversation (history grows)")
    ax.set_ylabel("TTFT (ms)")
    tokens_ax.set_ylabel("prompt tokens")
    ax.set_ylim(bottom=0)
    tokens_ax.set_ylim(bottom=0)
    ax.set_title("Conversation: time to first token as the history grows")
    handles, labels = ax.get_legend_handles_labels()
    more, more_labels = tokens_ax.get_legend_handles_labels()
    ax.legend(handles + more, labels + more_labels, fontsize=8, ncols=3, loc="upper center",
              bbox_to_anchor=(0.5, -0.13), frameon=False)
    ax.grid(alpha=0.3)
    ax.xaxis.get_major_locator().set_params(integer=True)
