"""The room simulation: the speaker's audio heard again by the microphone, on the same clock."""

import numpy as np
import pytest

from assistant.hear.sources import PacedWavSource
from assistant.sound import save_wav
from assistant.hear.echo import PlayedAudio
from assistant.hear.room import EchoPath, EchoPathError, EchoRoom, synthetic_room, through_room

RATE = 16000


def test_parse_delay_and_gain():
    path = EchoPath.parse("40,0.5")
    assert (path.delay_ms, path.gain, path.room) == (40.0, 0.5, None)
    assert str(path) == "echo 40 ms, gain 0.5, synthetic room"


@pytest.mark.parametrize("text, message", [
    ("40", "DELAY_MS,GAIN"),
    ("forty,0.5", "needs numbers"),
    ("40,9", "gain must be 0 to 4"),
    ("-5,0.5", "delay must be 0 to 1000"),
    ("40,0.5,/no/such/room.wav", "does not exist"),
])
def test_bad_echo_paths_say_what_is_wrong(text, message):
    with pytest.raises(EchoPathError, match=message):
        EchoPath.parse(text)


def test_recorded_room_response_is_scaled_to_the_gain(tmp_path):
    response = np.zeros(800, np.float32)
    response[[0, 100]] = [0.8, -0.4]
    save_wav(tmp_path / "room.wav", response, RATE)
    path = EchoPath.parse(f"20,0.5,{tmp_path / 'room.wav'}")
    scaled = path.impulse_response(RATE)
    assert scaled[0] == pytest.approx(0.5, abs=1e-3) and scaled[100] == pytest.approx(-0.25, abs=1e-3)


def test_synthetic_room_starts_with_the_direct_sound_and_decays():
    response = synthetic_room(RATE)
    assert response[0] == 1.0
    early, late = response[1:400], response[-400:]
    assert np.abs(late).max() < np.abs(early).max() / 4


def test_through_room_delays_an_impulse_by_exactly_the_delay():
    played = np.zeros(1000, np.float32)
    played[10] = 1.0
    heard = through_room(played, np.array([0.5, 0.25], np.float32), 640)
    assert np.flatnonzero(heard).tolist() == [650, 651]
    assert heard[650] == 0.5


def test_the_microphone_hears_the_voice_plus_the_echo_on_the_same_clock():
    voice = np.zeros(RATE, np.float32)
    voice[3000:3100] = 0.3
    played = PlayedAudio(RATE)
    source = PacedWavSource(voice, RATE, 512, realtime=False)
    path = EchoPath(40, 0.5)
    room = EchoRoom(source, played, path, keep=True)
    reply = (np.random.default_rng(0).standard_normal(4000) * 0.1).astype(np.float32)
    frames = room.frames()
    heard = []
    for i, (frame, _) in enumerate(frames):
        if i == 0:
            played.start(0.0)
            played.add(reply, RATE, 0.125)  # the reply sounds from sample 2000 on
        heard.append(frame)
        if len(heard) * 512 >= RATE:
            break
    room.stop()
    heard = np.concatenate(heard)[:RATE]
    expected_echo = through_room(np.concatenate([np.zeros(2000, np.float32), reply, np.zeros(RATE, np.float32)]),
                                 path.impulse_response(RATE), 640)[:RATE]
    np.testing.assert_allclose(heard, voice + expected_echo, atol=1e-5)
    assert room.echo_energy == pytest.approx(float(np.sum(expected_echo**2)), rel=1e-3)
