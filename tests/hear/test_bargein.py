"""Barge-in as pure logic: stream positions and transcripts in, actions out."""

import numpy as np
import pytest

from assistant.hear.bargein import Action, Overlap, PlayedReply, UserSpeech, decide, is_echo, meaningful_words, starts_with_stop
from assistant.config import BargeInConfig
from assistant.hear.echo import Cleaned

CFG = BargeInConfig(min_speech_ms=160, min_words=1, resume_within_s=4.0)
FRAME = 0.032


def frames_until_pause(overlap, start, speech=lambda i: True):
    return [overlap.frame(start + i * FRAME, speech(i)) for i in range(1, 20)]


def test_speech_pauses_the_reply_once_it_has_lasted_min_speech():
    overlap = Overlap(CFG, full_duplex=True, start=1.0)
    actions = frames_until_pause(overlap, 1.0)
    assert actions.index(Action.PAUSE) == 4  # 5 frames = 160 ms after the first sound (min_speech_ms 160 here)
    assert actions.count(Action.PAUSE) == 1
    assert overlap.paused_at == pytest.approx(1.0 + 5 * FRAME)


def test_a_cough_shorter_than_min_speech_never_pauses():
    overlap = Overlap(CFG, full_duplex=True, start=1.0)
    assert Action.PAUSE not in frames_until_pause(overlap, 1.0, speech=lambda i: i <= 4)  # 128 ms


def test_pauses_in_the_speech_are_not_counted():
    overlap = Overlap(CFG, full_duplex=True, start=1.0)
    actions = frames_until_pause(overlap, 1.0, speech=lambda i: i <= 3 or i >= 8)
    assert actions.index(Action.PAUSE) == 8  # 3 frames, 4 of silence, then 2 more frames of speech


def test_half_duplex_never_pauses():
    overlap = Overlap(CFG, full_duplex=False, start=1.0)
    assert Action.PAUSE not in frames_until_pause(overlap, 1.0)


def verdict(transcript, *, full=True, played="", stop=False, paused=1.0, config=CFG, confirmed=None):
    confirmed = paused is not None if confirmed is None else confirmed
    return decide(config, full_duplex=full, transcript=transcript, played_text=played, is_stop=stop,
                  paused_for_s=paused, confirmed=confirmed)


def test_speech_that_goes_on_once_the_reply_is_silent_confirms_it_is_the_user():
    overlap = Overlap(CFG, full_duplex=True, start=1.0)
    frames_until_pause(overlap, 1.0)  # paused at 1.16, the reply audible all along
    assert overlap.paused and not overlap.confirmed
    t = 1.0 + 20 * FRAME
    for i in range(3):  # the reply has fallen silent; the user goes on
        overlap.frame(t + i * FRAME, True, reply_audible=False)
    assert overlap.confirmed and not overlap.unconfirmed_silence


def test_echo_that_stops_with_the_reply_is_not_confirmed_and_resumes_soon():
    overlap = Overlap(CFG, full_duplex=True, start=1.0)
    frames_until_pause(overlap, 1.0, speech=lambda i: i <= 6)  # a burst of residue, shorter than a word
    t = 1.0 + 20 * FRAME
    overlap.frame(t, True, reply_audible=False)  # one frame of residue after the reply fell silent
    quiet = [overlap.frame(t + (i + 1) * FRAME, False, reply_audible=False) for i in range(6)]
    assert overlap.speech_s * 1000 < CFG.word_ms
    assert not overlap.confirmed and overlap.unconfirmed_silence
    assert overlap.quiet_s == pytest.approx(6 * FRAME)
    assert Action.PAUSE not in quiet
    assert verdict("our team.", confirmed=overlap.confirmed) is Action.RESUME


def test_after_a_word_the_reply_waits_out_a_speakers_comma_before_it_resumes():
    """ "Actually, how far…" over the reply: "Actually" paused it and ended under its echo;
    the pause at the comma is no reason to play again between the speaker's words."""
    overlap = Overlap(CFG, full_duplex=True, start=1.0)
    frames_until_pause(overlap, 1.0, speech=lambda i: i <= 12)  # a word of 384 ms
    t = 1.0 + 20 * FRAME
    quiet = round(CFG.resume_after_ms / 1000 / FRAME)
    for i in range(quiet):  # the comma: as long as a burst of residue would wait
        overlap.frame(t + i * FRAME, False, reply_audible=False)
    assert not overlap.unconfirmed_silence, "a comma is not the end of what was said"
    for i in range(quiet, quiet + 4):  # "how far…": the speaker goes on
        overlap.frame(t + i * FRAME, True, reply_audible=False)
    assert overlap.confirmed and not overlap.unconfirmed_silence


