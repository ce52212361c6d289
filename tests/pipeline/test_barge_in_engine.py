"""Barge-in through the wired engine, on fakes: speech over a playing reply pauses it,
then takes the floor, lets it resume, or (half duplex) only "stop" stops it."""

from __future__ import annotations

import time

import numpy as np
import pytest

from assistant.hear.sources import PacedWavSource
from assistant.config import Config, EchoConfig, VadConfig
from assistant.hear.echo import DuplexMode, SpeakerEcho
from assistant.pipeline import Engine
from assistant.pipeline.waiting import wait_until

from fakes import FakeLlm, FakeStt, FakeTts, FakeVad, Recorder, RecordingSink

RATE = 16000
LONG_REPLY = " ".join(f"Word{i}." if i % 8 == 7 else f"word{i}" for i in range(60))
"""About 3 s of fake speech (50 ms a word), in sentences of eight words."""


class Passing:
    """A canceller that takes nothing out: the fake user's voice reaches the VAD as it is."""

    name = "passing"
    rate = RATE
    block_samples = 160
    delay_samples = 0

    def cancel(self, mic, far):
        return mic

    def close(self):
        pass


def config() -> Config:
    return Config(vad=VadConfig(endpoint_ms=200, min_speech_ms=64), echo=EchoConfig(ready_erle_db=0.0))


def user_over_reply(at_s: float, seconds: float, total_s: float = 6.0) -> np.ndarray:
    pcm = np.zeros(round(total_s * RATE), np.float32)
    pcm[round(at_s * RATE) : round((at_s + seconds) * RATE)] = 0.3
    return pcm


@pytest.fixture
def run():
    engines = []

    def start(transcript: str, full_duplex: bool = True, at_s: float = 1.0, seconds: float = 0.5, replies=None):
        recorder, out, llm = Recorder(), RecordingSink(), FakeLlm(reply=LONG_REPLY)
        cfg = config()
        mode = DuplexMode("passing") if full_duplex else DuplexMode(None, "no canceller in this test")
        echo = SpeakerEcho(cfg.echo, RATE, 512, canceller=Passing() if full_duplex else None, mode=mode)
        engine = Engine(cfg, stt=FakeStt(transcript=transcript), llm=llm, tts=FakeTts(), vad=FakeVad(), output=out,
                        on_event=recorder, echo=echo, replies=replies)
        engines.append(engine)
        source = PacedWavSource(user_over_reply(at_s, seconds), RATE, 512, realtime=True)
        engine.listen(source)
        time.sleep(0.2)
        engine.submit_text("tell me a long story")
        return engine, recorder, out, llm

    yield start
    for engine in engines:
        engine.close()


def played_s(out: RecordingSink) -> float:
    return sum(p.size for p in out.played) / RATE


def test_a_question_over_the_reply_stops_it_and_is_answered(run):
    engine, rec, out, llm = run("What about Paris?")
    rec.wait_turns(2, timeout=15)
    cut, answer = rec.results[0], rec.results[1]
    assert cut.interrupted and cut.transcript == "tell me a long story"
    assert cut.timeline.counts["barge_in_pauses"] == 1
    assert answer.transcript == "What about Paris?" and not answer.interrupted and answer.reply
    assert answer.timeline.counts["barge_in"] is True
    heard = cut.reply
    assert heard and len(heard) < len(LONG_REPLY)
    assert LONG_REPLY.split()[: len(heard.split())] == heard.split()  # up to the last chunk heard
    assert wait_until(lambda: len(llm.remembered) == 2, 5)
    assert llm.remembered[0] == ("tell me a long story", heard)  # the history holds what was heard
    assert out.flushes >= 1


def test_a_question_over_the_reply_is_read_by_the_model_for_its_end(run):
    """Words over the reply that take the floor are settled at their first pause: the model reads
    them for the turn's end, as any turn's, instead of the silence deciding alone."""
    engine, rec, out, llm = run("What about Paris?")
    rec.wait_turns(2, timeout=15)
    answer = rec.results[1]
    assert answer.timeline.counts["barge_in"] is True
    assert "What about Paris" in llm.weighed
    assert answer.timeline.counts["turn_reason"].startswith("end of sentence")


