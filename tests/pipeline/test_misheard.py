"""Words the recognizer was unsure of (fakes for the models): the turn says it did not catch
them instead of answering them, never twice in a row, never for typed words, a skill or an
instant reply, and only where the threshold was measured (English). Speech read as nothing: the
same notice, in the language spoken, where it lasted as long as a question."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from assistant.config import Config, VadConfig
from assistant.hear.sources import PacedWavSource
from assistant.pipeline import Engine
from assistant.think.misheard import DID_NOT_CATCH, HEARD_FOR_S, NOT_HEARD, MisheardGuard

from fakes import FakeLlm, FakeStt, FakeTts, FakeVad, Recorder, RecordingSink

RATE = 16000


def speech(seconds: float = 0.6) -> np.ndarray:
    return np.concatenate([np.zeros(int(0.3 * RATE), np.float32), np.full(int(seconds * RATE), 0.3, np.float32),
                           np.zeros(int(1.5 * RATE), np.float32)])


def spoken_turns(stt: FakeStt, takes: int, language: str = "en", llm: FakeLlm | None = None, seconds: float = 0.6):
    """The results of ``takes`` spoken turns (one WAV each, the same engine), and the model."""
    config = Config(vad=VadConfig(min_speech_ms=64))
    config = replace(config, stt=replace(config.stt, language=language))
    llm = llm or FakeLlm()
    recorder = Recorder()
    engine = Engine(config, vad=FakeVad(), output=RecordingSink(), on_event=recorder, stt=stt, llm=llm,
                    tts=FakeTts())
    try:
        for take in range(takes):
            engine.listen(PacedWavSource(speech(seconds), RATE, 512, realtime=True))
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


def test_speech_read_as_nothing_gets_the_notice_once_when_it_lasted_as_long_as_a_question():
    (first, second, third), llm = spoken_turns(FakeStt(transcript=""), 3, seconds=HEARD_FOR_S + 0.5)
    assert (first.source, first.reply, first.transcript) == ("misheard", DID_NOT_CATCH, "")
    assert not first.errors and not llm.calls
    assert (second.source, second.reply) == ("", "") and second.errors  # not twice in a row: no reply, said why
    assert (third.source, third.reply) == ("misheard", DID_NOT_CATCH)


def test_a_short_sound_read_as_nothing_gets_no_reply():
    (result,), llm = spoken_turns(FakeStt(transcript=""), 1, seconds=HEARD_FOR_S / 2)
    assert (result.source, result.reply) == ("", "") and "nothing was understood" in result.errors[0]
    assert not llm.calls


def test_speech_read_as_nothing_is_told_in_the_language_spoken():
    (result,), _ = spoken_turns(FakeStt(transcript=""), 1, language="ko", seconds=HEARD_FOR_S + 0.5)
    assert (result.source, result.reply) == ("misheard", NOT_HEARD["ko"])


def test_the_guard_for_speech_read_as_nothing():
    guard = MisheardGuard(0.2, "ko")
    assert guard.not_heard(None) is None and guard.not_heard(HEARD_FOR_S - 0.01) is None
    notice = guard.not_heard(HEARD_FOR_S)
    assert notice is not None and notice.words("") == NOT_HEARD["ko"]
    guard.replied("misheard")
    assert guard.not_heard(3.0) is None
    assert MisheardGuard(0.0, "de").not_heard(3.0).words("") == DID_NOT_CATCH  # any language, the threshold off
