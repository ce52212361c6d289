"""Latency at real model sizes: each size measured in its own child process.

A sweep loads each model (a synthetic one of a real shape, or any GGUF) the way the
assistant does (planner, native build check, warm prompt prefix), asks the default
questions and records time to first token, time per output token, resident memory and
(on a GPU) VRAM next to what the planner predicted. One child per size keeps the
memory figures clean and the sizes from disturbing each other. With ``heard`` each size
also runs the streaming bench, and the heard voice-to-voice latency is read from its
same-clock WAV files (the bench's own heard figure).
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, Callable

from assistant.machine import synthetic
from assistant.commands.spoken import DEFAULT_QUESTIONS
from assistant.machine.models import ModelError
from assistant.commands.bench.stats import median

log = logging.getLogger(__name__)

MB = 1024**2
TTFT_LIMIT_MS = 100.0
"""Longest time to first token that still leaves room in a ~200 ms turn gap."""
SPEECH_TOKENS_PER_S = 4.0
"""Spoken English: about 150 words a minute, 4 tokens a second."""
SPEED_MARGIN = 2.0
"""Decoding must outpace speech by this factor (it shares the CPU with speech synthesis)."""
EMBEDDED = "embedded"
"""The sweep's name for the embedded model (real weights), the baseline row."""
DEFAULT_SWEEP = (EMBEDDED, "synthetic:0.5b", "synthetic:1.5b", "synthetic:3b", "synthetic:8b")
FILLER = "Tell me more about the moon, the sun and the stars. "


@dataclass
class SizeRow:
    model: str
    """``synthetic:1.5b``, ``embedded`` or a file name."""
    real: str = ""
    """The published model this one times."""
    quant: str = ""
    parameters: int = 0
    file_mb: float = 0.0
    layers_on_gpu: int = 0
    layers: int = 0
    load_s: float = 0.0
    ttft_ms: float | None = None
    """Median, prompt prefix cached (as every turn after the first)."""
    tpot_ms: float | None = None
    """Median time per token on the decoding threads (as while the reply is spoken)."""
    tpot_all_cores_ms: float | None = None
    """Median time per token on every core (as before the first chunk)."""
    ttft_best_ms: float | None = None
    """Fastest of the replies: on a machine shared with other work, the closest to the
    machine's own speed (the medians carry the other work's share)."""
    tpot_best_ms: float | None = None
    rss_mb: float = 0.0
    """Resident memory the model added to the process (weights, KV cache, buffers)."""
    planned_mb: float = 0.0
    """The planner's RAM estimate (weights + KV + compute buffers on the CPU)."""
    planned_parts_mb: dict[str, float] | None = None
    vram_mb: float | None = None
    """VRAM the load took (NVML), when layers went to a GPU."""
    planned_vram_mb: float | None = None
    heard_ms: float | None = None
    """Median heard voice-to-voice in the streaming pipeline (from the WAV files)."""
    voice_to_voice_ms: float | None = None
    """Median voice-to-voice of the timelines in the same runs."""
    error: str = ""

    @property
    def tokens_per_s(self) -> float | None:
        return round(1000 / self.tpot_ms, 1) if self.tpot_ms else None

    @property
    def plan_error_pct(self) -> float | None:
        """(planned - measured) / measured of the memory on the device that holds the layers."""
        measured, planned = (self.vram_mb, self.planned_vram_mb) if self.layers_on_gpu else (self.rss_mb, self.planned_mb)
        if not measured or planned is None:
            return None
        return round(100 * (planned - measured) / measured, 1)

    @property
    def conversational(self) -> bool:
        """Answers start within :data:`TTFT_LIMIT_MS` and decoding outpaces speech with margin."""
        return (not self.error and self.ttft_ms is not None and self.ttft_ms < TTFT_LIMIT_MS
                and (self.tokens_per_s or 0) >= SPEECH_TOKENS_PER_S * SPEED_MARGIN)

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "tokens_per_s": self.tokens_per_s, "plan_error_pct": self.plan_error_pct,
                "conversational": self.conversational}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "SizeRow":
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


# ------------------------------------------------------------------ one size (child)


def _gpu_free_bytes() -> int | None:
    from assistant.machine.hardware import nvml_gpus

    gpus, _why = nvml_gpus()
    return sum(g.free_bytes for g in gpus) if gpus else None


def _time_reply(llm, question: str) -> tuple[float, float | None]:
    """(ms to the first token, ms per token after it) of one reply."""
    from assistant.think.conversation import GenerationStats

    stats = GenerationStats()
    start = time.perf_counter()
    pieces = llm.stream(question, stats)
    next(pieces)
    first = time.perf_counter()
    for _ in pieces:
        pass
    end = time.perf_counter()
    llm.reset()
    tpot = (end - first) * 1000 / (stats.tokens - 1) if stats.tokens > 1 else None
    return (first - start) * 1000, tpot


def _filling_question(llm, tokens: int) -> str:
    """A question of about ``tokens`` tokens: with it the context is full, as after a
    long conversation, and the memory measured is the most the model takes."""
    per_sentence = llm.count_tokens(FILLER * 8) / 8
    return FILLER * max(1, int(tokens / per_sentence))


