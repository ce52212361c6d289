"""The wake phrase, thread-free: finding it at the start of the words, when an utterance is
looked at and what each look decides, and when speech needs the phrase."""

from __future__ import annotations

import pytest

from assistant.config import WakeConfig
from assistant.hear.wake import Spotting, Verdict, WakeGate, WakePhrase
from assistant.think.hangul import jamo


@pytest.mark.parametrize("text, rest", [
    ("Hey Assistant, what time is it?", "what time is it?"),
    ("hey assistant what time is it", "what time is it"),
    ("Hey, Assistant!", ""),
    ("Hey assistent, tell me a joke.", "tell me a joke."),  # a letter misheard
])
def test_the_phrase_is_found_at_the_start_and_taken_out(text, rest):
    found = WakePhrase("hey assistant").find(text)
    assert found is not None and found.rest == rest


@pytest.mark.parametrize("text", [
    "What time is it?", "Hey, this is the news at nine.", "Hey sister.", "A system failure was reported.",
    "I said hey to the assistant manager", "",
    "Okay, assistant.", "The assistant said hello.", "Oh, hey assistant, what's up?",  # the first word counts
])
def test_other_words_are_not_the_phrase(text):
    assert WakePhrase("hey assistant").find(text) is None


def test_a_word_before_the_phrase_may_be_allowed_at_a_cost():
    found = WakePhrase("hey assistant", skipped_words=1).find("Oh, hey assistant, what's up?")
    assert found is not None and found.rest == "what's up?" and found.score < 100


def test_a_transcript_without_the_phrase_is_left_as_it_is():
    assert WakePhrase("hey assistant").strip("What time is it?") == "What time is it?"


def test_korean_is_compared_letter_by_letter():
    phrase = WakePhrase("안녕 비서", letters=jamo)
    found = phrase.find("안녕비서, 지금 몇 시야?")
    assert found is not None and found.rest == "지금 몇 시야?"
    assert phrase.find("안녕하세요, 만나서 반가워요.") is None


def test_an_utterance_is_looked_at_every_step_until_spot_s():
    spotting = Spotting(WakePhrase("hey assistant"), WakeConfig(phrase="hey assistant", spot_every_ms=200, spot_s=1.0))
    assert not spotting.due(0.3) and spotting.due(0.4)
    assert spotting.hear("Hey", 0.4)[0] is Verdict.WAIT
    assert not spotting.due(0.5) and spotting.due(0.6)
    assert spotting.hear("Hey, uh, what", 1.0)[0] is Verdict.MISS  # spot_s reached


def test_a_look_that_finds_the_phrase_wakes_and_a_long_start_without_it_misses_at_once():
    config = WakeConfig(phrase="hey assistant")
    verdict, found = Spotting(WakePhrase("hey assistant"), config).hear("Hey assistant, what", 0.9)
    assert verdict is Verdict.WOKE and found.score >= config.score
    long_words = "And in other news tonight the council voted"
    assert Spotting(WakePhrase("hey assistant"), config).hear(long_words, 0.9)[0] is Verdict.MISS


def test_the_end_of_the_utterance_is_the_last_look():
    spotting = Spotting(WakePhrase("hey assistant"), WakeConfig(phrase="hey assistant"))
    assert spotting.hear("Hey", 0.5, final=True)[0] is Verdict.MISS


def test_the_gate_waits_until_the_phrase_then_follows_up_for_a_while():
    gate = WakeGate(follow_up_s=5.0)
    assert gate.waiting(10.0)
    gate.woke(1)
    assert not gate.waiting(11.0)  # the turn the phrase began
    gate.turn_over(1)
    assert not gate.waiting(14.0)  # the window opens at the next look at the clock (14 + 5)
    assert not gate.waiting(18.9)
    gate.woke(2)  # a follow-up
    gate.turn_over(2)
    assert not gate.tick(20.0) and not gate.waiting(24.9)
    assert gate.tick(25.1) and gate.waiting(25.2)


def test_a_turn_the_gate_never_saw_does_not_open_the_window():
    gate = WakeGate(follow_up_s=5.0)
    gate.turn_over(7)  # typed, or a timer's announcement
    assert gate.waiting(1.0) and gate.asleep


def _probability_spotting(threshold=2.0):
    config = WakeConfig(phrase="hey assistant", by="probability", probability=threshold, spot_every_ms=200, spot_s=2.0)
    return Spotting(WakePhrase("hey assistant"), config)


def test_by_probability_the_recognizers_probability_decides_whatever_the_words():
    spotting = _probability_spotting()
    assert spotting.hear("", 0.4, probability=1.5)[0] is Verdict.WAIT  # below the threshold, no words needed
    verdict, found = spotting.hear("Hey, Assistant, what", 0.6, probability=12.0)
    assert verdict is Verdict.WOKE and found.score == 12.0 and found.said == "Hey, Assistant" and found.rest == "what"


def test_by_probability_misheard_words_still_wake_and_say_the_phrase():
    verdict, found = _probability_spotting().hear("Can you see it's done?", 0.8, probability=9.0)
    assert verdict is Verdict.WOKE and found.said == "hey assistant"


def test_by_probability_a_hopeless_start_is_let_go_after_a_second():
    spotting = _probability_spotting()
    assert spotting.hear("", 0.8, probability=0.2)[0] is Verdict.WAIT  # too early to tell
    assert spotting.hear("", 1.0, probability=0.2)[0] is Verdict.MISS
    assert _probability_spotting().hear("", 1.2, probability=1.5)[0] is Verdict.WAIT
    assert _probability_spotting().hear("", 2.0, probability=1.5)[0] is Verdict.MISS  # spot_s reached
