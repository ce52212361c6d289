"""An opening before a request, end to end: "Stop, what is seven times eight?" said with nothing
playing is one turn, answered by the skill ("stop" with no reply to stop opens what follows, like
a greeting); the words after the opening are answered as if said alone, also where the recognizer
wrote no comma."""

from __future__ import annotations

import shutil

import pytest
import soundfile as sf

from assistant.commands.bench.turn_corpus import espeak_speaker, join_parts

from test_e2e import chat

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng voices the takes")]


def test_stop_with_nothing_to_stop_opens_the_request_after_it(tmp_path):
    """eSpeak NG pauses about 170 ms at the comma: over `complete_ms` (150), so "Stop!" used to end a
    turn of its own (which stopped nothing) and the question came as a second turn."""
    audio, _, _ = join_parts([espeak_speaker("en-us+f3", 165, 50)("Stop, what is seven times eight?")], [])
    question = tmp_path / "stop.wav"
    sf.write(question, audio, 16000)
    code, turns, err = chat("--input", question, "--output", tmp_path / "answer.wav", "--json")
    assert code == 0, err
    assert [(t["source"], t["reply"]) for t in turns] == [("skill", "7 times 8 is 56.")], turns
    assert turns[0]["transcript"].lower().startswith("stop"), turns
