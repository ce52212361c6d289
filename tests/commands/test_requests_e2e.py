"""A request in a frame, spoken end to end: "Could you tell me what ten times three is?" is answered by
the skill, as "What is ten times three?" is (it went to the model before), and as one turn."""

from __future__ import annotations

import shutil

import pytest
import soundfile as sf

from assistant.commands.bench.turn_corpus import espeak_speaker, join_parts
from assistant.sound import first_audible_s, last_audible_s

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


def test_an_answer_asked_often_plays_from_the_audio_made_ahead(tmp_path):
    """The real engine, typed: "Start a stopwatch." is the stopwatch's, and its answer (one of the skills' answers
    asked often) plays from the audio made with the instant replies' (nothing synthesized for it: 0 ms)."""
    code, turns, err = chat("--text", "Start a stopwatch.", "--output", tmp_path / "answer.wav", "--json")
    assert code == 0, err
    assert [(t["source"], t["skill"], t["reply"]) for t in turns] == [("skill", "stopwatch", "Stopwatch started.")], turns
    assert turns[0]["latency_ms"]["tts_first_chunk"] == 0, turns[0]["latency_ms"]


def test_a_fun_fact_is_one_of_the_true_ones_and_is_heard(tmp_path):
    """Spoken end to end: "Can you tell me a fun fact?" got "The answer is no." from the small model; now it is the
    facts skill's first fact, said by the voice from the audio made ahead (the first of each run)."""
    from assistant.think.skills.facts import facts

    audio, _, _ = join_parts([espeak_speaker("en-gb+m3", 175, 50)("Can you tell me a fun fact?")], [])
    question = tmp_path / "fact.wav"
    sf.write(question, audio, 16000)
    code, turns, err = chat("--input", question, "--output", tmp_path / "answer.wav", "--json")
    assert code == 0, err
    assert [(t["source"], t["skill"], t["reply"]) for t in turns] == [("skill", "facts", facts()["en"][0].text)], turns
    assert turns[0]["latency_ms"]["tts_first_chunk"] == 0, turns[0]["latency_ms"]  # the first fact: made ahead
    answer, rate = sf.read(tmp_path / "answer.wav")
    start, end = first_audible_s(answer, rate), last_audible_s(answer, rate)
    assert start is not None and end - start > 3.0, (start, end)  # all of it said, not a chime


def test_what_it_is_good_at_is_what_it_can_do(tmp_path):
    """Spoken end to end: "What are you good at?" got "I'm good at playing chess." from the small model; now it is
    the table's answer to "what can you do", from the audio made ahead."""
    from assistant.think.replies import default_table

    capabilities = next(entry.text for entry in default_table().entries if "what can you do" in entry.phrases)
    audio, _, _ = join_parts([espeak_speaker("en-gb+iven2", 170, 45)("What are you good at?")], [])
    question = tmp_path / "good_at.wav"
    sf.write(question, audio, 16000)
    code, turns, err = chat("--input", question, "--output", tmp_path / "answer.wav", "--json")
    assert code == 0, err
    assert [(t["source"], t["reply"]) for t in turns] == [("cache", capabilities)], turns
