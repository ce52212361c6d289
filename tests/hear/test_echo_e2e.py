"""Echo and barge-in end to end on the real models, through the room simulation."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from assistant.sound import load_wav
from assistant.commands.bench.echo import sound_spans
from assistant.config import Config
from assistant.hear.room import EchoPath

pytestmark = pytest.mark.slow


def test_a_question_is_answered_to_the_end_through_the_echo(speak, tmp_path):
    question = speak("Tell me a fun fact about the moon.")
    out, mic = tmp_path / "reply.wav", tmp_path / "mic.wav"
    proc = subprocess.run(
        [sys.executable, "-m", "assistant", "chat", "--input", str(question), "--output", str(out),
         "--mic-output", str(mic), "--echo-path", "40,0.5", "--json"],
        capture_output=True, text=True, timeout=240,
    )
    assert proc.returncode == 0, proc.stderr
    turns = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    assert len(turns) == 1, turns  # the echo started no turn of its own
    turn = turns[0]
    assert not turn["interrupted"] and turn["reply"]
    # residue the canceller left may pause the reply for a moment (real time: how much of it
    # there is varies with the scheduling); a pause that nobody went on speaking in resumes
    counts = turn["counts"]
    assert counts.get("barge_in_resumed", 0) == counts.get("barge_in_pauses", 0), counts
    reply = load_wav(out, 22050)
    heard = sum(b - a for a, b in sound_spans(reply, 22050))
    said_about = {k: turn[k] for k in ("source", "transcript", "reply")}
    if "tts_audio_s" in counts:  # synthesized: all of it sounded
        assert heard > 0.8 * counts["tts_audio_s"], ("the whole reply was played", said_about, heard, counts)
    else:  # nothing synthesized: played from audio made ahead (a question misheard gets its notice), never the model's
        assert turn["source"] != "llm" and heard > 0.3, ("a reply made ahead was played", said_about, heard, counts)
    # the microphone heard the reply: louder than the question's silence, after it
    said, mic_pcm = load_wav(question, 16000), load_wav(mic, 16000)
    tail = mic_pcm[said.size :]
    assert np.abs(tail).max() > 0.05


def test_a_second_speaker_stops_the_reply_and_is_answered(engines, tmp_path):
    from tools.echo_demo import QUESTION, SECOND, converse, measure_over, second_voice, spoken

    recorded: list[tuple[str, str]] = []
    remember = engines.llm.remember
    engines.llm.remember = lambda user, reply: (recorded.append((user, reply)), remember(user, reply))
    try:
        question = np.concatenate([np.zeros(8000, np.float32), spoken(engines.tts, QUESTION)])
        second = second_voice(SECOND, tmp_path)
        turns, speaker = converse(engines, Config(), None, EchoPath(40, 0.5), question, second, 2.8, tmp_path, "over")
    finally:
        del engines.llm.remember
    report = measure_over(tmp_path, turns, speaker.second_at)
    assert speaker.second_at is not None, report
    cut, answer = turns[0], turns[-1]
    assert cut.interrupted and cut.timeline.counts.get("reply_cut"), report
    assert answer.timeline.counts.get("barge_in") and answer.reply and "mountain" in answer.transcript.lower(), report
    # the reply fell silent while the second speaker was still talking
    said_until = speaker.second_at + second.size / 16000
    assert report["first_reply_silent_at_s"] is not None and report["first_reply_silent_at_s"] < said_until, report
    # the history holds the reply as far as it was heard (its turn's reply, cut)
    assert recorded[0] == (cut.transcript, cut.reply) and cut.reply


def test_a_fresh_process_learns_the_room_from_the_start_up_sound(engines, tmp_path):
    import os

    from assistant.commands.spoken import speak_question
    from assistant.hear.echo_memory import RoomRecord
    from assistant.sound import save_wav
    from assistant.speak.startup_sound import SECONDS

    question = tmp_path / "question.wav"  # the user speaks once the sound is over
    save_wav(question, speak_question(engines.tts, "What color is the sky?", lead_s=SECONDS + 0.5), 16000)
    out, cache = tmp_path / "reply.wav", tmp_path / "cache"  # nothing kept of any room yet
    proc = subprocess.run(  # the sound is on by default
        [sys.executable, "-m", "assistant", "chat", "--input", str(question),
         "--output", str(out), "--echo-path", "40,0.5", "--json"],
        capture_output=True, text=True, timeout=240, env={**os.environ, "XDG_CACHE_HOME": str(cache)},
    )
    assert proc.returncode == 0, proc.stderr
    turns = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    assert len(turns) == 1 and "sky" in turns[0]["transcript"].lower() and turns[0]["reply"], turns
    # the first reply, heard by a canceller that learnt the room on the sound, played to the end:
    # never stopped by its own echo (a moment's pause on residue resumes, as above)
    counts = turns[0]["counts"]
    assert not turns[0]["interrupted"] and counts.get("barge_in_resumed", 0) == counts.get("barge_in_pauses", 0), turns
    records = list(cache.rglob("room-*.npz"))
    assert len(records) == 1, "the room is kept for the simulated devices"
    record = RoomRecord.from_bytes(records[0].read_bytes())
    assert "simulated" in record.key and record.canceller == "speex"
    assert record.far.size / record.rate < SECONDS + 0.5, "learnt on the start-up sound (a reply's record is 4 s)"
    assert record.erle_db >= Config().echo.ready_erle_db and abs(record.delay_ms - 40) <= 2
    spans = sound_spans(load_wav(out, 22050), 22050)
    assert spans[0][0] < 0.3 and spans[0][1] <= SECONDS + 0.2, spans  # the sound, before the question
