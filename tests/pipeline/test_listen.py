"""The segmenter: frames in, speech start (with pre-roll), speech frames and endpoint out,
on the capture clock. No threads."""

import numpy as np

from assistant.config import VadConfig
from assistant.pipeline.listen import Segmenter
from assistant.hear.vad import VadEventType as E

from fakes import FakeVad

FRAME = 512
FRAME_S = FRAME / 16000


def _frames(pattern: str):
    """'.' a silent frame, '#' a frame of speech."""
    return [np.full(FRAME, 0.3 if c == "#" else 0.0, np.float32) for c in pattern]


def _run(pattern: str, config: VadConfig, t0: float = 100.0):
    segmenter = Segmenter(FakeVad(), config, FRAME_S)
    detected = []
    for index, frame in enumerate(_frames(pattern)):
        detected += [(index, h) for h in segmenter.push(frame, t0 + index * FRAME_S)]
    return detected


def test_speech_start_brings_the_pre_roll_and_later_frames_follow_one_by_one():
    config = VadConfig(min_speech_ms=64, endpoint_ms=128, speech_pad_ms=64)
    detected = _run("....####.....", config)
    kinds = [h.event for _, h in detected]
    assert kinds[0] is E.SPEECH_START
    assert detected[0][1].pcm.size > 2 * FRAME, "the speech start carries the frames before it"
    assert set(kinds[1:kinds.index(E.ENDPOINT)]) == {None, E.EARLY_SILENCE}
    speech = [index for index, h in detected if h.event is None]
    assert speech == sorted(set(speech)), "one speech item per frame"
    assert kinds.count(E.ENDPOINT) == 1


def test_marks_are_on_the_capture_clock():
    config = VadConfig(min_speech_ms=64, endpoint_ms=128, speech_pad_ms=64)
    detected = {h.event: h for _, h in _run("....####.......", config, t0=100.0)}
    assert abs(detected[E.SPEECH_START].at - (100.0 + 4 * FRAME_S)) < FRAME_S
    assert abs(detected[E.ENDPOINT].at - (100.0 + 8 * FRAME_S)) < FRAME_S


def test_silence_brings_nothing():
    assert _run("." * 40, VadConfig()) == []


# ------------------------------------------------------------------ with a turn detector

from assistant.config import TurnConfig  # noqa: E402
from assistant.hear.end_of_turn import TurnCall, TurnDetector  # noqa: E402
from assistant.events import TurnSignals  # noqa: E402


def _segmenter(turn: TurnConfig = TurnConfig(), vad: VadConfig = VadConfig(min_speech_ms=64)) -> Segmenter:
    return Segmenter(FakeVad(), vad, FRAME_S, TurnDetector(turn, fixed_ms=vad.endpoint_ms))


def _feed(segmenter: Segmenter, pattern: str, start: int = 0):
    detected = []
    for index, frame in enumerate(_frames(pattern), start):
        detected += [(index, h) for h in segmenter.push(frame, 100.0 + index * FRAME_S)]
    return detected


def test_the_detector_ends_the_turn_when_complete_words_arrive():
    segmenter = _segmenter()
    detected = _feed(segmenter, "..########.....")  # speech, then 5 frames of silence: a pause, no words yet
    pause = next(h for _, h in detected if h.event is E.EARLY_SILENCE).pause
    assert not any(h.event is E.ENDPOINT for _, h in detected)
    ended = segmenter.note_words(pause, TurnSignals("What time is it?", end_of_turn=0.8))
    assert [h.event for h in ended] == [E.ENDPOINT]  # 160 ms of silence so far: enough, at once
    endpoint = ended[0]
    assert endpoint.decision.call is TurnCall.COMPLETE and endpoint.decision.silence_ms == 5 * FRAME_S * 1000
    assert abs(endpoint.at - (100.0 + 10 * FRAME_S)) < 1e-6  # the speech end, on the capture clock
    assert endpoint.voice_end is not None and abs(endpoint.voice_end - (100.0 + 10 * FRAME_S)) < 0.006
    assert not segmenter.in_speech


def test_unfinished_words_hold_the_turn_through_a_long_pause():
    segmenter = _segmenter()
    detected = _feed(segmenter, "..########..")
    pause = next(h for _, h in detected if h.event is E.EARLY_SILENCE).pause
    assert segmenter.note_words(pause, TurnSignals("What is the capital of", end_of_turn=1e-9)) == []
    detected = _feed(segmenter, "." * 30 + "#####", start=12)  # a 1 s thinking pause, then more words
    assert not any(h.event is E.ENDPOINT for _, h in detected)
    assert any(h.event is E.SPEECH_RESUMED for _, h in detected)
    stale = segmenter.note_words(pause, TurnSignals("What is the capital of France?", end_of_turn=0.8))
    assert stale == []  # words of a pause that is over change nothing


def test_with_no_transcript_the_turn_ends_at_the_longest_wait():
    turn = TurnConfig(max_ms=640, unsure_ms=500)
    segmenter = _segmenter(turn)
    detected = _feed(segmenter, "..########" + "." * 25)
    endpoints = [(i, h) for i, h in detected if h.event is E.ENDPOINT]
    assert len(endpoints) == 1
    index, endpoint = endpoints[0]
    assert endpoint.decision.call is TurnCall.NO_WORDS and index == 10 + 20 - 1  # 640 ms = 20 frames


def test_fixed_mode_ends_after_the_fixed_silence_whatever_was_said():
    vad = VadConfig(min_speech_ms=64, endpoint_ms=320)
    segmenter = _segmenter(TurnConfig(mode="fixed"), vad)
    detected = _feed(segmenter, "..########..")
    pause = next(h for _, h in detected if h.event is E.EARLY_SILENCE).pause
    assert segmenter.note_words(pause, TurnSignals("What time is it?", end_of_turn=0.5)) == []
    detected = _feed(segmenter, "." * 12, start=12)
    endpoint = next(h for _, h in detected if h.event is E.ENDPOINT)
    assert endpoint.decision.call is TurnCall.FIXED and endpoint.decision.silence_ms >= 320
