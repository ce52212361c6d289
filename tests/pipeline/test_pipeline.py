"""Engine logic with fakes: turn flow, interruption, bad turns. Real models: test_e2e.py."""

from __future__ import annotations

import time

import numpy as np
import pytest

from assistant.hear.sources import PacedWavSource
from assistant.config import Config, VadConfig
from assistant.events import EventType
from assistant.pipeline import Engine
from assistant.timeline import Mark
from assistant.pipeline.waiting import wait_until

from fakes import FakeLlm, FakeStt, FakeTts, FakeUtterance, FakeVad, Recorder, RecordingSink


@pytest.fixture
def make_engine():
    engines = []

    def make(stt=None, llm=None, tts=None, config=None):
        recorder = Recorder()
        parts = dict(stt=stt or FakeStt(), llm=llm or FakeLlm(), tts=tts or FakeTts())
        parts["out"] = RecordingSink()
        engine = Engine(config or Config(), vad=FakeVad(), output=parts["out"], on_event=recorder,
                        stt=parts["stt"], llm=parts["llm"], tts=parts["tts"])
        engines.append(engine)
        return engine, recorder, parts

    yield make
    for engine in engines:
        engine.close()


def test_typed_turn_streams_reply_in_chunks_and_marks_the_timeline(make_engine):
    engine, rec, parts = make_engine()
    engine.submit_text("what is up")
    rec.wait_turns(1)
    result = rec.results[0]
    assert result.source == "llm" and not result.interrupted
    assert result.reply == parts["llm"].reply
    assert parts["llm"].calls == ["what is up"]
    assert len(parts["tts"].spoken) >= 2  # chunked, not one blob
    assert parts["tts"].spoken[0].startswith("Sure,")
    tl = result.timeline
    for mark in (Mark.STT_FINAL, Mark.LLM_START, Mark.LLM_FIRST_TOKEN, Mark.FIRST_CHUNK,
                 Mark.TTS_FIRST_AUDIO, Mark.AUDIO_OUT_START, Mark.TURN_END):
        assert tl.get(mark) is not None, mark
    assert tl.in_order()
    assert wait_until(lambda: parts["llm"].remembered, 2)  # the history is written as the turn closes
    assert parts["llm"].remembered == [("what is up", parts["llm"].reply.strip())]


def test_interrupt_stops_generation_and_playback_and_the_next_turn_works(make_engine):
    slow = FakeLlm(reply=" ".join(f"word{i}." for i in range(200)), delay_s=0.01)
    engine, rec, parts = make_engine(llm=slow)
    engine.submit_text("tell me a long story")
    wait_until(lambda: bool(parts["tts"].spoken), 5)
    engine.interrupt()
    rec.wait_turns(1)
    assert rec.results[0].interrupted
    assert slow.closed.wait(2), "generation kept running after the interrupt"
    assert slow.produced < 200
    assert parts["out"].flushes >= 1
    slow.reply, slow.delay_s = "Short answer.", 0.0
    engine.submit_text("again")
    rec.wait_turns(2)
    assert rec.results[1].reply == "Short answer."
    assert not rec.results[1].interrupted


def test_empty_transcript_makes_no_llm_call(make_engine):
    engine, rec, parts = make_engine()
    engine.submit_text("   ")
    rec.wait_turns(1)
    assert parts["llm"].calls == []
    assert rec.results[0].source == ""
    assert rec.of(EventType.ERROR)


def test_tts_failure_mid_reply_keeps_the_text_and_the_engine(make_engine):
    tts = FakeTts(fail_on="two")
    llm = FakeLlm(reply="Sentence number one is here. Sentence number two is here. Sentence three is fine.")
    engine, rec, _ = make_engine(llm=llm, tts=tts)
    engine.submit_text("go")
    rec.wait_turns(1)
    result = rec.results[0]
    assert result.reply == llm.reply
    assert any("could not speak" in e for e in result.errors)
    assert any("three" in s for s in tts.spoken)  # later chunks still spoken
    engine.submit_text("again")
    rec.wait_turns(2)


