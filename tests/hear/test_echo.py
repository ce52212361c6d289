"""The echo canceller path: the reference on the input's clock, the 10 ms framing, and
the real cancellers on a synthetic room."""

import sys

import numpy as np
import pytest

from assistant.config import EchoConfig
from assistant.hear.echo import (
    EchoError,
    EchoFilter,
    MonitoredOutput,
    PlayedAudio,
    SpeexCanceller,
    WebRtcCanceller,
    choose_mode,
    load_canceller,
)
from assistant.hear.room import EchoPath, through_room

RATE = 16000


class Delaying:
    """A canceller that takes nothing out and holds each sound ``delay_samples``, recording the reference."""

    name = "fake"
    rate = RATE
    block_samples = 160

    def __init__(self, delay_samples=0):
        self.delay_samples = delay_samples
        self.far = []
        self._held = np.zeros(delay_samples, np.float32)

    def cancel(self, mic, far):
        self.far.append(far.copy())
        both = np.concatenate([self._held, mic])
        out, self._held = both[: mic.size], both[mic.size :]
        return out


def noise(seconds, seed=0, level=0.1):
    return (np.random.default_rng(seed).standard_normal(round(seconds * RATE)) * level).astype(np.float32)


def run_filter(echo, mic, frame=512):
    out = [echo.process(mic[i : i + frame], i / RATE) for i in range(0, mic.size - frame + 1, frame)]
    return out


def test_played_audio_reads_what_was_played_where_it_was_played():
    played = PlayedAudio(RATE)
    played.start(10.0)
    tone = np.ones(1600, np.float32)
    played.add(tone, RATE, 10.5)  # heard from sample 8000 on
    assert played.read(7900, 200).tolist() == [0.0] * 100 + [1.0] * 100
    played.cut(10.55)  # flushed: nothing from sample 8800 on
    assert played.read(8700, 200).tolist() == [1.0] * 100 + [0.0] * 100


def test_monitored_output_records_at_the_time_the_sink_plays():
    class Sink:
        rate = RATE

        def start(self, t0):
            pass

        def play(self, pcm):
            return 2.0

        def flush(self):
            pass

    played = PlayedAudio(RATE)
    out = MonitoredOutput(Sink(), played)
    out.start(1.0)
    assert out.play(np.ones(160, np.float32)) == 2.0
    assert played.read(RATE - 10, 20).tolist() == [0.0] * 10 + [1.0] * 10


def test_filter_keeps_the_clock_exact_across_block_and_canceller_delays():
    mic = noise(2.0)
    played = PlayedAudio(RATE)
    played.start(0.0)
    echo = EchoFilter(Delaying(delay_samples=37), played, 512, EchoConfig())
    out = run_filter(echo, mic)
    heard = np.concatenate([c.pcm for c in out])
    lag = echo.lag_samples
    assert lag == 128 + 37  # 512-sample frames in 160-sample blocks leave at most 128 behind
    np.testing.assert_array_equal(heard[lag:], mic[: heard.size - lag])
    assert out[3].captured == pytest.approx(3 * 512 / RATE - lag / RATE)


def test_filter_hands_the_canceller_the_speaker_audio_of_the_same_instant():
    far = noise(1.0, seed=1)
    played = PlayedAudio(RATE)
    played.start(0.0)
    played.add(far, RATE, 0.25)
    fake = Delaying()
    echo = EchoFilter(fake, played, 512, EchoConfig(echo_tail_ms=100))
    out = run_filter(echo, np.zeros(2 * RATE, np.float32))
    reference = np.concatenate(fake.far)  # it runs only while the reply and its echo tail sound
    assert reference.size == 16000 + 1600
    np.testing.assert_allclose(reference[:16000], far, atol=1e-6)
    audible = [c.reply_audible for c in out]
    frame_s = 512 / RATE
    assert not audible[int(0.2 / frame_s)] and audible[int(0.3 / frame_s)] and audible[int(1.3 / frame_s)]
    assert not audible[int(1.45 / frame_s)]  # 100 ms of echo tail after the last sound


