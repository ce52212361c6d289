"""The wake phrase end to end on the real embedded recognizer, through the command line: an
espeak-ng take with the phrase and the question in one breath is one turn without the phrase;
the question alone is no turn. By the recognizer's probability, and by the phrase's own model (a
small one trained by the tests, kept in their cache folder, so nothing trains in the background)."""

from __future__ import annotations

import shutil

import numpy as np
import pytest
import soundfile as sf

from assistant.commands.bench.turn_corpus import espeak_speaker, join_parts
from assistant.config import SttConfig, WakeConfig

from fakes import toml_file
from test_e2e import chat
from wake_models import KOREAN_PHRASE, small_model

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng voices the takes")]


def _take(path, text: str, voice: str = "en-us", rate: int = 165):
    audio, _, _ = join_parts([espeak_speaker(voice, rate, 50)(text)], [])
    sf.write(path, audio, 16000)
    return path


WAYS = {"probability": "[wake]\nby = 'probability'\n", "model": "[wake]\nby = 'model'\nmodel = 80.0\n"}


@pytest.fixture(params=list(WAYS))
def way(request, tmp_path):
    """(how the phrase is told, the config file that says so)."""
    if request.param == "model":
        small_model()
    return request.param, toml_file(tmp_path, WAYS[request.param])


def test_the_phrase_and_the_question_in_one_breath_are_one_turn(tmp_path, way):
    by, config = way
    take = _take(tmp_path / "breath.wav", "Hey assistant, what time is it?")
    code, turns, err = chat("--config", config, "--input", take, "--output", tmp_path / "out.wav", "--json",
                            "--wake", "hey assistant")
    assert code == 0, err
    assert len(turns) == 1, [t["transcript"] for t in turns]
    turn = turns[0]
    assert turn["transcript"].lower().startswith("what time is it") and turn["source"] == "skill"
    threshold = 80.0 if by == "model" else WakeConfig().probability
    assert turn["counts"]["wake_score"] >= threshold and turn["latency_ms"]["wake"] is not None
    assert turn["counts"]["wake_by"] == by


def test_the_phrase_s_own_words_do_not_make_the_question_misheard(tmp_path, way):
    """A voice Whisper hears the phrase of unsurely ("assistant" at 0.05 in this take) but the
    question surely: the question is answered, not told it was not caught."""
    _, config = way
    take = _take(tmp_path / "breath.wav", "Hey assistant, how far away is the moon?", "en-us+Diogo", 170)
    code, turns, err = chat("--config", config, "--input", take, "--output", tmp_path / "out.wav", "--json",
                            "--wake", "hey assistant")
    assert code == 0, err
    assert [t["transcript"].lower().rstrip(".?") for t in turns] == ["how far away is the moon"]
    least = turns[0]["counts"].get("least_word_p")  # the phrase's words counted: 0.05, the misheard notice
    assert turns[0]["source"] == "llm" and least is not None and least > SttConfig().misheard_below, turns[0]


def test_the_question_without_the_phrase_is_no_turn(tmp_path, way):
    _, config = way
    take = _take(tmp_path / "plain.wav", "What time is it?")
    code, turns, err = chat("--config", config, "--input", take, "--output", tmp_path / "out.wav", "--json",
                            "--wake", "hey assistant")
    assert code == 0, err
    assert turns == []
    out, _ = sf.read(tmp_path / "out.wav")
    assert np.abs(out).max() < 0.01  # nothing was said


def _korean_take(path, text: str):
    audio, _, _ = join_parts([espeak_speaker("ko+f2", 130, 60)(text)], [])
    sf.write(path, audio, 16000)
    return path


@pytest.fixture(params=["probability", "model"])
def korean_way(request, tmp_path):
    """The config file: by Whisper's probability alone, or (the default) the phrase's own model first, as a
    gate (a small one, kept in the tests' cache: nothing trains in the background)."""
    if request.param == "model":
        small_model(KOREAN_PHRASE)
        return "model+probability", toml_file(tmp_path, "[wake]\nby = 'model'\n")
    return "probability", toml_file(tmp_path, "[wake]\nby = 'probability'\n")


def test_a_korean_phrase_wakes_by_whisper_s_probability_and_is_taken_out_of_the_words(tmp_path, korean_way):
    """A Korean phrase is told by the multilingual Whisper's probability, at Korean's own threshold, where its
    own model (a gate in front of it, by default) lets the look through (docs/wake.md); the greeting that
    begins like it and the question alone are no turn."""
    by, config = korean_way
    turns_of = {}
    for name, text in (("breath", f"{KOREAN_PHRASE}, 지금 몇 시야?"), ("plain", "지금 몇 시야?"),
                       ("greeting", "안녕하세요, 반갑습니다.")):
        take = _korean_take(tmp_path / f"{name}.wav", text)
        code, turns, err = chat("--config", config, "--language", "ko", "--input", take,
                                "--output", tmp_path / f"{name}-out.wav", "--json", "--wake", KOREAN_PHRASE)
        assert code == 0, err
        turns_of[name] = turns
    assert turns_of["plain"] == [] and turns_of["greeting"] == []
    assert len(turns_of["breath"]) == 1, [t["transcript"] for t in turns_of["breath"]]
    turn = turns_of["breath"][0]
    wakes_at = WakeConfig(phrase=KOREAN_PHRASE).phrase_probability()  # Korean's own threshold
    assert turn["counts"]["wake_score"] >= wakes_at and turn["latency_ms"]["wake"] is not None
    assert turn["counts"]["wake_by"] == by
    assert "비서" not in turn["transcript"] and turn["voices"] == ["espeak-ng (ko)"]