def test_after_a_word_and_nobody_going_on_the_reply_resumes():
    overlap = Overlap(CFG, full_duplex=True, start=1.0)
    frames_until_pause(overlap, 1.0)
    t = 1.0 + 20 * FRAME
    frames = int(np.ceil(CFG.resume_after_word_ms / 1000 / FRAME))
    for i in range(frames):
        overlap.frame(t + (i + 1) * FRAME, False, reply_audible=False)
    assert overlap.resume_after_ms == CFG.resume_after_word_ms > CFG.resume_after_ms
    assert not overlap.confirmed and overlap.unconfirmed_silence


def test_speech_too_short_to_pause_the_reply_is_never_confirmed():
    overlap = Overlap(CFG, full_duplex=True, start=1.0)
    for i in range(1, 12):
        overlap.frame(1.0 + i * FRAME, i <= 2, reply_audible=i < 5)
    assert not overlap.paused and not overlap.confirmed and not overlap.unconfirmed_silence


def test_a_question_takes_the_floor():
    assert verdict("What time is it in Tokyo?") is Action.STOP


@pytest.mark.parametrize("said", ["Mm-hmm.", "mm hm", "Uh-huh, yeah.", "Okay.", "", "  "])
def test_backchannels_and_silence_let_the_reply_resume(said):
    assert verdict(said) is Action.RESUME


def test_korean_words_take_the_floor_and_korean_backchannels_do_not():
    # (the words were ASCII only: nothing said in Hangul ever took the floor)
    assert verdict("한국의 수도는 어디예요?") is Action.STOP
    assert verdict("그거 말고 날씨 알려 줘") is Action.STOP
    for said in ["네.", "응, 응", "음…", "아, 그렇구나.", "네, 맞아요."]:
        assert verdict(said) is Action.RESUME, said
    assert meaningful_words("네, 근데 몇 시야?", CFG) == ["근데", "몇", "시야"]


def test_the_korean_reply_heard_back_is_echo():
    played = "죄송해요, 지금 모델은 한국어를 못 해요. 설정에서 엑사원 같은 한국어 모델을 골라 주세요."
    assert is_echo("한국어 모델을 골라 주세요", played)
    assert verdict("설정에서 엑사원 같은", played=played) is Action.RESUME
    assert verdict("오늘 무슨 요일이에요?", played=played) is Action.STOP


def test_a_long_pause_ends_the_reply_instead_of_resuming():
    assert verdict("hmm", paused=6.0) is Action.END


def test_words_that_never_paused_the_reply_are_ignored():
    # too little speech to pause it: the echo's residue that Whisper made words of
    assert verdict("yeah", paused=None) is Action.IGNORE
    assert verdict("our team.", paused=None) is Action.IGNORE


def test_words_the_speech_did_not_go_on_with_resume_the_reply():
    assert verdict("wait, what about Paris?", confirmed=False) is Action.RESUME
    assert verdict("wait, what about Paris?", confirmed=True) is Action.STOP
    assert verdict("stop", confirmed=False, stop=True) is Action.HUSH


def test_fewer_words_than_the_minimum_do_not_take_the_floor():
    two = BargeInConfig(min_words=2)
    assert verdict("Paris?", config=two) is Action.RESUME
    assert verdict("Paris, please?", config=two) is Action.STOP


def test_the_reply_heard_back_is_echo_not_the_user():
    played = "The moon is about three hundred eighty four thousand kilometers away."
    assert is_echo("thousand kilometers away", played)
    assert verdict("three hundred eighty four thousand", played=played) is Action.RESUME
    assert verdict("how hot is the sun", played=played) is Action.STOP


def test_stop_always_stops_even_half_duplex():
    assert verdict("stop", full=False, stop=True, paused=None) is Action.HUSH


def test_half_duplex_only_stop_takes_the_floor():
    assert verdict("What time is it?", full=False, paused=None) is Action.IGNORE


def test_meaningful_words_drop_backchannels_but_keep_the_rest():
    assert meaningful_words("Yeah, okay, tell me more", CFG) == ["tell", "me", "more"]
    assert meaningful_words("I see.", CFG) == []
    assert meaningful_words("Uh-uh", CFG) == []  # "uh" twice: no "-" left over as a word
    assert meaningful_words("Mm-mm, okay.", CFG) == []