def test_llm_failure_is_reported_and_the_engine_stays_usable(make_engine):
    llm = FakeLlm(fail=True)
    engine, rec, _ = make_engine(llm=llm)
    engine.submit_text("boom")
    rec.wait_turns(1)
    assert any("model exploded" in e for e in rec.results[0].errors)
    llm.fail = False
    engine.submit_text("fine now")
    rec.wait_turns(2)
    assert rec.results[1].reply


def _speech(seconds_speech, rate=16000, lead=0.3, tail=0.8):
    return np.concatenate([
        np.zeros(int(lead * rate), np.float32),
        np.full(int(seconds_speech * rate), 0.3, np.float32),
        np.zeros(int(tail * rate), np.float32),
    ])


def _speech_then_murmur(seconds_speech, rate=16000, murmur=0.25, tail=2.6):
    """Speech, then words said quietly (audible, below the VAD), then silence."""
    return np.concatenate([
        _speech(seconds_speech, rate, tail=0.0),
        np.full(int(murmur * rate), 0.02, np.float32),
        np.zeros(int(tail * rate), np.float32),
    ])


def test_audio_turn_marks_speech_end_on_the_audio_clock(make_engine):
    config = Config(vad=VadConfig(endpoint_ms=200, min_speech_ms=64))
    engine, rec, parts = make_engine(config=config)
    source = PacedWavSource(_speech(0.64), 16000, 512, realtime=True)  # audio clock = wall clock
    engine.listen(source)
    rec.wait_turns(1)
    engine.stop_listening()
    tl = rec.results[0].timeline
    # speech ends 0.3 + 0.64 s after sample 0 of the input
    assert abs((tl.get(Mark.SPEECH_END) - source.t0) - 0.94) < 0.033
    assert abs((tl.get(Mark.SPEECH_START) - source.t0) - 0.30) < 0.033
    assert parts["stt"].transcribed == 1  # the speculative transcript was reused, not redone
    assert tl.counts["speculative"] is True
    assert tl.in_order()
    assert tl.get(Mark.AUDIO_OUT_START) >= tl.get(Mark.ENDPOINT)  # nothing heard before the endpoint
    # the reply's prompt was evaluated at the pause (the end-of-turn reading): the TTFT holds it
    assert tl.counts["prompt_eval_ms"] >= 0.0
    assert tl.latency_ms()["ttft"] == pytest.approx(tl.span_ms(Mark.LLM_START, Mark.LLM_FIRST_TOKEN)
                                                    + tl.counts["prompt_eval_ms"], abs=0.2)


class EchoLlm(FakeLlm):
    """Replies with the words it was given, so each attempt's reply is its own."""

    def stream(self, user, stats):
        self.reply = f"Reply {len(self.calls) + 1}: you asked {user}. That is a fine question."
        yield from super().stream(user, stats)


class MarkingTts(FakeTts):
    """Each chunk's audio has a level of its own, so what was played can be traced to its text."""

    def __init__(self):
        super().__init__()
        self.levels: dict[str, float] = {}

    def synthesize(self, text):
        self.spoken.append(text)
        level = self.levels.setdefault(text, 0.05 + 0.01 * len(self.levels))
        yield np.full(int(self.rate * 0.05 * max(1, len(text.split()))), level, np.float32)


def _paused_speech(pause_s: float, rate: int = 16000) -> np.ndarray:
    return np.concatenate([
        np.zeros(int(0.3 * rate), np.float32), np.full(int(0.5 * rate), 0.3, np.float32),
        np.zeros(int(pause_s * rate), np.float32),
        np.full(int(0.5 * rate), 0.3, np.float32), np.zeros(int(0.8 * rate), np.float32),
    ])


