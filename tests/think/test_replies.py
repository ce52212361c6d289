"""Instant replies: normalization, matching and its guards, the phrase table, the reply
audio disk cache, latency masking, and a cache hit end to end with the real models."""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np
import pytest

from assistant.think.korean_guard import CANNOT_ANSWER, CANNOT_ANSWER_AGAIN
from assistant.think.misheard import DID_NOT_CATCH, NOT_HEARD
from assistant.config import Config, ConfigError, RepliesConfig
from assistant.pipeline import Engine
from assistant.pipeline.session import load_replies
from assistant.speak.ready import AudioCache
from assistant.think.replies import InstantReplies, InstantReply, Matcher, default_table, fill, load_table, normalize
from assistant.pipeline.waiting import wait_until

from fakes import FakeLlm, FakeStt, FakeTts, FakeVad, Recorder, RecordingSink

OUTPUT_RATE = 22050

NOTICES = [CANNOT_ANSWER, CANNOT_ANSWER_AGAIN, DID_NOT_CATCH, *NOT_HEARD.values()]
"""The notices, rendered with the fixed replies: said at once."""


@pytest.fixture
def user_dirs(tmp_path, monkeypatch):
    """Fresh config and cache dirs for one test."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path


@pytest.fixture(scope="module")
def matcher():
    return Matcher(default_table(), RepliesConfig().score_cutoff)


# ------------------------------------------------------------------ normalization


@pytest.mark.parametrize(
    "said, normalized",
    [
        ("Thank you.", "thank you"),
        ("um, thanks!", "thanks"),
        ("Uh... THANK YOU very much!!", "thank you very much"),
        ("What's the time?", "what is the time"),
        ("What\u2019s the time?", "what is the time"),
        ("I can't hear you, I'm sorry", "i can not hear you i am sorry"),
        ("You're right, they've gone", "you are right they have gone"),
        ("What's today's date?", "what is todays date"),
        ("Stop, stop, STOP!", "stop"),
        ("Yes, please.", "yes"),
        ("  hmm  ", ""),
        ("안녕하세요!", "안녕하세요"),
    ],
)
def test_normalize(said, normalized):
    assert normalize(said) == normalized


# ------------------------------------------------------------------ matching

ABOUT_ME = ("I'm a voice assistant on this computer. I can tell you the time and date, set timers and alarms, "
            "do sums and conversions, and answer short questions.")
ABOUT_ME_KO = "저는 이 컴퓨터의 음성 비서예요. 시간과 날짜, 타이머와 알람, 계산과 단위 변환을 도와드리고, 짧은 질문에 답해요."


@pytest.mark.parametrize(
    "said, text, action",
    [
        ("Thank you.", "You're welcome!", None),
        ("um, thanks!", "You're welcome!", None),
        ("Thank you very much.", "You're welcome!", None),
        (" Thanks a lot!", "You're welcome!", None),
        ("Thank.", "You're welcome!", None),  # a dropped letter
        ("Hi.", "Hi! How can I help?", None),
        ("Hello there!", "Hi! How can I help?", None),
        ("STOP", "", "stop"),
        ("Stop. Stop.", "", "stop"),
        ("Never mind.", "", "stop"),
        ("Wait, wait!", "", "stop"),
        ("Hold on a second.", "", "stop"),
        ("Yes.", "Okay.", None),
        ("Yeah, please.", "Okay.", None),
        ("Can you repeat that?", "I haven't said anything yet.", "repeat"),
        ("Louder, please.", "Okay, louder.", "louder"),
        ("Volume down.", "Okay, quieter.", "quieter"),
        ("Turn the volume down.", "Okay, quieter.", "quieter"),
        ("turn up the volume", "Okay, louder.", "louder"),
        ("What's the time?", "It's {time}.", None),
        ("What time is it?", "It's {time}.", None),
        ("What's today's date?", "Today is {date}.", None),
        ("고마워요.", "천만에요.", None),
        ("안녕!", "안녕하세요! 무엇을 도와드릴까요?", None),
        ("지금 몇 시예요?", "지금은 {ko_time}이에요.", None),
        ("다시 말해 줘", "아직 아무 말도 하지 않았어요.", "repeat"),
        ("What can you do?", ABOUT_ME, None),
        ("Who are you?", ABOUT_ME, None),
        ("what's your name", ABOUT_ME, None),
        ("뭘 할 수 있어요?", ABOUT_ME_KO, None),
        ("Okay, got it.", "Glad I could help.", None),
        ("That's helpful.", "Glad I could help.", None),
        ("That's all.", "Okay. I'm here if you need me.", None),
        ("그렇구나", "도움이 됐다니 다행이에요.", None),
        ("그게 다예요", "네, 필요하면 언제든 불러 주세요.", None),
        ("How old are you?", "I'm a computer program, so I don't have an age.", None),
        ("Who made you?", "I'm made of open models that run here on this computer, with no internet connection.", None),
        ("Are you a robot?", "I'm a computer program: a voice assistant that runs on this computer.", None),
        ("Help!", ABOUT_ME, None),
        ("Goodnight.", "Good night! Sleep well.", None),
        ("Speak slower, please.", "Okay, I'll speak more slowly.", "slower"),
        ("Talk faster.", "Okay, I'll speak faster.", "faster"),
        ("천천히 말해 주세요", "네, 천천히 말할게요.", "slower"),
        ("잘 자요", "안녕히 주무세요! 좋은 꿈 꾸세요.", None),
        ("Good job!", "Thank you!", None),
        ("Are you there?", "Yes, I'm here.", None),
        ("I'm bored.", "Want to hear a joke or a fun fact? Just ask: tell me a joke, or tell me a fun fact.", None),
        ("What are you doing?", "Just waiting here, ready to help. What can I do for you?", None),
        ("미안해요", "괜찮아요.", None),
        ("수고했어요", "고마워요!", None),
        ("Pause.", "", "stop"),  # nothing plays but the voice: the model said "Pause." back
        ("Mute.", "", "stop"),
        ("잠깐만요", "", "stop"),
    ],
)
def test_matches_despite_stt_noise(matcher, said, text, action):
    entry = matcher.match(said)
    assert entry is not None, said
    assert (entry.text, entry.action) == (text, action)


@pytest.mark.parametrize(
    "said",
    [
        "thanks, and what about tomorrow?",
        "Thank you. And what about tomorrow?",
        "thank you for the story, now tell me about Mars",
        "thank god it's friday",
        "stop the car and tell me about Paris",
        "don't stop",
        "stop motion animation",
        "how long should I wait for the bus",
        "wait, what is the capital of France?",
        "what time is the game tomorrow",
        "what time is it in Tokyo",
        "what is the date of the election",
        "what is it",
        "hi can you tell me a story about dragons",
        "hello, what's the capital of France?",
        "what is up",  # a filled pause read so ("What is, uh, the speed of light?"): not a greeting
        "how old is the universe",
        "are robots dangerous",
        "who made the first car",
        "help me with my homework",
        "good night to you all and thanks for coming",
        "what can i do",
        "what can we do about the noise",
        "what did you do",
        "turn the volume down on the radio",
        "yes or no",
        "now",
        "know",
        "good",
        "turn it off",
        "nice weather today",
        "great",
        "i see a bird outside",
        "that is all i know about it",
        "",
        "um...",
    ],
)
def test_long_compound_or_different_utterances_never_hit(matcher, said):
    assert matcher.match(said) is None


@pytest.mark.parametrize("said", ["맞습니다", "맛있습니다", "모르겠습니다", "있습니다", "시작합니다", "무섭습니다",
                                  "간단합니다", "도착했습니다"])
def test_a_short_korean_sentence_is_not_a_phrase_for_its_ending_alone(matcher, said):
    # ("맞습니다", that's right, was "고맙습니다", thanks: most of the letters of a short sentence are its ending)
    assert matcher.match(said) is None


@pytest.mark.parametrize("said, phrase", [("감사합리가", "감사합니다"), ("검사합니당", "감사합니다"), ("며치야", "몇 시야"),
                                          ("아, 오겠습니나?", "알겠습니다"), ("지근역시예요.", "지금 몇 시예요")])
def test_korean_misreadings_still_find_their_phrase(matcher, said, phrase):
    assert phrase in matcher.match(said).phrases


def test_a_close_score_with_a_different_word_does_not_hit():
    # "what is the date" scores close to "what is the time" at a lower cutoff; the
    # word guard still keeps the two apart.
    lenient = Matcher(default_table(), score_cutoff=80)
    assert lenient.match("What's the game?") is None
    assert lenient.match("What's the date?").text == "Today is {date}."


def test_time_and_date_are_filled_in_when_said():
    now = datetime(2024, 3, 5, 15, 7)
    assert fill("It's {time}.", now) == "It's 3:07 PM."
    assert fill("Today is {date}.", now) == "Today is Tuesday, March 5."
    assert fill("{hour}:{minute} {weekday}", datetime(2024, 3, 5, 0, 30)) == "0:30 Tuesday"
    assert fill("It's {time}.", datetime(2024, 3, 5, 0, 5)) == "It's 12:05 AM."


# ------------------------------------------------------------------ the phrase table


def write_table(user_dirs, text: str):
    path = user_dirs / "config" / "offline-voice-assistant" / "replies.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_user_table_overrides_and_extends_the_defaults(user_dirs):
    write_table(
        user_dirs,
        """
