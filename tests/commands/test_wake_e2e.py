"""The wake phrase end to end on the real embedded recognizer, through the command line: an
espeak-ng take with the phrase and the question in one breath is one turn without the phrase;
the question alone is no turn."""

from __future__ import annotations

import shutil

import numpy as np
import pytest
import soundfile as sf

from assistant.commands.bench.turn_corpus import espeak_speaker, join_parts
from assistant.config import WakeConfig

from test_e2e import chat

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng voices the takes")]


def _take(path, text: str):
    audio, _, _ = join_parts([espeak_speaker("en-us", 165, 50)(text)], [])
    sf.write(path, audio, 16000)
    return path


def test_the_phrase_and_the_question_in_one_breath_are_one_turn(tmp_path):
    take = _take(tmp_path / "breath.wav", "Hey assistant, what time is it?")
    code, turns, err = chat("--input", take, "--output", tmp_path / "out.wav", "--json", "--wake", "hey assistant")
    assert code == 0, err
    assert len(turns) == 1, [t["transcript"] for t in turns]
    turn = turns[0]
    assert turn["transcript"].lower().startswith("what time is it") and turn["source"] == "skill"
    assert turn["counts"]["wake_score"] >= WakeConfig().probability and turn["latency_ms"]["wake"] is not None


def test_the_question_without_the_phrase_is_no_turn(tmp_path):
    take = _take(tmp_path / "plain.wav", "What time is it?")
    code, turns, err = chat("--input", take, "--output", tmp_path / "out.wav", "--json", "--wake", "hey assistant")
    assert code == 0, err
    assert turns == []
    out, _ = sf.read(tmp_path / "out.wav")
    assert np.abs(out).max() < 0.01  # nothing was said
