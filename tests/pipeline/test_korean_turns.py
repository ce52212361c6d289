"""Korean turns in the engine (fakes for the models): a model that cannot answer Korean is
never asked, and the Korean notice is said by the Korean voice alone; a Korean-capable
GGUF and a server still answer; Korean skills and misheard instant replies are said by
the Korean voice too."""

from __future__ import annotations

from dataclasses import replace

import pytest

from assistant.config import Config
from assistant.machine import vocab
from assistant.machine.models import find_llm
from assistant.pipeline import Engine
from assistant.pipeline.session import load_replies
from assistant.speak.voices import VoiceSet
from assistant.think.korean_guard import CANNOT_ANSWER, CANNOT_ANSWER_AGAIN, KoreanGuard, is_korean, speaks_korean
from assistant.think.skills import Skills

from fakes import FakeLlm, FakeStt, FakeTts, FakeVad, Recorder, RecordingSink
from gguf_vocab import korean_gguf

RATE = 22050


@pytest.fixture(autouse=True)
def user_dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    vocab._fit.cache_clear()


def korean_config(language: str = "ko") -> Config:
    config = Config()
    return replace(config, stt=replace(config.stt, language=language))


def turn(text: str, llm: FakeLlm, language: str = "ko", replies: bool = False, skills: bool = False):
    """(the turn's result, the English voice, the Korean voice) for typed ``text``."""
    results, english, korean = conversation([text], llm, language, replies, skills)
    return results[0], english, korean


def conversation(texts: list[str], llm: FakeLlm, language: str = "ko", replies: bool = False, skills: bool = False):
    """(the turns' results, the English voice, the Korean voice) for typed ``texts``, one after another."""
    english, korean = FakeTts(rate=RATE, name="piper (joe)"), FakeTts(rate=RATE, name="espeak-ng (ko)")
    voices = VoiceSet(english, korean)
    config = korean_config(language)
    table = load_replies(config.replies, voices, RATE, background=False) if replies else None
    loaded = Skills(config.skills) if skills else None
    recorder = Recorder()
    engine = Engine(config, stt=FakeStt(), llm=llm, tts=voices, vad=FakeVad(), output=RecordingSink(RATE),
                    replies=table, skills=loaded, on_event=recorder)
    try:
        english.spoken.clear()
        korean.spoken.clear()
        for n, text in enumerate(texts, 1):
            engine.submit_text(text)
            recorder.wait_turns(n)
    finally:
        engine.close()
        if loaded is not None:
            loaded.close()
    return recorder.results, english, korean


def embedded() -> FakeLlm:
    """A stand-in with the embedded SmolLM2-135M's file (its vocabulary is what counts)."""
    return FakeLlm(reply="Hello! The Great Barrier Reef is 10 km.", path=find_llm(None).path)


def test_korean_the_embedded_model_cannot_answer_gets_the_korean_notice():
    llm = embedded()
    result, english, korean = turn("한국의 수도는 어디예요", llm)
    assert llm.calls == []                                  # never asked
    assert (result.source, result.reply) == ("notice", CANNOT_ANSWER)
    assert result.voices == ["espeak-ng (ko)"]
    assert english.spoken == [] and " ".join(korean.spoken).replace(" ", "") == CANNOT_ANSWER.replace(" ", "")
    assert "llm_start" not in result.timeline.marks_ms()


def test_with_the_instant_replies_the_notice_is_rendered_before_the_first_turn():
    """Its audio is ready when the turn is over, as an instant reply's: nothing is synthesized then."""
    result, english, korean = turn("한국의 수도는 어디예요", embedded(), replies=True)
    assert (result.source, result.reply) == ("notice", CANNOT_ANSWER)
    assert result.voices == ["espeak-ng (ko)"]
    assert english.spoken == [] and korean.spoken == []


def test_once_the_whole_notice_was_heard_the_next_ones_are_its_first_sentence():
    """7.5 s of the Korean voice every Korean turn: what to do is said once a conversation."""
    results, english, _korean = conversation(["한국의 수도는 어디예요", "오늘 날씨가 어때요", "고마워요 그럼 안녕"],
                                             embedded())
    assert [r.reply for r in results] == [CANNOT_ANSWER, CANNOT_ANSWER_AGAIN, CANNOT_ANSWER_AGAIN]
    assert CANNOT_ANSWER_AGAIN in CANNOT_ANSWER and len(CANNOT_ANSWER_AGAIN) * 2 < len(CANNOT_ANSWER)
    assert all(r.voices == ["espeak-ng (ko)"] for r in results) and english.spoken == []


def test_a_notice_cut_short_is_said_whole_again():
    guard = KoreanGuard(None, "ko")
    guard._speaks = False  # (as the embedded model's)
    guard.heard(CANNOT_ANSWER, "설정에서 엑사원 같은 한국어 모델을 골라 주세요.")
    assert guard.notice("오늘 날씨가 어때요").text == CANNOT_ANSWER
    guard.heard(CANNOT_ANSWER, "")
    assert guard.notice("오늘 날씨가 어때요").text == CANNOT_ANSWER_AGAIN


