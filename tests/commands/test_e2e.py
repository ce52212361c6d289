"""End to end on the real embedded models, through the command line as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
import soundfile as sf
from rapidfuzz import fuzz

from assistant.commands.bench.heard import heard_latency_files
from assistant.commands.spoken import speech_bounds
from assistant.config import Config
from assistant.timeline import CAUSAL_CHAINS

pytestmark = pytest.mark.slow


def chat(*args, timeout=240):
    """Run `assistant chat ...`; return (exit code, JSON turns, stderr)."""
    proc = subprocess.run(
        [sys.executable, "-m", "assistant", "chat", *map(str, args)],
        capture_output=True, text=True, timeout=timeout,
    )
    turns = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    return proc.returncode, turns, proc.stderr


def test_spoken_question_gets_a_spoken_answer_on_the_same_clock(speak, tmp_path):
    question = speak("What is the capital of France?")
    out = tmp_path / "answer.wav"
    code, turns, err = chat("--input", question, "--output", out, "--json")
    assert code == 0, err
    assert len(turns) == 1, turns
    turn = turns[0]
    assert fuzz.ratio(turn["transcript"].lower(), "what is the capital of france?") > 80, turn["transcript"]
    assert turn["source"] == "llm" and turn["reply"]
    assert turn["counts"]["tokens"] > 0
    marks = turn["marks_ms"]
    expected = ["speech_start", "speech_end", "endpoint", "stt_start", "stt_final", "llm_start", "llm_first_token",
                "first_chunk", "tts_first_audio", "audio_out_start", "turn_end"]
    assert all(m in marks for m in expected), marks
    for chain in CAUSAL_CHAINS:
        present = [marks[m.value] for m in chain if m.value in marks]
        assert present == sorted(present), (chain, marks)
    for key in ("voice_to_voice", "endpoint_wait", "stt", "ttft", "tpot", "tts_first_chunk"):
        assert turn["latency_ms"][key] is not None and turn["latency_ms"][key] >= 0, key

    # The reply is in the output WAV after the question ended, where the timeline says.
    q_start, q_end = speech_bounds(question)
    a_bounds = speech_bounds(out)
    assert a_bounds is not None, "no reply audio"
    assert a_bounds[0] > q_end
    reply_at = q_end + turn["latency_ms"]["voice_to_voice"] / 1000
    assert abs(a_bounds[0] - reply_at) < 0.25  # speech onset within the reply's first syllable
    assert sf.info(str(out)).duration >= sf.info(str(question)).duration
    # The heard wait the timeline gives is the one read off the two WAV files.
    heard = heard_latency_files(question, out)
    assert turn["latency_ms"]["heard"] == pytest.approx(heard.ms, abs=40)
    assert turn["counts"]["turn_decision"] in ("complete", "unsure", "unfinished")


@pytest.mark.parametrize("how", ["quiet", "offset"])
def test_a_quiet_or_offset_question_gets_the_heard_wait_its_files_show(how, speak, tmp_path):
    """A speaker far from the microphone (peaking at -36 dBFS) and a recording offset from zero
    (DC): the turn's heard wait is still the one read off the two files."""
    pcm, rate = sf.read(str(speak("How many legs does a spider have?")), dtype="float32")
    if how == "quiet":
        pcm = pcm / np.abs(pcm).max() * 10 ** (-36 / 20)
    else:
        pcm = pcm * 0.6 + 0.3
    question, out = tmp_path / f"{how}.wav", tmp_path / f"{how}-answer.wav"
    sf.write(question, pcm, rate)
    code, turns, err = chat("--input", question, "--output", out, "--json", "--no-replies")
    assert code == 0, err
    assert len(turns) == 1 and turns[0]["reply"], turns
    heard = heard_latency_files(question, out)
    assert heard is not None and not heard.cut_off
    assert turns[0]["latency_ms"]["heard"] == pytest.approx(heard.ms, abs=40)


def test_a_question_the_recognizer_barely_heard_is_not_answered_until_said_again(tmp_path):
    """A voice tiny.en mishears (the turn corpus's tuning half): its least sure word is far under
    the threshold, so the words are not answered as heard; said again, they are."""
    from assistant.commands.bench.turn_corpus import espeak_said, trim
    from assistant.think.misheard import DID_NOT_CATCH

    said = trim(espeak_said("en-gb-scotland+m3", 180, 40, "How many legs does a spider have?"))
    gap = np.zeros(int(3.0 * 16000), np.float32)
    question = tmp_path / "misheard.wav"
    sf.write(question, np.concatenate([gap[:8000], said, gap, said, gap]), 16000)
    code, turns, err = chat("--input", question, "--output", tmp_path / "misheard-answer.wav", "--json")
    assert code == 0, err
    assert [t["source"] for t in turns] == ["misheard", "llm"], [(t["transcript"], t["reply"]) for t in turns]
    assert turns[0]["reply"] == DID_NOT_CATCH and turns[0]["counts"]["least_word_p"] < Config().stt.misheard_below
    assert fuzz.ratio(turns[0]["transcript"].lower(), "how many legs does a spider have?") < 60


