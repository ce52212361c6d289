"""Heard latency: read off two same-clock signals by amplitude."""

from __future__ import annotations

import numpy as np
import pytest

from assistant.sound import save_wav
from assistant.hear.microphone import DcBlocker
from assistant.sound import VoiceEnd, first_audible_s, last_audible_s
from assistant.commands.bench.heard import heard_latency, heard_latency_files
from assistant.speak.tts import ends_mid_sentence, trim_lead_in, trim_tail

RATE = 16000


def tone(seconds: float, level: float = 0.3, rate: int = RATE) -> np.ndarray:
    t = np.arange(int(seconds * rate)) / rate
    return (level * np.sin(2 * np.pi * 220 * t)).astype(np.float32)


def silence(seconds: float, rate: int = RATE) -> np.ndarray:
    return np.zeros(int(seconds * rate), np.float32)


def test_heard_latency_spans_the_silence_between_the_two_sounds():
    question = np.concatenate([silence(0.5), tone(1.0), silence(2.0)])
    answer = np.concatenate([silence(1.5 + 0.37), tone(0.5, rate=22050)[: int(0.5 * 22050)]])
    answer = np.concatenate([silence(1.87, 22050), tone(0.5, rate=22050)])
    heard = heard_latency(question, RATE, answer, 22050)
    assert heard.question_end_s == pytest.approx(1.5, abs=0.006)
    assert heard.answer_start_s == pytest.approx(1.87, abs=0.006)
    assert heard.ms == pytest.approx(370, abs=10)


def test_near_silence_is_not_audible_but_a_quiet_word_is():
    lead = tone(0.04, level=0.001)  # -63 dBFS: a voice's lead-in
    answer = np.concatenate([silence(1.0), lead, tone(0.3, level=0.05)])
    assert first_audible_s(answer, RATE) == pytest.approx(1.04, abs=0.006)


def test_a_steady_noise_floor_raises_the_threshold():
    rng = np.random.default_rng(0)
    noise = (rng.standard_normal(RATE * 3) * 0.02).astype(np.float32)  # -34 dBFS, above the absolute level
    question = noise.copy()
    question[RATE : 2 * RATE] += tone(1.0)
    assert last_audible_s(question, RATE) == pytest.approx(2.0, abs=0.01)


def test_no_answer_or_no_question_gives_none():
    assert heard_latency(tone(1.0), RATE, silence(2.0), RATE) is None
    assert heard_latency(silence(1.0), RATE, tone(1.0), RATE) is None


def test_an_answer_inside_a_pause_is_a_negative_wait_from_the_end_of_the_whole_question(tmp_path):
    question = np.concatenate([silence(0.2), tone(0.5), silence(0.6), tone(0.5), silence(1.0)])
    answer = np.concatenate([silence(1.0), tone(0.3)])  # answered inside the pause: premature
    save_wav(tmp_path / "q.wav", question, RATE)
    save_wav(tmp_path / "a.wav", answer, RATE)
    heard = heard_latency_files(tmp_path / "q.wav", tmp_path / "a.wav")
    assert heard.question_end_s == pytest.approx(1.8, abs=0.006)
    assert heard.ms == pytest.approx(-800, abs=10)
    assert heard.cut_off


def test_an_answer_after_the_question_is_no_cut_off():
    question = np.concatenate([silence(0.2), tone(0.5), silence(0.6), tone(0.5), silence(1.0)])
    answer = np.concatenate([silence(2.1), tone(0.3)])
    heard = heard_latency(question, RATE, answer, RATE)
    assert heard.ms == pytest.approx(300, abs=10) and not heard.cut_off


def test_tts_lead_in_is_trimmed_to_a_few_milliseconds():
    pcm = np.concatenate([tone(0.04, level=0.001, rate=22050), tone(0.5, rate=22050)])
    trimmed = trim_lead_in(pcm, 22050)
    assert first_audible_s(trimmed, 22050) <= 0.006
    assert trimmed.size >= tone(0.5, rate=22050).size
    quiet = tone(0.2, level=0.0005, rate=22050)
    assert trim_lead_in(quiet, 22050).size == quiet.size  # nothing loud: nothing cut


def test_a_chunk_cut_mid_sentence_loses_its_trailing_silence_but_40_ms():
    pcm = np.concatenate([tone(0.5, rate=22050), silence(0.17, 22050)])
    trimmed = trim_tail(pcm, 22050)
    assert trimmed.size == pytest.approx(tone(0.5, rate=22050).size + 0.04 * 22050, abs=0.006 * 22050)
    assert trim_tail(silence(0.2, 22050), 22050).size == round(0.2 * 22050)  # nothing loud: nothing cut
    assert ends_mid_sentence("The capital of") and ends_mid_sentence("It is 42 ")
    assert not ends_mid_sentence("Paris.") and not ends_mid_sentence("Well, honestly,") and not ends_mid_sentence("")


def test_piper_runs_a_mid_sentence_chunk_on_into_the_next(engines):
    tts = engines.tts
    whole = np.concatenate(list(tts.synthesize("The capital of France.")))
    cut = np.concatenate(list(tts.synthesize("The capital of")))
    end = last_audible_s(whole, tts.rate)
    assert whole.size / tts.rate - end > 0.12  # a sentence ends with Piper's pause (~170 ms)
    assert cut.size / tts.rate - last_audible_s(cut, tts.rate) < 0.08  # 40 ms kept after -45 dBFS


