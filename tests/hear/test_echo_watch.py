"""The log line of each stretch of reply: what the canceller and the VAD made of its echo."""

from assistant.config import BargeInConfig
from assistant.hear.echo_watch import EchoWatch

CONFIG = BargeInConfig()  # threshold 0.2, kept_db -25 dB


def test_a_stretch_of_reply_is_summed_up_when_it_falls_silent():
    watch = EchoWatch(CONFIG)
    frames = [  # (probability, kept dB, ready, ERLE)
        (0.1, -5.0, False, None),  # learning: never taken for speech, whatever it kept
        (0.5, -2.0, False, None),
        (0.4, -20.0, True, 21.0),  # kept over the gate, speech: taken for the user's
        (0.4, -30.0, True, 24.0),  # the canceller took it out
        (0.1, -10.0, True, 26.0),  # kept, but no speech in it
    ]
    for probability, kept, ready, erle in frames:
        assert watch.frame(True, probability, kept, ready, erle) is None
    done = watch.frame(False, 0.0, 0.0, True, 26.0)
    assert done is not None and watch.current is None
    assert (done.frames, done.ready_frames, done.gate_frames) == (5, 3, 1)
    assert done.ready_at_start is False and done.max_probability == 0.5
    assert (done.first_erle_db, done.last_erle_db) == (21.0, 26.0)
    line = done.describe()
    assert "ready from the start: no" in line and "frames taken for speech 1" in line and "21.0 dB -> 26.0 dB" in line


def test_nothing_is_summed_up_while_nothing_plays():
    watch = EchoWatch(CONFIG)
    assert watch.frame(False, 0.9, 0.0, True, None) is None
    watch.frame(True, 0.1, -40.0, True, 40.0)
    assert watch.frame(False, 0.9, 0.0, True, None).frames == 1
    assert watch.frame(False, 0.9, 0.0, True, None) is None
