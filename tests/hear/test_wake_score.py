"""The wake phrase by the recognizer's own probability: its spellings, where it applies, the words of
a turn it woke (on fakes), and on the real Whisper tiny.en, an espeak-ng take of the phrase against
one without it."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from assistant.config import WakeConfig
from assistant.hear.stt import WhisperStt
from assistant.hear.wake_score import geometric_mean, phrase_scorer, spellings
from assistant.pipeline.bus import EventBus
from assistant.pipeline.turn_book import TurnBook
from assistant.pipeline.wake_gate import WakeListening


def test_the_phrase_is_forced_as_whisper_may_write_it():
    assert spellings("hey assistant") == [" hey assistant", " Hey assistant", " Hey Assistant", " Hey, assistant",
                                          " Hey, Assistant"]
    assert spellings("computer") == [" computer", " Computer"]


def test_the_geometric_mean_of_token_probabilities():
    assert geometric_mean([0.1, 0.1]) == pytest.approx(0.1)
    assert geometric_mean([1.0, 0.01]) == pytest.approx(0.1)
    assert geometric_mean([]) == 0.0


class _Whisperish(WhisperStt):
    _prompt = [1, 2]

    def __init__(self, multilingual: bool):  # no model loaded
        self._multilingual = multilingual


def test_the_probability_needs_a_whisper_that_can_write_the_phrase(monkeypatch):
    made = []
    monkeypatch.setattr("assistant.hear.wake_score.PhraseProbability",
                        lambda stt, phrase, prompted: made.append(prompted) or phrase)
    english = WakeConfig(phrase="hey assistant")
    assert phrase_scorer(_Whisperish(False), english) == "hey assistant"
    assert phrase_scorer(_Whisperish(False), WakeConfig(phrase="안녕 비서")) is None  # tiny.en writes no Korean
    assert phrase_scorer(_Whisperish(True), WakeConfig(phrase="안녕 비서")) == "안녕 비서"
    assert phrase_scorer(object(), english) is None  # vosk: letters
    assert phrase_scorer(_Whisperish(False), WakeConfig(phrase="hey assistant", by="letters")) is None


class _FakeScorer:
    def __init__(self, rest: str):
        self.rest = rest
        self.decoded = 0

    def __call__(self, pcm):
        return 10.0

    def after_phrase(self, pcm):
        self.decoded += 1
        return self.rest


def _listening(scorer) -> WakeListening:
    bus = EventBus()
    return WakeListening(WakeConfig(phrase="hey assistant"), TurnBook(bus), bus, scorer=scorer)


def test_a_woken_turn_the_recognizer_misheard_is_decoded_on_from_the_phrase():
    scorer = _FakeScorer("what is the weather like?")
    wake = _listening(scorer)
    assert wake.words("Can you see it's done? What is the weather like?", lambda: np.zeros(1)) \
        == "hey assistant, what is the weather like?"
    assert wake.words("Hey Assistant, set a timer.", lambda: np.zeros(1)) == "Hey Assistant, set a timer."
    assert scorer.decoded == 1  # only where the words do not begin with the phrase
    wake._woken.add(7)
    assert wake.strip(7, "Can you see it's done?", lambda: np.zeros(1)) == "what is the weather like?"
    assert wake.strip(8, "Can you see it's done?", lambda: np.zeros(1)) == "Can you see it's done?"  # not woken


def test_the_words_of_a_look_that_woke_are_the_phrase_and_what_follows_it():
    assert _listening(_FakeScorer("set a timer.")).phrase_words(np.zeros(1)) == "hey assistant, set a timer."
    assert _listening(_FakeScorer("")).phrase_words(np.zeros(1)) == "hey assistant"


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng voices the takes")
def test_whisper_finds_its_phrase_likelier_in_a_take_that_says_it():
    from assistant.commands.bench.turn_corpus import espeak_speaker
    from assistant.config import SttConfig
    from assistant.hear.stt import WhisperStt
    from assistant.hear.wake_score import PhraseProbability

    scorer = PhraseProbability(WhisperStt(SttConfig()), "hey assistant")
    say = espeak_speaker("en-us", 165, 50)
    phrase, other = say("Hey assistant, what time is it?"), say("The assistant said hello.")
    assert scorer(phrase[: 24000]) >= WakeConfig().probability > scorer(other[: 24000])
    assert scorer.after_phrase(phrase).lower().startswith("what time is it")
