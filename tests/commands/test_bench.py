"""The benchmark harness: its figures from timelines, its corpus folder format, and one
fast run of the whole bench on the real embedded models."""

from __future__ import annotations

import json

import numpy as np
import pytest

from assistant.sound import AudioError, save_wav
from assistant.commands.bench.corpus import load_corpus_dir
from assistant.commands.bench.stats import (
    METRICS,
    TurnRecord,
    stages_ms,
    summarize,
    turn_figures,
    word_edits,
    word_error_rate,
)
from assistant.events import TurnResult
from assistant.timeline import Mark, Timeline

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _llm_turn(transcript: str = "what is the capital of france") -> TurnRecord:
    timeline = Timeline(1)
    for offset, mark in enumerate(
        [Mark.SPEECH_START, Mark.SPEECH_END, Mark.ENDPOINT, Mark.STT_FINAL, Mark.LLM_START,
         Mark.LLM_FIRST_TOKEN, Mark.FIRST_CHUNK, Mark.TTS_FIRST_AUDIO, Mark.AUDIO_OUT_START, Mark.LLM_END]
    ):
        timeline.mark(mark, 10.0 + offset * 0.1)
    timeline.set("tokens", 11)
    result = TurnResult(1, timeline, transcript=transcript, reply="Paris.", source="llm")
    return TurnRecord("streaming", "q", result, expected="What is the capital of France?", first_audio_s=0.5)


def test_figures_come_from_the_timeline():
    figures = turn_figures(_llm_turn())
    assert figures["voice_to_voice"] == pytest.approx(700.0)
    assert figures["endpoint_wait"] == pytest.approx(100.0)
    assert figures["ttft"] == pytest.approx(100.0)
    assert figures["tpot"] == pytest.approx(40.0)  # 400 ms of decode over 10 tokens after the first
    assert figures["tokens_per_s"] == pytest.approx(25.0)
    assert figures["tts_rtf"] == pytest.approx(0.2)  # 100 ms to make 0.5 s of audio
    assert figures["cache_voice_to_voice"] is None
    assert set(figures) == {m.name for m in METRICS}


def test_stages_add_up_to_voice_to_voice():
    record = _llm_turn()
    stages = stages_ms(record.timeline)
    assert list(stages) == ["endpoint wait", "stt", "handoff", "ttft", "to first chunk", "tts first audio", "to output"]
    assert sum(stages.values()) == pytest.approx(turn_figures(record)["voice_to_voice"])


def test_work_done_before_the_endpoint_adds_no_wait():
    timeline = Timeline(1)
    at = {Mark.SPEECH_END: 10.0, Mark.STT_FINAL: 10.15, Mark.LLM_START: 10.16, Mark.LLM_FIRST_TOKEN: 10.2,
          Mark.ENDPOINT: 10.3, Mark.FIRST_CHUNK: 10.35, Mark.TTS_FIRST_AUDIO: 10.45, Mark.AUDIO_OUT_START: 10.46}
    for mark, t in at.items():
        timeline.mark(mark, t)
    stages = stages_ms(timeline)
    assert stages["endpoint wait"] == pytest.approx(300.0)
    assert stages["stt"] == stages["handoff"] == stages["ttft"] == 0.0
    assert sum(stages.values()) == pytest.approx(timeline.latency_ms()["voice_to_voice"])


def test_ttft_counts_the_reply_prompt_evaluated_at_the_pause():
    """A speculative reply's prompt is evaluated at the pause, as the end-of-turn model reads the
    words: that evaluation is part of the time to the first token."""
    timeline = Timeline(1)
    timeline.mark(Mark.LLM_START, 10.0)
    timeline.mark(Mark.LLM_FIRST_TOKEN, 10.003)
    assert timeline.latency_ms()["ttft"] == pytest.approx(3.0)
    timeline.set("prompt_eval_ms", 41.0)
    assert timeline.latency_ms()["ttft"] == pytest.approx(44.0)


def test_summary_and_word_error_rate():
    assert summarize([None, 3.0, 1.0, 2.0]) == {"n": 3, "median": 2.0, "p95": 2.9, "max": 3.0}
    assert summarize([None]) == {"n": 0, "median": None, "p95": None, "max": None}
    assert summarize([0.046, 0.05])["median"] == 0.048  # real-time factors keep three decimals
    assert word_edits("What is the capital of France?", "what is the capitol of france") == (1, 6)
    assert word_error_rate([_llm_turn(), _llm_turn("is the capital of France")]) == {"wer": round(1 / 12, 4), "words": 12}