def test_speaking_on_after_a_pause_drops_the_speculative_reply(make_engine):
    config = Config(vad=VadConfig(early_silence_ms=96, min_speech_ms=64))
    llm = EchoLlm(delay_s=0.01)
    stt = FakeStt(transcripts=["what is the capital of", "what is the capital of France"])
    tts = MarkingTts()
    engine, rec, parts = make_engine(stt=stt, llm=llm, tts=tts, config=config)
    engine.listen(PacedWavSource(_paused_speech(0.7), 16000, 512, realtime=True))  # a thinking pause
    rec.wait_turns(1)
    engine.stop_listening()
    assert len(rec.results) == 1
    result = rec.results[0]
    tl = result.timeline
    assert tl.counts["speculation_dropped"] == 1
    assert llm.calls == ["what is the capital of", "what is the capital of France"]  # dropped, then committed
    assert wait_until(lambda: llm.remembered, 2)  # the history is written as the turn closes
    assert llm.remembered == [("what is the capital of France", llm.reply)]  # only the committed reply is history
    assert [e.data for e in rec.of(EventType.TRANSCRIPT)] == ["what is the capital of France"]
    assert "".join(e.data for e in rec.of(EventType.REPLY_TEXT)).strip() == llm.reply
    assert tl.counts["turn_decision"] == "complete" and tl.in_order()
    # the dropped reply's audio stayed out of what was played
    committed = {level for text, level in tts.levels.items() if not text.startswith("Reply 1")}
    dropped = {level for text, level in tts.levels.items() if text.startswith("Reply 1")}
    assert dropped, "the dropped reply was synthesized (and must not be heard)"
    played = {round(float(pcm[0]), 4) for pcm in parts["out"].played}
    assert played and played <= {round(v, 4) for v in committed}
    assert not played & {round(v, 4) for v in dropped}


def test_a_thinking_pause_is_not_the_end_of_the_turn_but_complete_words_end_it_soon(make_engine):
    config = Config(vad=VadConfig(min_speech_ms=64))
    stt = FakeStt(transcripts=["what is the capital of", "what is the capital of France?"])
    engine, rec, _ = make_engine(stt=stt, config=config)
    engine.listen(PacedWavSource(_paused_speech(1.0), 16000, 512, realtime=True))
    rec.wait_turns(1)
    engine.stop_listening()
    assert len(rec.results) == 1 and rec.results[0].transcript == "what is the capital of France?"
    tl = rec.results[0].timeline
    wait_ms = (tl.get(Mark.ENDPOINT) - tl.get(Mark.SPEECH_END)) * 1000
    assert tl.counts["turn_decision"] == "complete"
    assert config.turn.complete_ms <= wait_ms < config.turn.unsure_ms  # soon, not at a fixed maximum
    assert tl.decision().startswith("complete at ")


def test_unfinished_words_are_answered_after_the_longest_wait(make_engine):
    from dataclasses import replace

    config = replace(Config(vad=VadConfig(min_speech_ms=64)), turn=replace(Config().turn, max_ms=900, unsure_ms=700))
    stt = FakeStt(transcripts=["can you tell me, um"])
    engine, rec, parts = make_engine(stt=stt, config=config)
    engine.listen(PacedWavSource(_speech(0.6, tail=1.5), 16000, 512, realtime=True))
    rec.wait_turns(1)
    engine.stop_listening()
    tl = rec.results[0].timeline
    assert tl.counts["turn_decision"] == "unfinished" and tl.counts["turn_silence_ms"] >= 900
    assert parts["llm"].calls == ["can you tell me, um"]  # one sensible turn, answered in the end


def test_an_empty_transcript_at_the_pause_is_transcribed_again_at_the_endpoint(make_engine):
    config = Config(vad=VadConfig(min_speech_ms=64))
    stt = FakeStt(transcripts=["", "hello there"])  # nothing at the pause (a breath), the words at the end
    engine, rec, parts = make_engine(stt=stt, config=config)
    engine.listen(PacedWavSource(_speech(0.6, tail=2.6), 16000, 512, realtime=True))
    rec.wait_turns(1)
    engine.stop_listening()
    result = rec.results[0]
    assert result.transcript == "hello there" and result.reply and not result.errors
    assert result.timeline.counts["speculative"] is False
    assert parts["llm"].calls == ["hello there"]