filler = "One moment."

[[reply]]
phrases = ["thanks"]
text = "Any time!"

[[reply]]
phrases = ["good job", "well done"]
text = "Thank you!"
""",
    )
    table = load_table()
    matcher = Matcher(table, 88)
    assert matcher.match("Thanks!").text == "Any time!"
    assert matcher.match("Thank you.").text == "You're welcome!"  # other default phrases stay
    assert matcher.match("Well done!").text == "Thank you!"
    assert matcher.match("stop").action == "stop"
    assert table.filler == "One moment."


def test_user_table_can_drop_the_defaults(user_dirs):
    write_table(user_dirs, 'defaults = false\n[[reply]]\nphrases = ["ping"]\ntext = "Pong."\n')
    matcher = Matcher(load_table(), 88)
    assert matcher.match("Ping!").text == "Pong."
    assert matcher.match("Thank you.") is None


@pytest.mark.parametrize(
    "table, problem",
    [
        ('[[reply]\nphrases = ["x"]', "not valid TOML"),
        ('[[reply]]\ntext = "Hi"', "'phrases' must be a non-empty list"),
        ('[[reply]]\nphrases = "hi"\ntext = "Hi"', "'phrases' must be a non-empty list"),
        ('[[reply]]\nphrases = ["hi"]', "needs a 'text' or an 'action'"),
        ('[[reply]]\nphrases = ["hi"]\naction = "explode"', "'action' must be one of"),
        ('[[reply]]\nphrases = ["hi"]\ntext = "It is {clock}"', "not a valid template"),
        ('[[reply]]\nphrases = ["hi"]\ntext = "Hi"\nvoice = "x"', "unknown key 'voice'"),
        ('[[reply]]\nphrases = ["um"]\ntext = "Hi"', "no words left"),
        ('[[reply]]\nphrases = ["hi"]\ntext = "A"\n[[reply]]\nphrases = ["Hi!"]\ntext = "B"', "reply #1 and reply #2"),
        ('reply = "hi"', "array of tables"),
        ('greeting = "hi"', "unknown key 'greeting'"),
    ],
)
def test_malformed_user_table_is_a_clear_config_error(user_dirs, table, problem):
    path = write_table(user_dirs, table)
    with pytest.raises(ConfigError, match=problem) as error:
        load_replies(RepliesConfig(), FakeTts(), OUTPUT_RATE)
    assert str(path) in str(error.value)


def test_explicit_table_path_must_exist(user_dirs):
    with pytest.raises(ConfigError, match="does not exist"):
        load_replies(RepliesConfig(table=str(user_dirs / "nope.toml")), FakeTts(), OUTPUT_RATE)


def test_disabled_replies_load_nothing(user_dirs):
    assert load_replies(RepliesConfig(enabled=False), FakeTts(), OUTPUT_RATE) is None


# ------------------------------------------------------------------ reply audio


@dataclass
class BlockingTts(FakeTts):
    """Synthesis waits until ``release`` is set."""

    release: threading.Event = field(default_factory=threading.Event)
    threads: list[str] = field(default_factory=list)

    def synthesize(self, text):
        self.threads.append(threading.current_thread().name)
        self.release.wait(10)
        yield from super().synthesize(text)


@dataclass
class SilentTts(FakeTts):
    """A voice with no audio for anything (like a text it cannot say)."""

    def synthesize(self, text):
        self.spoken.append(text)
        return iter(())


def loaded(tts, config=RepliesConfig(), background=True) -> InstantReplies:
    replies = load_replies(config, tts, OUTPUT_RATE, background=background)
    assert replies.wait_ready(10)
    return replies


def test_every_fixed_reply_is_prerendered_at_the_output_rate(user_dirs):
    tts = FakeTts()
    replies = loaded(tts)
    texts = default_table().static_texts() + NOTICES  # and the notices, said at once
    assert sorted(tts.spoken) == sorted(texts)
    assert "It's {time}." not in tts.spoken and "" not in tts.spoken
    hit = replies.lookup("Thank you!")
    expected = next(tts.synthesize("You're welcome!"))
    assert hit.audio.dtype == np.float32 and hit.audio.ndim == 1
    assert abs(hit.audio.size - expected.size * OUTPUT_RATE / tts.rate) <= 2


def test_audio_cache_survives_a_restart(user_dirs):
    first = loaded(FakeTts())
    tts = FakeTts()
    second = loaded(tts)
    assert tts.spoken == [] and second.synthesized == []
    np.testing.assert_array_equal(second.lookup("thanks").audio, first.lookup("thanks").audio)


def test_audio_cache_is_rebuilt_when_the_voice_changes(user_dirs):
    loaded(FakeTts(voice_id="fake:1"))
    tts = FakeTts(voice_id="fake:2")
    loaded(tts)
    assert sorted(tts.spoken) == sorted(default_table().static_texts() + NOTICES)


def test_corrupt_cache_files_are_rebuilt(user_dirs):
    first = FakeTts()
    loaded(first)
    cache = AudioCache(user_dirs / "cache" / "offline-voice-assistant" / "replies", first.voice_id, first.rate)
    cache.path("You're welcome!").write_bytes(b"not audio at all")
    full = cache.path("Goodbye!").read_bytes()
    cache.path("Goodbye!").write_bytes(full[: len(full) // 2])
    tts = FakeTts()
    replies = loaded(tts)
    assert sorted(tts.spoken) == ["Goodbye!", "You're welcome!"]
    assert replies.lookup("thanks").audio is not None
    assert cache.load("Goodbye!") is not None


def test_reply_without_audio_yet_is_spoken_live(user_dirs):
    tts = BlockingTts()
    replies = load_replies(RepliesConfig(), tts, OUTPUT_RATE, background=True)
    hit = replies.lookup("thank you")
    assert (hit.text, hit.audio) == ("You're welcome!", None)
    tts.release.set()
    assert replies.wait_ready(10)
    assert replies.lookup("thank you").audio is not None
    assert set(tts.threads) == {"replies-prerender"}


def test_an_engine_that_is_not_thread_safe_prerenders_before_the_engine_starts(user_dirs):
    tts = BlockingTts()
    tts.release.set()
    assert not tts.concurrent
    replies = load_replies(RepliesConfig(), tts, OUTPUT_RATE)  # the default choice
    assert replies.wait_ready(0)
    assert set(tts.threads) == {threading.current_thread().name}


def test_synthesis_failures_and_silent_text_leave_the_reply_to_live_speech(user_dirs):
    replies = loaded(FakeTts(fail_on="welcome"))
    assert replies.lookup("thanks").audio is None
    assert replies.lookup("bye").audio is not None
    silent_tts = SilentTts(voice_id="english-only")
    silent = loaded(silent_tts)
    assert "천만에요." in silent.synthesized
    assert silent.lookup("고마워").audio is None
    cache = AudioCache(user_dirs / "cache" / "offline-voice-assistant" / "replies", silent_tts.voice_id, silent_tts.rate)
    assert not cache.path("천만에요.").exists()


def test_dynamic_replies_are_filled_in_and_spoken_live(user_dirs):
    hit = loaded(FakeTts()).lookup("what time is it")
    assert hit.text.startswith("It's ") and "{" not in hit.text and hit.audio is None


# ------------------------------------------------------------------ latency masking


def test_filler_only_when_enabled_and_the_answer_is_predicted_slow(user_dirs, tmp_path):
    long_question = "can you explain in a few words how the tides of the ocean are caused by the moon"
    off = loaded(FakeTts())
    assert off.filler(long_question) is None
    tts = FakeTts()
    on = loaded(tts, RepliesConfig(filler=True, filler_min_words=12, filler_model_mb=1))
    assert "Let me think." in tts.spoken
    hit = on.filler(long_question)
    assert hit.text == "Let me think." and hit.audio is not None
    assert on.filler("what is the capital of France") is None
    big_model = tmp_path / "big.gguf"
    big_model.write_bytes(b"\0" * 2_000_000)
    assert on.filler("what is the capital of France", big_model) is not None
    assert on.filler("what is the capital of France", tmp_path / "missing.gguf") is None


# ------------------------------------------------------------------ in the engine


def engine_with(replies, llm, sink, recorder) -> Engine:
    return Engine(Config(), stt=FakeStt(), llm=llm, tts=FakeTts(), vad=FakeVad(), output=sink,
                  replies=replies, on_event=recorder)


def two_turns(replies, llm, first: str, second: str):
    """Ask ``first``, then ``second`` once the first turn ended; (the sink, both results)."""
    sink, recorder = RecordingSink(OUTPUT_RATE), Recorder()
    engine = engine_with(replies, llm, sink, recorder)
    try:
        engine.submit_text(first)
        recorder.wait_turns()
        engine.submit_text(second)
        recorder.wait_turns(2)
    finally:
        engine.close()
    return sink, recorder.results


def test_cache_hit_plays_the_prerendered_audio_without_the_llm(user_dirs):
    replies, llm = loaded(FakeTts(), background=True), FakeLlm()
    sink, (thanks, stop) = two_turns(replies, llm, "Thank you!", "stop")
    assert (thanks.source, thanks.reply) == ("cache", "You're welcome!")
    assert thanks.timeline.counts["cache_hit"] is True
    assert "llm_start" not in thanks.timeline.marks_ms()
    assert thanks.timeline.latency_ms()["voice_to_voice"] is not None
    assert len(sink.played) == 1 and np.array_equal(sink.played[0], replies.lookup("thanks").audio)
    assert (stop.source, stop.reply) == ("cache", "")
    assert llm.calls == []


def test_stop_interrupts_a_reply_in_progress_and_says_nothing(user_dirs):
    replies = loaded(FakeTts())
    llm, sink, recorder = FakeLlm(delay_s=0.05), RecordingSink(OUTPUT_RATE), Recorder()
    engine = engine_with(replies, llm, sink, recorder)
    try:
        engine.submit_text("tell me a long story")
        wait_until(lambda: bool(sink.played), 5)
        engine.submit_text("Stop!")
        recorder.wait_turns(2)
    finally:
        engine.close()
    story, stop = sorted(recorder.results, key=lambda r: r.turn_id)
    assert story.interrupted and sink.flushes >= 1 and llm.closed.is_set()
    assert llm.produced < len(llm.reply.split())
    assert (stop.source, stop.reply) == ("cache", "")
    assert "audio_out_start" not in stop.timeline.marks_ms()  # nothing said after the stop
    assert llm.calls == ["tell me a long story"]


def test_go_on_says_the_rest_of_a_reply_cut_short(user_dirs):
    """"Wait." over a reply, then "go on": the rest, from the sentence that was cut; with nothing cut, the table's words."""
    replies = loaded(FakeTts())
    llm = FakeLlm(reply="Once there was a dragon. It lived in a cave by the sea. It was kind. The end.")
    sink, recorder = RecordingSink(OUTPUT_RATE), Recorder()
    engine = engine_with(replies, llm, sink, recorder)
    try:
        engine.submit_text("tell me a long story")
        wait_until(lambda: bool(sink.played), 5)
        engine.submit_text("Wait.")
        recorder.wait_turns(2)
        engine.submit_text("Okay, go on.")
        recorder.wait_turns(3)
        engine.submit_text("Go on.")
        recorder.wait_turns(4)
    finally:
        engine.close()
    story, wait, rest, nothing = sorted(recorder.results, key=lambda r: r.turn_id)
    assert story.interrupted and (wait.source, wait.reply) == ("cache", "")
    before = llm.reply[: len(llm.reply) - len(rest.reply)]
    assert llm.reply.endswith(rest.reply) and before in ("", *(llm.reply[: m.end()] for m in re.finditer(r"\. ", llm.reply)))
    assert llm.reply.startswith(story.reply) and rest.reply.startswith(story.reply.split(". ")[-1])  # the cut sentence again
    assert nothing.reply == "That was all I had to say."
    assert llm.calls == ["tell me a long story"]


