"""The English skills corpus (tests/data/english): questions for every skill and look-alikes
that are the model's, each said by eSpeak NG English voices Whisper tiny.en hears badly, and
what it heard (recorded by ``python -m tools.heard_corpus --corpus english``, so these tests
synthesize and recognize nothing). The held-out half (other sentences, other voices) was not
used to write the skills' forms nor their reading of misheard function words; the instant
replies and actions of both halves were added after, and only measured."""

from __future__ import annotations

import pytest

from tools import heard_corpus as corpus

CORPUS = corpus.CORPORA["english"]
FLOORS = {  # (half, recognizer): (found at least, wrong answers at most), as measured
    ("tune", "whisper"): (288, 11), ("heldout", "whisper"): (81, 2),
    ("tune", "typed"): (37, 0), ("heldout", "typed"): (25, 0),
}
"""(Held out 67 and 23 until two look-alikes became the skills' to answer, "What time do you close?" the place's,
"What is the time difference to Paris?" the clock's: 78 and 25; on the tune half "What time does the bank open?" is
the live skill's, 263 and 36 -> 267 and 37.) Before the two forms, the reading of misheard function words and the names made of them:
182 found with 8 wrong on the tune half, 59 with 2 on the held-out half (the skills alone: 115
and 26; docs/skills.md). The wrong answers are numbers Whisper misheard, which the reply
repeats ("722 divided by 8"). The eighth on the tune half: "What day is it today?" heard "What's your
name?", which the instant reply that says what the assistant is answers as heard. The tune half's
"What time is it in Tokyo?" is the world clock's (it was a look-alike left to the model): 243 -> 263 found
with it (10 of them) and the requests in a frame. The second look in English (a reading no skill took that the
misheard-words notice would refuse, read again with the hint words: docs/skills.md): tune 267 / 8 -> 288 / 11 (the
three new wrong answers "What is half a million?" for "half of eighty"), held-out 78 / 2 -> 81 / 2 (with every
reading under 0.5 looked at: 300 / 11 and 89 / 2, at 50-100 ms more for a third of the model's questions)."""


def test_the_second_look_only_adds_and_takes_no_look_alike():
    """Each half with the second look finds at least what its first readings alone found; no question for the model
    is taken from it either way (the look is made only where no skill took the first reading)."""
    for half in corpus.HALVES:
        alone = corpus.score(half, "whisper", look=False, corpus=CORPUS)
        looked = corpus.score(half, "whisper", corpus=CORPUS)
        assert sum(corpus.right(s, a) for _v, s, _h, a in looked) > sum(corpus.right(s, a) for _v, s, _h, a in alone)
        assert all(a.source == "llm" for _v, s, _h, a in looked if s.answer == "llm")
        assert sum(look is not None for look in corpus.read_looks(half, corpus=CORPUS).values()) > 40


@pytest.fixture(scope="module")
def scored():
    return {(half, engine): corpus.score(half, engine, corpus=CORPUS) for half, engine in FLOORS}


def test_the_halves_share_no_sentence_and_no_voice_and_every_take_was_heard():
    values, sentences, voices = corpus.load(CORPUS)
    assert values["language"] == "en"
    tune = {s.text for s in sentences if s.half == "tune"}
    heldout = {s.text for s in sentences if s.half == "heldout"}
    assert not tune & heldout
    assert not {v.label for v in voices["tune"]} & {v.label for v in voices["heldout"]}
    for half in corpus.HALVES:
        kinds = {s.answer for s in sentences if s.half == half}
        assert {"reply", "actions", "clock", "timers", "arithmetic", "units", "llm"} <= kinds <= {
            "reply", "actions", "clock", "timers", "arithmetic", "units", "place", "live", "llm"}
        heard = corpus.read_heard(half, corpus=CORPUS)
        assert {(v, t) for v, t, _h in heard} == {(v.label, s.text) for v in voices[half]
                                                  for s in sentences if s.half == half}


@pytest.mark.parametrize("half, engine", list(FLOORS))
def test_skills_found_in_what_the_recognizer_heard(scored, half, engine):
    rows = scored[(half, engine)]
    found = sum(corpus.right(s, a) for _v, s, _h, a in rows if s.answer != "llm")
    wrong = sum(a.source != "llm" and not corpus.right(s, a) for _v, s, _h, a in rows)
    least, most = FLOORS[(half, engine)]
    assert found >= least and wrong <= most, corpus.figures(rows)


@pytest.mark.parametrize("half", corpus.HALVES)
def test_no_look_alike_is_taken_from_the_model_however_it_was_heard(scored, half):
    taken = [(v, s.text, h, a) for v, s, h, a in scored[(half, "whisper")] if s.answer == "llm" and a.source != "llm"]
    assert taken == []
