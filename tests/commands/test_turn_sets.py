"""The held-out turn sets' tool, with a stand-in for espeak-ng: the takes each set was measured on,
their pauses where the set says, and the figures it prints from what the app answered."""

from __future__ import annotations

import json

import numpy as np
import pytest
import soundfile

from assistant.commands.bench import turn_split
from tools import turn_sets


@pytest.fixture
def stand_in(monkeypatch):
    monkeypatch.setattr(turn_sets, "say", lambda voice, rate, pitch, text: np.full(800 + 40 * len(text), 0.2, np.float32))


@pytest.mark.parametrize("spec", turn_sets.SETS, ids=[s["name"] for s in turn_sets.SETS])
def test_a_set_is_made_as_measured(spec, stand_in, tmp_path):
    takes = turn_sets.make(spec, tmp_path)
    finished = [t for t in takes if t["kind"] == "finished"]
    pauses = [t for t in takes if t["kind"] == "pause"]
    assert len(finished) == len(spec["finished"]) * len(spec["voices"])
    per_sentence = 4 if spec["pause_takes"] == "four" else len(spec["voices"])
    assert len(pauses) == len(spec["pauses"]) * per_sentence
    for take in pauses:  # silent where the gap is, said on either side
        audio, rate = soundfile.read(tmp_path / take["file"])
        start, end = int(take["first_end"] * rate), int((take["first_end"] + take["gap"]) * rate)
        assert np.all(audio[start + 1:end - 1] == 0) and audio[start - 1] != 0 and audio[end + 1] != 0
        assert 0.6 <= take["gap"] <= 1.0
    assert json.loads((tmp_path / "index.json").read_text()) == takes


SHARED = {("english-7", "Why do cats purr?"), ("english-8", "What time is it?")}
"""Found after the set was run: kept as run, and said where its figures are (docs/tuning.md)."""


def test_no_set_shares_a_voice_or_a_sentence_with_the_turn_corpus_s_tuning_half():
    """(English set 3 shares one question with the test half, which no rule is chosen on.)"""
    t = turn_split
    halves = {v.name for table in (t.FIRST_VOICES, t.VOICES, t.KOREAN_VOICES) for half, voices in table.items() for v in voices}
    said = (t.COMPLETE, t.REQUESTS, t.STATEMENTS, t.GREETINGS, t.ONE_WORD, t.STRANDED, t.TRAILING, t.KOREAN)
    corpus = {s for table in said for s in table["tune"]}
    corpus |= {" ".join(parts) for table in (t.PAUSED, t.FILLER_PAUSED, t.KOREAN_PAUSED) for parts in table["tune"]}
    for spec in turn_sets.SETS:
        assert not {v for v, _, _ in spec["voices"]} & halves
        shared = {said for name, said in SHARED if name == spec["name"]}
        assert not (set(spec["finished"]) | {a + " " + b for a, b in spec["pauses"]}) & corpus - shared


def test_the_summary_counts_what_was_heard_and_what_was_cut_off():
    rows = [{"kind": "finished", "heard_ms": ms, "cut_off": ms < 0} for ms in (300.0, 500.0, 1200.0, -50.0)]
    rows += [{"kind": "finished", "heard_ms": None}, {"kind": "pause", "cut_off": True}, {"kind": "pause", "cut_off": False}]
    line = turn_sets.summary("x", rows)
    assert "median 500.0 ms" in line and "2 of 5 within 1 s (3 answered, 1 before their end)" in line
    assert "pause takes cut off 1 of 2" in line