def test_the_rest_of_a_reply_starts_at_the_sentence_that_was_cut_and_ends_on_a_whole_one():
    from assistant.think.said import unheard_rest

    reply = "One two. Three four. Five six."
    assert unheard_rest(reply, "One two. Three") == "Three four. Five six."
    assert unheard_rest(reply, "One two.") == reply  # its last chunk may have been cut: said again
    assert unheard_rest(reply, reply) == ""
    assert unheard_rest("One two. Three four. Five si", "One") == "One two. Three four."  # the model was stopped
    assert unheard_rest(reply, "Something else.") == ""


def test_filler_plays_before_a_slow_llm_answer(user_dirs):
    replies = loaded(FakeTts(), RepliesConfig(filler=True, filler_min_words=5))
    llm = FakeLlm(reply="Tides come from the moon.")
    sink, (slow, quick) = two_turns(replies, llm, "why does the ocean have tides at all", "why is it blue")
    assert slow.source == "llm" and slow.timeline.counts["filler"] == "Let me think."
    assert np.array_equal(sink.played[0], replies.filler("why does the ocean have tides at all").audio)
    assert "filler" not in quick.timeline.counts
    assert len(llm.calls) == 2


# ------------------------------------------------------------------ end to end, real models


@pytest.mark.slow
def test_spoken_thank_you_is_answered_from_the_cache(engines, speak, tmp_path, capsys):
    from assistant.commands.cli import main
    from assistant.commands.spoken import speech_bounds

    question = speak("Thank you.")
    # The first start renders the reply audio in the background; wait for it here, so
    # the run below reads it from the disk cache the way every later start does.
    assert loaded(engines.tts, background=None).wait_ready(60)
    answer = tmp_path / "answer.wav"
    capsys.readouterr()
    assert main(["chat", "--input", str(question), "--output", str(answer), "--json"]) == 0
    turns = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert len(turns) == 1
    turn = turns[0]
    assert "thank" in turn["transcript"].lower()
    assert (turn["source"], turn["reply"]) == ("cache", "You're welcome!")
    assert "tokens" not in turn["counts"] and "llm_start" not in turn["marks_ms"]
    assert "tts_audio_s" not in turn["counts"]  # prerecorded audio, nothing synthesized live
    assert turn["latency_ms"]["voice_to_voice"] is not None
    _, question_end = speech_bounds(question)
    reply_start, _ = speech_bounds(answer)
    assert reply_start > question_end


