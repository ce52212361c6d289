"""The end-of-turn decision: signals and silence in, decisions out (no clock, no models)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from assistant.config import ConfigError, TurnConfig, VadConfig
from assistant.events import TurnSignals
from assistant.hear import korean_grammar
from assistant.hear.end_of_turn import (
    TurnCall,
    TurnDetector,
    ends_on_a_final_ending,
    ends_on_a_word_that_cannot_end,
    has_an_end_mark,
    judge,
    judge_without_model,
    last_syllable,
    last_word,
    model_cannot_judge,
    model_expects_more,
    model_is_confident,
    model_wait_ms,
    pause_reading,
    recognizer_was_unsure_of_the_last_word,
    trails_off,
    words_for_model,
)

CONFIG = TurnConfig(complete_ms=150, unsure_ms=500, max_ms=2000, complete_log10=-0.3, unfinished_log10=-5.0,
                    unsure_word_p=0.2)
FRAME = 0.032


def first_decision(detector: TurnDetector, seconds: float):
    """Feed silence frame by frame; the first decision and when it came."""
    silence = 0.0
    while silence < seconds:
        silence += FRAME
        decision = detector.update(silence)
        if decision:
            return decision
    return None


# ------------------------------------------------------------ the judgement


@pytest.mark.parametrize("text", ["What is the", "I want the, um", "Tell me a joke and", "Remind me to...",
                                  "Can you tell me,", "What is your"])
def test_words_that_cannot_end_wait_the_longest_while_the_model_is_not_sure(text):
    judgement = judge(TurnSignals(text, end_of_turn=0.1), CONFIG)
    assert judgement.call is TurnCall.UNFINISHED and judgement.wait_ms == 2000


def test_a_confident_model_outweighs_the_word_rules():
    """The word rules never override a confident model ("Tell me about the and." is not
    likely, but the model decides when it is sure)."""
    judgement = judge(TurnSignals("Play the song by the the", end_of_turn=0.9), CONFIG)
    assert judgement.call is TurnCall.COMPLETE and judgement.wait_ms == 150


@pytest.mark.parametrize("text", ["What is it for?", "Which one is it?", "What are you thinking of?", "Can you?",
                                  "Where are you from?", "Can you call her?", "Is this book his?"])
def test_questions_that_end_on_a_preposition_or_an_auxiliary_are_judged_by_the_model(text):
    assert judge(TurnSignals(text, end_of_turn=0.8), CONFIG).wait_ms == 150
    assert 150 < judge(TurnSignals(text, end_of_turn=0.01), CONFIG).wait_ms < 2000


def test_the_wait_rises_smoothly_as_the_model_grows_unsure():
    probabilities = [0.9, 0.6, 0.2, 0.05, 0.01, 1e-3, 1e-4, 1e-5, 1e-6]
    waits = [judge(TurnSignals("Why is the sky blue", end_of_turn=p), CONFIG).wait_ms for p in probabilities]
    assert waits[0] == waits[1] == 150 and waits[-1] == waits[-2] == 2000
    assert all(a <= b for a, b in zip(waits, waits[1:]))
    assert len(set(waits)) >= 6  # not a few fixed steps


def test_an_instant_phrase_is_complete_without_the_model_after_a_comma_s_pause():
    """"Tell me a joke, please.": Whisper reads "Tell me a joke." at the comma's pause, so a request answered at
    once still waits out that pause (``phrase_ms``), whatever mark ends it."""
    for text in ("what time is it", "Tell me a joke.", "What day of the week was January 1,"):
        judgement = judge(TurnSignals(text, instant=True), CONFIG)
        assert judgement.call is TurnCall.COMPLETE and judgement.wait_ms == CONFIG.phrase_ms == 300
    assert judge(TurnSignals("Tell me a joke", end_of_turn=0.9), CONFIG).wait_ms == CONFIG.complete_ms == 150
    assert judge(TurnSignals("stop", instant=True, stops_reply=True), CONFIG).wait_ms == 150  # over a reply: at once


def test_a_greeting_or_thanks_waits_out_a_comma_s_pause():
    """"Thanks, what is ten times four?": what follows the pause is the same turn."""
    for language, silence_alone in (("en", False), ("ko", True)):
        judgement = judge(TurnSignals("thank you", instant=True, social=True), CONFIG, silence_alone=silence_alone,
                          language=language)
        assert judgement.call is TurnCall.COMPLETE and judgement.wait_ms == CONFIG.phrase_ms == 300


def test_words_the_model_cannot_read_are_decided_by_the_silence_alone():
    """Korean with a model that does not read Hangul: no probability, and none coming."""
    judgement = judge(TurnSignals("지금 몇 시예요?"), CONFIG)
    assert judgement.call is TurnCall.UNSURE and judgement.wait_ms == 500
    assert "silence alone" in judgement.reason


def test_where_the_silence_alone_decides_the_pause_is_read_well_into_it():
    vad = VadConfig()
    assert pause_reading(vad, silence_alone=False) == vad
    assert pause_reading(vad, silence_alone=True).early_silence_ms == 150
    later = replace(vad, early_silence_ms=300)
    assert pause_reading(later, silence_alone=True) == later  # a later reading chosen is kept
    assert pause_reading(vad, silence_alone=False, language="ko").early_silence_ms == 150  # its ending must be in it


def test_words_waiting_for_the_model_wait_until_it_answers():
    judgement = judge(TurnSignals("What is the capital of Australia", awaiting_model=True), CONFIG)
    assert judgement.wait_ms == 2000


def test_a_last_word_the_recognizer_was_unsure_of_waits_a_moderate_silence_at_most():
    """Misheard words ("How tall is my untammerist?") must not stretch the wait."""
    unsure = TurnSignals("How tall is my untammerist?", end_of_turn=1e-6, last_word_p=0.04)
    judgement = judge(unsure, CONFIG)
    assert judgement.wait_ms == 500 and "last word recognized at p 0.04" in judgement.reason
    assert judge(replace(unsure, last_word_p=0.9), CONFIG).wait_ms == 2000
    assert judge(unsure, replace(CONFIG, unsure_word_p=0.0)).wait_ms == 2000  # 0 turns it off
    assert judge(replace(unsure, end_of_turn=0.9), CONFIG).wait_ms == 150  # never longer for it


def test_words_likely_misheard_wait_at_most_the_longest_counted_thinking_pause():
    """A word the recognizer was unsure of ("Which said he doesn't do it."): the model's low reading
    of misheard words waits ``misheard_ms``, not the maximum; a reading under it is kept; so do misheard
    words that end on a word no sentence ends on or trail off, which the same words not misheard do not."""
    misheard = TurnSignals("Which said he doesn't do it.", end_of_turn=10**-3.4, misheard=True)
    judgement = judge(misheard, CONFIG)
    assert judgement.call is TurnCall.UNSURE and judgement.wait_ms == CONFIG.misheard_ms > 1000
    assert "words likely misheard" in judgement.reason
    assert judge(replace(misheard, misheard=False), CONFIG).wait_ms > 1500
    assert judge(replace(misheard, end_of_turn=10**-1.0), CONFIG).wait_ms == judge(
        replace(misheard, end_of_turn=10**-1.0, misheard=False), CONFIG).wait_ms < CONFIG.misheard_ms
    for unfinished in ("Which said he doesn't do the", "The role to all and to let..."):
        assert judge(replace(misheard, transcript=unfinished), CONFIG).wait_ms == CONFIG.misheard_ms
        assert judge(replace(misheard, transcript=unfinished, misheard=False), CONFIG).wait_ms == 2000
    assert judge(replace(misheard, end_of_turn=1e-6), replace(CONFIG, max_ms=900)).wait_ms == 900  # never past it


def test_words_not_read_yet_wait_the_longest_and_a_reading_with_no_words_as_misheard_words_do():
    assert judge(None, CONFIG).wait_ms == 2000
    nothing = judge(TurnSignals("  "), CONFIG)
    assert nothing.call is TurnCall.UNSURE and nothing.wait_ms == CONFIG.misheard_ms < 2000
    assert judge(TurnSignals(""), replace(CONFIG, max_ms=900)).wait_ms == 900  # never past the longest


def test_fixed_mode_ignores_the_words():
    fixed = replace(CONFIG, mode="fixed")
    judgement = judge(TurnSignals("What is the capital of", end_of_turn=1e-9), fixed, fixed_ms=300)
    assert judgement.call is TurnCall.FIXED and judgement.wait_ms == 300


def test_the_model_alone_leaves_out_the_word_rules_and_the_table():
    assert judge(TurnSignals("What is the", end_of_turn=0.1), CONFIG, words=False).wait_ms < 2000
    assert judge(TurnSignals("thanks", end_of_turn=1e-6, instant=True), CONFIG, words=False).wait_ms == 2000


def test_the_reason_names_the_model_probability():
    assert judge(TurnSignals("Why is the sky blue", end_of_turn=0.01), CONFIG).reason == "end of sentence 10^-2.0"


# ------------------------------------------------------------ the detector


def test_detector_commits_when_the_silence_reaches_the_wait():
    detector = TurnDetector(CONFIG)
    detector.pause()
    assert detector.update(0.1) is None  # nothing known yet: wait
    detector.note_words(TurnSignals("Why is the sky blue?", end_of_turn=0.8))
    decision = first_decision(detector, 2.0)
    assert decision.call is TurnCall.COMPLETE
    assert 0.150 <= decision.silence_ms / 1000 < 0.150 + FRAME
    assert decision.describe().startswith("complete at 1")
    assert detector.update(0.5) is None  # decided once


def test_a_language_the_model_cannot_read_ends_on_the_silence_without_waiting_for_words():
    detector = TurnDetector(CONFIG, silence_alone=True)
    detector.pause()  # no transcript yet (a slow recognizer): the words are not waited for
    decision = first_decision(detector, 2.0)
    assert decision.call is TurnCall.UNSURE and CONFIG.unsure_ms <= decision.silence_ms < CONFIG.unsure_ms + FRAME * 1000
    assert "cannot read the language" in decision.reason
    assert judge(TurnSignals("감사합니다", instant=True), CONFIG, silence_alone=True).wait_ms == CONFIG.phrase_ms
    korean = judge(TurnSignals("지금 몇 시예요", instant=True), CONFIG, silence_alone=True, language="ko")
    assert korean.wait_ms == CONFIG.complete_ms  # over on its verb's ending: nothing follows a Korean request's end
    awaiting = TurnSignals("오늘 날씨 어때요", awaiting_model=True)
    assert judge(awaiting, CONFIG, silence_alone=True).wait_ms == CONFIG.unsure_ms
    assert judge(awaiting, CONFIG).wait_ms == CONFIG.max_ms  # a model that reads the words is waited for
    assert judge(None, replace(CONFIG, mode="fixed"), 300, silence_alone=True).wait_ms == 300


@pytest.fixture(params=["analyser", "last syllable"])
def korean_reader(request, monkeypatch):
    """Both readers of a Korean sentence's end: the morphological analyser (the ko extra) and the last
    syllable (where the analyser is not installed)."""
    if request.param == "analyser":
        assert korean_grammar.analyser() is not None, "the ko extra's analyser (kiwipiepy) is not installed"
    else:
        monkeypatch.setattr(korean_grammar, "analyser", lambda: None)
    return request.param


def test_korean_is_over_after_a_sentence_final_ending(korean_reader):
    """The grammar where the model cannot read the words: a Korean sentence ends on its verb's
    final ending; a particle or a connective ending is never the last of one."""
    for finished in ("오늘 날씨 어때요?", "감사합니다.", "타이머 맞춰 주세요", "그렇죠", "뭐 하니", "왜 그러냐", "뭐래",
                     "빨리 오라", "지금 몇 시야", "십 분 타이머 맞춰 줘", "날씨 좋다", "커피요"):
        assert ends_on_a_final_ending(finished, "ko") is True, finished
    for fragment in ("서울에서 부산까지", "제일 맛있는 한국 음식은", "타이머를", "밥을 먹고", "비가 오면", "가는데...",
                     "시간이 없으니까", "도착하자마자", "피곤해서.", "비가 오는데,"):
        assert ends_on_a_final_ending(fragment, "ko") is False, fragment
    for question in ("지금 몇 시입니까?", "어떻습니까", "저녁에 뭐 먹을까?", "내일 어디 갈까"):  # -ㅂ니까, -ㄹ까
        assert ends_on_a_final_ending(question, "ko") is True, question
    for fragment in ("비가 오니까", "배가 고프니까", "요리 띠까", "까"):  # the connective -니까; 까 after no ㄹ
        assert ends_on_a_final_ending(fragment, "ko") is False, fragment
    assert ends_on_a_final_ending("내일 사네", "ko") is False  # 네: Whisper's reading of the particle 에
    assert ends_on_a_final_ending("Ciao!", "ko") is None  # no Hangul: the grammar cannot tell
    assert ends_on_a_final_ending("오늘 날씨 어때요", "en") is None  # no table for the language
    assert last_syllable("라면 3분, OK?") == "분" and last_syllable("OK") == ""


def test_the_analyser_tells_the_informal_endings_from_the_connectives_that_end_alike(korean_reader):
    """The informal -아/-어, -지 and -자 end the questions and requests people say to an assistant
    most; the last syllable cannot tell them from a particle or a connective (까지, -어야, -자마자), so
    without the analyser they wait as fragments do."""
    informal = ("오늘 날씨 어때?", "지금 몇 시지?", "우리 산책 가자.", "불 좀 꺼", "내일 몇 시에 만나?", "이거 뭐야 알아?")
    alike = ("서울까지", "먼저 해야", "도착하자마자", "영화 보러 가")
    if korean_reader == "analyser":
        assert all(ends_on_a_final_ending(words, "ko") is True for words in informal)
        assert [words for words in alike if ends_on_a_final_ending(words, "ko")] == ["영화 보러 가"]  # 가: go, said
    else:
        assert [words for words in informal if ends_on_a_final_ending(words, "ko")] == []
        assert [words for words in alike if ends_on_a_final_ending(words, "ko")] == ["먼저 해야"]  # 야: -야, -어야


def test_where_the_silence_decides_korean_words_end_or_wait_by_their_ending():
    config = replace(CONFIG, no_ending_ms=1000)
    done = judge(TurnSignals("오늘 날씨 어때요"), config, silence_alone=True, language="ko")
    assert done.call is TurnCall.COMPLETE and done.wait_ms == 150 and "'요'" in done.reason
    fragment = judge(TurnSignals("제일 맛있는 한국 음식은"), config, silence_alone=True, language="ko")
    assert fragment.call is TurnCall.UNSURE and fragment.wait_ms == 1000 and "no sentence-final ending" in fragment.reason
    asked = judge(TurnSignals("이것은 무엇입니까?"), config, silence_alone=True, language="ko")  # -ㅂ니까: a question
    assert asked.call is TurnCall.COMPLETE and asked.wait_ms == 150 and "'까'" in asked.reason
    assert judge(TurnSignals("비가 오니까"), config, silence_alone=True, language="ko").wait_ms == 1000  # -니까: because
    for not_read in (TurnSignals("", awaiting_model=True), None, TurnSignals(""),  # as fragments: waited for
                     TurnSignals("4, 5, 2, 1"), TurnSignals("POP NOT COOL")):  # Korean misheard as digits, as English
        assert judge(not_read, config, silence_alone=True, language="ko").wait_ms == 1000
    assert "script" in judge(TurnSignals("Ciao!"), config, silence_alone=True, language="ko").reason
    assert judge(TurnSignals("Ciao!", instant=True), config, silence_alone=True, language="ko").wait_ms == 300  # no ending
    # the words known, the responder's word on them (an instant phrase) still coming: the ending decides meanwhile
    assert judge(TurnSignals("오늘 날씨는", awaiting_model=True), config, silence_alone=True, language="ko").wait_ms == 1000
    assert judge_without_model(TurnSignals("제일 맛있는 한국 음식은"), config, "ko", words=False).wait_ms == 500
    assert judge(TurnSignals("the weather is"), config, silence_alone=True).wait_ms == 500  # no English table


def test_a_model_that_reads_korean_ends_a_turn_only_when_confident_else_the_ending_decides():
    config = replace(CONFIG, no_ending_ms=1000)
    sure = judge(TurnSignals("서울에서 부산까지", end_of_turn=0.9), config, language="ko")
    assert sure.call is TurnCall.COMPLETE and sure.wait_ms == 150
    for p in (0.1, 1e-4, None):
        assert judge(TurnSignals("서울에서 부산까지", end_of_turn=p), config, language="ko").wait_ms == 1000
        assert judge(TurnSignals("지금 몇 시예요", end_of_turn=p), config, language="ko").wait_ms == 150
    assert judge(TurnSignals("지금 몇 시예요", awaiting_model=True), config, language="ko").wait_ms == 150  # not waited for
    assert judge(TurnSignals("서울에서 부산까지", awaiting_model=True), config, language="ko").wait_ms == 1000
    assert judge(TurnSignals("Ciao", end_of_turn=1e-4), config, language="ko").wait_ms > 1000  # no Hangul: the model


def test_a_korean_fragment_known_in_time_outlasts_the_silence_alone():
    """Words known 0.4 s into the pause: the fragment holds the turn past ``unsure_ms``, the finished
    question ends it at once."""
    config = replace(CONFIG, no_ending_ms=1000)
    detector = TurnDetector(config, silence_alone=True, language="ko")
    detector.pause()
    assert detector.update(0.4) is None
    detector.note_words(TurnSignals("서울에서 부산까지"))
    assert detector.update(0.6) is None and detector.update(0.98) is None
    assert detector.update(1.0).silence_ms == pytest.approx(1000)
    detector.pause()
    detector.note_words(TurnSignals("서울에서 부산까지 얼마나 걸려요"))
    decision = detector.update(0.4)
    assert decision and decision.call is TurnCall.COMPLETE and decision.silence_ms == pytest.approx(400)


def test_the_wait_for_words_with_no_ending_is_checked_and_never_past_the_longest():
    with pytest.raises(ConfigError):
        TurnDetector(TurnConfig(complete_ms=150, no_ending_ms=100))
    shorter = TurnConfig(max_ms=900, unsure_ms=700)  # a config written before the setting stays valid
    assert judge(TurnSignals("서울에서 부산까지"), shorter, silence_alone=True, language="ko").wait_ms == 900


def test_signals_arriving_late_decide_at_once():
    detector = TurnDetector(CONFIG)
    detector.pause()
    assert detector.update(0.4) is None
    detector.note_words(TurnSignals("Set a timer for ten minutes.", end_of_turn=0.6))
    decision = detector.update(0.416)
    assert decision and decision.call is TurnCall.COMPLETE and decision.silence_ms == pytest.approx(416)


def test_speaking_on_forgets_the_pause():
    detector = TurnDetector(CONFIG)
    detector.pause()
    detector.note_words(TurnSignals("What is the capital of", end_of_turn=1e-6))
    assert first_decision(detector, 1.0) is None  # a 1 s thinking pause is not the end
    detector.resume()
    detector.note_words(TurnSignals("What is the capital of Australia?", end_of_turn=0.8))  # not paused: ignored
    assert detector.update(3.0) is None
    detector.pause()
    assert detector.signals is None
    detector.note_words(TurnSignals("What is the capital of Australia?", end_of_turn=0.8))
    assert detector.update(0.16).call is TurnCall.COMPLETE


def test_an_unfinished_turn_is_committed_at_the_maximum():
    detector = TurnDetector(CONFIG)
    detector.pause()
    detector.note_words(TurnSignals("Can you tell me, um", end_of_turn=0.01))
    decision = first_decision(detector, 3.0)
    assert decision.call is TurnCall.UNFINISHED and decision.silence_ms >= 2000


def test_words_awaiting_the_model_never_replace_what_the_model_said():
    detector = TurnDetector(CONFIG)
    detector.pause()
    detector.note_words(TurnSignals("Why is the sky blue?", end_of_turn=0.8))
    detector.note_words(TurnSignals("Why is the sky blue?", awaiting_model=True))  # arrived late
    assert detector.update(0.16).call is TurnCall.COMPLETE


def test_unknown_mode_is_a_config_error():
    with pytest.raises(ConfigError, match="turn.mode"):
        TurnDetector(TurnConfig(mode="psychic"))


# ------------------------------------------------------------ each predicate alone


def test_helpers():
    assert words_for_model("What is the capital of Australia?") == "What is the capital of Australia"
    assert words_for_model("Remind me to...") == "Remind me to"
    assert last_word("Is it going to rain, um?") == "um" and last_word("") == ""


def test_ends_on_a_word_that_cannot_end():
    assert ends_on_a_word_that_cannot_end("What is the") and ends_on_a_word_that_cannot_end("cats and")
    assert ends_on_a_word_that_cannot_end("I want the, um")
    assert not ends_on_a_word_that_cannot_end("What is it for?")  # English strands prepositions
    assert not ends_on_a_word_that_cannot_end("Can you?") and not ends_on_a_word_that_cannot_end("Where is it?")
    assert not ends_on_a_word_that_cannot_end("그리고", language="ko")  # no list for Korean: the model or silence


def test_trails_off():
    assert trails_off("Remind me to...") and trails_off("Can you tell me,") and trails_off("Well -")
    assert not trails_off("Why is the sky blue?")


def test_has_an_end_mark():
    assert has_an_end_mark("Paris.") and has_an_end_mark('He said "hi!"')
    assert not has_an_end_mark("What is the capital of")


def test_recognizer_was_unsure_of_the_last_word():
    assert recognizer_was_unsure_of_the_last_word(TurnSignals("a", last_word_p=0.1), CONFIG)
    assert not recognizer_was_unsure_of_the_last_word(TurnSignals("a", last_word_p=0.5), CONFIG)
    assert not recognizer_was_unsure_of_the_last_word(TurnSignals("a"), CONFIG)  # unknown


def test_model_cannot_judge():
    assert model_cannot_judge(TurnSignals("지금 몇 시예요"))
    assert not model_cannot_judge(TurnSignals("What", awaiting_model=True))
    assert not model_cannot_judge(TurnSignals("What", end_of_turn=0.1))


def test_model_is_confident_and_expects_more():
    assert model_is_confident(-0.3, CONFIG) and not model_is_confident(-0.31, CONFIG)
    assert model_expects_more(-5.01, CONFIG) and not model_expects_more(-5.0, CONFIG)


def test_model_wait_ms_follows_the_curve_between_the_thresholds():
    assert model_wait_ms(0.0, CONFIG) == 150 and model_wait_ms(-6.0, CONFIG) == 2000
    middle = (CONFIG.complete_log10 + CONFIG.unfinished_log10) / 2
    assert model_wait_ms(middle, CONFIG) == pytest.approx(150 + math.sqrt(0.5) * 1850)
