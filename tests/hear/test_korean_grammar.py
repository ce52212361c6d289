"""Where a Korean sentence ends, by the morphological analyser (the ko extra), and without it."""

from __future__ import annotations

import logging
import sys

from assistant.hear import korean_grammar
from assistant.hear.end_of_turn import ends_on_a_final_ending


def test_the_analyser_reads_the_ending_by_the_words_around_it():
    assert korean_grammar.ends_a_sentence("오늘 날씨 어때") is True  # 어떻 + -어: final
    assert korean_grammar.ends_a_sentence("서울까지") is False  # 까지: a particle, though 지 ends -지 too
    assert korean_grammar.ends_a_sentence("날씨 좋다") is True  # -다 with no full stop after it
    assert korean_grammar.ends_a_sentence("좋네") is False  # -네: Whisper's reading of the particle 에
    assert korean_grammar.ends_a_sentence("2, 3") is None  # nothing but digits and punctuation


def test_a_last_polite_ending_or_a_call_is_final_whatever_the_words_before_it():
    """Whisper's misheard Korean keeps the sound of the last syllable more often than the words: a last
    요 or a vocative -아/-야 ends what is said however the analyser reads what comes before; a filler
    does not."""
    for said in ("커피요", "조만간요", "고무역시역의 요", "파란은 왹 파란과 요", "민수야", "이 꼬마야", "요치의 폰아",
                 "양화한 양폭아", "취뜸 며티세아", "부존같이 아"):  # the last a: a noun or an interjection to the analyser
        assert korean_grammar.ends_a_sentence(said) is True, said
    for thinking in ("음", "그게 어", "엄마한테", "비가 와서", "먼저 해야", "서울까지", "친구가"):
        assert korean_grammar.ends_a_sentence(thinking) is False, thinking


def test_without_the_analyser_the_last_syllable_decides_and_the_log_says_why(monkeypatch, caplog):
    monkeypatch.setattr(korean_grammar, "_ANALYSER", None)
    monkeypatch.setattr(korean_grammar, "_UNAVAILABLE", False)
    monkeypatch.setitem(sys.modules, "kiwipiepy", None)  # not installed: importing it fails
    with caplog.at_level(logging.WARNING, logger="assistant.hear.korean_grammar"):
        assert korean_grammar.analyser() is None
        assert korean_grammar.ends_a_sentence("오늘 날씨 어때") is None
    assert "kiwipiepy" in caplog.text and "last syllable" in caplog.text
    assert ends_on_a_final_ending("오늘 날씨 어때", "ko") is False  # 때: no ending on the syllable list
    assert ends_on_a_final_ending("지금 몇 시야", "ko") is True
    caplog.clear()
    assert korean_grammar.analyser() is None and not caplog.text  # tried once, said once


def test_an_analyser_that_fails_on_some_words_leaves_them_to_the_last_syllable(monkeypatch):
    class Broken:
        def tokenize(self, words):
            raise RuntimeError("bad input")

    monkeypatch.setattr(korean_grammar, "analyser", lambda: Broken())
    assert korean_grammar.ends_a_sentence("지금 몇 시야") is None
    assert ends_on_a_final_ending("지금 몇 시야", "ko") is True
