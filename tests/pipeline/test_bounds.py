"""Huge inputs stay bounded: the history keeps to its token budget whatever the turns;
a 60 s monologue or a 10-minute recording reaches the recognizer in turns no longer than
``vad.max_speech_s`` (which Whisper encodes 30 s at a time at most), in memory that does
not grow with the input."""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np
import psutil
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.speak.sinks import NullSink
from assistant.hear.sources import PacedWavSource
from assistant.sound import load_wav, save_wav
from assistant.config import Config
from assistant.events import EventType
from assistant.think.conversation import History
from assistant.pipeline.listen import Segmenter
from assistant.pipeline.session import build_engine
from assistant.hear.vad import VadEventType
from assistant.pipeline.waiting import wait_until

RATE = 16000
FRAME = 512


@settings(max_examples=200, deadline=None)
@given(budget=st.integers(16, 2048),
       turns=st.lists(st.tuples(st.integers(0, 5000), st.integers(0, 5000)), max_size=60))
def test_the_history_stays_within_its_budget_whatever_the_turns(budget, turns):
    history = History(budget, count_tokens=len)
    for user, reply in turns:
        history.add("u" * user, "r" * reply)
        assert history.tokens <= budget


# ---------------------------------------------------------------- real models


@pytest.fixture(scope="module")
def monologue(engines) -> np.ndarray:
    """About 60 s of speech without a pause long enough to end a turn: sentences said by
    Piper, their silences trimmed, one after the other."""
    sentences = [
        "The museum opened its doors more than a century ago and has grown ever since",
        "Its first rooms held paintings donated by families from the old town",
        "Later a new wing was added for sculpture and for the tools of everyday life",
        "Today visitors come from every country to walk through its long bright halls",
        "Children especially like the room with the ancient ships and the maps of the sea",
    ]
    pieces = []
    for text in sentences * 3:
        from assistant.commands.spoken import speak_question

        pcm = speak_question(engines.tts, text, RATE, lead_s=0, tail_s=0)
        loud = np.flatnonzero(np.abs(pcm) > 0.02)
        pieces.append(pcm[loud[0]: loud[-1] + 1])
    speech = np.concatenate(pieces)
    return np.tile(speech, 2)[: 60 * RATE]


class WindowedStt:
    """The real recognizer, noting how much audio each transcription is given."""

    def __init__(self, stt):
        self.stt = stt
        self.windows_s: list[float] = []

    def __getattr__(self, name):
        return getattr(self.stt, name)

    def utterance(self):
        return _Utterance(self, self.stt.utterance())


class _Utterance:
    def __init__(self, owner: WindowedStt, inner):
        self.owner, self.inner, self.samples = owner, inner, 0

    def feed(self, pcm):
        self.samples += pcm.size
        return self.inner.feed(pcm)

    def transcribe(self):
        self.owner.windows_s.append(self.samples / RATE)
        return self.inner.transcribe()

    @property
    def last_word_p(self):
        return self.inner.last_word_p


@pytest.mark.slow
def test_a_60_s_monologue_reaches_whisper_in_bounded_windows(engines, monologue):
    config = replace(Config(), llm=replace(Config().llm, max_tokens=8))
    stt = WindowedStt(engines.stt)
    ends = []
    engine = build_engine(config, replace(engines, stt=stt), NullSink(config.audio.output_rate),
                          on_event=lambda e: ends.append(e.data) if e.type is EventType.TURN_END else None)
    source = PacedWavSource(monologue, RATE, FRAME, realtime=False)
    process = psutil.Process()
    before = process.memory_info().rss
    started = time.perf_counter()
    try:
        engine.listen(source)
        assert wait_until(lambda: source.input_over(1.0), timeout=300)
        assert wait_until(lambda: not engine.busy, timeout=120)
    finally:
        engine.close()
    took = time.perf_counter() - started
    grew_mb = (process.memory_info().rss - before) / 2**20
    limit = config.vad.max_speech_s + config.vad.speech_pad_ms / 1000 + 0.5
    print(f"\n{monologue.size / RATE:.0f} s monologue: the recognizer was given {[round(w, 1) for w in stt.windows_s]} s "
          f"(turns cut at max_speech_s = {config.vad.max_speech_s:.0f} s), {took:.0f} s to process, "
          f"RSS {grew_mb:+.0f} MB")
    assert stt.windows_s and max(stt.windows_s) <= limit
    assert any(end.transcript for end in ends)


@pytest.mark.slow
def test_a_10_minute_recording_is_segmented_in_bounded_windows(engines, monologue, tmp_path):
    path = tmp_path / "ten-minutes.wav"
    save_wav(path, np.tile(monologue, 10)[: 600 * RATE], RATE)
    process = psutil.Process()
    before = process.memory_info().rss
    started = time.perf_counter()
    samples = load_wav(path, RATE)
    config = Config().vad
    segmenter = Segmenter(engines.vad, config, FRAME / RATE)
    longest = speech = 0.0
    segments = 0
    for start in range(0, samples.size - FRAME, FRAME):
        for detected in segmenter.push(samples[start: start + FRAME], start / RATE):
            if detected.event is VadEventType.SPEECH_START:
                speech = detected.pcm.size / RATE
                segments += 1
            elif detected.event is None:
                speech += FRAME / RATE
            elif detected.event is VadEventType.ENDPOINT:
                longest = max(longest, speech)
    took = time.perf_counter() - started
    grew_mb = (process.memory_info().rss - before) / 2**20
    print(f"\n10-minute WAV: {segments} turns, the longest {longest:.1f} s (max_speech_s {config.max_speech_s:.0f} s), "
          f"read and segmented in {took:.1f} s, RSS {grew_mb:+.0f} MB (the file itself is "
          f"{samples.nbytes / 2**20:.0f} MB as float32)")
    assert segments >= 600 // (config.max_speech_s + 1)
    assert longest <= config.max_speech_s + config.speech_pad_ms / 1000 + 0.2
    assert grew_mb < samples.nbytes / 2**20 + 50
