"""When the echo canceller has learnt the room (its measured echo reduction), and what it
learnt kept per pair of devices so that a fresh canceller starts converged."""

import numpy as np

from assistant.config import EchoConfig
from assistant.hear.echo import DuplexMode, EchoFilter, PlayedAudio, SpeakerEcho, SpeexCanceller
from assistant.hear.echo_memory import RoomRecord, load, measure_delay, record_path
from assistant.hear.room import EchoPath, through_room

from fakes import LearningCanceller

RATE = 16000
FRAME_S = 512 / RATE



def speechlike(seconds, seed=3):
    rng = np.random.default_rng(seed)
    n = round(seconds * RATE)
    envelope = np.repeat(rng.uniform(0.2, 1.0, n // 1600 + 1), 1600)[:n]
    return (rng.standard_normal(n) * 0.2 * envelope).astype(np.float32)


def in_room(far, path=EchoPath(40, 0.5)):
    return through_room(far, path.impulse_response(RATE), round(path.delay_ms * RATE / 1000))


def scene(far, path=EchoPath(40, 0.5)):
    played = PlayedAudio(RATE, keep_s=far.size / RATE + 1)
    played.start(0.0)
    played.add(far, RATE, 0.0)
    return played, in_room(far, path)


def run(echo_filter, mic):
    return [echo_filter.process(mic[i : i + 512], i / RATE) for i in range(0, mic.size - 511, 512)]


def test_ready_once_the_canceller_takes_the_echo_out_not_after_a_fixed_time():
    far = speechlike(3.0)
    played, mic = scene(far)
    out = run(EchoFilter(LearningCanceller(learn_blocks=50), played, 512, EchoConfig()), mic)
    ready = [c.converged for c in out]
    # 0.5 s without any reduction, then 0.5 s of window to measure it
    assert not ready[int(0.9 / FRAME_S)] and ready[int(1.2 / FRAME_S)]


def test_a_canceller_that_takes_nothing_out_is_never_ready_unless_there_is_no_echo():
    far = speechlike(2.0)
    played, mic = scene(far)
    out = run(EchoFilter(LearningCanceller(learn_blocks=10**9), played, 512, EchoConfig()), mic)
    assert not any(c.converged for c in out)
    out = run(EchoFilter(LearningCanceller(learn_blocks=10**9), played, 512, EchoConfig()), np.zeros_like(mic))
    assert out[-1].converged  # headphones: the microphone hears no echo


def test_zero_threshold_is_ready_at_once():
    played, mic = scene(speechlike(1.0))
    out = run(EchoFilter(LearningCanceller(learn_blocks=10**9), played, 512, EchoConfig(ready_erle_db=0)), mic)
    assert all(c.converged for c in out)


def learn(folder, key="speaker A -> microphone B", path=EchoPath(40, 0.5), seconds=6.0):
    echo = SpeakerEcho(EchoConfig(), RATE, 512, canceller=SpeexCanceller(), mode=DuplexMode("speex"), memory=folder)
    echo.recall(key)
    far = speechlike(seconds, seed=5)
    echo.played.keep_samples = far.size + RATE
    echo.played.start(0.0)
    echo.played.add(far, RATE, 0.0)
    out = run(echo.filter, in_room(far, path))
    echo.close()
    return echo, out


def fresh(folder, key):
    echo = SpeakerEcho(EchoConfig(), RATE, 512, canceller=SpeexCanceller(), mode=DuplexMode("speex"), memory=folder)
    echo.recall(key)
    return echo


def test_the_room_learnt_is_kept_and_a_fresh_canceller_starts_converged(tmp_path):
    _, out = learn(tmp_path)
    assert out[-1].converged
    record = load(tmp_path, "speaker A -> microphone B", "speex", RATE)
    assert record is not None and record.far.size == 4 * RATE
    assert abs(record.delay_ms - 40) <= 1  # the direct path's delay, measured
    assert 0 < record.ready_after_s < 3 and record.erle_db >= 18
    echo = fresh(tmp_path, "speaker A -> microphone B")
    assert echo.filter.readiness.ready  # before a single frame of this run
    far = speechlike(2.0, seed=11)  # another reply, in the same room
    echo.played.start(0.0)
    echo.played.add(far, RATE, 0.0)
    mic = in_room(far)
    out = run(echo.filter, mic)
    assert all(c.converged for c in out)
    clean = np.concatenate([c.pcm for c in out])[RATE // 4 : RATE]
    erle = 10 * np.log10(np.sum(mic[RATE // 4 : RATE] ** 2) / np.sum(clean**2))
    assert erle > 20  # a fresh canceller makes ~6 dB in its first second (24 dB here, the delay taken out)


def test_other_devices_do_not_use_it(tmp_path):
    learn(tmp_path)
    assert not fresh(tmp_path, "speaker C -> microphone B").filter.readiness.ready
    assert not fresh(None, "speaker A -> microphone B").filter.readiness.ready  # nothing kept


def replayed_room_and_a_reply(folder):
    """A fresh canceller that replayed the learnt room, and the 4 s reply it is playing."""
    learn(folder)
    echo = fresh(folder, "speaker A -> microphone B")
    far = speechlike(4.0, seed=11)
    echo.played.keep_samples = far.size + RATE
    echo.played.start(0.0)
    echo.played.add(far, RATE, 0.0)
    return echo, far


def test_a_room_that_changed_is_learnt_again(tmp_path):
    echo, far = replayed_room_and_a_reply(tmp_path)
    out = run(echo.filter, in_room(far, EchoPath(150, 1.0)))  # moved: longer and louder than the filter knew
    ready = [c.converged for c in out]
    # no live window confirmed it within 2 s of reply (0.2 s settling + 0.5 s window first)
    assert ready[0] and ready[int(2.0 / FRAME_S)] and not ready[int(2.8 / FRAME_S)]


def test_a_person_talking_over_the_first_reply_does_not_make_the_room_forgotten(tmp_path):
    echo, far = replayed_room_and_a_reply(tmp_path)
    mic = in_room(far)
    mic[RATE // 4 : RATE + RATE // 4] += speechlike(1.0, seed=2) * 2  # double talk over the first check
    out = run(echo.filter, mic)
    assert all(c.converged for c in out)


def test_a_damaged_record_is_ignored(tmp_path):
    path = record_path(tmp_path, "k", "speex")
    path.write_bytes(b"not a record")
    assert load(tmp_path, "k", "speex", RATE) is None
    record = RoomRecord("k", "speex", RATE, np.zeros(10, np.int16), np.zeros(10, np.int16), 40.0, 1.0, 30.0)
    assert RoomRecord.from_bytes(record.to_bytes()).delay_ms == 40.0


def test_delay_is_measured_from_the_pair():
    far = speechlike(1.0)
    assert measure_delay(far, in_room(far, EchoPath(100, 0.5)), RATE) == 100.0


def test_replies_shorter_than_the_recording_are_kept_when_the_stream_ends(tmp_path):
    _, out = learn(tmp_path, seconds=2.5)
    assert out[-1].converged
    record = load(tmp_path, "speaker A -> microphone B", "speex", RATE)
    assert record is not None and RATE <= record.far.size < 4 * RATE


def test_after_the_start_up_sound_the_reply_measures_its_own_echo_reduction():
    from assistant.hear.echo_memory import Readiness

    readiness = Readiness(18.0, RATE, 160)
    for _ in range(49):  # the sound's last blocks: 30 dB, one short of a full window
        readiness.add(1.0, 1e-3)
    readiness.restart_window()
    assert readiness.erle_db is None and not readiness.ready
    for _ in range(50):  # the reply: 10 dB
        readiness.add(1.0, 0.1)
    assert not readiness.ready  # before, the window held the sound's 30 dB and said ready
    ready = Readiness(0.0, RATE, 160)
    ready.restart_window()
    assert ready.ready  # a canceller that has learnt the room stays ready


def ready_on_a_sound():
    """Readiness reached on the start-up sound (30 dB over a full window), then handed to a reply."""
    from assistant.hear.echo_memory import Readiness

    readiness = Readiness(18.0, RATE, 160)
    for _ in range(50):
        readiness.add(1.0, 1e-3)
    assert readiness.ready and readiness.confirmed
    readiness.to_confirm()
    return readiness


def test_readiness_learnt_on_the_start_up_sound_is_confirmed_by_the_reply():
    readiness = ready_on_a_sound()
    assert readiness.ready and not readiness.confirmed  # full duplex from the reply's first frame
    assert readiness.erle_db is None  # the sound's windows no longer count
    for _ in range(50):  # the reply's first window: 25 dB
        readiness.add(1.0, 10 ** -2.5)
    assert readiness.ready and readiness.confirmed


def test_readiness_learnt_on_the_start_up_sound_is_dropped_when_no_reply_window_confirms_it():
    from assistant.hear.echo_memory import CHECK_S

    readiness = ready_on_a_sound()
    blocks = round(CHECK_S * RATE / 160)
    for _ in range(blocks + 48):  # 12 dB: the sound taught the canceller less than it seemed
        readiness.add(1.0, 10 ** -1.2)
    assert readiness.ready  # a block short of 2 s of windows
    readiness.add(1.0, 10 ** -1.2)
    assert not readiness.ready and readiness.ready_after_s is None  # it learns the room on the reply


def test_the_reference_is_read_earlier_by_the_delay_measured_less_a_margin():
    from assistant.hear.echo import ALIGN_MARGIN_MS, aligned_shift

    assert aligned_shift(150.0, RATE, 160) == 2080  # 130 ms, in whole 10 ms blocks
    assert aligned_shift(ALIGN_MARGIN_MS + 9.0, RATE, 160) == 0  # less than a block beyond the margin
    assert aligned_shift(5.0, RATE, 160) == 0


def test_a_remembered_room_brings_its_delay_and_a_room_that_changed_drops_it(tmp_path):
    echo, far = replayed_room_and_a_reply(tmp_path)
    assert echo.filter.shift == 320  # the record's 40 ms, less 20
    run(echo.filter, in_room(far, EchoPath(150, 1.0)))  # moved: the delay measured is no longer the room's
    assert not echo.filter.readiness.ready and echo.filter.shift == 0


def test_no_echo_path_leaves_the_voice_as_it_is_while_the_reply_plays(tmp_path):
    """With no echo path the canceller is not run: it took a voice with no echo in it for echo
    (a question over a WAV run's reply, kept 7 dB quieter, was read as a repetition loop)."""
    echo = fresh(tmp_path, None)
    far = speechlike(2.0, seed=7)
    echo.played.start(0.0)
    echo.played.add(far, RATE, 0.0)
    voice = speechlike(2.0, seed=8)
    out = run(echo.filter, voice)
    assert all(c.kept_db == 0.0 for c in out)
    heard, lag = np.concatenate([c.pcm for c in out]), echo.filter.lag_samples
    assert np.allclose(heard[lag:], voice[: heard.size - lag])  # the samples themselves (as late as the canceller's)
    echo.close()


def test_no_echo_path_is_ready_at_once_even_with_the_user_talking_over_the_first_reply(tmp_path):
    """A WAV file in or out cannot hear the speaker: nothing to learn. A person talking from
    the first reply's start kept the microphone loud, so the canceller never measured the
    room quiet and the reply could not be talked over."""
    echo = fresh(tmp_path, None)
    far = speechlike(2.0, seed=7)
    echo.played.start(0.0)
    echo.played.add(far, RATE, 0.0)
    out = run(echo.filter, speechlike(2.0, seed=8))  # the user's voice, none of the reply's
    assert all(c.converged for c in out)
    echo.recall("speaker A -> microphone B")  # then a room: it must be learnt
    assert not echo.filter.readiness.ready
    echo.close()
