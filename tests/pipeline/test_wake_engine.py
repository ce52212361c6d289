"""The wake phrase in the wired engine, on fakes: an utterance without it is no turn and shows
nothing; with it, the words after it are the turn; push-to-talk and typing never need it."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

from assistant.config import Config, with_overrides
from assistant.events import EventType, State
from assistant.hear.sources import PacedWavSource
from assistant.pipeline import Engine
from assistant.pipeline.waiting import wait_until

from fakes import FakeLlm, FakeTts, FakeVad, Recorder, RecordingSink

RATE = 16000


class ScriptedUtterance:
    last_word_p = None

    def __init__(self, text: str):
        self.text = text
        self.looks = 0

    def feed(self, pcm):
        return None

    def transcribe(self):
        self.looks += 1
        return self.text


@dataclass
class ScriptedStt:
    """Each utterance is transcribed as the next text of ``texts`` (whatever audio it holds)."""

    texts: list[str]
    name: str = "scripted"
    streaming: bool = False
    punctuates: bool = True
    utterances: list[ScriptedUtterance] = field(default_factory=list)

    def utterance(self):
        self.utterances.append(ScriptedUtterance(self.texts[len(self.utterances) % len(self.texts)]))
        return self.utterances[-1]


def _utterances(count: int, speech_s: float = 1.2, gap_s: float = 1.5) -> np.ndarray:
    parts = [np.zeros(int(0.3 * RATE), np.float32)]
    for _ in range(count):
        parts += [np.full(int(speech_s * RATE), 0.3, np.float32), np.zeros(int(gap_s * RATE), np.float32)]
    return np.concatenate(parts)


@pytest.fixture
def make_engine():
    engines = []

    def make(texts, phrase="hey assistant", follow_up_s=5.0, reply="Paris is the capital."):
        config = with_overrides(Config(), wake={"phrase": phrase, "follow_up_s": follow_up_s, "chime": False},
                                turn={"mode": "fixed"})
        recorder, stt = Recorder(), ScriptedStt(texts)
        engine = Engine(config, vad=FakeVad(), output=RecordingSink(), on_event=recorder, stt=stt, llm=FakeLlm(reply=reply),
                        tts=FakeTts())
        engines.append(engine)
        return engine, recorder, stt

    yield make
    for engine in engines:
        engine.close()


def _hear(engine, samples: np.ndarray, await_phrase: bool = True, realtime: bool = False) -> PacedWavSource:
    source = PacedWavSource(samples, RATE, 512, realtime=realtime)
    engine.listen(source, await_phrase=await_phrase)
    return source


def test_words_without_the_phrase_are_no_turn_and_show_nothing(make_engine):
    engine, rec, stt = make_engine(["And now the weather for the weekend ahead."])
    source = _hear(engine, _utterances(1))
    assert wait_until(lambda: source.input_over(0.8), 10)
    assert wait_until(lambda: stt.utterances and stt.utterances[0].looks >= 1, 5)
    engine.stop_listening()
    assert rec.results == [] and rec.of(EventType.SPEECH_START) == [] and rec.of(EventType.TRANSCRIPT) == []
    states = [e.data for e in rec.of(EventType.STATE)]
    assert State.WAITING in states and State.HEARING not in states
    assert stt.utterances[0].looks == 1  # many words, none the phrase: one look settles it


def test_the_phrase_and_the_question_in_one_breath_are_one_turn_without_the_phrase(make_engine):
    engine, rec, _ = make_engine(["Hey assistant, what is the capital of France?"])
    _hear(engine, _utterances(1))
    rec.wait_turns(1)
    engine.stop_listening()
    result = rec.results[0]
    assert result.transcript == "what is the capital of France?"
    wake = rec.of(EventType.WAKE)
    assert len(wake) == 1 and wake[0].turn_id == result.turn_id and wake[0].data.score >= 80
    counts = result.timeline.counts
    assert counts["wake_score"] == wake[0].data.score and counts["wake_ms"] >= 0
    assert result.timeline.latency_ms()["wake"] == counts["wake_ms"]
    assert rec.of(EventType.SPEECH_START)[0].turn_id == result.turn_id


class UnsureOfThePhrase(ScriptedUtterance):
    """Whisper unsure of the phrase's words (a voice it hears badly), sure of the question's."""

    last_word_p = 0.9
    least_word_p = 0.05

    def least_word_p_after(self, chars: int) -> float | None:
        return 0.8 if self.text[chars:].startswith("what is") else self.least_word_p


def test_the_phrase_s_own_words_do_not_make_the_question_misheard(make_engine):
    engine, rec, stt = make_engine(["Hey assistant, what is the capital of France?"])
    stt.utterance = lambda: stt.utterances.append(UnsureOfThePhrase(stt.texts[0])) or stt.utterances[-1]
    _hear(engine, _utterances(1))
    rec.wait_turns(1)
    engine.stop_listening()
    result = rec.results[0]
    assert result.transcript == "what is the capital of France?" and result.reply == "Paris is the capital."
    assert result.source == "llm" and result.timeline.counts["least_word_p"] == 0.8


def test_after_the_phrase_a_follow_up_needs_none(make_engine):
    engine, rec, _ = make_engine(["Hey assistant, what is the capital of France?", "And of Spain?"], follow_up_s=60)
    _hear(engine, _utterances(2, gap_s=2.5), realtime=True)  # the follow-up begins once the reply is over
    rec.wait_turns(2, timeout=20)
    engine.stop_listening()
    assert [r.transcript for r in rec.results] == ["what is the capital of France?", "And of Spain?"]
    assert len(rec.of(EventType.WAKE)) == 1


def test_push_to_talk_needs_no_phrase(make_engine):
    engine, rec, _ = make_engine(["What is the capital of France?"])
    _hear(engine, _utterances(1), await_phrase=False)
    rec.wait_turns(1)
    engine.stop_listening()
    assert rec.results[0].transcript == "What is the capital of France?" and rec.of(EventType.WAKE) == []


def test_typing_needs_no_phrase_while_waiting(make_engine):
    engine, rec, _ = make_engine(["And now the weather."])
    source = _hear(engine, np.zeros(RATE, np.float32))
    assert wait_until(lambda: engine.state is State.WAITING, 5)
    engine.submit_text("what is the capital of France")
    rec.wait_turns(1)
    engine.stop_listening()
    assert rec.results[0].transcript == "what is the capital of France" and source is not None


def test_no_phrase_set_answers_whatever_it_hears(make_engine):
    engine, rec, _ = make_engine(["And now the weather."], phrase="")
    _hear(engine, _utterances(1))
    rec.wait_turns(1)
    engine.stop_listening()
    assert rec.results[0].transcript == "And now the weather." and State.WAITING not in [
        e.data for e in rec.of(EventType.STATE)]