def measure_here(model: str, questions: int, max_tokens: int) -> SizeRow:
    """Load ``model`` in this process and time it (run in a child by :func:`measure`)."""
    import psutil

    import llama_cpp  # noqa: F401 - the library's own memory is not the model's

    from assistant import config as config_mod
    from assistant.config import with_overrides
    from assistant.machine.gguf_info import read_gguf
    from assistant.machine.models import find_llm
    from assistant.machine.planner import costs, plan_for
    from assistant.pipeline.session import load_llm

    path = find_llm(None if model == EMBEDDED else model).path
    config = with_overrides(config_mod.load(None), llm={"model": str(path), "max_tokens": max_tokens}).llm
    info = read_gguf(path)
    process = psutil.Process()
    gpu_free, rss = _gpu_free_bytes(), process.memory_info().rss
    start = time.perf_counter()
    llm = load_llm(config)
    load_s = time.perf_counter() - start
    plan = plan_for(config, path)
    asked = [DEFAULT_QUESTIONS[i % len(DEFAULT_QUESTIONS)] for i in range(questions)]
    timed = [_time_reply(llm, q) for q in asked]
    llm.all_cores(True)
    all_cores = [_time_reply(llm, q)[1] for q in asked[:2]]
    llm.all_cores(False)
    room = plan.n_ctx - max_tokens - len(llm.system_prefix()) - 32
    _time_reply(llm, _filling_question(llm, room))  # the memory of a full context
    rss = process.memory_info().rss - rss
    gpu_free_after = _gpu_free_bytes()
    c = costs(info, plan.n_ctx)
    kv = c.kv_layer(plan.kv_type) * plan.block_count
    shape = info.metadata.get(synthetic.SHAPE_KEY)
    return SizeRow(
        model=model if model == EMBEDDED or synthetic.is_synthetic(model) else path.name,
        real=(synthetic.SHAPES[shape].real or shape) if shape in synthetic.SHAPES else path.name.split(".")[0],
        quant=info.quantization, parameters=info.parameters, file_mb=round(info.file_size / MB, 1),
        layers_on_gpu=plan.layers_on_gpu, layers=plan.block_count, load_s=round(load_s, 2),
        ttft_ms=median([t for t, _ in timed]), tpot_ms=median([p for _, p in timed if p]),
        tpot_all_cores_ms=median([p for p in all_cores if p]),
        ttft_best_ms=round(min(t for t, _ in timed), 1), tpot_best_ms=round(min(p or 1e9 for _, p in timed), 1),
        rss_mb=round(rss / MB, 1), planned_mb=round(plan.cpu_bytes / MB, 1),
        planned_parts_mb={"weights": round(c.weights / MB, 1), "kv": round(kv / MB, 1),
                          "compute": round((c.compute if plan.layers_on_gpu else c.compute_cpu) / MB, 1),
                          "vocab": round(c.vocab_tables / MB, 1)},
        vram_mb=round((gpu_free - gpu_free_after) / MB, 1) if plan.layers_on_gpu and gpu_free and gpu_free_after else None,
        planned_vram_mb=round(plan.gpu_bytes / MB, 1) if plan.layers_on_gpu else None,
    )


def measure(model: str, questions: int = 3, max_tokens: int = 32, timeout_s: float = 1800) -> SizeRow:
    """Time ``model`` in a child process; a failure (even a native crash) becomes the row's error."""
    command = [sys.executable, "-m", "assistant.commands.bench.sizes", model, str(questions), str(max_tokens)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        return SizeRow(model, error=f"no result within {timeout_s:.0f} s")
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        tail = " | ".join(done.stderr.strip().splitlines()[-2:]) or f"exit {done.returncode}"
        return SizeRow(model, error=tail)
    return SizeRow.from_json(json.loads(lines[-1]))


# ------------------------------------------------------------------ heard latency


def measure_heard(row: SizeRow, model: str, questions: int, out: Path) -> None:
    """Run the streaming bench on ``model`` with ``questions`` spoken questions and put
    its median heard and timeline voice-to-voice latency in ``row``."""
    command = [sys.executable, "-m", "assistant", "bench", "--llm-model", _model_arg(model), "--modes", "streaming",
               "--turns", "0", "--turn-taking", "off", "--questions", str(questions), "--phrases", "0",
               "--out", str(out)]
    done = subprocess.run(command, capture_output=True, text=True)
    report = out / "bench.json"
    if done.returncode != 0 or not report.is_file():
        row.error = row.error or "bench: " + " | ".join(done.stderr.strip().splitlines()[-2:])
        return
    summary = json.loads(report.read_text())["modes"]["streaming"]["summary"]
    row.heard_ms = summary["heard_voice_to_voice"]["median"]
    row.voice_to_voice_ms = summary["voice_to_voice"]["median"]


def _model_arg(model: str) -> str:
    if model == EMBEDDED:
        from assistant.machine.models import find_llm

        return str(find_llm(None).path)
    return model


# ------------------------------------------------------------------ the sweep


def sweep(
    models: list[str], questions: int = 3, max_tokens: int = 32, heard: int = 0, out: Path | None = None,
    stop_when_slow: bool = False, on_row: Callable[[SizeRow], None] | None = None,
) -> list[SizeRow]:
    """Each model in turn (synthetic ones built first); ``heard`` spoken questions each
    through the streaming bench when > 0. With ``stop_when_slow`` the sweep ends at the
    first model that is not conversational (the larger ones are slower still)."""
    rows = []
    for model in models:
        try:
            if synthetic.is_synthetic(model):
                synthetic.ensure(model)
        except ModelError as exc:
            row = SizeRow(model, error=str(exc))
        else:
            print(f"measuring {model}…", file=sys.stderr, flush=True)
            row = measure(model, questions, max_tokens)
            if heard and not row.error and out is not None:
                measure_heard(row, model, heard, out / model.replace(":", "-"))
        rows.append(row)
        if on_row:
            on_row(row)
        if stop_when_slow and not row.conversational:
            break
    return rows


def recommend(rows: list[SizeRow]) -> SizeRow | None:
    """The largest conversational model of the sweep."""
    fit = [r for r in rows if r.conversational]
    return max(fit, key=lambda r: r.parameters) if fit else None


if __name__ == "__main__":
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    result = measure_here(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
    print(json.dumps(result.to_json()))
