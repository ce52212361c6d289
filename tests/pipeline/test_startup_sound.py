"""The start-up sound: broadband and soft, played where nothing of the room is kept, the room
learnt from it kept for the devices, and never in the way of the user or of a reply."""

from __future__ import annotations

import time

import numpy as np
import pytest

from assistant.config import Config, EchoConfig, VadConfig
from assistant.hear.echo import DuplexMode, EchoFilter, PlayedAudio, SpeakerEcho, SpeexCanceller
from assistant.hear.echo_memory import RoomRecord, record_path, save
from assistant.hear.room import EchoPath, EchoRoom, through_room
from assistant.hear.sources import PacedWavSource
from assistant.pipeline import Engine
from assistant.pipeline.kiosk.session import _WatchedSource
from assistant.pipeline.rooms import room_key
from assistant.pipeline.startup import Phase
from assistant.pipeline.waiting import wait_until
from assistant.speak.startup_sound import RMS, SECONDS, startup_sound

from fakes import FakeLlm, LearningCanceller, FakeStt, FakeTts, FakeVad, Recorder, RecordingSink

RATE = 16000



def band_db(pcm, rate, lo, hi):
    spectrum = np.abs(np.fft.rfft(pcm)) ** 2
    f = np.fft.rfftfreq(pcm.size, 1 / rate)
    return 10 * np.log10(spectrum[(f >= lo) & (f < hi)].mean())


@pytest.mark.parametrize("rate", [16000, 22050, 48000])
def test_the_sound_is_as_loud_as_a_reply_short_and_the_same_every_time(rate):
    pcm = startup_sound(rate)
    assert pcm.dtype == np.float32 and np.isfinite(pcm).all()
    assert pcm.size == round(SECONDS * rate)
    audible = pcm[np.abs(pcm) > 0.01 * np.abs(pcm).max()]
    assert abs(np.sqrt(np.mean(audible**2)) - RMS) < 1e-3
    assert np.abs(pcm).max() < 0.9  # no clipping, even at a louder volume than 1
    assert abs(pcm[0]) < 1e-3 and abs(pcm[-1]) < 1e-3  # no click at either end
    assert np.array_equal(pcm, startup_sound(rate))


def test_the_sound_is_broadband():
    pcm = startup_sound(RATE)
    octaves = [band_db(pcm, RATE, lo, 2 * lo) for lo in (125, 250, 500, 1000, 2000, 3500)]
    assert max(octaves) - min(octaves) < 30, octaves  # every band a reply uses is taught
    assert band_db(pcm, RATE, 7000, 7900) > max(octaves) - 15  # up to the top of the microphone's band
    assert band_db(pcm, RATE, 10, 60) < max(octaves) - 30  # no rumble
    wide = startup_sound(22050)  # played faster than the microphone hears: nothing above its band
    assert band_db(wide, 22050, 8500, 10000) < band_db(wide, 22050, 1000, 2000) - 60


def octave_energy_db(pcm, rate, lo):
    spectrum = np.abs(np.fft.rfft(pcm)) ** 2
    f = np.fft.rfftfreq(pcm.size, 1 / rate)
    return 10 * np.log10(spectrum[(f >= lo) & (f < 2 * lo)].sum())


def test_the_fricatives_bands_are_taught_as_much_as_the_vowels():
    pcm = startup_sound(RATE)
    octaves = [octave_energy_db(pcm, RATE, lo) for lo in (875, 1750, 3500)]  # to 7 kHz: "s", "sh", "f"
    assert max(octaves) - min(octaves) < 3, octaves  # as much in each octave (at 6 dB an octave: 12 dB less)


