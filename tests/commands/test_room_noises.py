"""The bench's sounds that are not a person talking, and its harder rooms."""

import numpy as np
import pytest

from assistant.commands.bench.room_noises import NOISES, Room, false_barge_ins, noise, rooms
from assistant.hear.room import EchoPath

RATE = 16000


@pytest.mark.parametrize("name", list(NOISES))
def test_each_sound_is_the_same_every_run_at_its_peak(name):
    pcm = noise(name)
    assert pcm.dtype == np.float32 and np.isfinite(pcm).all()
    assert np.abs(pcm).max() == pytest.approx(NOISES[name][1], rel=1e-5)
    assert np.array_equal(pcm, noise(name))


def test_music_from_another_room_has_lost_its_highs():
    pcm = noise("music")
    spectrum = np.abs(np.fft.rfft(pcm)) ** 2
    f = np.fft.rfftfreq(pcm.size, 1 / RATE)
    assert spectrum[f > 1600].sum() < 1e-6 * spectrum.sum()


def test_a_clipping_speaker_is_heard_clipped_and_the_reference_is_what_was_sent():
    far = (np.sin(np.arange(RATE) * 2 * np.pi * 200 / RATE) * 0.9).astype(np.float32)
    clean, clipped = Room("plain", EchoPath(0, 1.0)), Room("clipped", EchoPath(0, 1.0), clip_at=0.35)
    scene = clipped.scene(far, np.zeros(0, np.float32), RATE, 0.0)
    assert np.abs(scene.far).max() == pytest.approx(0.9, rel=1e-5)  # the reference
    direct = clipped.echo(far, RATE)
    assert np.abs(direct).max() < np.abs(clean.echo(far, RATE)).max() * 0.6


def test_the_rooms_include_longer_delays_louder_echoes_reverberation_and_clipping():
    names = [room.name for room in rooms()]
    assert any(r.path.delay_ms >= 100 for r in rooms()) and any(r.path.gain >= 1.0 for r in rooms())
    assert any(r.response is not None and r.response.size / RATE > 0.192 for r in rooms())  # outlasts the tail
    assert any(r.clip_at for r in rooms()) and len(set(names)) == len(names)


@pytest.mark.slow
def test_a_cough_knocks_and_music_from_another_room_never_pause_the_first_reply(engines):
    from assistant.config import Config
    from assistant.hear.echo import SpeexCanceller
    from assistant.sound import resample
    from assistant.speak.startup_sound import startup_sound

    text = "The moon is about three hundred eighty four thousand kilometers away from the earth."
    reply = resample(np.concatenate(list(engines.tts.steady(text))), engines.tts.rate, RATE)
    report = false_barge_ins(SpeexCanceller, reply, engines.vad, Config(), startup_sound(RATE), room_names=("40 ms, 0.5",))
    room = report["40 ms, 0.5"]
    assert (room["cough"], room["knock"], room["music"]) == (0, 0, 0), report  # (a door may: docs/echo.md)