def test_fast_mode_refuses_a_same_clock_output(speak, tmp_path):
    code, turns, err = chat("--input", speak("Hello."), "--output", tmp_path / "x.wav", "--fast")
    assert code == 2 and "--fast" in err and turns == []


def test_typed_question_is_spoken_to_a_file(tmp_path):
    out = tmp_path / "typed.wav"
    code, turns, err = chat("--text", "Say hello to the team.", "--output", out, "--json", "--no-replies")
    assert code == 0, err
    assert turns[0]["transcript"] == "Say hello to the team." and turns[0]["reply"]
    assert speech_bounds(out) is not None


def test_two_questions_in_one_file_reuse_the_prompt_cache(engines, tmp_path):
    from assistant.commands.spoken import speak_question

    first = speak_question(engines.tts, "What is the capital of France?", tail_s=4.0)
    second = speak_question(engines.tts, "And what about Germany?", lead_s=0.0)
    both = tmp_path / "both.wav"
    sf.write(both, np.concatenate([first, second]), 16000)
    code, turns, err = chat("--input", both, "--output", tmp_path / "out.wav", "--json", "--no-replies")
    assert code == 0, err
    assert len(turns) == 2, [t["transcript"] for t in turns]
    # the second prompt contains the first exchange; all of it but the new question was cached
    c1, c2 = turns[0]["counts"], turns[1]["counts"]
    assert c2["prompt_tokens"] > c1["prompt_tokens"]
    assert c2["prompt_reused"] >= c1["prompt_tokens"]


def test_real_human_speech(jfk_wav, tmp_path):
    code, turns, err = chat("--input", jfk_wav, "--no-audio", "--json", "--turn", "fixed",
                            "--endpoint-ms", "1200", "--fast")
    assert code == 0, err
    heard = " ".join(t["transcript"] for t in turns).lower()
    assert "fellow americans" in heard and "your country" in heard, heard


def test_silence_makes_no_turn_and_no_llm_call(tmp_path):
    quiet = tmp_path / "quiet.wav"
    sf.write(quiet, np.zeros(16000 * 2), 16000)
    code, turns, err = chat("--input", quiet, "--output", tmp_path / "q_out.wav", "--json")
    assert code == 0, err
    assert turns == []


def test_vosk_streams_partials_on_its_real_model(tmp_path):
    from assistant.sound import load_wav
    from assistant.config import SttConfig
    from assistant.hear.stt import VoskStt

    wav = tmp_path / "ko.wav"
    subprocess.run(["espeak-ng", "-v", "ko", "-w", str(wav), "안녕하세요 오늘 날씨가 좋네요"], check=True)
    stt = VoskStt(SttConfig(engine="vosk", language="ko"))
    utterance = stt.utterance()
    pcm = load_wav(wav, 16000)
    partials = [p for p in (utterance.feed(pcm[i:i + 512]) for i in range(0, pcm.size, 512)) if p]
    final = utterance.transcribe()
    assert len(partials) >= 2  # words arrive while the audio is still coming in
    assert final and any("\uac00" <= ch <= "\ud7a3" for ch in final), final


def test_vosk_through_the_cli(tmp_path):
    wav = tmp_path / "ko_turn.wav"
    raw = tmp_path / "ko_raw.wav"
    subprocess.run(["espeak-ng", "-v", "ko", "-w", str(raw), "안녕하세요 오늘 날씨가 좋네요"], check=True)
    pcm, rate = sf.read(raw)
    sf.write(wav, np.concatenate([np.zeros(rate // 2), pcm, np.zeros(rate)]), rate)
    code, turns, err = chat("--input", wav, "--output", tmp_path / "ko_out.wav", "--json",
                            "--stt", "vosk", "--language", "ko", "--no-replies")
    assert code == 0, err
    assert turns and turns[0]["transcript"], turns
    assert turns[0]["marks_ms"]["stt_start"] >= turns[0]["marks_ms"]["speech_end"]




def test_talking_over_the_first_reply_from_a_file_stops_it(speak, tmp_path):
    """The first reply of a run, talked over a quarter of a second in, from a WAV file (which
    cannot hear the reply: nothing for the canceller to learn): the reply stops, the new
    question is answered."""
    how = speak("How are you?")
    first, second = sf.read(how)[0], sf.read(speak("What is 6 times 7?"))[0]
    end = int((speech_bounds(how)[1] + 0.45) * 16000)  # "I'm doing well, thanks for asking." begins before
    said = tmp_path / "talk-over.wav"
    sf.write(said, np.concatenate([first[:end], np.zeros(max(0, end - first.size)), second]), 16000)
    code, turns, err = chat("--input", said, "--output", tmp_path / "a.wav", "--json")
    assert code == 0, err
    assert [t["interrupted"] for t in turns] == [True, False], turns
    assert turns[1]["reply"] == "6 times 7 is 42."