def test_the_notice_is_korean_only_and_says_what_to_do():
    assert is_korean(CANNOT_ANSWER) and not any("a" <= c.lower() <= "z" for c in CANNOT_ANSWER)
    assert "한국어를 못 해요" in CANNOT_ANSWER and "설정" in CANNOT_ANSWER and "엑사원" in CANNOT_ANSWER


def test_korean_words_get_the_notice_whatever_the_language_and_english_goes_to_the_model():
    llm = embedded()
    result, _english, korean = turn("오늘 날씨가 어때요", llm, language="en")
    assert result.source == "notice" and korean.spoken and llm.calls == []
    result, english, korean = turn("What is the capital of France?", llm, language="en")
    assert result.source == "llm" and llm.calls == ["What is the capital of France?"] and korean.spoken == []


def test_a_korean_capable_gguf_and_a_server_still_answer_korean(tmp_path):
    capable = korean_gguf(tmp_path / "korean.gguf")
    for path in (capable, None):  # None: a model behind --llm-url
        llm = FakeLlm(reply="서울이에요.", path=path)
        result, english, korean = turn("한국의 수도는 어디예요", llm)
        assert (result.source, result.reply) == ("llm", "서울이에요.") and llm.calls == ["한국의 수도는 어디예요"]
        assert result.voices == ["espeak-ng (ko)"] and english.spoken == []


def test_korean_skills_and_misheard_phrases_are_answered_by_the_korean_voice():
    llm = embedded()
    result, english, _korean = turn("삼 더하기 오는", llm, skills=True)
    assert (result.source, result.skill, result.reply) == ("skill", "arithmetic", "삼 더하기 오는 팔이에요.")
    assert result.voices == ["espeak-ng (ko)"] and english.spoken == []
    result, english, _korean = turn("감사합리가", llm, replies=True)
    assert (result.source, result.reply) == ("cache", "천만에요.") and result.voices == ["espeak-ng (ko)"]
    assert llm.calls == []


def test_the_guard_reads_the_vocabulary_once_for_korean(monkeypatch):
    assert speaks_korean(None)  # a model on a server is asked
    calls = []
    monkeypatch.setattr("assistant.think.korean_guard.speaks_korean", lambda model: calls.append(model) or False)
    guard = KoreanGuard(find_llm(None).path, "ko")
    assert guard.notice("안녕") is not None and guard.notice("hello") is not None  # ko: both get it
    assert len(calls) == 1
    english = KoreanGuard(find_llm(None).path, "en")
    assert english.notice("hello") is None and len(calls) == 1  # English never reads it
    assert english.notice("안녕하세요") is not None and len(calls) == 2


def _ends_on_silence_alone(llm: FakeLlm, language: str) -> bool:
    voices = VoiceSet(FakeTts(rate=RATE), FakeTts(rate=RATE, name="espeak-ng (ko)"))
    engine = Engine(korean_config(language), stt=FakeStt(), llm=llm, tts=voices, vad=FakeVad(),
                    output=RecordingSink(RATE))
    try:
        return engine.hearing.silence_alone
    finally:
        engine.close()


def test_korean_the_model_cannot_read_ends_its_turns_on_the_silence_alone(tmp_path):
    """The end of a Korean turn does not wait for Whisper's words when the model could not
    read them anyway; a Korean-capable model, a server and English turns are judged by the words."""
    assert _ends_on_silence_alone(embedded(), "ko")
    assert not _ends_on_silence_alone(embedded(), "en")
    assert not _ends_on_silence_alone(FakeLlm(path=korean_gguf(tmp_path / "korean.gguf")), "ko")
    assert not _ends_on_silence_alone(FakeLlm(path=None), "ko")


def test_a_korean_turn_the_silence_ends_is_read_once_before_its_endpoint():
    """The pause's reading, made well into the pause, is the one answered: the user does not
    wait for the utterance to be read again after the endpoint."""
    result, stt = spoken_turn("한국의 수도는 어디예요", None)
    assert result.transcript == "한국의 수도는 어디예요" and result.reply == CANNOT_ANSWER
    assert result.timeline.counts.get("speculative") and not result.timeline.counts.get("rechecked")
    assert [u.readings for u in stt.utterances] == [1]


def test_korean_words_with_no_sentence_final_ending_wait_a_second_and_are_still_read_once():
    """A fragment (or misheard words) holds the turn past the 500 ms of silence; only silence
    followed, so the pause's reading is answered, not read again after the endpoint."""
    result, stt = spoken_turn("서울에서 부산까지", None)
    counts = result.timeline.counts
    assert counts.get("turn_reason") == "ends on no sentence-final ending ('지')"
    assert counts.get("turn_silence_ms") >= korean_config().turn.no_ending_ms
    assert result.reply == CANNOT_ANSWER and not counts.get("rechecked")
    assert [u.readings for u in stt.utterances] == [1]


# ------------------------------------------------------------ the second look, in the wired engine


