"""The size sweep: the verdict and recommendation rules on given rows, and real
measurements of the embedded and a tiny synthetic model (timings are reported, never
asserted)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from assistant.commands.bench.sizes import EMBEDDED, SizeRow, measure, recommend
from assistant.commands.bench.sizes_report import format_table, markdown_table, parse_models, recommendation
from assistant.machine.models import ModelError


def row(model: str, params: float, ttft: float, tpot: float, **kw) -> SizeRow:
    return SizeRow(model, real=model, quant="Q4_K_M", parameters=int(params), ttft_ms=ttft, tpot_ms=tpot,
                   layers=24, rss_mb=500.0, planned_mb=520.0, **kw)


ROWS = [
    row(EMBEDDED, 135e6, 48, 12),
    row("synthetic:0.5b", 494e6, 90, 60),
    row("synthetic:1.5b", 1.5e9, 95, 130),  # decodes under 8 tokens/s
    row("synthetic:3b", 3e9, 400, 300),
]


def test_conversational_needs_a_fast_start_and_decoding_twice_as_fast_as_speech():
    assert [r.conversational for r in ROWS] == [True, True, False, False]
    assert ROWS[1].tokens_per_s == 16.7 and ROWS[2].tokens_per_s == 7.7
    assert not SizeRow("synthetic:8b", error="quantizing failed").conversational


def test_the_largest_conversational_model_is_recommended():
    assert recommend(ROWS) is ROWS[1]
    assert recommendation(ROWS).startswith("Largest conversational model here (TTFT under 100 ms and decoding at 8+")
    assert "synthetic:0.5b, the shape of synthetic:0.5b Q4_K_M (TTFT 90 ms, 16.7 tokens/s)" in recommendation(ROWS)
    assert recommend(ROWS[2:]) is None
    assert recommendation(ROWS[2:]).startswith("No model of this sweep is conversational")


def test_table_says_why_a_size_is_not_conversational():
    table = format_table(ROWS + [SizeRow("synthetic:8b", error="building synthetic:8b needs 20.1 GB free")])
    lines = table.splitlines()
    assert lines[0].split()[:3] == ["model", "quant", "params"]
    assert lines[3].rstrip().endswith("slow decode") and lines[4].rstrip().endswith("slow start, slow decode")
    assert lines[5].rstrip().endswith("failed") and "needs 20.1 GB free" in lines[6]
    assert "+4%" in lines[1]  # planned 520 MB for 500 measured
    assert markdown_table(ROWS).count("\n") == len(ROWS) + 1


def test_model_lists_name_sizes_files_and_the_embedded_model():
    assert parse_models("embedded,0.5b,1.5b:q8_0,my.gguf") == [EMBEDDED, "synthetic:0.5b", "synthetic:1.5b:q8_0", "my.gguf"]
    assert parse_models(None)[0] == EMBEDDED
    with pytest.raises(ModelError, match="unknown synthetic model size '2b'"):
        parse_models("0.5b,2b")


def test_the_gguf_is_mapped_only_when_no_weights_are_repacked_for_the_cpu():
    from assistant.config import LlmConfig
    from assistant.machine.planner import use_mmap

    assert not use_mmap(LlmConfig(), extra_bufts=True)  # repacked: one copy, read into llama.cpp's buffers
    assert not use_mmap(LlmConfig(n_gpu_layers=12), extra_bufts=True)  # the CPU's layers are repacked
    assert use_mmap(LlmConfig(n_gpu_layers=-1), extra_bufts=True)  # all on the GPU
    assert use_mmap(LlmConfig(), extra_bufts=False)  # safe mode: nothing is repacked


@pytest.mark.slow
def test_planner_predicts_the_embedded_models_memory_within_15_percent():
    measured = measure(EMBEDDED, questions=2, max_tokens=8)
    assert not measured.error, measured.error
    assert measured.ttft_ms > 0 and measured.tpot_ms > 0 and measured.layers == 30
    assert measured.planned_parts_mb["weights"] == pytest.approx(92.1, abs=0.5)
    assert abs(measured.plan_error_pct) <= 15, measured.to_json()


@pytest.mark.slow
def test_doctor_measure_prints_the_table_and_a_recommendation():
    done = subprocess.run([sys.executable, "-m", "assistant", "doctor", "--measure", "--sizes", "embedded,tiny"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode in (0, 1), done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split()[:2] == ["model", "quant"]
    assert lines[1].startswith("embedded ") and lines[2].startswith("synthetic:tiny ")
    assert lines[-1].startswith(("Largest conversational model here", "No model of this sweep"))
    assert "nonsense words by design" in done.stderr


@pytest.mark.slow
def test_bench_sizes_reports_heard_latency_json_and_chart(tmp_path):
    done = subprocess.run([sys.executable, "-m", "assistant", "bench", "--sizes", "tiny", "--questions", "1",
                           "--out", str(tmp_path)], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / "sizes.json").read_text())
    (tiny,) = report["rows"]
    assert tiny["model"] == "synthetic:tiny" and not tiny["error"]
    assert tiny["heard_ms"] > 0 and tiny["voice_to_voice_ms"] > 0
    assert (tmp_path / "sizes.png").stat().st_size > 10_000
    bench = json.loads((tmp_path / "synthetic-tiny" / "bench.json").read_text())
    assert "nonsense words by design" in bench["meta"]["note"]
