"""A skill's words are synthesized at the pause, as the model's reply is, and heard only at the
endpoint; a skill that does something (a timer set) still waits for the endpoint (fakes for the
models, the real skills)."""

from __future__ import annotations

import numpy as np

from assistant.config import Config, VadConfig
from assistant.hear.sources import PacedWavSource
from assistant.pipeline import Engine
from assistant.pipeline.responder import says_ahead
from assistant.think.korean_guard import Notice
from assistant.think.replies import InstantReply
from assistant.think.skills import SkillReply, load_skills
from assistant.timeline import Mark

from fakes import FakeLlm, FakeStt, FakeTts, FakeVad, Recorder, RecordingSink

RATE = 16000


def spoken_turn(transcript: str):
    """One spoken turn (0.6 s of speech, then silence) whose words are ``transcript``."""
    speech = np.concatenate([np.zeros(int(0.3 * RATE), np.float32), np.full(int(0.6 * RATE), 0.3, np.float32),
                             np.zeros(int(1.5 * RATE), np.float32)])
    recorder, llm, config = Recorder(), FakeLlm(), Config(vad=VadConfig(min_speech_ms=64))
    skills = load_skills(config)
    engine = Engine(config, vad=FakeVad(), output=RecordingSink(), on_event=recorder, stt=FakeStt(transcript=transcript),
                    llm=llm, tts=FakeTts(), skills=skills)
    try:
        engine.listen(PacedWavSource(speech, RATE, 512, realtime=True))
        recorder.wait_turns(1)
        engine.stop_listening()
    finally:
        engine.close()
        skills.close()
    return recorder.results[0], llm


def test_a_skills_words_are_synthesized_at_the_pause_and_heard_after_the_endpoint():
    result, llm = spoken_turn("What is five plus three?")
    timeline = result.timeline
    assert result.source == "skill" and "8" in result.reply and not llm.calls
    assert timeline.counts["speculative"] is True
    assert timeline.get(Mark.TTS_FIRST_AUDIO) < timeline.get(Mark.ENDPOINT)  # made while the turn was weighed
    assert timeline.get(Mark.AUDIO_OUT_START) >= timeline.get(Mark.ENDPOINT)  # heard only once it was over


def test_a_skill_that_does_something_waits_for_the_endpoint():
    result, _ = spoken_turn("Set a timer for ten minutes.")
    timeline = result.timeline
    assert result.source == "skill" and result.skill == "timers"
    assert timeline.get(Mark.FIRST_CHUNK) >= timeline.get(Mark.ENDPOINT)


def test_what_is_said_ahead():
    assert says_ahead(SkillReply("clock", "It's ten past three."))
    assert not says_ahead(SkillReply("timers", "Ten minutes, starting now.", effect=lambda: None))
    assert not says_ahead(SkillReply("control", "", action="stop"))
    assert not says_ahead(InstantReply("Hello!", audio=np.zeros(10, np.float32)))  # its audio is ready anyway
    assert not says_ahead(InstantReply("Louder.", action="louder"))
    assert says_ahead(Notice("Sorry, I didn't catch that."))  # no audio made yet: synthesized ahead too