def test_an_empty_transcript_at_the_endpoint_keeps_the_words_of_the_pause(make_engine):
    config = Config(vad=VadConfig(min_speech_ms=64))
    # at the endpoint the recognizer gives nothing (its loop guard dropped a repeated sentence)
    stt = FakeStt(transcripts=["tell me about the", ""])
    engine, rec, parts = make_engine(stt=stt, config=config)
    engine.listen(PacedWavSource(_speech_then_murmur(0.6), 16000, 512, realtime=True))
    rec.wait_turns(1)
    engine.stop_listening()
    result = rec.results[0]
    assert result.timeline.counts["rechecked"] and not result.timeline.counts.get("recheck_changed")
    assert result.transcript == "tell me about the" and result.reply and not result.errors
    assert parts["llm"].calls == ["tell me about the"]


def test_a_later_transcript_that_differs_wins_over_the_pause_one(make_engine):
    config = Config(vad=VadConfig(min_speech_ms=64))
    llm = EchoLlm()
    # the words at the pause sound unfinished, so the turn waits; more was said quietly, and at the
    # endpoint the words are longer
    stt = FakeStt(transcripts=["tell me about the", "tell me about the moon"])
    engine, rec, _ = make_engine(stt=stt, llm=llm, config=config)
    engine.listen(PacedWavSource(_speech_then_murmur(0.6), 16000, 512, realtime=True))
    rec.wait_turns(1)
    engine.stop_listening()
    result = rec.results[0]
    tl = result.timeline
    assert tl.counts["rechecked"] and tl.counts["recheck_changed"]
    assert result.transcript == "tell me about the moon"
    assert wait_until(lambda: llm.remembered, 2)  # the history is written as the turn closes
    assert llm.remembered == [("tell me about the moon", llm.reply)]
    assert [e.data for e in rec.of(EventType.TRANSCRIPT)] == ["tell me about the moon"]
    assert "the moon" in result.reply and tl.in_order()


def test_silence_only_makes_no_turn(make_engine):
    engine, rec, parts = make_engine()
    source = PacedWavSource(np.zeros(16000, np.float32), 16000, 512, realtime=False)
    engine.listen(source)
    time.sleep(0.3)
    engine.stop_listening()
    assert rec.results == [] and parts["llm"].calls == []


def test_new_speech_barges_in_on_a_reply(make_engine):
    slow = FakeLlm(reply=" ".join(f"word{i}." for i in range(300)), delay_s=0.01)
    engine, rec, _ = make_engine(llm=slow)
    engine.submit_text("long one")
    time.sleep(0.1)
    second = engine.begin_turn()
    rec.wait_turns(1)
    assert rec.results[0].interrupted
    assert engine.is_current(second)


class SlowFirstChunkTts(FakeTts):
    """Records how many LLM tokens were produced while its first chunk was synthesized."""

    def __init__(self, llm: FakeLlm):
        super().__init__()
        self.llm = llm
        self.during_first: tuple[int, int] | None = None

    def synthesize(self, text):
        if self.during_first is None:
            before = self.llm.produced
            time.sleep(0.2)
            self.during_first = (before, self.llm.produced)
        yield from super().synthesize(text)


@pytest.mark.parametrize("alone", [True, False])
def test_the_llm_pauses_while_the_first_chunk_is_synthesized(make_engine, alone):
    from dataclasses import replace

    llm = FakeLlm()
    tts = SlowFirstChunkTts(llm)
    config = Config()
    config = replace(config, tts=replace(config.tts, first_chunk_alone=alone))
    engine, rec, parts = make_engine(llm=llm, tts=tts, config=config)
    engine.submit_text("what is up")
    rec.wait_turns(1)
    before, after = tts.during_first
    assert tts.spoken[0].startswith("Sure, here")
    if alone:
        assert after == before, "no tokens were generated while the first chunk was synthesized"
        assert rec.results[0].timeline.counts["llm_paused_s"] >= 0.15
    else:
        assert after > before
    assert rec.results[0].reply == llm.reply  # the whole reply still comes


