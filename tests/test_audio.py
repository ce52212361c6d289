import time

import numpy as np
import pytest
import soundfile as sf

from assistant.machine import devices
from assistant.sound import AudioError, load_wav
from assistant.speak.sinks import SameClockWavSink


def test_load_wav_converts_rate_width_and_channels(tmp_path):
    rate = 44100
    t = np.arange(rate) / rate
    stereo = np.stack([np.sin(2 * np.pi * 440 * t), np.sin(2 * np.pi * 440 * t)], axis=1) * 0.5
    path = tmp_path / "stereo24.wav"
    sf.write(path, stereo, rate, subtype="PCM_24")
    pcm = load_wav(path, 16000)
    assert pcm.dtype == np.float32 and pcm.ndim == 1
    assert abs(pcm.size - 16000) <= 2
    assert 0.4 < np.abs(pcm).max() < 0.6


def test_load_wav_reads_8bit_and_float(tmp_path):
    for subtype in ("PCM_U8", "FLOAT"):
        path = tmp_path / f"{subtype}.wav"
        sf.write(path, np.full(8000, 0.25), 8000, subtype=subtype)
        assert load_wav(path, 16000).size == 16000


def test_unreadable_and_empty_files_are_clear_errors(tmp_path):
    junk = tmp_path / "junk.wav"
    junk.write_text("this is not audio")
    with pytest.raises(AudioError, match="cannot read"):
        load_wav(junk, 16000)
    empty = tmp_path / "empty.wav"
    sf.write(empty, np.zeros(0), 16000)
    with pytest.raises(AudioError, match="no audio samples"):
        load_wav(empty, 16000)
    with pytest.raises(AudioError, match="does not exist"):
        load_wav(tmp_path / "missing.wav", 16000)


def test_same_clock_sink_places_audio_at_the_time_it_was_played(tmp_path):
    sink = SameClockWavSink(tmp_path / "out.wav", 1000)
    t0 = time.perf_counter() - 2.0  # sample 0 was two seconds ago
    sink.start(t0)
    at = sink.play(np.ones(500, np.float32))
    assert 1.9 < at - t0 < 2.5
    second = sink.play(np.ones(100, np.float32))
    assert abs(second - (at + 0.5)) < 1e-6  # queued right after the first chunk
    out = sink.render()
    first_sample = int(np.flatnonzero(out)[0])
    assert abs(first_sample / 1000 - (at - t0)) < 0.002


def test_flush_cuts_audio_not_yet_heard(tmp_path):
    sink = SameClockWavSink(tmp_path / "out.wav", 1000)
    sink.start(time.perf_counter())
    sink.play(np.ones(5000, np.float32))  # five seconds queued
    sink.flush()
    assert sink.render().size < 1000


def test_missing_portaudio_says_what_to_install(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_portaudio(name, *args, **kwargs):
        if name == "sounddevice":
            raise OSError("PortAudio library not found")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_portaudio)
    with pytest.raises(AudioError, match="libportaudio2"):
        devices.check_device("input")


def test_no_device_is_a_clear_error():
    sd = pytest.importorskip("sounddevice")
    try:
        sd.query_devices(kind="input")
    except Exception:
        with pytest.raises(AudioError, match="no microphone"):
            devices.check_device("input")
    else:
        pytest.skip("this machine has a microphone")


def test_paced_source_in_real_time_stamps_frames_on_the_input_clock():
    import time

    from assistant.hear.sources import PacedWavSource

    source = PacedWavSource(np.ones(16000, np.float32), 16000, 320)
    frames = source.frames()
    stamps = [next(frames)[1] for _ in range(8)]
    frames.close()
    assert [round(s - source.t0, 3) for s in stamps] == [round(i * 0.02, 3) for i in range(8)]
    assert time.perf_counter() - source.t0 >= 8 * 0.02 - 0.005  # handed over no sooner than filled
    assert source.fed_samples == 8 * 320 and not source.input_over(0.0)


def test_paced_source_fast_hands_the_input_over_at_once_then_silence_in_real_time():
    import time

    from assistant.hear.sources import PacedWavSource

    source = PacedWavSource(np.ones(16000, np.float32), 16000, 320, realtime=False)
    frames = source.frames()
    start = time.perf_counter()
    taken = [next(frames) for _ in range(50)]  # the whole second of input
    fast = time.perf_counter() - start
    assert fast < 0.5 and all(f[0].max() == 1.0 for f in taken)
    assert all(start - 0.03 <= stamp <= time.perf_counter() for _, stamp in taken)  # stamped when handed over
    for _ in range(10):  # 0.2 s of silence after the input: real time, not a flood
        frame, _ = next(frames)
    assert frame.max() == 0.0
    assert time.perf_counter() - start >= fast + 10 * 0.02 - 0.01
    assert source.input_over(0.15) and not source.input_over(0.25)
    frames.close()


def test_a_reply_s_silent_lead_in_is_not_played():
    from assistant.sound import first_audible_s, without_lead_in

    rate = 22050
    tone = (0.3 * np.sin(2 * np.pi * 220 * np.arange(rate // 4) / rate)).astype(np.float32)
    clip = np.concatenate([np.zeros(int(0.045 * rate), np.float32), np.full(200, 1e-4, np.float32), tone])
    trimmed = without_lead_in(clip, rate)
    assert first_audible_s(clip, rate) >= 0.045 and first_audible_s(trimmed, rate) <= 0.011
    assert np.array_equal(trimmed[-tone.size:], tone)  # the sound itself is whole
    assert np.array_equal(without_lead_in(trimmed, rate), trimmed)  # once is enough
    silent = np.zeros(rate // 10, np.float32)
    assert without_lead_in(silent, rate) is silent  # nothing to find: kept as it is


@pytest.mark.slow
def test_the_korean_voice_s_reply_sounds_at_once():
    """eSpeak NG opens a text that begins on a stop or an affricate (ㅈ, ㅊ, ...) with 35-45 ms of
    digital silence, its closure: the reply's first sound is played at once."""
    from assistant.sound import first_audible_s, without_lead_in
    from assistant.speak.espeak import EspeakTts

    tts = EspeakTts("ko", 175, 50)
    pcm = np.concatenate(list(tts.synthesize("죄송해요, 지금 모델은 한국어를 못 해요.")))
    assert first_audible_s(pcm, tts.rate) >= 0.035
    assert first_audible_s(without_lead_in(pcm, tts.rate), tts.rate) <= 0.011
    said = np.concatenate(list(tts.synthesize("안녕하세요.")))  # a vowel sounds from the first samples
    # (in its first 5 ms window: eSpeak NG's state from earlier texts moves its first window's level across
    # the threshold), and nothing of it is taken for a lead-in
    assert first_audible_s(said, tts.rate) <= 0.005 and without_lead_in(said, tts.rate).size == said.size