def test_repeat_says_the_last_answer_and_is_synthesized_anew():
    audio = np.zeros(10, np.float32)
    repeat = InstantReply("Sorry, there is nothing to repeat yet.", "repeat", audio)
    assert repeat.words("Paris is the capital.") == "Paris is the capital." and repeat.prerecorded is None
    assert repeat.words("") == "Sorry, there is nothing to repeat yet."
    thanks = InstantReply("You're welcome!", None, audio)
    assert thanks.words("Paris is the capital.") == "You're welcome!" and thanks.prerecorded is audio


def test_words_after_an_opening_instant_reply_phrase_are_answered_as_if_said_alone(user_dirs, tmp_path):
    from assistant.config import SkillsConfig
    from assistant.think.skills import Skills

    skills = Skills(SkillsConfig(locale="en_US", timers_file=str(tmp_path / "timers.json")))
    replies, llm, sink, recorder = loaded(FakeTts()), FakeLlm(), RecordingSink(OUTPUT_RATE), Recorder()
    engine = Engine(Config(), stt=FakeStt(), llm=llm, tts=FakeTts(), vad=FakeVad(), output=sink,
                    replies=replies, skills=skills, on_event=recorder)
    said = ["Hello, what is seven times eight?", "Okay, thank you, what is nine plus one?",
            "Hi there. Thanks!", "Thank you, what is the capital of France?",
            "Hey, assistant, what is two plus two?", "Assistant, what is three plus three?",
            "Paris, what is seven times eight?",  # not an instant-reply phrase nor a name first: the model's
            # the recognizer left the comma out: the opening's words are found all the same
            "Never mind what is seven times eight", "Thank you very much what is two plus two",
            "Stop the car what is two plus two",  # "stop" then no request a skill takes: the model's
            # with no comma, an opening is all of a phrase: "what do you" is not "what do you do" (then "call a
            # baby cow" would be a call the assistant cannot make)
            "What do you call a baby cow?",
            # words that begin a question are no opening without a comma: not "are you real" (a letter off), then "sure"
            "Are you really sure?"]
    try:
        for turns, text in enumerate(said, 1):
            engine.submit_text(text)
            recorder.wait_turns(turns)
    finally:
        engine.close()
        skills.close()
    assert [(r.source, r.reply) for r in recorder.results[:3]] == [
        ("skill", "7 times 8 is 56."), ("skill", "9 plus 1 is 10."), ("cache", "You're welcome!")]
    assert [(r.source, r.reply) for r in recorder.results[4:6]] == [
        ("skill", "2 plus 2 is 4."), ("skill", "3 plus 3 is 6.")]  # the assistant's name set aside too
    assert [(r.source, r.reply) for r in recorder.results[7:9]] == [
        ("skill", "7 times 8 is 56."), ("skill", "2 plus 2 is 4.")]
    assert llm.calls == [said[3], said[6], said[9], said[10], said[11]]  # the model gets every word


