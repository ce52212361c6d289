"""The wake phrase's held-out sets, planned with a stand-in for espeak-ng (no audio made): held out from
everything the model and the bench's halves use, each made as measured, and the takes that hold a near
homophone known by number."""

from __future__ import annotations

import hashlib
import json

import pytest

from assistant.commands.bench import wake, wake_sets
from assistant.commands.bench.turn_split import FIRST_VOICES
from assistant.commands.bench.wake import _sentences
from assistant.pipeline import wake_korean
from assistant.pipeline.wake_training import SENTENCES as TRAINING_SENTENCES
from assistant.pipeline.wake_training import VARIANTS, phrase_amid, phrase_like

from test_wake_corpus import planned

PLANS = {1: "f6c919477901501a33a19c2d0d57af7dac4519b0", 6: "c5020bcf172980a57df17901677605ffbe598568"}
"""What sets 1 and 6 say, by whom, in which takes (a hash of the plan below): the sets were scored as
made then, so they must not change."""


def _planned(number, folder):
    """Set ``number`` made with a stand-in speaker (a take's length follows its words) and no files."""
    return planned(wake, lambda: wake_sets.make_set(number, folder / f"set{number}"))


def _variant(voice: str) -> str:
    return voice.split("+")[1].casefold() if "+" in voice else ""


def test_no_set_shares_a_voice_or_a_sentence_with_the_training_or_the_bench_s_halves():
    trained = {v.casefold() for v in VARIANTS}
    halves = {_variant(v.name) for half in FIRST_VOICES.values() for v in half} - {""}
    voices = [(name.startswith("ko"), _variant(name)) for spec in wake_sets.SETS for name, _, _ in spec["voices"]]
    assert len(voices) == len(set(voices)) == 8 * len(wake_sets.SETS)  # no voice in two sets (Korean's its own)
    assert not {variant for _, variant in voices} & (trained | halves)
    known = set(TRAINING_SENTENCES) | set(phrase_like("hey assistant")) | set(phrase_amid("hey assistant"))
    known |= set(wake_korean.SENTENCES + wake_korean.QUESTIONS + wake_korean.phrase_like("안녕 비서")
                 + wake_korean.phrase_amid("안녕 비서"))
    known |= set(_sentences("tune")) | set(_sentences("test"))
    said = {s for spec in wake_sets.SETS for s in spec["plain"] + spec["near_homophones"] + spec["questions"]}
    assert not said & known


@pytest.mark.parametrize("number", sorted(PLANS))
def test_a_set_is_made_as_it_was_measured(number, tmp_path):
    takes, records = _planned(number, tmp_path)
    positives = [t for t in takes if t.positive]
    negatives = [t for t in takes if not t.positive]
    assert len(positives) == 72 and {t.voice for t in positives} == {v for v, _, _ in wake_sets.SETS[number - 1]["voices"]}
    assert sum(records[t.name][0] for t in negatives) / 16000 >= wake_sets.NEGATIVE_MINUTES * 60
    spoken = [text for t in positives for _, _, _, text in records[t.name][1]]
    assert spoken.count("Hey assistant") == 24 and all(t.phrase_end_s > 0.5 for t in positives)  # 8 voices, 3 rates
    near = set(wake_sets.SETS[number - 1]["near_homophones"])
    for take in negatives:  # the takes counted as holding a near homophone are those that say one
        index = int(take.name.split("-")[2])
        says = {text for _, _, _, text in records[take.name][1]}
        assert wake_sets.near_homophone_takes(number, index) == bool(says & near), take.name
    plan = json.dumps([[t.name, t.voice, t.phrase_end_s, records[t.name]] for t in takes])
    assert hashlib.sha1(plan.encode()).hexdigest() == PLANS[number]