def test_a_backchannel_is_not_read_for_its_end(run):
    engine, rec, out, llm = run("Mm-hmm.")
    rec.wait_turns(1, timeout=15)
    assert wait_until(lambda: not engine.busy, 10)
    assert not any("Mm" in words for words in llm.weighed)  # left to the endpoint, on all its words
    assert rec.results[0].timeline.counts["barge_in_resumed"] == 1


def test_a_backchannel_lets_the_reply_resume_and_finish(run):
    engine, rec, out, llm = run("Mm-hmm.")
    rec.wait_turns(1, timeout=15)
    assert wait_until(lambda: not engine.busy, 10)
    assert len(rec.results) == 1
    result = rec.results[0]
    assert not result.interrupted
    assert result.timeline.counts["barge_in_pauses"] == 1 and result.timeline.counts["barge_in_resumed"] == 1
    assert result.reply == LONG_REPLY
    assert played_s(out) >= 0.05 * 60 - 0.05  # every word was played, the paused part again
    assert wait_until(lambda: llm.remembered, 2)
    assert llm.remembered == [("tell me a long story", LONG_REPLY)]


def test_a_cough_does_not_pause_the_reply(run):
    engine, rec, out, llm = run("", seconds=0.07)  # at most three 32 ms frames: under min_speech_ms
    rec.wait_turns(1, timeout=15)
    assert wait_until(lambda: not engine.busy, 10)
    assert len(rec.results) == 1 and not rec.results[0].interrupted
    assert "barge_in_pauses" not in rec.results[0].timeline.counts
    assert out.flushes == 0


def test_half_duplex_does_not_pause_and_ignores_questions(run):
    engine, rec, out, llm = run("What about Paris?", full_duplex=False)
    rec.wait_turns(1, timeout=15)
    assert wait_until(lambda: not engine.busy, 10)
    assert len(rec.results) == 1 and not rec.results[0].interrupted
    assert out.flushes == 0
    assert llm.calls == ["tell me a long story"]


def test_half_duplex_still_hears_stop(run):
    engine, rec, out, llm = run("Stop!", full_duplex=False)
    rec.wait_turns(2, timeout=15)
    cut, stop = rec.results[0], rec.results[1]
    assert cut.interrupted and stop.transcript == "Stop!" and not stop.reply
    assert llm.calls == ["tell me a long story"]
    assert engine.duplex.label == "half duplex"


@pytest.mark.parametrize("said", ["Wait.", "Hold on."])
def test_wait_said_over_the_reply_stops_it_and_is_not_answered(run, said):
    from assistant.config import RepliesConfig
    from assistant.pipeline.session import load_replies

    replies = load_replies(RepliesConfig(), FakeTts(), RATE, background=False)
    engine, rec, out, llm = run(said, replies=replies)
    rec.wait_turns(2, timeout=15)
    cut, wait = rec.results[0], rec.results[1]
    assert cut.interrupted and wait.transcript == said and not wait.reply
    assert llm.calls == ["tell me a long story"]  # hushed, not taken as a question


def test_half_duplex_hears_a_sentence_that_begins_with_wait_and_answers_it(run):
    from assistant.config import RepliesConfig
    from assistant.pipeline.session import load_replies

    replies = load_replies(RepliesConfig(), FakeTts(), RATE, background=False)
    engine, rec, out, llm = run("Wait, what about Paris?", full_duplex=False, replies=replies)
    rec.wait_turns(2, timeout=15)
    cut, asked = rec.results[0], rec.results[1]
    assert cut.interrupted and asked.transcript == "Wait, what about Paris?" and asked.reply
    assert llm.calls == ["tell me a long story", "Wait, what about Paris?"]


def test_half_duplex_hears_stop_asked_politely(run):
    """"Could you please stop?" is the stop phrase in a frame: it stops the reply with no canceller too."""
    from assistant.config import RepliesConfig
    from assistant.pipeline.session import load_replies

    replies = load_replies(RepliesConfig(), FakeTts(), RATE, background=False)
    engine, rec, out, llm = run("Could you please stop?", full_duplex=False, replies=replies)
    rec.wait_turns(2, timeout=15)
    cut, stop = rec.results[0], rec.results[1]
    assert cut.interrupted and stop.transcript == "Could you please stop?" and not stop.reply
    assert llm.calls == ["tell me a long story"]
