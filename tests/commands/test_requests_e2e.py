"""A request in a frame, spoken end to end: "Could you tell me what ten times three is?" is answered by
the skill, as "What is ten times three?" is (it went to the model before), and as one turn."""

from __future__ import annotations

import shutil

import pytest
import soundfile as sf

from assistant.commands.bench.turn_corpus import espeak_speaker, join_parts

from test_e2e import chat

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng voices the takes")]


def test_a_question_inside_a_question_is_the_skills(tmp_path):
    audio, _, _ = join_parts([espeak_speaker("en-gb+m3", 175, 50)("Could you tell me what ten times three is?")], [])
    question = tmp_path / "framed.wav"
    sf.write(question, audio, 16000)
    code, turns, err = chat("--input", question, "--output", tmp_path / "answer.wav", "--json")
    assert code == 0, err
    assert [(t["source"], t["reply"]) for t in turns] == [("skill", "10 times 3 is 30.")], turns