def cleaned(*, audible=True, kept=0.0, converged=True):
    return Cleaned(np.zeros(512, np.float32), 0.0, reply_audible=audible, kept_db=kept, converged=converged)


def test_echo_the_canceller_took_out_is_not_user_speech():
    user = UserSpeech(BargeInConfig(threshold=0.2, kept_db=-25))
    assert user.judge(0.9, cleaned(kept=-40)) == (0.0, 0.2)
    assert user.judge(0.4, cleaned(kept=-5)) == (0.4, 0.2)


def test_without_a_reply_or_before_convergence_frames_are_taken_as_they_are():
    user = UserSpeech(BargeInConfig())
    assert user.judge(0.9, cleaned(audible=False, kept=-30)) == (0.9, None)
    assert user.judge(0.9, cleaned(converged=False, kept=-30)) == (0.9, None)


def reply():
    played = PlayedReply()
    second = np.ones(100, np.float32)
    played.add(10.0, second, 100, "First chunk.")
    played.add(11.0, second, 100, "Second chunk.")
    played.add(12.0, second, 100, "")  # a later sentence of the second chunk
    played.add(13.0, second, 100, "Third chunk.")
    return played


def test_heard_text_stops_at_the_last_chunk_that_began_playing():
    played = reply()
    assert played.heard_text(11.5) == "First chunk. Second chunk."
    assert played.heard_text(10.0) == ""
    assert played.heard_text() == "First chunk. Second chunk. Third chunk."


def test_a_paused_reply_goes_on_from_where_it_was_cut():
    played = reply()
    rest = played.unheard(11.25)
    assert [pcm.size for pcm, _ in rest] == [75, 100, 100]
    assert [text for _, text in rest] == ["", "", "Third chunk."]
    played.cut(11.25)
    assert played.heard_text() == "First chunk. Second chunk."
    assert played.pieces[-1].pcm.size == 25


def test_recent_text_is_what_played_in_the_last_seconds():
    played = reply()
    assert played.recent_text(12.5, 1.0) == "Second chunk."
    assert played.recent_text(13.5, 2.0) == "Second chunk. Third chunk."


def is_stop_phrase(text):
    return text in ("wait", "hold on", "stop", "잠깐만", "그만")


def test_a_stop_phrase_at_the_start_of_a_longer_sentence_is_found():
    assert starts_with_stop("Wait, what is the tallest mountain?", is_stop_phrase)
    assert starts_with_stop("Hold on, how far is it?", is_stop_phrase)
    assert not starts_with_stop("Wait.", is_stop_phrase)  # the phrase alone: decide's is_stop
    assert not starts_with_stop("What is the tallest mountain? Wait", is_stop_phrase)
    assert starts_with_stop("잠깐만, 지금 몇 시야?", is_stop_phrase)
    assert not starts_with_stop("그만.", is_stop_phrase)


def test_a_sentence_that_begins_with_stop_takes_the_floor_even_half_duplex():
    action = decide(CFG, full_duplex=False, transcript="Wait, what is it?", played_text="", is_stop=False,
                    paused_for_s=None, stop_first=True)
    assert action is Action.STOP


def test_while_the_canceller_learns_only_speech_it_kept_pauses_the_reply():
    config = BargeInConfig(min_speech_ms=128)
    overlap = Overlap(config, full_duplex=False, start=0.0, learning=True)
    position = 0.0
    for _ in range(10):  # echo the canceller took out: speech to the VAD, but not kept
        position += 0.032
        assert overlap.frame(position, True, True, kept=False) is None
    actions = []
    for _ in range(4):
        position += 0.032
        actions.append(overlap.frame(position, True, True, kept=True))
    assert actions == [None, None, None, Action.PAUSE]
    half = Overlap(config, full_duplex=False, start=0.0)
    assert all(half.frame(0.032 * (i + 1), True, True, kept=True) is None for i in range(10))


def test_speech_that_began_while_the_canceller_learnt_goes_on_full_duplex_once_it_has():
    overlap = Overlap(BargeInConfig(min_speech_ms=128), full_duplex=False, start=0.0, learning=True)
    assert overlap.frame(0.032, True, True, kept=True) is None
    assert overlap.frame(0.064, True, True, kept=False) is None
    overlap.learnt()
    assert overlap.full_duplex and overlap.speech_s == pytest.approx(0.032)
    assert [overlap.frame(0.032 * i, True, True, kept=False) for i in (3, 4, 5)] == [None, None, Action.PAUSE]
