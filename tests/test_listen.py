"""The segmenter: frames in, speech start (with pre-roll), speech frames and endpoint out,
on the capture clock. No threads."""

import numpy as np

from assistant.config import VadConfig
from assistant.pipeline.listen import Segmenter
from assistant.vad import VadEventType as E

from fakes import FakeVad

FRAME = 512
FRAME_S = FRAME / 16000


def _frames(pattern: str):
    """'.' a silent frame, '#' a frame of speech."""
    return [np.full(FRAME, 0.3 if c == "#" else 0.0, np.float32) for c in pattern]


def _run(pattern: str, config: VadConfig, t0: float = 100.0):
    segmenter = Segmenter(FakeVad(), config, FRAME_S)
    heard = []
    for index, frame in enumerate(_frames(pattern)):
        heard += [(index, h) for h in segmenter.push(frame, t0 + index * FRAME_S)]
    return heard


def test_speech_start_brings_the_pre_roll_and_later_frames_follow_one_by_one():
    config = VadConfig(min_speech_ms=64, endpoint_ms=128, speech_pad_ms=64)
    heard = _run("....####.....", config)
    kinds = [h.event for _, h in heard]
    assert kinds[0] is E.SPEECH_START
    assert heard[0][1].pcm.size > 2 * FRAME, "the speech start carries the frames before it"
    assert set(kinds[1:kinds.index(E.ENDPOINT)]) == {None, E.EARLY_SILENCE}
    speech = [index for index, h in heard if h.event is None]
    assert speech == sorted(set(speech)), "one speech item per frame"
    assert kinds.count(E.ENDPOINT) == 1


def test_marks_are_on_the_capture_clock():
    config = VadConfig(min_speech_ms=64, endpoint_ms=128, speech_pad_ms=64)
    heard = {h.event: h for _, h in _run("....####.......", config, t0=100.0)}
    assert abs(heard[E.SPEECH_START].at - (100.0 + 4 * FRAME_S)) < FRAME_S
    assert abs(heard[E.ENDPOINT].at - (100.0 + 8 * FRAME_S)) < FRAME_S


def test_silence_brings_nothing():
    assert _run("." * 40, VadConfig()) == []
