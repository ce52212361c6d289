from assistant.config import VadConfig
from assistant.hear.vad import Endpointer, VadEventType as E

FRAME = 0.032


def run(probs, **cfg):
    endpointer = Endpointer(VadConfig(**cfg))
    events = []
    for p in probs:
        events += endpointer.process(FRAME, p)
    return endpointer, events


def kinds(events):
    return [e.type for e in events]


def test_speech_then_silence_gives_start_early_silence_and_endpoint():
    probs = [0.0] * 5 + [0.9] * 20 + [0.0] * 15
    _, events = run(probs, endpoint_ms=300, early_silence_ms=128, min_speech_ms=96)
    assert kinds(events) == [E.SPEECH_START, E.EARLY_SILENCE, E.ENDPOINT]
    assert events[0].at == 5 * FRAME  # the first speech frame, not when it was confirmed
    assert abs(events[-1].at - 25 * FRAME) < 1e-9  # the end of the last speech frame


def test_short_click_is_not_speech():
    probs = [0.0] * 3 + [0.9, 0.9] + [0.0] * 20
    endpointer, events = run(probs, min_speech_ms=96)
    assert events == []
    assert not endpointer.in_speech


def test_pause_shorter_than_endpoint_resumes_the_same_turn():
    probs = [0.9] * 10 + [0.0] * 6 + [0.9] * 10 + [0.0] * 12
    _, events = run(probs, endpoint_ms=300, early_silence_ms=128)
    assert kinds(events) == [E.SPEECH_START, E.EARLY_SILENCE, E.SPEECH_RESUMED, E.EARLY_SILENCE, E.ENDPOINT]


def test_hysteresis_keeps_speech_through_a_dip():
    probs = [0.9] * 10 + [0.4] * 20 + [0.0] * 12
    _, events = run(probs, threshold=0.5, endpoint_ms=300)
    assert kinds(events)[-1] is E.ENDPOINT
    assert abs(events[-1].at - 30 * FRAME) < 1e-9  # 0.4 >= 0.5 - 0.15 still counts as speech


def test_endpoint_silence_is_configurable():
    probs = [0.9] * 10 + [0.0] * 12
    _, short = run(probs, endpoint_ms=200)
    _, long = run(probs, endpoint_ms=600)
    assert E.ENDPOINT in kinds(short)
    assert E.ENDPOINT not in kinds(long)


def test_max_speech_cuts_a_turn():
    probs = [0.9] * 100
    _, events = run(probs, max_speech_s=1.0)
    assert E.ENDPOINT in kinds(events)


def test_second_utterance_after_endpoint_starts_a_new_turn():
    probs = ([0.9] * 10 + [0.0] * 12) * 2
    _, events = run(probs, endpoint_ms=300)
    assert kinds(events).count(E.SPEECH_START) == 2
    assert kinds(events).count(E.ENDPOINT) == 2


def test_a_threshold_given_per_frame_replaces_the_configured_one():
    endpointer = Endpointer(VadConfig(threshold=0.5, min_speech_ms=96))
    events = []
    for _ in range(4):
        events += endpointer.process(FRAME, 0.3, threshold=0.2)
    assert kinds(events) == [E.SPEECH_START]
    assert run([0.3] * 4, threshold=0.5, min_speech_ms=96)[1] == []


def run_quiet(frames, **cfg):
    """frames: (probability, quiet) pairs."""
    endpointer = Endpointer(VadConfig(**cfg))
    events = []
    for p, quiet in frames:
        events += endpointer.process(FRAME, p, quiet=quiet)
    return endpointer, events


def test_the_first_pause_comes_with_the_first_quiet_frame_while_the_vad_lingers():
    frames = [(0.9, False)] * 10 + [(0.8, True), (0.6, True), (0.4, True)] + [(0.0, True)] * 10
    endpointer, events = run_quiet(frames, endpoint_ms=200, early_silence_ms=32)
    assert kinds(events) == [E.SPEECH_START, E.EARLY_SILENCE, E.ENDPOINT]
    early = next(e for e in events if e.type is E.EARLY_SILENCE)
    assert abs(early.at - 10 * FRAME) < 1e-9  # the end of the last audible frame
    # the endpoint still counts the VAD's silence: 200 ms after the lingering frames
    assert abs(events[-1].at - 10 * FRAME) < 1e-9


def test_a_quiet_pause_is_over_only_when_the_words_are_audible_again():
    frames = [(0.9, False)] * 10 + [(0.7, True)] * 2 + [(0.9, False)] * 5 + [(0.0, True)] * 12
    _, events = run_quiet(frames, endpoint_ms=300, early_silence_ms=32)
    assert kinds(events) == [E.SPEECH_START, E.EARLY_SILENCE, E.SPEECH_RESUMED, E.EARLY_SILENCE, E.ENDPOINT]


def test_a_quiet_talker_the_vad_is_sure_of_is_speech_after_a_while():
    frames = [(0.9, False)] * 10 + [(0.9, True)] * 10 + [(0.0, True)] * 12
    _, events = run_quiet(frames, endpoint_ms=300, early_silence_ms=32)
    # the pause at the first quiet frame ends once 160 ms of sure speech went on
    assert kinds(events) == [E.SPEECH_START, E.EARLY_SILENCE, E.SPEECH_RESUMED, E.EARLY_SILENCE, E.ENDPOINT]
