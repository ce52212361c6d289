"""Which writing a text is in: Hangul, told once for every layer (the recognizer's words, the
replies, the voices, the wake phrase, a sentence's end).

Hangul is its precomposed syllables (가 to 힣) and its letters, the conjoining jamo (U+1100-11FF) and
the compatibility jamo a keyboard writes alone (ㄱ, ㅏ: U+3130-318F).
"""

from __future__ import annotations

import re

FIRST_SYLLABLE, LAST_SYLLABLE = 0xAC00, 0xD7A3
_LETTERS = "\u1100-\u11ff\u3130-\u318f"
HANGUL = re.compile(f"[{chr(FIRST_SYLLABLE)}-{chr(LAST_SYLLABLE)}{_LETTERS}]")
"""One Hangul syllable or letter."""
SYLLABLE = re.compile(f"[{chr(FIRST_SYLLABLE)}-{chr(LAST_SYLLABLE)}]")
SYLLABLES = re.compile(f"[{chr(FIRST_SYLLABLE)}-{chr(LAST_SYLLABLE)}]+")
"""A run of Hangul syllables (a word as a recognizer spaces it)."""


def is_syllable(char: str) -> bool:
    """``char`` is one precomposed Hangul syllable."""
    return len(char) == 1 and FIRST_SYLLABLE <= ord(char) <= LAST_SYLLABLE


def is_hangul(char: str) -> bool:
    """``char`` is a Hangul syllable or letter."""
    return HANGUL.fullmatch(char) is not None


def has_hangul(text: str) -> bool:
    """``text`` has a Hangul syllable or letter."""
    return HANGUL.search(text) is not None


def plain_words(text: str) -> str:
    """``text``'s words, punctuation taken out, one space between them ("도쿄는, 지금 몇 시야?" -> "도쿄는 지금 몇 시야")."""
    return " ".join(re.sub(r"[^\w\s]", " ", text).split())


def final_consonant_index(syllable: str) -> int:
    """The index (0: none, 1-27) of a syllable's final consonant (받침), as Unicode orders them."""
    return (ord(syllable) - FIRST_SYLLABLE) % 28
