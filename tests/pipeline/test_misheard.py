"""Words the recognizer was unsure of (fakes for the models): the turn says it did not catch
them instead of answering them, never twice in a row, never for typed words, a skill or an
instant reply, and only where the threshold was measured (English)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from assistant.config import Config, VadConfig
from assistant.hear.sources import PacedWavSource
from assistant.pipeline import Engine
from assistant.think.misheard import DID_NOT_CATCH, MisheardGuard

from fakes import FakeLlm, FakeStt, FakeTts, FakeVad, Recorder, RecordingSink

RATE = 16000


def speech(seconds: float = 0.6) -> np.ndarray:
    return np.concatenate([np.zeros(int(0.3 * RATE), np.float32), np.full(int(seconds * RATE), 0.3, np.float32),
                           np.zeros(int(1.5 * RATE), np.float32)])


def spoken_turns(stt: FakeStt, takes: int, language: str = "en", llm: FakeLlm | None = None):
    """The results of ``takes`` spoken turns (one WAV each, the same engine), and the model."""
    config = Config(vad=VadConfig(min_speech_ms=64))
    config = replace(config, stt=replace(config.stt, language=language))
    llm = llm or FakeLlm()
    recorder = Recorder()
    engine = Engine(config, vad=FakeVad(), output=RecordingSink(), on_event=recorder, stt=stt, llm=llm,
                    tts=FakeTts())
    try:
        for take in range(takes):
            engine.listen(PacedWavSource(speech(), RATE, 512, realtime=True))
            recorder.wait_turns(take + 1)
            engine.stop_listening()
    finally:
        engine.close()
    return recorder.results, llm


def test_words_the_recognizer_was_unsure_of_are_not_answered_once_then_answered_when_said_again():
    stt = FakeStt(transcript="How many lanterns does a spider have?", least_word_p=0.05)
    (first, second), llm = spoken_turns(stt, 2)
    assert (first.source, first.reply) == ("misheard", DID_NOT_CATCH)
    assert first.timeline.counts["least_word_p"] == pytest.approx(0.05)
    assert second.source == "llm" and llm.calls == ["How many lanterns does a spider have?"]


def test_words_heard_surely_enough_are_answered():
    stt = FakeStt(transcript="How many legs does a spider have?", least_word_p=0.6)
    (result,), llm = spoken_turns(stt, 1)
    assert result.source == "llm" and llm.calls


def test_only_where_the_threshold_was_measured():
    stt = FakeStt(transcript="Wie viele Beine hat eine Spinne?", least_word_p=0.05)
    (result,), llm = spoken_turns(stt, 1, language="de")
    assert result.source == "llm" and llm.calls


def test_the_guard_alone():
    guard = MisheardGuard(0.2, "en")
    assert guard.notice("typed words", None) is None           # typed: no recognizer to doubt
    assert guard.notice("", 0.01) is None                      # nothing to answer anyway
    assert guard.notice("What is it for?", 0.5) is None
    notice = guard.notice("Bukets like Logan", 0.086)
    assert notice is not None and notice.source == "misheard" and notice.words("") == DID_NOT_CATCH
    guard.replied("misheard")
    assert guard.notice("Bukets like Logan", 0.086) is None      # said again: answered
    guard.replied("llm")
    assert guard.notice("Bukets like Logan", 0.086) is not None
    assert MisheardGuard(0.0, "en").notice("Bukets like Logan", 0.086) is None  # 0: off


def test_words_likely_misheard_end_the_turn_after_the_moderate_wait_not_the_longest():
    """The model's low reading of misheard words does not hold the turn for ``turn.max_ms``: the
    pause's words reach the turn detector marked as likely misheard, and it waits ``misheard_ms``."""
    low = FakeLlm(end_of_turn_p=1e-4)
    stt = FakeStt(transcript="Which said he doesn't do it.", least_word_p=0.07)
    (misheard,), _ = spoken_turns(stt, 1, llm=low)
    counts, turn = misheard.timeline.counts, Config().turn
    assert counts["turn_reason"].endswith("words likely misheard")
    assert turn.misheard_ms <= counts["turn_silence_ms"] < turn.max_ms - 500
    stt = FakeStt(transcript="Which city is it in?", least_word_p=0.6)
    (heard,), _ = spoken_turns(stt, 1, llm=FakeLlm(end_of_turn_p=1e-4))
    assert heard.timeline.counts["turn_silence_ms"] > turn.misheard_ms + 500  # heard surely: the model decides
