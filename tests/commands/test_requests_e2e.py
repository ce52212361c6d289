"""A request in a frame, spoken end to end: "Could you tell me what nine plus seven is?" is answered by
the skill, as "What is nine plus seven?" is (it went to the model before), and as one turn."""

from __future__ import annotations

import shutil

import pytest
import soundfile as sf

from assistant.commands.bench.turn_corpus import espeak_speaker, join_parts

from test_e2e import chat

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng voices the takes")]


def test_a_question_inside_a_question_is_the_skills(tmp_path):
    audio, _, _ = join_parts([espeak_speaker("en-us+f3", 165, 50)("Could you tell me what nine plus seven is?")], [])
    question = tmp_path / "framed.wav"
    sf.write(question, audio, 16000)
    code, turns, err = chat("--input", question, "--output", tmp_path / "answer.wav", "--json")
    assert code == 0, err
    assert [(t["source"], t["reply"]) for t in turns] == [("skill", "9 plus 7 is 16.")], turns