def test_a_phrase_said_whole_has_every_word_of_it(user_dirs):
    replies = loaded(FakeTts())
    assert replies.lookup("what do you") is not None  # a whole utterance may leave a word out
    assert replies.lookup("what do you", whole=True) is None
    assert replies.lookup("what do you do", whole=True) is not None
    assert replies.lookup("thank you", whole=True) is not None


def test_greetings_thanks_and_yes_are_social_requests_and_actions_are_not(user_dirs):
    replies = loaded(FakeTts())
    assert all(replies.lookup(said).social for said in ("thank you", "hello", "okay", "good morning", "감사합니다"))
    assert not any(replies.lookup(said).social for said in ("what time is it", "stop", "say that again"))


def test_background_prerendering_stops_after_its_text_when_the_process_ends(tmp_path):
    """At the process's end (``atexit``) a background prerender stops after the text it is on, and is waited for: a
    voice's native threads left running while Python shut down aborted the process (about one exit in four)."""
    from assistant.exiting import stop_workers
    from assistant.speak.ready import ReadyAudio

    tts = BlockingTts()
    audio = ReadyAudio(tts, OUTPUT_RATE, AudioCache(tmp_path, tts.voice_id, tts.rate))
    audio.prerender(["One.", "Two.", "Three."], background=True)
    assert wait_until(lambda: tts.threads, 5)  # "One." is being synthesized
    audio.stop(timeout=0)  # asked to stop (not waited for yet)
    tts.release.set()
    stop_workers()  # what runs at the process's end: waits for it
    assert audio.wait_ready(0)
    assert tts.spoken == ["One."]