def test_speexdsp_learns_the_room_on_the_sound_alone():
    sound = np.concatenate([startup_sound(RATE), np.zeros(RATE // 4, np.float32)])
    played = PlayedAudio(RATE, keep_s=3)
    played.start(0.0)
    played.add(sound, RATE, 0.0)
    path = EchoPath(40, 0.5)
    mic = through_room(sound, path.impulse_response(RATE), round(path.delay_ms * RATE / 1000))
    echo = EchoFilter(SpeexCanceller(), played, 512, EchoConfig())
    for i in range(0, mic.size - 511, 512):
        echo.process(mic[i : i + 512], i / RATE)
    assert echo.readiness.ready and echo.readiness.ready_after_s <= SECONDS


def config(**echo) -> Config:
    return Config(vad=VadConfig(endpoint_ms=200, min_speech_ms=64), echo=EchoConfig(**{"learn_sound": True, **echo}))


@pytest.fixture
def start(tmp_path):
    engines = []

    def make(user=None, seconds=3.0, canceller=None, half_duplex=False, **echo_config):
        cfg = config(**echo_config)
        out, recorder = RecordingSink(), Recorder()
        mode = DuplexMode(None, "no canceller") if half_duplex else DuplexMode("learning")
        echo = SpeakerEcho(cfg.echo, RATE, 512, canceller=None if half_duplex else canceller or LearningCanceller(), mode=mode,
                           memory=tmp_path)
        engine = Engine(cfg, stt=FakeStt(transcript="What about Paris?"), llm=FakeLlm(reply="It is in France."),
                        tts=FakeTts(), vad=FakeVad(), output=out, on_event=recorder, echo=echo)
        engines.append(engine)
        pcm = np.zeros(round(seconds * RATE), np.float32) if user is None else user
        # the fake VAD takes any frame louder than 0.05 (mean) for speech: the sound's echo at 0.1 is not
        room = EchoRoom(PacedWavSource(pcm, RATE, 512, realtime=True), echo.played, EchoPath(40, 0.1))
        return engine, room, out, recorder

    yield make
    for engine in engines:
        engine.close()


def test_played_where_nothing_is_kept_and_the_room_learnt_on_it_is_kept(start, tmp_path):
    engine, room, out, _ = start()
    engine.listen(room)
    assert wait_until(lambda: out.played, 2)
    assert out.played[0].size == round(SECONDS * RATE)  # the start-up sound, at the output's rate
    key = room_key(room, out, engine.config.audio)
    path = record_path(tmp_path, key, "learning")
    assert wait_until(path.is_file, 4), "the room learnt on the sound is kept for these devices"
    record = RoomRecord.from_bytes(path.read_bytes())
    assert record.key == key and SECONDS <= record.far.size / RATE < SECONDS + 0.5
    readiness = engine.echo.filter.readiness
    # the record is written on a thread of its own as the listener goes on to align the reference
    # and ask for the first reply's confirmation: wait for that, not for the file alone
    assert wait_until(lambda: readiness.ready and not readiness.confirmed, 4), \
        "the first reply's own echo reduction is to confirm it"
    assert engine.startup.phase is Phase.OFF
    engine.stop_listening()
    engine.listen(room)  # again on the same devices: learnt already
    time.sleep(0.3)
    assert len(out.played) == 1


def test_not_played_where_the_room_is_kept(start, tmp_path):
    engine, room, out, _ = start()
    key = room_key(room, out, engine.config.audio)
    far = startup_sound(RATE, seconds=2.0)
    save(tmp_path, RoomRecord(key, "learning", RATE, (far * 32767).astype(np.int16),
                              (far * 16000).astype(np.int16), 40.0, 0.5, 40.0))
    engine.listen(room)
    time.sleep(0.5)
    assert engine.echo.filter.readiness.ready and out.played == []


def test_a_kiosk_visitor_reset_keeps_the_room(start, tmp_path):
    """The kiosk watches its source; a fresh engine on the watched source (a visitor reset)
    is in the room learnt before: it starts converged, and no sound plays again."""
    engine, room, out, _ = start()
    watched = _WatchedSource(room, time.monotonic)
    assert room_key(watched, out, engine.config.audio) == room_key(room, out, engine.config.audio) is not None
    engine.listen(watched)
    key = room_key(room, out, engine.config.audio)
    assert wait_until(record_path(tmp_path, key, "learning").is_file, 6), "the room learnt on the sound is kept"
    engine.close()
    after, room_after, out_after, _ = start()
    after.listen(_WatchedSource(room_after, time.monotonic))
    time.sleep(0.5)
    assert after.echo.filter.readiness.ready and out_after.played == []


@pytest.mark.parametrize("setting", [{"learn_sound": False}, {"half_duplex": True}])
def test_not_played_when_turned_off_or_without_a_canceller(start, setting):
    engine, room, out, _ = start(**setting)
    engine.listen(room)
    time.sleep(0.5)
    assert out.played == []


def test_not_played_without_an_echo_path(start):
    engine, _, out, _ = start()
    engine.listen(PacedWavSource(np.zeros(RATE, np.float32), RATE, 512, realtime=True))  # a WAV: no room to learn
    time.sleep(0.5)
    assert out.played == []


def test_speech_over_the_sound_stops_it_and_is_a_turn_of_its_own(start):
    user = np.zeros(4 * RATE, np.float32)
    user[round(0.3 * RATE) : round(0.9 * RATE)] = 0.3
    engine, room, out, rec = start(user=user, canceller=LearningCanceller(learn_blocks=10**6))  # the user's voice passes
    engine.listen(room)
    rec.wait_turns(1, timeout=10)
    result = rec.results[0]
    assert out.flushes >= 1  # the sound stopped
    assert result.transcript == "What about Paris?" and result.reply == "It is in France." and not result.interrupted
    assert "barge_in" not in result.timeline.counts


def test_a_typed_question_during_the_sound_cuts_it(start):
    engine, room, out, rec = start()
    engine.listen(room)
    assert wait_until(lambda: out.played, 2)
    engine.submit_text("What about Paris?")
    rec.wait_turns(1, timeout=10)
    assert out.flushes >= 1 and len(out.played) >= 2  # cut, then the reply played
    assert rec.results[0].reply == "It is in France." and not rec.results[0].interrupted


def test_no_speaker_is_no_sound_and_no_error(start, monkeypatch):
    engine, room, out, _ = start()

    def broken(pcm):
        raise OSError("no output device")

    monkeypatch.setattr(out, "play", broken)
    engine.listen(room)
    time.sleep(0.5)
    assert engine.startup.phase is Phase.OFF and engine.hearing.listening


FIRST_REPLIES = (
    "The sky is usually a deep, dark shade of blue.",
    "Paris is the capital of France. It is known for the Eiffel Tower and its museums.",
    "Water boils at one hundred degrees Celsius at sea level.",
    "The moon is about three hundred eighty four thousand kilometers away.",
    "Sure, here is a short story about a lighthouse keeper.",
    "Six strong sailors sang sea songs on the ship.",
)


def first_reply_pauses(engines, sound: np.ndarray, path: EchoPath) -> list[list[float]]:
    """Frame by frame, as the listener runs them: a fresh speexdsp hears ``sound`` through the
    room, then each reply (Piper, without its random variation) alone: where the barge-in rule
    would pause the reply on its own echo."""
    from assistant.commands.bench.echo import listen, make_scene
    from assistant.sound import resample

    silence = np.zeros(0, np.float32)
    prelude = make_scene(sound, silence, path, RATE, 0.0)
    pauses = []
    for text in FIRST_REPLIES:
        reply = resample(np.concatenate(list(engines.tts.steady(text))), engines.tts.rate, RATE)
        _, paused, _, ready = listen(SpeexCanceller(), make_scene(reply, silence, path, RATE, 0.0), engines.vad,
                                     Config(), prelude=prelude)
        assert ready == 0.0, "full duplex from the reply's first frame"
        pauses.append(paused)
    return pauses


@pytest.mark.slow
def test_after_the_sound_a_first_reply_does_not_pause_on_its_own_echo(engines):
    path = EchoPath(40, 0.5)
    assert first_reply_pauses(engines, startup_sound(RATE), path) == [[]] * len(FIRST_REPLIES)
    # taught 10 dB quieter than the reply, speexdsp leaves echo that pauses some of them
    assert any(first_reply_pauses(engines, startup_sound(RATE, rms=RMS / 3), path))


@pytest.mark.slow
def test_in_a_room_with_a_long_delay_the_sound_measures_it_and_the_reference_is_read_earlier(engines):
    from assistant.hear.echo import aligned_shift
    from assistant.sound import resample

    path = EchoPath(150, 1.0)  # 150 ms and 80 ms of room: more than the canceller's 192 ms tail
    response, delay = path.impulse_response(RATE), round(path.delay_ms * RATE / 1000)
    reply = resample(np.concatenate(list(engines.tts.steady(FIRST_REPLIES[3]))), engines.tts.rate, RATE)

    def first_reply_erle(sound_over: bool) -> tuple[int, float]:
        sound = np.concatenate([startup_sound(RATE), np.zeros(RATE // 2, np.float32)])
        played = PlayedAudio(RATE, keep_s=4)
        played.start(0.0)
        played.add(sound, RATE, 0.0)
        echo = EchoFilter(SpeexCanceller(), played, 512, EchoConfig())
        mic = through_room(sound, response, delay)
        for i in range(0, mic.size - 511, 512):
            echo.process(mic[i : i + 512], i / RATE)
        if sound_over:
            echo.sound_over()  # as the listener does
        echo.played = PlayedAudio(RATE, keep_s=4)
        echo.played.start(0.0)
        echo.played.add(reply, RATE, 0.0)
        echo.restart()
        mic = through_room(reply, response, delay)
        clean = np.concatenate([echo.process(mic[i : i + 512], i / RATE).pcm for i in range(0, mic.size - 511, 512)])
        lag, span = echo.lag_samples, slice(RATE // 4, 2 * RATE)
        kept = clean[span.start + lag : span.stop + lag]
        return echo.shift, float(10 * np.log10(np.sum(mic[span] ** 2) / np.sum(kept**2)))

    shift, aligned = first_reply_erle(True)
    assert shift == aligned_shift(150.0, RATE, 160)  # the delay measured on the sound's recording
    unaligned_shift, unaligned = first_reply_erle(False)
    assert unaligned_shift == 0 and aligned > unaligned + 10, (aligned, unaligned)  # 32 dB against 15 here
