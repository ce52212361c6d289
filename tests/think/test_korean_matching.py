"""Korean matched letter by letter: the jamo, the instant-reply table on misheard Korean
and the Korean sentences that must not hit a phrase, and the request forms the Korean
skills are written in."""

from __future__ import annotations

import pytest

from assistant.config import RepliesConfig
from assistant.think import hangul
from assistant.writing import has_hangul
from assistant.think.replies import Matcher, default_table
from assistant.think.skills.korean_numbers import parse
from assistant.think.skills.korean_pattern import Form, first


@pytest.fixture(scope="module")
def matcher():
    return Matcher(default_table(), RepliesConfig().score_cutoff)


@pytest.mark.parametrize("text, letters", [
    ("감사합니다", "ㄱㅏㅁㅅㅏㅎㅏㅂㄴㅣㄷㅏ"),
    ("안녕", "ㅏㄴㄴㅕㅇ"),            # the silent ㅇ dropped, the final ㅇ kept
    ("내 네", "ㄴㅔㄴㅔ"),              # ㅐ and ㅔ are one vowel; spaces dropped
    ("왜 외 웨", "ㅜㅔㅜㅔㅜㅔ"),
    ("과 워", "ㄱㅜㅏㅜㅓ"),
    ("닭", "ㄷㅏㄹㄱ"),
    ("3.5 km!", "3.5km"),
    ("마요.", "ㅁㅏㅛ"),
])
def test_hangul_is_written_as_its_letters(text, letters):
    assert hangul.jamo(text) == letters


def test_a_misheard_letter_costs_a_letter_not_a_syllable():
    assert hangul.distance(hangul.jamo("감사합니다"), hangul.jamo("감사합리가")) == 2
    assert hangul.similarity("감사합니다", "감사합리가") > 80 > hangul.similarity("감사합니다", "감사한 마음")
    assert hangul.similarity("몇 시야", "며치야") > 90  # the consonant moved to the next syllable
    assert has_hangul("OK 네") and not has_hangul("OK")
    assert hangul.final_consonant("팔") == "ㄹ" and hangul.final_consonant("오") == ""


@pytest.mark.parametrize("heard, text, action", [
    # what the Korean Whisper made of eSpeak NG's ko voice (tests/data/korean/heard-tune.tsv)
    ("감사합리가", "천만에요.", None),
    ("감사합니당", "천만에요.", None),
    ("검사합리가", "천만에요.", None),
    ("아, 논하세요", "안녕하세요! 무엇을 도와드릴까요?", None),
    ("다시 마우해 주세요", "아직 아무 말도 하지 않았어요.", "repeat"),
    ("그만대", "", "stop"),
    ("소리키와 두세요", "네, 크게 할게요.", "louder"),
    ("아니 에 요", "알겠어요.", None),    # vosk spaces syllables apart
    ("안녕히 계세요", "안녕히 가세요!", None),
    ("네.", "네, 알겠어요.", None),
    ("내", "네, 알겠어요.", None),        # ㅐ and ㅔ sound the same
])
def test_misheard_korean_still_finds_its_phrase(matcher, heard, text, action):
    entry = matcher.match(heard)
    assert entry is not None, heard
    assert (entry.text, entry.action) == (text, action)


@pytest.mark.parametrize("said", [
    "감사한 마음을 어떻게 전해요",       # starts like 감사합니다
    "감사 인사는 어떻게 해요",
    "안녕이라는 노래 알아요",            # starts like 안녕
    "안녕하세요라고 영어로 뭐예요",
    "그만두고 싶어요",
    "다시 시작하는 방법을 알려 주세요",
    "네 시에 만나요",                   # 네 is also four
    "레",                              # one letter off a one-syllable phrase is another word
    "좋은 아침 메뉴 추천해 주세요",
    "잘 지내는 방법이 뭐예요",
    "소리가 너무 작아서 안 들려요 어떻게 해요",
    "고마운 사람에게 선물을 주고 싶어요",
    "몇 시에 문을 닫아요",
    "오늘 날씨가 어때요",
])
def test_korean_that_only_starts_like_a_phrase_never_hits(matcher, said):
    assert matcher.match(said) is None, said


def test_english_is_still_matched_word_by_word(matcher):
    assert matcher.match("thank you").text == "You're welcome!"
    assert matcher.match("what is the date") is not None
    assert matcher.match("thanks, and what about tomorrow?") is None


# ------------------------------------------------------------------ request forms


def test_a_form_covers_the_whole_utterance_and_reads_its_slots():
    form = Form("{a:n} op=더하기:+|빼기:- {b:n} [은|는] [얼마 @IS]", {"n": parse})
    assert form.match("삼 더하기 오는").values == {"a": 3, "op": "+", "b": 5}
    assert form.match("삼십칠 빼기 12는 얼마예요").values == {"a": 37, "op": "-", "b": 12}
    assert form.match("삼도하기 오는").errors == 1          # a misheard letter in a word
    assert form.match("삼 더하기 오는 뭐야 그리고") is None   # more than the form
    assert form.match("삼 더하기 외는") is None               # a number must be exact
    assert form.match("삼 더하기") is None


def test_the_cheapest_form_wins():
    forms = [("time", Form("[지금] 몇_시 [@IS]", {})), ("date", Form("[오늘] 며칠 [@IS]", {}))]
    assert first(forms, "지금 몇 시예요")[0] == "time"
    assert first(forms, "오늘 며칠이에요")[0] == "date"
    assert first(forms, "몇 시에 문을 닫아요") is None


def test_a_form_names_its_readers():
    with pytest.raises(ValueError, match="no reader"):
        Form("{a:n} 더하기 {b:n}", {})


@pytest.mark.parametrize("said, text", [("미안해요", "괜찮아요."), ("수고했어요", "고마워요!")])
def test_words_nearer_another_row_are_no_action(english_skills, matcher, said, text):
    """An apology is not "멈춰요" (stop), thanks not "뭐라고 했어요" (repeat): the actions skill takes only what the whole
    table finds nearest an action's row; the table then answers."""
    assert english_skills.match(said) is None
    assert matcher.match(said).text == text