def test_the_live_tracker_finds_the_last_audible_sample_frame_by_frame():
    rng = np.random.default_rng(1)
    noise = (rng.standard_normal(RATE * 3) * 0.005).astype(np.float32)  # a quiet room
    pcm = noise.copy()
    pcm[RATE : RATE + 8000] += tone(0.5)  # speech from 1.0 to 1.5 s
    tracker = VoiceEnd(RATE)
    for start in range(0, pcm.size - 512, 512):
        in_speech = 0.9 <= start / RATE <= 1.7
        tracker.push(pcm[start : start + 512], start / RATE, in_speech)
    assert tracker.last_s == pytest.approx(1.5, abs=0.006)


def test_a_quiet_recording_is_heard_under_its_own_loudest_windows():
    quiet = np.concatenate([silence(0.5), tone(1.0, level=0.01), silence(1.0)])  # -43 dBFS: under -40
    assert last_audible_s(quiet, RATE, quiet_speaker=True) == pytest.approx(1.5, abs=0.006)
    assert first_audible_s(quiet, RATE, quiet_speaker=True) == pytest.approx(0.5, abs=0.006)
    assert last_audible_s(quiet, RATE) is None  # corpora are cut at the absolute level: they stay as they were


def test_a_quiet_steady_noise_alone_is_still_no_sound():
    rng = np.random.default_rng(2)
    hiss = (rng.standard_normal(RATE * 3) * 0.001).astype(np.float32)  # -60 dBFS, nothing above it
    assert first_audible_s(hiss, RATE, quiet_speaker=True) is None
    assert last_audible_s(hiss, RATE, quiet_speaker=True) is None


def test_a_quiet_recording_in_its_own_noise_is_heard_over_the_floor():
    rng = np.random.default_rng(3)
    pcm = (rng.standard_normal(RATE * 3) * 0.0003).astype(np.float32)  # -70 dBFS hiss
    pcm[RATE : RATE + RATE // 2] += tone(0.5, level=0.01)
    assert last_audible_s(pcm, RATE, quiet_speaker=True) == pytest.approx(1.5, abs=0.006)


def test_a_quiet_question_file_has_its_heard_wait(tmp_path):
    question = np.concatenate([silence(0.5), tone(1.0, level=0.01), silence(1.5)])
    save_wav(tmp_path / "q.wav", question, RATE)
    save_wav(tmp_path / "a.wav", np.concatenate([silence(1.8), tone(0.5)]), RATE)
    assert heard_latency_files(tmp_path / "q.wav", tmp_path / "a.wav").ms == pytest.approx(300, abs=10)


def test_a_file_offset_from_zero_is_read_without_the_offset(tmp_path):
    question = np.concatenate([silence(0.5), tone(1.0), silence(1.5)]) + 0.3
    answer = np.concatenate([silence(1.9), tone(0.5)]) - 0.2
    save_wav(tmp_path / "q.wav", question, RATE)
    save_wav(tmp_path / "a.wav", answer, RATE)
    heard = heard_latency_files(tmp_path / "q.wav", tmp_path / "a.wav")
    assert heard.question_end_s == pytest.approx(1.5, abs=0.006)
    assert heard.ms == pytest.approx(400, abs=10)


def test_the_live_tracker_hears_a_quiet_speaker():
    pcm = np.concatenate([silence(1.0), tone(0.5, level=0.01), silence(1.5)])
    tracker = VoiceEnd(RATE)
    for start in range(0, pcm.size - 512, 512):
        tracker.push(pcm[start : start + 512], start / RATE, 0.9 <= start / RATE <= 1.7)
    assert tracker.heard_end_s() == pytest.approx(1.5, abs=0.006)
    assert tracker.last_s is None  # where pauses start is found at the absolute level, for every speaker alike


def test_the_live_tracker_keeps_the_absolute_level_for_a_loud_speaker_over_a_quiet_hum():
    hum = tone(3.0, level=0.004)  # -51 dBFS between words: under -40, never the voice's end
    pcm = hum.copy()
    pcm[RATE : RATE + 8000] += tone(0.5, level=0.3)
    tracker = VoiceEnd(RATE)
    for start in range(0, pcm.size - 512, 512):
        tracker.push(pcm[start : start + 512], start / RATE, 0.9 <= start / RATE <= 1.7)
    assert tracker.last_s == pytest.approx(1.5, abs=0.006)
    assert tracker.heard_end_s() == tracker.last_s


def test_the_dc_blocker_takes_a_steady_offset_out_from_the_first_frame_and_follows_a_change():
    blocker = DcBlocker(RATE)
    frames = [np.full(512, 0.3, np.float32) + tone(0.032, level=0.1) for _ in range(5)]
    first = blocker(frames[0])
    assert abs(float(np.mean(first))) < 0.005
    out = np.concatenate([first] + [blocker(f) for f in frames[1:]])
    assert abs(float(np.mean(out))) < 0.005
    step = [blocker(np.full(512, -0.2, np.float32)) for _ in range(round(3.0 / 0.032))]
    assert abs(float(step[-1].mean())) < 0.01  # settled within 3 s
    joined = np.concatenate(step)
    assert float(np.max(np.abs(np.diff(joined)))) < 0.01  # a ramp, no step between frames
