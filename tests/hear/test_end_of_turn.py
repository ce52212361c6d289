"""The end-of-turn decision: signals and silence in, decisions out (no clock, no models)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from assistant.config import ConfigError, TurnConfig
from assistant.hear.end_of_turn import TurnDetector, Verdict, asks, judge, made_up_object, words_for_model
from assistant.events import TurnSignals

CONFIG = TurnConfig(complete_ms=150, statement_ms=1100, unsure_ms=1200, max_ms=2000,
                    complete_log10=-5.5, unfinished_log10=-8.0)
FRAME = 0.032


def first_decision(detector: TurnDetector, seconds: float):
    """Feed silence frame by frame; the first decision and when it came."""
    silence = 0.0
    while silence < seconds:
        silence += FRAME
        decision = detector.update(silence)
        if decision:
            return decision
    return None


@pytest.mark.parametrize("text", ["What is the capital of", "What is the capital of?", "Remind me to...",
                                  "How many legs does a", "I want the, um", "What is the biggest animal in the."])
def test_words_that_need_more_wait_the_longest(text):
    judgement = judge(TurnSignals(text, end_of_turn=0.9), CONFIG)
    assert judgement.verdict is Verdict.UNFINISHED and judgement.wait_ms == 2000


def test_a_complete_question_ends_after_the_short_silence():
    judgement = judge(TurnSignals("What is the capital of Australia?", end_of_turn=0.005), CONFIG)
    assert judgement.verdict is Verdict.COMPLETE and judgement.wait_ms == 150


def test_a_complete_statement_waits_longer_than_a_question():
    judgement = judge(TurnSignals("We bought apples and some bread.", end_of_turn=0.01), CONFIG)
    assert judgement.verdict is Verdict.COMPLETE and judgement.wait_ms == 1100


@pytest.mark.parametrize("probability, verdict, wait", [(1e-3, Verdict.COMPLETE, 150), (1e-7, Verdict.UNSURE, 1200),
                                                        (1e-9, Verdict.UNFINISHED, 2000)])
def test_the_model_probability_decides_between_the_thresholds(probability, verdict, wait):
    judgement = judge(TurnSignals("How far away is the nearest star", end_of_turn=probability), CONFIG)
    assert (judgement.verdict, judgement.wait_ms) == (verdict, wait)


def test_an_instant_phrase_is_complete_without_the_model():
    assert judge(TurnSignals("Thank you.", instant=True), CONFIG).wait_ms == 150


def test_words_alone_decide_when_no_model_probability_comes():
    assert judge(TurnSignals("Tell me a joke"), CONFIG).verdict is Verdict.COMPLETE
    waiting = judge(TurnSignals("Tell me a joke", awaiting_model=True), CONFIG)
    assert waiting.verdict is Verdict.UNSURE and waiting.wait_ms == 2000


def test_no_words_waits_the_longest():
    assert judge(None, CONFIG).wait_ms == 2000
    assert judge(TurnSignals(""), CONFIG).verdict is Verdict.UNFINISHED


def test_fixed_mode_ignores_the_words():
    fixed = TurnConfig(mode="fixed")
    judgement = judge(TurnSignals("What is the capital of", end_of_turn=1e-9), fixed, fixed_ms=300)
    assert judgement.verdict is Verdict.FIXED and judgement.wait_ms == 300


def test_detector_commits_when_the_silence_reaches_the_wait():
    detector = TurnDetector(CONFIG)
    detector.pause()
    assert detector.update(0.1) is None  # nothing known yet: wait
    detector.hear(TurnSignals("Why is the sky blue?", end_of_turn=0.3))
    decision = first_decision(detector, 2.0)
    assert decision.verdict is Verdict.COMPLETE
    assert 0.150 <= decision.silence_ms / 1000 < 0.150 + FRAME
    assert decision.describe().startswith("complete at 1")
    assert detector.update(0.5) is None  # decided once


def test_signals_arriving_late_decide_at_once():
    detector = TurnDetector(CONFIG)
    detector.pause()
    assert detector.update(0.4) is None
    detector.hear(TurnSignals("Set a timer for ten minutes.", end_of_turn=0.01))
    decision = detector.update(0.416)
    assert decision and decision.verdict is Verdict.COMPLETE and decision.silence_ms == pytest.approx(416)


def test_speaking_on_forgets_the_pause():
    detector = TurnDetector(CONFIG)
    detector.pause()
    detector.hear(TurnSignals("What is the capital of"))
    assert first_decision(detector, 1.0) is None  # a 1 s thinking pause is not the end
    detector.resume()
    detector.hear(TurnSignals("What is the capital of Australia?", end_of_turn=0.3))  # not paused: ignored
    assert detector.update(3.0) is None
    detector.pause()
    assert detector.signals is None
    detector.hear(TurnSignals("What is the capital of Australia?", end_of_turn=0.3))
    assert detector.update(0.16).verdict is Verdict.COMPLETE


def test_an_unfinished_turn_is_committed_at_the_maximum():
    detector = TurnDetector(CONFIG)
    detector.pause()
    detector.hear(TurnSignals("Can you tell me, um"))
    decision = first_decision(detector, 3.0)
    assert decision.verdict is Verdict.UNFINISHED and decision.silence_ms >= 2000


def test_unknown_mode_is_a_config_error():
    with pytest.raises(ConfigError, match="turn.mode"):
        TurnDetector(TurnConfig(mode="psychic"))


def test_helpers():
    assert words_for_model("What is it?  ") == "What is it"
    assert words_for_model("Remind me to...") == "Remind me to"
    assert asks("what time is it") and asks("Please stop") and asks("Tell me a joke.")
    assert not asks("We bought apples. Then it rained.")
    assert asks("I went home. What should I cook?")
    # a question word and an auxiliary or "many/much/far..." ask, whatever mark Whisper put
    assert asks("How many days are in a week.") and asks("What is the time.")
    assert not asks("When it rained, we waited.") and not asks("What I like is tea.")
    # "who…" and "what/which" + anything but a subject ask whatever the mark
    assert asks("who painted the Mona Lisa.") and asks("What happened to the Titanic.")
    assert not asks("What we saw was a fox.")
    # the short rest of a question Whisper split at a pause; not a longer sentence after one
    assert asks("What is the best way to? Learn French.") and asks("How long does it take to? Fly to Japan!")
    assert not asks("Do you know what happened? We went to the market and bought apples.")
    assert not asks("What is the difference between a frog? Frog")  # cut off mid-word: no end mark


def test_a_made_up_object_after_a_preposition_needs_a_surer_model():
    assert made_up_object("Set a timer for it.") and made_up_object("Can you give me a recipe for it?")
    assert not made_up_object("Tell me about Paris.") and not made_up_object("Do it.")
    signals = TurnSignals("Set a timer for it.", end_of_turn=10 ** -4.8, punctuated=True)
    assert judge(signals, CONFIG).verdict is Verdict.UNSURE  # below 10^-4, not complete
    signals = TurnSignals("What do you think about it?", end_of_turn=10 ** -2.0, punctuated=True)
    assert judge(signals, CONFIG).verdict is Verdict.COMPLETE


def test_a_last_word_the_recognizer_was_unsure_of_needs_a_surer_model():
    # Whisper wrote "...in the home?" (its last word at p 0.13) for "what is the biggest animal in the, um,"
    made_up = TurnSignals("What is the biggest animal in the home?", end_of_turn=10**-4.9, punctuated=True,
                          last_word_p=0.13)
    judgement = judge(made_up, CONFIG)
    assert judgement.verdict is Verdict.UNSURE and "last word" in judgement.reason
    assert judge(replace(made_up, last_word_p=0.9), CONFIG).verdict is Verdict.COMPLETE
    assert judge(replace(made_up, last_word_p=None), CONFIG).verdict is Verdict.COMPLETE  # unknown: the words decide
    assert judge(replace(made_up, end_of_turn=10**-2), CONFIG).verdict is Verdict.COMPLETE  # the model is sure
    off = replace(CONFIG, unsure_word_p=0.0)
    assert judge(made_up, off).verdict is Verdict.COMPLETE


def test_words_awaiting_the_model_never_replace_what_the_model_said():
    detector = TurnDetector(CONFIG)
    detector.pause()
    detector.hear(TurnSignals("Why is the sky blue?", end_of_turn=0.3))
    detector.hear(TurnSignals("Why is the sky blue?", awaiting_model=True))  # arrived late
    assert detector.update(0.16).verdict is Verdict.COMPLETE


def test_words_a_punctuating_recognizer_left_without_an_end_mark_need_a_surer_model():
    # Whisper wrote "What is the biggest time in the river" for "what is the biggest animal in the, um,"
    fragment = TurnSignals("What is the biggest time in the river", end_of_turn=10**-5.3, punctuated=True)
    assert judge(fragment, CONFIG).verdict is Verdict.UNSURE
    assert judge(TurnSignals("What is the biggest time in the river?", end_of_turn=10**-5.3, punctuated=True),
                 CONFIG).verdict is Verdict.COMPLETE
    assert judge(TurnSignals("what time is it in tokyo", end_of_turn=10**-5.3), CONFIG).verdict is Verdict.COMPLETE  # vosk