def test_what_the_canceller_kept_is_measured_on_the_same_samples():
    bursts = noise(2.0, seed=4) * np.repeat(np.arange(20) % 2, RATE // 10)  # 100 ms on, 100 ms off
    played = PlayedAudio(RATE)
    played.start(0.0)
    played.add(bursts, RATE, 0.0)
    # like speexdsp: takes nothing out, and its output comes a block later than its input
    echo = EchoFilter(Delaying(delay_samples=160), played, 512, EchoConfig())
    kept = [c.kept_db for c in run_filter(echo, bursts)]
    # all of it, in every frame, onsets and ends of the bursts included (measured against the
    # input of the same instant, the block's lag read as less at each onset and more at each end)
    assert kept == pytest.approx([0.0] * len(kept), abs=1e-6)


def test_without_a_canceller_frames_pass_unchanged():
    played = PlayedAudio(RATE)
    played.start(0.0)
    mic = noise(0.5)
    out = run_filter(EchoFilter(None, played, 512, EchoConfig()), mic)
    np.testing.assert_array_equal(np.concatenate([c.pcm for c in out]), mic[: len(out) * 512])
    assert not any(c.converged for c in out)


def _erle(canceller, far, seconds_settle=2.0):
    path = EchoPath(40, 0.5)
    echo = through_room(far, path.impulse_response(RATE), round(0.04 * RATE))
    played = PlayedAudio(RATE, keep_s=10)
    played.start(0.0)
    played.add(far, RATE, 0.0)
    filt = EchoFilter(canceller, played, 512, EchoConfig())
    out = np.concatenate([c.pcm for c in run_filter(filt, echo)])[filt.lag_samples :]
    settled = slice(round(seconds_settle * RATE), out.size)
    return 10 * np.log10(np.sum(echo[settled] ** 2) / np.sum(out[settled] ** 2))


def _speechlike(seconds, seed=3):
    """Noise shaped like speech: bursts of a few hundred ms with pauses."""
    rng = np.random.default_rng(seed)
    base = noise(seconds, seed)
    envelope = np.repeat(rng.random(round(seconds * 5)) > 0.3, RATE // 5).astype(np.float32)
    return base * envelope[: base.size]


def test_speex_takes_out_most_of_the_echo_once_it_has_learnt_the_room():
    assert _erle(SpeexCanceller(RATE), _speechlike(6.0)) > 20


def needs_webrtc():
    try:
        load_canceller("webrtc", EchoConfig())
    except EchoError as exc:
        pytest.skip(str(exc))


def test_webrtc_takes_out_most_of_the_echo():
    needs_webrtc()
    assert _erle(WebRtcCanceller(RATE), _speechlike(6.0)) > 20


@pytest.mark.parametrize("name", ["speex", "webrtc"])
def test_declared_delay_is_the_cancellers_own(name):
    """With nothing played, a sound comes out ``delay_samples`` after it went in."""
    if name == "webrtc":
        needs_webrtc()
    canceller = load_canceller(name, EchoConfig())
    signal = noise(1.0, seed=5)
    out = np.concatenate([canceller.cancel(signal[i : i + 160], np.zeros(160, np.float32))
                          for i in range(0, signal.size, 160)])
    lags = range(0, 400)
    best = max(lags, key=lambda k: float(np.dot(out[k:], signal[: signal.size - k])))
    assert best == canceller.delay_samples


def test_auto_takes_the_first_canceller_that_runs():
    mode, canceller = choose_mode(EchoConfig())
    assert mode.full and canceller.name == "speex"
    assert "full duplex" in mode.describe()


def test_without_the_package_it_listens_half_duplex_and_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyaec", None)
    mode, canceller = choose_mode(EchoConfig(canceller="speex"))
    assert canceller is None and not mode.full
    assert "pip install pyaec" in mode.why
    assert "half duplex" in mode.describe() and "stop" in mode.describe()


def test_off_is_half_duplex():
    mode, canceller = choose_mode(EchoConfig(canceller="off"))
    assert canceller is None and "off" in mode.why


def test_an_unknown_canceller_is_named():
    with pytest.raises(Exception, match="unknown echo canceller 'nope'"):
        load_canceller("nope", EchoConfig())


def test_frames_come_out_at_once_while_nothing_plays_and_lagged_while_the_reply_sounds():
    far = noise(0.5, seed=2)
    played = PlayedAudio(RATE)
    played.start(0.0)
    played.add(far, RATE, 1.0)  # the reply sounds from 1.0 to 1.5 s
    echo = EchoFilter(Delaying(delay_samples=37), played, 512, EchoConfig(echo_tail_ms=100))
    mic = noise(3.0, seed=4)
    frame_s = 512 / RATE
    out = [echo.process(mic[i : i + 512], i / RATE, hold_lag=False) for i in range(0, mic.size - 511, 512)]
    lag = echo.lag_samples / RATE
    before, during, after = out[int(0.5 / frame_s)], out[int(1.2 / frame_s)], out[int(2.5 / frame_s)]
    assert before.captured == pytest.approx(int(0.5 / frame_s) * frame_s)  # no lag before the reply
    np.testing.assert_array_equal(before.pcm, mic[int(0.5 / frame_s) * 512 :][:512])
    assert during.captured == pytest.approx(int(1.2 / frame_s) * frame_s - lag)
    assert after.captured == pytest.approx(int(2.5 / frame_s) * frame_s)  # back once the echo tail is over
    # each frame's samples are the input's at its capture time, lagged or not
    for c in (before, during, after):
        start = round(c.captured * RATE)
        np.testing.assert_array_equal(c.pcm, mic[start : start + 512])


def test_speech_in_progress_keeps_the_lag_when_the_reply_ends():
    played = PlayedAudio(RATE)
    played.start(0.0)
    played.add(noise(0.3, seed=2), RATE, 0.2)
    echo = EchoFilter(Delaying(delay_samples=37), played, 512, EchoConfig(echo_tail_ms=100))
    mic = noise(2.0, seed=5)
    out = [echo.process(mic[i : i + 512], i / RATE, hold_lag=i >= 4000) for i in range(0, mic.size - 511, 512)]
    assert out[0].captured == 0.0  # no lag before the reply
    assert out[-1].captured == pytest.approx((len(out) - 1) * 512 / RATE - echo.lag_samples / RATE)
