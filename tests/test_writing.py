"""Hangul told once for every layer (assistant/writing.py)."""

from assistant.writing import SYLLABLES, final_consonant_index, has_hangul, is_hangul, is_syllable


def test_syllables_letters_and_other_writing():
    assert is_syllable("가") and is_syllable("힣") and not is_syllable("ㄱ") and not is_syllable("a")
    assert not is_syllable("가나")  # one character only
    assert is_hangul("ㄱ") and is_hangul("ᄀ") and is_hangul("한") and not is_hangul("1")
    assert has_hangul("3분 타이머") and has_hangul("ㅋㅋ") and not has_hangul("4, 5, 2, 1") and not has_hangul("")


def test_words_and_the_final_consonant():
    assert SYLLABLES.findall("지금 몇 시야? ok") == ["지금", "몇", "시야"]
    assert final_consonant_index("가") == 0 and final_consonant_index("갈") == 8 and final_consonant_index("입") == 17
