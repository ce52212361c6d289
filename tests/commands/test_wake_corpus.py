"""The wake bench's corpus, planned with a stand-in for espeak-ng (no audio made): the tuning half's
negatives hold the phrase's near misses made from its sounds, said by the tuning half's voices only,
and the test half is the same takes as in corpus v2 (the same sentences, voices, rates and mixes)."""

from __future__ import annotations

import hashlib
import json
import zlib

import numpy as np
import pytest

from assistant.commands.bench import wake
from assistant.commands.bench.turn_split import FIRST_VOICES
from assistant.pipeline.wake_sounds import sound_misses

TEST_HALF_V2 = (365, "a6515928f49814a98d78cd1262dcc11758c528ca")
"""The test half's takes and what each says, by whom, as planned below: worked out with corpus v2's
code (before the tuning half had near misses)."""


def planned(module, make):
    """``make()`` with ``module``'s espeak-ng speaker and WAV writer stood in for (a take's length follows
    its words; no file is written): the takes and, by take, its length and what was said in it (voice,
    rate, pitch, text)."""
    said, records = [], {}

    def speaker(voice, rate=165, pitch=50):
        def say(text):
            said.append([voice, rate, pitch, text])
            return np.full(2400 + 160 * len(text) + zlib.crc32(f"{voice}{rate}{pitch}".encode()) % 800, 0.1, np.float32)

        return say

    def save(folder, name, audio):
        records[name] = [int(audio.size), list(said)]
        said.clear()
        return folder / f"{name}.wav"

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(module, "espeak_speaker", speaker)
        patch.setattr(module, "_save", save)
        takes = make()
    return takes, records


def _planned(folder):
    """The corpus made with the stand-ins (:func:`planned`)."""
    return planned(wake, lambda: wake.make_wake_corpus(folder))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    return _planned(tmp_path_factory.mktemp("wake-corpus"))


def test_the_tuning_half_s_negatives_hold_the_phrase_s_near_misses(corpus):
    takes, records = corpus
    near = [t for t in takes if "-near-" in t.name]
    assert near and all(t.half == "tune" and not t.positive for t in near)
    tuning_voices = [v for v in FIRST_VOICES["tune"] if v.name != "piper"]
    misses = sound_misses(wake.PHRASE)
    first = [records[t.name][1][0] for t in near]  # what each near-miss take says first: the near miss
    assert len(near) == len(misses) * len(tuning_voices)
    for voice in tuning_voices:  # each near miss by each of the tuning half's voices
        assert sorted(text for v, _, _, text in first if v == voice.name) == sorted(misses)
    test_voices = {v.name for v in FIRST_VOICES["test"]}
    assert not {v for t in near for v, _, _, _ in records[t.name][1]} & test_voices
    assert {t.name.rsplit("-", 1)[1] for t in near} == {"tv", "noise", "plain"}  # heard as the other negatives
    assert all(len(records[t.name][1]) == 2 for t in near if t.name.endswith("-tv"))  # another voice over it


def test_the_test_half_is_as_it_was(corpus):
    takes, records = corpus
    test = [[t.name, t.voice, t.positive, t.phrase_end_s, records[t.name]] for t in takes if t.half == "test"]
    assert (len(test), hashlib.sha1(json.dumps(test).encode()).hexdigest()) == TEST_HALF_V2
    assert not [t for t in takes if t.half == "test" and "-near-" in t.name]
    assert not [text for t in takes if t.half == "test" for *_, text in records[t.name][1] if "[[" in text]
    assert wake.near_miss_plan("test", list(FIRST_VOICES["test"])) == []


def test_the_model_looks_kept_are_read_again_and_only_new_takes_looked_at(tmp_path, monkeypatch):
    from assistant.commands.bench import wake_looks
    from assistant.hear import vad, wake_model
    from assistant.machine import models
    from assistant.pipeline import wake_training
    from assistant.speak import tts

    looked = []

    def model_looks(take, *_):
        looked.append(take.name)
        return {"take": take.name, "utterances": [{"start_s": 0.5, "looks": [{"speech_s": 0.4}]}]}, [
            np.full((16, 96), len(looked), np.float32)]

    class Model:
        def probability(self, x):
            return x[:, 0, 0] / 10

    names = ["a", "b", "c"]
    monkeypatch.setattr(wake, "make_wake_corpus", lambda: [wake.WakeTake(n, tmp_path / n, "tune", False, "v") for n in names])
    monkeypatch.setattr(wake_looks, "model_looks", model_looks)
    monkeypatch.setattr(vad, "SileroVad", lambda *_: None)
    monkeypatch.setattr(models, "find_silero_vad", lambda: None)
    monkeypatch.setattr(wake_model, "shared_embedder", lambda: None)
    monkeypatch.setattr(wake_training, "phrase_model", lambda *_: Model())
    monkeypatch.setattr(tts, "PiperTts", lambda *_: None)
    config = wake.with_overrides(wake.Config(), wake={"phrase": "hey assistant"})
    rows = wake._model_looks(config, tmp_path, [{"take": n} for n in names[:2]])
    assert looked == ["a", "b"] and rows["b"]["utterances"][0]["looks"][0]["model"] == pytest.approx(20.0)
    rows = wake._model_looks(config, tmp_path, [{"take": n} for n in names])  # the corpus grew by one take
    assert looked == ["a", "b", "c"]
    assert [rows[n]["utterances"][0]["looks"][0]["model"] for n in names] == pytest.approx([10.0, 20.0, 30.0])