class PartialsUtterance:
    """A streaming recognizer: one more word of the transcript per 0.2 s of audio."""

    last_word_p = None

    def __init__(self, stt):
        self.stt, self.samples = stt, 0

    def feed(self, pcm):
        self.samples += pcm.size
        words = self.stt.transcript.split()[: 1 + self.samples // 3200]
        return " ".join(words)

    def transcribe(self):
        return self.stt.transcript


class PartialsStt(FakeStt):
    streaming = True

    def utterance(self):
        return PartialsUtterance(self)


class PrefillLlm(FakeLlm):
    def __init__(self):
        super().__init__()
        self.prefilled: list[tuple[str, int]] = []

    def prefill(self, partial):
        self.prefilled.append((partial, len(self.calls)))
        return len(partial.split())


def test_partial_transcripts_are_prefilled_before_the_turn_is_answered(make_engine):
    stt = PartialsStt(transcript="what is the capital of france")
    llm = PrefillLlm()
    config = Config(vad=VadConfig(endpoint_ms=300, min_speech_ms=64))
    engine, rec, parts = make_engine(stt=stt, llm=llm, config=config)
    engine.listen(PacedWavSource(_speech(1.2), 16000, 512, realtime=True))
    rec.wait_turns(1)
    engine.stop_listening()
    assert llm.prefilled, "no partial reached the LLM"
    assert all(calls == 0 for _, calls in llm.prefilled), "prefill only before the turn is answered"
    assert llm.prefilled[-1][0].startswith("what is the")
    assert rec.results[0].timeline.counts["prefill_tokens"] >= 3
    assert llm.calls == ["what is the capital of france"]


def test_prefill_can_be_turned_off(make_engine):
    from dataclasses import replace

    llm = PrefillLlm()
    config = Config(vad=VadConfig(endpoint_ms=300, min_speech_ms=64))
    config = replace(config, llm=replace(config.llm, prefill_partials=False))
    engine, rec, _ = make_engine(stt=PartialsStt(), llm=llm, config=config)
    engine.listen(PacedWavSource(_speech(0.8), 16000, 512, realtime=True))
    rec.wait_turns(1)
    engine.stop_listening()
    assert llm.prefilled == [] and llm.calls


class CoresLlm(FakeLlm):
    """Records when the engine switched decoding to every core and back."""

    def __init__(self, tts=None):
        super().__init__()
        self.switches: list[tuple[bool, int]] = []
        self.tts = tts

    def all_cores(self, on):
        self.switches.append((on, len(self.tts.spoken) if self.tts else 0))


def test_the_llm_decodes_on_every_core_until_the_first_chunk(make_engine):
    tts = FakeTts()
    llm = CoresLlm(tts)
    engine, rec, _ = make_engine(llm=llm, tts=tts)
    engine.submit_text("what is up")
    rec.wait_turns(1)
    assert llm.switches == [(True, 0), (False, 0)], "back to shared cores before the first chunk is synthesized"


class LaggingUtterance(FakeUtterance):
    def feed(self, pcm):
        time.sleep(0.05)  # slower than real time: audio queues up, like vosk on a slow machine
        return super().feed(pcm)


class LaggingStt(FakeStt):
    def utterance(self):
        return LaggingUtterance(self)


def test_the_llm_keeps_to_its_threads_while_the_recognizer_is_behind(make_engine):
    from dataclasses import replace

    llm = CoresLlm()
    config = Config(vad=VadConfig(endpoint_ms=300, min_speech_ms=64))
    engine, rec, _ = make_engine(stt=LaggingStt(), llm=llm, config=config)
    engine.listen(PacedWavSource(_speech(0.5), 16000, 512, realtime=True))
    rec.wait_turns(1)
    engine.stop_listening()
    assert llm.switches == []

    config = replace(Config(), llm=replace(Config().llm, first_chunk_all_cores=False))
    engine2, rec2, _ = make_engine(llm=(llm2 := CoresLlm()), config=config)
    engine2.submit_text("what is up")
    rec2.wait_turns(1)
    assert llm2.switches == []


def test_an_llm_off_the_cpu_does_not_pause_for_the_first_chunk(make_engine):
    llm = FakeLlm(on_cpu=False)
    tts = SlowFirstChunkTts(llm)
    engine, rec, _ = make_engine(llm=llm, tts=tts)
    engine.submit_text("what is up")
    rec.wait_turns(1)
    before, after = tts.during_first
    assert after > before
    assert "llm_paused_s" not in rec.results[0].timeline.counts



def test_stopping_a_stage_still_takes_the_history_of_finished_turns():
    """The history is written on the responder's thread after the turn ends; closing the
    engine at once (the bench between takes, an idle reset) must not drop it."""
    from assistant.events import Remember
    from assistant.pipeline.stage import Stage

    class Slow(Stage):
        name = "slow"

        def accepts(self, message):
            return True

        def process(self, message):
            time.sleep(0.05)
            self.seen.append(message)

    stage = Slow(turns=None)
    stage.seen = []
    stage.start()
    for n, user in enumerate(("first", "second", "third")):
        stage.send(Remember(n, user, "reply"))
    stage.stop()  # jumps the queue
    assert [m.user for m in stage.seen] == ["first", "second", "third"]
    assert not stage.alive


def test_silence_after_the_pause_is_not_transcribed_again(make_engine):
    config = Config(vad=VadConfig(min_speech_ms=64))
    llm = EchoLlm()
    # the words at the pause sound unfinished, so the turn waits; only silence follows them
    stt = FakeStt(transcripts=["tell me about the", "tell me about the moon"])
    engine, rec, _ = make_engine(stt=stt, llm=llm, config=config)
    engine.listen(PacedWavSource(_speech(0.6, tail=2.6), 16000, 512, realtime=True))
    rec.wait_turns(1)
    engine.stop_listening()
    result = rec.results[0]
    assert result.timeline.counts["turn_decision"] == "unfinished"
    assert not result.timeline.counts.get("rechecked")
    assert result.transcript == "tell me about the" and stt.transcribed == 1


def test_the_reply_s_first_sound_is_played_without_its_silent_lead_in(make_engine):
    """A voice that opens each text with silence (eSpeak NG before a stop): the reply's first
    chunk plays from just before its sound; later chunks keep theirs (it is the pause between them)."""

    class LeadingSilence(FakeTts):
        def synthesize(self, text: str):
            self.spoken.append(text)
            yield np.concatenate([np.zeros(int(self.rate * 0.045), np.float32), np.full(self.rate // 10, 0.1, np.float32)])

    engine, rec, parts = make_engine(tts=LeadingSilence())
    engine.submit_text("what is up")
    rec.wait_turns(1)
    played = [pcm for pcm in parts["out"].played if pcm.size]
    assert len(played) >= 2
    lead = [int(np.flatnonzero(np.abs(pcm) > 0)[0]) for pcm in played]
    assert lead[0] <= 0.0105 * 16000 and all(n == int(16000 * 0.045) for n in lead[1:])
    tl = rec.results[0].timeline
    assert tl.get(Mark.REPLY_SOUND) - tl.get(Mark.AUDIO_OUT_START) <= 0.011


def _skilled_engine(llm: FakeLlm):
    """An engine with the skills (and so the table's actions), fakes elsewhere; a way to say a typed turn, its TTS,
    its recorder, its skills and a closer."""
    from assistant.think.skills import load_skills

    config = Config()
    skills = load_skills(config)
    rec, tts = Recorder(), FakeTts()
    engine = Engine(config, vad=FakeVad(), output=RecordingSink(), on_event=rec, stt=FakeStt(), llm=llm, tts=tts,
                    skills=skills)

    def say(text: str) -> str:
        turns = len(rec.results)
        engine.submit_text(text)
        rec.wait_turns(turns + 1)
        return rec.results[-1].reply

    def close() -> None:
        engine.close()
        skills.close()

    return say, tts, rec, skills, close


@pytest.fixture
def with_skills():
    say, tts, _, _, close = _skilled_engine(FakeLlm())
    yield say, tts
    close()


def test_speak_slower_and_faster_change_the_voice_s_pace_from_the_answer_on(with_skills):
    """"Speak slower." slows the voice a step (its own answer already slower, so synthesized, not the table's audio
    made ahead at the old pace), "faster" speeds it up, three steps each way at most; the next reply keeps it."""
    from assistant.pipeline.responder import PACE_STEP, PACE_STEPS

    say, tts = with_skills
    assert say("Speak slower.") == "Okay, I'll speak more slowly."
    assert "Okay, I'll speak more slowly." in " ".join(tts.spoken)
    assert tts.paces[-1] == pytest.approx(1 / PACE_STEP)
    say("what is up")
    assert tts.paces[-1] == pytest.approx(1 / PACE_STEP)  # kept for the replies after
    for _ in range(PACE_STEPS + 3):
        assert say("Speak faster.") == "Okay, I'll speak faster."
    assert tts.paces[-1] == pytest.approx(PACE_STEP**PACE_STEPS)


def test_start_over_forgets_the_conversation():
    """"Let's start over." empties the model's history (the small model carries its earlier answers into the next
    ones) and what "What did I just say?" reads; the timers and the settings stay."""
    llm = FakeLlm(reply="Mount Everest.")
    say, _, rec, skills, close = _skilled_engine(llm)
    try:
        say("What is the tallest mountain?")
        say("Set a timer for ten minutes.")
        assert llm.remembered == [("What is the tallest mountain?", "Mount Everest.")]
        assert say("Let's start over.") == "Okay, let's start over."
        assert llm.remembered == [] and rec.results[-1].source in ("cache", "skill")
        assert say("What did I just say?") == "You said: Let's start over."  # nothing before it is kept
        assert [t.name for t in skills.timers.active()] == ["10 minute"]
    finally:
        close()


def test_forget_everything_forgets_the_notes_and_the_conversation():
    """"Forget everything." is the notes' and the conversation's (the model's history starts anew, as "Let's start
    over." does); "Delete my notes." is the notes' alone."""
    llm = FakeLlm(reply="Mount Everest.")
    say, _, rec, skills, close = _skilled_engine(llm)
    try:
        say("Remember that my car is on level 3.")
        say("What is the tallest mountain?")
        assert say("Delete my notes.") == "Okay, I've forgotten what you told me."
        assert llm.remembered == [("What is the tallest mountain?", "Mount Everest.")]
        say("Remember that my keys are in the drawer.")
        assert say("Forget everything.") == "Okay, I've forgotten what you told me."
        assert llm.remembered == [] and rec.results[-1].skill == "notes"
        assert say("What did I tell you to remember?") == "You haven't asked me to remember anything."
    finally:
        close()


def test_what_did_i_just_say_is_the_turn_before_said_back(with_skills):
    say, _ = with_skills
    assert say("What did I just say?") == "You haven't said anything yet."
    say("What is the tallest mountain?")
    assert say("What did I just say?") == "You said: What is the tallest mountain?"
    say("Set a timer for ten minutes.")  # a skill's turn too
    assert say("What was my last question?") == "You said: Set a timer for ten minutes."
    assert say("Repeat that.") == "You said: Set a timer for ten minutes."  # (it was the answer before it)
    say("지금 몇 시야")
    assert say("방금 내가 뭐라고 했어") == "지금 몇 시야라고 하셨어요."
