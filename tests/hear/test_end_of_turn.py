"""The end-of-turn decision: signals and silence in, decisions out (no clock, no models)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from assistant.config import ConfigError, TurnConfig
from assistant.hear.end_of_turn import (
    TurnCall,
    TurnDetector,
    asks,
    ends_on_a_made_up_object,
    ends_on_a_word_that_cannot_end,
    ends_with_a_question_mark,
    has_an_end_mark,
    is_the_short_rest_of_a_question,
    is_unpunctuated,
    judge,
    model_expects_more,
    model_is_confident,
    opens_with_a_question_word,
    opens_with_a_request_word,
    opens_with_what_and_no_subject,
    opens_with_who,
    punctuating_recognizer_left_no_end_mark,
    recognizer_may_have_made_up_words,
    recognizer_was_unsure_of_the_last_word,
    says_please,
    second_word_asks,
    sentence_asks,
    trails_off,
    words_for_model,
)
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
    assert judgement.call is TurnCall.UNFINISHED and judgement.wait_ms == 2000


def test_a_complete_question_ends_after_the_short_silence():
    judgement = judge(TurnSignals("What is the capital of Australia?", end_of_turn=0.005), CONFIG)
    assert judgement.call is TurnCall.COMPLETE and judgement.wait_ms == 150


def test_a_complete_statement_waits_longer_than_a_question():
    judgement = judge(TurnSignals("We bought apples and some bread.", end_of_turn=0.01), CONFIG)
    assert judgement.call is TurnCall.COMPLETE and judgement.wait_ms == 1100


@pytest.mark.parametrize("probability, call, wait", [(1e-3, TurnCall.COMPLETE, 150), (1e-7, TurnCall.UNSURE, 1200),
                                                        (1e-9, TurnCall.UNFINISHED, 2000)])
def test_the_model_probability_decides_between_the_thresholds(probability, call, wait):
    judgement = judge(TurnSignals("How far away is the nearest star", end_of_turn=probability), CONFIG)
    assert (judgement.call, judgement.wait_ms) == (call, wait)


def test_an_instant_phrase_is_complete_without_the_model():
    assert judge(TurnSignals("Thank you.", instant=True), CONFIG).wait_ms == 150


def test_words_alone_decide_when_no_model_probability_comes():
    assert judge(TurnSignals("Tell me a joke"), CONFIG).call is TurnCall.COMPLETE
    waiting = judge(TurnSignals("Tell me a joke", awaiting_model=True), CONFIG)
    assert waiting.call is TurnCall.UNSURE and waiting.wait_ms == 2000


def test_no_words_waits_the_longest():
    assert judge(None, CONFIG).wait_ms == 2000
    assert judge(TurnSignals(""), CONFIG).call is TurnCall.UNFINISHED


def test_fixed_mode_ignores_the_words():
    fixed = TurnConfig(mode="fixed")
    judgement = judge(TurnSignals("What is the capital of", end_of_turn=1e-9), fixed, fixed_ms=300)
    assert judgement.call is TurnCall.FIXED and judgement.wait_ms == 300


def test_detector_commits_when_the_silence_reaches_the_wait():
    detector = TurnDetector(CONFIG)
    detector.pause()
    assert detector.update(0.1) is None  # nothing known yet: wait
    detector.note_words(TurnSignals("Why is the sky blue?", end_of_turn=0.3))
    decision = first_decision(detector, 2.0)
    assert decision.call is TurnCall.COMPLETE
    assert 0.150 <= decision.silence_ms / 1000 < 0.150 + FRAME
    assert decision.describe().startswith("complete at 1")
    assert detector.update(0.5) is None  # decided once


def test_signals_arriving_late_decide_at_once():
    detector = TurnDetector(CONFIG)
    detector.pause()
    assert detector.update(0.4) is None
    detector.note_words(TurnSignals("Set a timer for ten minutes.", end_of_turn=0.01))
    decision = detector.update(0.416)
    assert decision and decision.call is TurnCall.COMPLETE and decision.silence_ms == pytest.approx(416)


def test_speaking_on_forgets_the_pause():
    detector = TurnDetector(CONFIG)
    detector.pause()
    detector.note_words(TurnSignals("What is the capital of"))
    assert first_decision(detector, 1.0) is None  # a 1 s thinking pause is not the end
    detector.resume()
    detector.note_words(TurnSignals("What is the capital of Australia?", end_of_turn=0.3))  # not paused: ignored
    assert detector.update(3.0) is None
    detector.pause()
    assert detector.signals is None
    detector.note_words(TurnSignals("What is the capital of Australia?", end_of_turn=0.3))
    assert detector.update(0.16).call is TurnCall.COMPLETE


def test_an_unfinished_turn_is_committed_at_the_maximum():
    detector = TurnDetector(CONFIG)
    detector.pause()
    detector.note_words(TurnSignals("Can you tell me, um"))
    decision = first_decision(detector, 3.0)
    assert decision.call is TurnCall.UNFINISHED and decision.silence_ms >= 2000


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
    assert ends_on_a_made_up_object("Set a timer for it.")
    assert ends_on_a_made_up_object("Can you give me a recipe for it?")
    assert not ends_on_a_made_up_object("Tell me about Paris.") and not ends_on_a_made_up_object("Do it.")
    signals = TurnSignals("Set a timer for it.", end_of_turn=10 ** -4.8, punctuated=True)
    assert judge(signals, CONFIG).call is TurnCall.UNSURE  # below 10^-4, not complete
    signals = TurnSignals("What do you think about it?", end_of_turn=10 ** -2.0, punctuated=True)
    assert judge(signals, CONFIG).call is TurnCall.COMPLETE


def test_a_last_word_the_recognizer_was_unsure_of_needs_a_surer_model():
    # Whisper wrote "...in the home?" (its last word at p 0.13) for "what is the biggest animal in the, um,"
    made_up = TurnSignals("What is the biggest animal in the home?", end_of_turn=10**-4.9, punctuated=True,
                          last_word_p=0.13)
    judgement = judge(made_up, CONFIG)
    assert judgement.call is TurnCall.UNSURE and "last word" in judgement.reason
    assert judge(replace(made_up, last_word_p=0.9), CONFIG).call is TurnCall.COMPLETE
    assert judge(replace(made_up, last_word_p=None), CONFIG).call is TurnCall.COMPLETE  # unknown: the words decide
    assert judge(replace(made_up, end_of_turn=10**-2), CONFIG).call is TurnCall.COMPLETE  # the model is sure
    off = replace(CONFIG, unsure_word_p=0.0)
    assert judge(made_up, off).call is TurnCall.COMPLETE


def test_words_awaiting_the_model_never_replace_what_the_model_said():
    detector = TurnDetector(CONFIG)
    detector.pause()
    detector.note_words(TurnSignals("Why is the sky blue?", end_of_turn=0.3))
    detector.note_words(TurnSignals("Why is the sky blue?", awaiting_model=True))  # arrived late
    assert detector.update(0.16).call is TurnCall.COMPLETE


def test_words_a_punctuating_recognizer_left_without_an_end_mark_need_a_surer_model():
    # Whisper wrote "What is the biggest time in the river" for "what is the biggest animal in the, um,"
    fragment = TurnSignals("What is the biggest time in the river", end_of_turn=10**-5.3, punctuated=True)
    assert judge(fragment, CONFIG).call is TurnCall.UNSURE
    assert judge(TurnSignals("What is the biggest time in the river?", end_of_turn=10**-5.3, punctuated=True),
                 CONFIG).call is TurnCall.COMPLETE
    assert judge(TurnSignals("what time is it in tokyo", end_of_turn=10**-5.3), CONFIG).call is TurnCall.COMPLETE  # vosk


# ------------------------------------------------------------------ the rules, one by one


def _words(sentence: str) -> list[str]:
    return sentence.lower().replace("?", "").replace(".", "").replace(",", "").split()


def test_ends_on_a_word_that_cannot_end():
    assert ends_on_a_word_that_cannot_end("What is the capital of")
    assert ends_on_a_word_that_cannot_end("I want the, um.")  # the mark does not hide the word
    assert not ends_on_a_word_that_cannot_end("What is the capital of France?")
    assert not ends_on_a_word_that_cannot_end("")


def test_trails_off():
    assert trails_off("Remind me to...") and trails_off("I want the, ") and trails_off("Well —")
    assert trails_off("The list:")
    assert not trails_off("Remind me to call Sam.") and not trails_off("Why")


def test_has_an_end_mark():
    assert has_an_end_mark("Stop.") and has_an_end_mark("Why?") and has_an_end_mark('He said "go!"')
    assert not has_an_end_mark("What is the biggest time in the river") and not has_an_end_mark("Well,")


def test_ends_with_a_question_mark():
    assert ends_with_a_question_mark("Is it?")
    assert not ends_with_a_question_mark("Is it? ") and not ends_with_a_question_mark("It is.")


def test_says_please():
    assert says_please("Please stop") and says_please("stop it PLEASE")
    assert not says_please("Stop it")


def test_is_unpunctuated():
    assert is_unpunctuated("when the rain stopped we left")
    assert not is_unpunctuated("when the rain stopped, we left") and not is_unpunctuated("It rained.")


def test_opens_with_a_request_word():
    assert opens_with_a_request_word(_words("Tell me a joke")) and opens_with_a_request_word(_words("Can you help"))
    assert not opens_with_a_request_word(_words("We bought apples")) and not opens_with_a_request_word([])


def test_opens_with_a_question_word():
    assert opens_with_a_question_word(_words("When it rained, we waited"))
    assert not opens_with_a_question_word(_words("Is it raining")) and not opens_with_a_question_word([])


def test_opens_with_who():
    assert opens_with_who(_words("Who painted the Mona Lisa")) and opens_with_who(_words("Whose coat is this"))
    assert not opens_with_who(_words("What happened")) and not opens_with_who([])


def test_opens_with_what_and_no_subject():
    assert opens_with_what_and_no_subject(_words("What happened to the Titanic"))
    assert opens_with_what_and_no_subject(_words("Which bus goes to town"))
    assert not opens_with_what_and_no_subject(_words("What I like is tea"))
    assert not opens_with_what_and_no_subject(_words("What"))
    assert not opens_with_what_and_no_subject(_words("How is it"))


def test_second_word_asks():
    assert second_word_asks(_words("How many days are in a week")) and second_word_asks(_words("What is the time"))
    assert not second_word_asks(_words("When it rained")) and not second_word_asks(_words("How"))


def test_sentence_asks():
    assert sentence_asks("Set a timer.", "Set a timer.")  # a request, whatever its mark
    assert sentence_asks("when is the train.", "when is the train.")  # a question word and an auxiliary
    assert sentence_asks("where the train goes", "where the train goes")  # no punctuation: it may ask
    assert not sentence_asks("where the train goes.", "where the train goes.")  # a mark, and not "?"
    assert not sentence_asks("We bought apples.", "We bought apples.")


def test_is_the_short_rest_of_a_question():
    assert is_the_short_rest_of_a_question(["What is the best way to?", "Learn French."])
    assert not is_the_short_rest_of_a_question(["Learn French."])
    assert not is_the_short_rest_of_a_question(["What is the best way to?", "Frog"])  # no end mark
    assert not is_the_short_rest_of_a_question(["Do you know?", "We went to the market and bought apples."])
    assert not is_the_short_rest_of_a_question(["We went home.", "Then slept."])  # not after a question


def test_recognizer_was_unsure_of_the_last_word():
    assert recognizer_was_unsure_of_the_last_word(TurnSignals("in the home?", last_word_p=0.13), CONFIG)
    assert not recognizer_was_unsure_of_the_last_word(TurnSignals("in the home?", last_word_p=0.9), CONFIG)
    assert not recognizer_was_unsure_of_the_last_word(TurnSignals("in the home?"), CONFIG)  # not known
    off = replace(CONFIG, unsure_word_p=0.0)
    assert not recognizer_was_unsure_of_the_last_word(TurnSignals("in the home?", last_word_p=0.13), off)


def test_punctuating_recognizer_left_no_end_mark():
    assert punctuating_recognizer_left_no_end_mark(TurnSignals("in the river", punctuated=True), "in the river")
    assert not punctuating_recognizer_left_no_end_mark(TurnSignals("in the river?", punctuated=True), "in the river?")
    assert not punctuating_recognizer_left_no_end_mark(TurnSignals("in the river"), "in the river")  # vosk


def test_recognizer_may_have_made_up_words():
    plain = TurnSignals("Tell me about Paris.", punctuated=True, last_word_p=0.9)
    assert not recognizer_may_have_made_up_words(plain, plain.transcript, CONFIG)
    no_mark = replace(plain, transcript="Tell me about Paris")
    assert recognizer_may_have_made_up_words(no_mark, no_mark.transcript, CONFIG)
    made_up = replace(plain, transcript="Set a timer for it.")
    assert recognizer_may_have_made_up_words(made_up, made_up.transcript, CONFIG)
    unsure = replace(plain, last_word_p=0.1)
    assert recognizer_may_have_made_up_words(unsure, unsure.transcript, CONFIG)


def test_model_is_confident():
    surer = replace(CONFIG, complete_log10=-5.5, bare_complete_log10=-4.0)
    assert model_is_confident(-5.5, surer, words_may_be_made_up=False)
    assert not model_is_confident(-5.6, surer, words_may_be_made_up=False)
    assert not model_is_confident(-4.8, surer, words_may_be_made_up=True)
    assert model_is_confident(-4.0, surer, words_may_be_made_up=True)


def test_model_expects_more():
    assert model_expects_more(-8.1, CONFIG)
    assert not model_expects_more(-8.0, CONFIG) and not model_expects_more(-2.0, CONFIG)
