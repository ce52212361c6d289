"""Hangul as its letters (jamo), for matching what a Korean recognizer writes.

A recognizer that mishears Korean gets a letter of a syllable wrong, not the syllable:
"감사합니다" comes back "감사합리가" (two letters of eleven), which whole syllables count
as two wrong out of five. So Korean is compared letter by letter: each syllable is cut
into its consonants and vowels, and what sounds the same is written the same:

- the silent ``ㅇ`` that starts a syllable with a vowel is dropped (it is no sound), so
  "아이" is two letters;
- a final consonant is the same letter as a first one, so a consonant the recognizer
  moved to the next syllable ("몇 시" heard "며치") costs little;
- vowels Seoul Korean no longer tells apart are one (``ㅐ`` = ``ㅔ``, ``ㅒ`` = ``ㅖ``,
  ``ㅙ`` = ``ㅚ`` = ``ㅞ``); compound vowels and final consonant pairs are their parts
  (``ㅘ`` = ``ㅜㅏ``, its w written as in ``ㅝ`` = ``ㅜㅓ``; ``ㄺ`` = ``ㄹㄱ``).

Spaces are dropped (recognizers space Korean as they like); digits and Latin letters stay.
"""

from __future__ import annotations

import os
import re
import unicodedata

from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

from assistant.writing import FIRST_SYLLABLE, final_consonant_index, is_syllable

_FIRST = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆ_ㅈㅉㅊㅋㅌㅍㅎ"  # "_": the silent ㅇ, dropped
_VOWELS = ("ㅏ", "ㅔ", "ㅑ", "ㅖ", "ㅓ", "ㅔ", "ㅕ", "ㅖ", "ㅗ", "ㅜㅏ", "ㅜㅔ", "ㅜㅔ", "ㅛ", "ㅜ", "ㅜㅓ", "ㅜㅔ",
           "ㅜㅣ", "ㅠ", "ㅡ", "ㅡㅣ", "ㅣ")  # the w of ㅘ ㅙ ㅚ ㅝ ㅞ ㅟ is one letter: ㅜ
_LAST = ("", "ㄱ", "ㄲ", "ㄱㅅ", "ㄴ", "ㄴㅈ", "ㄴㅎ", "ㄷ", "ㄹ", "ㄹㄱ", "ㄹㅁ", "ㄹㅂ", "ㄹㅅ", "ㄹㅌ", "ㄹㅍ",
         "ㄹㅎ", "ㅁ", "ㅂ", "ㅂㅅ", "ㅅ", "ㅆ", "ㅇ", "ㅈ", "ㅊ", "ㅋ", "ㅌ", "ㅍ", "ㅎ")
_DROPPED = re.compile(r"[^\w.]|_|(?<!\d)\.|\.(?!\d)")


def syllable_jamo(char: str) -> str:
    """The letters of one character as :func:`jamo` writes them (itself if it is no syllable)."""
    if not is_syllable(char):
        return char
    index = ord(char) - FIRST_SYLLABLE
    first, vowel, last = index // 588, index % 588 // 28, index % 28
    return _FIRST[first].replace("_", "") + _VOWELS[vowel] + _LAST[last]


def final_consonant(word: str) -> str:
    """The final consonant of ``word``'s last syllable ('' after a vowel or for no Hangul)."""
    last = word.rstrip()[-1:] if word.strip() else ""
    return _LAST[final_consonant_index(last)] if last and is_syllable(last) else ""


def squeeze(text: str) -> str:
    """``text`` without spaces or punctuation (a decimal point stays), in lower case."""
    return _DROPPED.sub("", unicodedata.normalize("NFKC", text).casefold())


def jamo(text: str) -> str:
    """``text`` as letters, spaces and punctuation dropped: "감사합니다" → "ㄱㅏㅁㅅㅏㅎㅏㅂㄴㅣㄷㅏ"."""
    return "".join(syllable_jamo(c) for c in squeeze(text))


def distance(a: str, b: str) -> int:
    """Letters to change, add or drop to make jamo string ``a`` into ``b``."""
    return Levenshtein.distance(a, b)


def similarity(a: str, b: str) -> float:
    """0-100: how alike two texts are, letter by letter (rapidfuzz's ratio of their jamo)."""
    return fuzz.ratio(jamo(a), jamo(b))


def stems_similarity(a: str, b: str) -> float:
    """How alike (0-100) two jamo strings are before the ending they share ("맞습니다" and "고맙습니다": ㅁㅏㅈ and
    ㄱㅗㅁㅏ)."""
    shared = len(os.path.commonprefix([a[::-1], b[::-1]]))
    return fuzz.ratio(a[: len(a) - shared], b[: len(b) - shared]) if shared < min(len(a), len(b)) else 100.0