def test_corpus_folder_reads_transcripts_from_tsv_or_txt(tmp_path):
    for name in ("a", "b", "c"):
        save_wav(tmp_path / f"{name}.wav", np.zeros(1600, np.float32), 16000)
    (tmp_path / "transcripts.tsv").write_text("# file\twords\na.wav\tHello there.\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("Good morning.\n", encoding="utf-8")
    items = load_corpus_dir(tmp_path)
    assert [(i.name, i.expected) for i in items] == [("a", "Hello there."), ("b", "Good morning."), ("c", None)]


def test_corpus_folder_errors_are_specific(tmp_path):
    with pytest.raises(AudioError, match="no .wav files"):
        load_corpus_dir(tmp_path)
    save_wav(tmp_path / "a.wav", np.zeros(1600, np.float32), 16000)
    (tmp_path / "transcripts.tsv").write_text("a.wav Hello\n", encoding="utf-8")
    with pytest.raises(AudioError, match="transcripts.tsv:1"):
        load_corpus_dir(tmp_path)


def _non_negative(value) -> bool:
    return value is None or value >= 0


@pytest.mark.slow
def test_bench_runs_both_modes_on_the_real_models(tmp_path, capsys):
    from assistant.commands.cli import main

    json_path, chart_path = tmp_path / "report.json", tmp_path / "chart.png"
    code = main([
        "bench", "--fast", "--questions", "2", "--phrases", "1", "--repeat", "1", "--turns", "3",
        "--out", str(tmp_path / "out"), "--json", str(json_path), "--chart", str(chart_path),
    ])
    assert code == 0
    report = json.loads(json_path.read_text(encoding="utf-8"))
    assert chart_path.read_bytes()[:8] == PNG_MAGIC
    assert "voice_to_voice" in capsys.readouterr().out

    assert report["meta"]["items"] == 3 and report["meta"]["real_time"] is False
    assert report["peak_rss_mb"] > 0
    assert set(report["serial_over_streaming"]) == {m.name for m in METRICS}
    for mode in ("streaming", "serial"):
        body = report["modes"][mode]
        assert set(body["summary"]) == {m.name for m in METRICS}
        for metric, summary in body["summary"].items():
            assert set(summary) == {"n", "median", "p95", "max"}, metric
            assert all(_non_negative(summary[k]) for k in ("median", "p95", "max")), (mode, metric, summary)
        for metric in ("voice_to_voice", "endpoint_wait", "stt", "ttft", "tts_first_chunk", "tts_rtf"):
            assert body["summary"][metric]["n"] >= 1, (mode, metric)
        llm_turns = [t for t in body["turns"] if t["source"] == "llm"]
        assert len(llm_turns) >= 1
        for turn in llm_turns:
            assert turn["figures"]["stt"] is not None and turn["figures"]["ttft"] is not None
            assert all(_non_negative(v) for v in turn["figures"].values()), turn["figures"]
            assert turn["counts"]["prompt_tokens"] >= turn["counts"]["prompt_reused"] >= 0
        if report["meta"]["instant_replies"]:
            assert body["summary"]["cache_voice_to_voice"]["n"] == 1, mode
        assert body["word_error_rate"]["words"] > 0 and 0 <= body["word_error_rate"]["wer"] <= 1
        assert body["peak_rss_mb"] > 0

        conversation = report["conversation"][mode]
        assert [p["turn"] for p in conversation["series"]] == [1, 2, 3]
        assert conversation["ttft_first"] is not None and conversation["ttft_last"] is not None
        for point in conversation["series"]:
            assert point["prompt_tokens"] >= point["prompt_reused"] >= 0
        tokens = [p["prompt_tokens"] for p in conversation["series"]]
        assert tokens == sorted(tokens), "the history grows turn by turn"


@pytest.mark.slow
def test_conversation_only_run_asks_the_default_questions(tmp_path):
    from assistant.commands.cli import main

    json_path = tmp_path / "report.json"
    code = main([
        "bench", "--fast", "--modes", "streaming", "--questions", "0", "--phrases", "0", "--turns", "2",
        "--out", str(tmp_path / "out"), "--json", str(json_path), "--no-audio",
    ])
    assert code == 0
    report = json.loads(json_path.read_text(encoding="utf-8"))
    assert report["meta"]["items"] == 0
    series = report["conversation"]["streaming"]["series"]
    assert [p["turn"] for p in series] == [1, 2]
    # every turn after the first evaluates only its question: the history was evaluated in between
    assert series[1]["prompt_reused"] > series[0]["prompt_tokens"]


@pytest.mark.slow
def test_real_time_bench_reports_heard_latency_and_turn_taking(tmp_path):
    """The real-time path behind the headline: paced input, same-clock output, the heard
    wait read off the audio, and the small turn-taking corpus through the pipeline."""
    from assistant.commands.cli import main

    json_path = tmp_path / "report.json"
    code = main([
        "bench", "--modes", "streaming", "--questions", "1", "--phrases", "1", "--turns", "0",
        "--turn-taking", "small", "--out", str(tmp_path / "out"), "--json", str(json_path),
    ])
    assert code == 0
    report = json.loads(json_path.read_text(encoding="utf-8"))
    assert report["meta"]["real_time"] is True
    summary = report["modes"]["streaming"]["summary"]
    assert summary["heard_voice_to_voice"]["n"] == 1
    # heard: from the last audible sample; the timeline starts later, at the VAD's speech end
    llm_turn = next(t for t in report["modes"]["streaming"]["turns"] if t["source"] == "llm")
    assert llm_turn["figures"]["heard_voice_to_voice"] > 0  # its size is the bench's to report, not a test's
    assert llm_turn["figures"]["heard_voice_to_voice"] >= llm_turn["figures"]["voice_to_voice"] - 60
    assert (tmp_path / "out" / "audio" / "streaming").is_dir()

    turn_taking = report["turn_taking"]
    assert set(turn_taking["signals"]) == {"fixed silence", "words only", "model only", "words + model"}
    taking = turn_taking["summary"]
    assert taking["thinking_pause_takes"] >= 3
    assert taking["premature_in_thinking_pauses"] == 0, taking["premature_takes"]
    assert taking["mean_wait_ms"] is not None and taking["mean_wait_ms"] > 0
    for row in turn_taking["takes"]:
        assert len(row["turns"]) == 1, row  # each take is one turn: no split, no premature answer
        assert row["turns"][0]["decision"] in ("complete", "unsure", "unfinished"), row