class LookingUtterance:
    """Heard as ``first``; read again with the hint words as ``look`` (counted)."""

    last_word_p = None

    def __init__(self, first: str, look, reading_s: float = 0.0):
        self.first, self.look, self.looks, self.reading_s, self.readings = first, look, 0, reading_s, 0

    def feed(self, pcm):
        return None

    def transcribe(self):
        import time

        time.sleep(self.reading_s)
        self.readings += 1
        return self.first

    def second_look(self):
        self.looks += 1
        return self.look


class LookingStt:
    name, streaming, punctuates, looks_again = "looking", False, True, True

    def __init__(self, first: str, look, reading_s: float = 0.0):
        self.first, self.look, self.reading_s, self.utterances = first, look, reading_s, []

    def utterance(self):
        self.utterances.append(LookingUtterance(self.first, self.look, self.reading_s))
        return self.utterances[-1]


def spoken_turn(first: str, look, at_pauses: bool = True, reading_s: float = 0.0, language: str = "ko"):
    """(the turn's result, the recognizer) for one spoken utterance heard as ``first``
    (``at_pauses`` False: transcribed only after the endpoint)."""
    import numpy as np

    from assistant.hear.sources import PacedWavSource

    stt = LookingStt(first, look, reading_s)
    korean = FakeTts(rate=RATE, name="espeak-ng (ko)")
    config = korean_config(language)
    if not at_pauses:
        config = replace(config, vad=replace(config.vad, speculative=False), turn=replace(config.turn, mode="fixed"))
    skills = Skills(config.skills)
    recorder = Recorder()
    engine = Engine(config, stt=stt, llm=embedded(), tts=VoiceSet(FakeTts(rate=RATE, name="piper (joe)"), korean),
                    vad=FakeVad(), output=RecordingSink(RATE), skills=skills, on_event=recorder)
    speech = np.concatenate([np.zeros(4800, np.float32), np.full(16000, 0.3, np.float32), np.zeros(24000, np.float32)])
    try:
        engine.listen(PacedWavSource(speech, 16000, 512, realtime=True))  # the endpoint comes after the pause
        recorder.wait_turns()
    finally:
        engine.close()
        skills.close()
    return recorder.results[0], stt


def test_a_question_the_second_look_reads_right_is_answered_by_its_skill():
    from assistant.hear.second_look import Look

    result, stt = spoken_turn("쌍도하기 오물", Look("삼 더하기 오는", -0.2))
    assert (result.source, result.skill, result.reply) == ("skill", "arithmetic", "삼 더하기 오는 팔이에요.")
    assert result.transcript == "삼 더하기 오는" and result.voices == ["espeak-ng (ko)"]
    counts = result.timeline.counts
    assert counts["second_look_taken"] is True and counts["second_look_support"] == -0.2


def test_an_english_question_the_second_look_reads_right_replaces_the_reply_begun_to_the_first_reading():
    """The look is made while the first reading is weighed and answered: where it is taken, the reply begun to the
    first words is dropped (never heard) and the new words are answered; no speech was dropped for it."""
    from assistant.hear.second_look import Look

    result, stt = spoken_turn("Santa Tiger 410 minutes", Look("Set a timer for 10 minutes.", 0.55), language="en")
    assert (result.source, result.skill, result.reply) == ("skill", "timers", "Timer set for 10 minutes.")
    assert result.transcript == "Set a timer for 10 minutes." and stt.utterances[0].looks == 1
    counts = result.timeline.counts
    assert counts["second_look_taken"] is True and "speculation_dropped" not in counts


def test_a_second_look_the_audio_does_not_support_leaves_the_notice():
    from assistant.hear.second_look import Look

    result, stt = spoken_turn("기옥도 파피 파그 놀 마요", Look("몇 시예요?", -2.9))  # the prompt, copied
    assert (result.source, result.reply) == ("notice", CANNOT_ANSWER) and result.transcript == "기옥도 파피 파그 놀 마요"
    assert result.timeline.counts["second_look_taken"] is False


def test_a_reading_a_skill_takes_is_not_read_again():
    from assistant.hear.second_look import Look

    result, stt = spoken_turn("삼 더하기 오는", Look("몇 시예요?", 0.0))
    assert result.skill == "arithmetic" and all(u.looks == 0 for u in stt.utterances)
    assert "second_look_taken" not in result.timeline.counts


def test_the_reading_after_the_endpoint_is_not_read_again():
    """The user waits for that one: the second look is spent only on readings at pauses."""
    from assistant.hear.second_look import Look

    result, stt = spoken_turn("쌍도하기 오물", Look("삼 더하기 오는", -0.2), at_pauses=False)
    assert (result.source, result.reply) == ("notice", CANNOT_ANSWER)
    assert all(u.looks == 0 for u in stt.utterances) and "second_look_taken" not in result.timeline.counts


def test_a_second_look_that_would_end_after_the_turn_could_is_not_made():
    from assistant.hear.second_look import LOOK_WITHIN_S, Look

    result, stt = spoken_turn("쌍도하기 오물", Look("삼 더하기 오는", -0.2), reading_s=LOOK_WITHIN_S + 0.05)
    assert (result.source, result.reply) == ("notice", CANNOT_ANSWER)
    assert all(u.looks == 0 for u in stt.utterances)
