"""What skills match against: the utterance in lower case, numbers as digits.

"What's fifteen percent of two hundred?" becomes "what is 15 percent of 200". Spelled
numbers are read by text2num (``alpha2digit``); it leaves "zero", "one" and "two" alone
when they stand by themselves (so "one of them" stays words), and skills that expect a
number there see it as a digit through :func:`normalize`. Symbols a recognizer writes
(``7 × 8``, ``15%``, ``3/4``) become the words a person says.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata

from text_to_num import alpha2digit

NUMBER = r"\d+(?:\.\d+)?"
"""A number as :func:`normalize` writes it."""

WEEKDAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
"""The days of the week as normalized words say them, in ``date.weekday()`` order."""
_SMALL = {"zero": "0", "one": "1", "two": "2"}
_CONTRACTIONS = (
    (r"\bwhat's\b", "what is"), (r"\bhow's\b", "how is"), (r"\bit's\b", "it is"), (r"\bthat's\b", "that is"),
    (r"\bwhat're\b", "what are"), (r"\bi'd\b", "i would"), (r"\bi'm\b", "i am"), (r"\blet's\b", "let us"),
    (r"\bthere's\b", "there is"), (r"\bwhere's\b", "where is"), (r"\bwho's\b", "who is"), (r"\bwhen's\b", "when is"),
)
_SYMBOLS = (
    (r"(?<=\d),(?=\d{3}\b)", ""),              # 1,000 -> 1000
    (r"(?<=\d)\s*%", " percent"),
    (r"\$\s?(\d+(?:\.\d+)?)", r"\1 dollars"), (r"€\s?(\d+(?:\.\d+)?)", r"\1 euros"),
    (r"£\s?(\d+(?:\.\d+)?)", r"\1 pounds"),     # as Whisper writes money: "$20" is "20 dollars"
    (r"\s*[×✕*]\s*", " times "),
    (r"(?<=\d)\s*x\s*(?=\d)", " times "),
    (r"\s*÷\s*", " divided by "),
    (r"(?<=\d)\s*/\s*(?=\d)", " divided by "),
    (r"(?<=\d)\s*\+\s*(?=\d)", " plus "),
    (r"\s+\+\s*(?=\d)", " plus "),
    (r"(?<=\d)\s+[-−–]\s+(?=\d)", " minus "),
    (r"(?<=\d)\s*\^\s*(?=\d)", " to the power of "),
    (r"\s*=\s*$", ""),
    (r"\ba\.m\.", "am"), (r"\bp\.m\.", "pm"),
    (r"\bo'clock\b", "oclock"),
)
_FILLERS = frozenset({"um", "umm", "uh", "uhh", "uhm", "erm", "er", "hmm", "please", "hey", "okay", "ok", "so"})


@functools.lru_cache(maxsize=512)
def normalize(text: str) -> str:
    """Lower case, contractions expanded, numbers as digits, punctuation dropped
    (except a number's decimal point and the colon of a clock time). Kept for the last
    texts: every skill reads the same words, and each of their readings (:func:`one_word_off`,
    :func:`numbers_misheard`)."""
    text = unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'").replace("\u2018", "'")
    for pattern, words in _CONTRACTIONS:
        text = re.sub(pattern, words, text)
    for pattern, words in _SYMBOLS:
        text = re.sub(pattern, words, text)
    text = re.sub(r"'s\b", "", text)                  # today's date -> today date
    text = re.sub(r"(?<=[a-z])-(?=[a-z])", " ", text)  # forty-two -> forty two
    text = re.sub(r"[^\w\s.:-]|(?<!\d)[.:]|[.:](?!\d)|-(?!\d)", " ", text)
    text = re.sub(r"\s+-\s*(?=\d)", " minus ", " " + text).strip()
    words = [w for w in text.split() if w not in _FILLERS]
    text = alpha2digit(" ".join(words), "en")
    text = " ".join(_SMALL.get(w, w) for w in text.split())
    text = _SAID_AS_ONE.sub(_as_one_number, text)
    text = re.sub(rf"\b({NUMBER}) and a half\b", lambda m: _plain(float(m[1]) + 0.5), text)
    text = re.sub(r"\b(?:a |one )?half (?:an?|of an?) (?!\d)", "0.5 ", text)  # not "half of a 100"
    return text


_SAID_AS_ONE = re.compile(r"(?<!sum of )(?<!product of )(?<!between )(?<!add )(?<!multiply )(?<![\d.])"
                          r"\b(\d+) and (\d{1,3})\b(?![.:]\d)")
"""Whisper writes "two hundred and forty" as "200 and 40": a number that ends in hundreds or thousands
and a smaller one after "and" are one number, as English says them; "the sum of 100 and 50", "between
100 and 50", "add 100 and 50" are two."""


def _as_one_number(match: re.Match) -> str:
    big, small = int(match[1]), int(match[2])
    if big and (big % 1000 == 0 and small < 1000 or big % 100 == 0 and small < 100):
        return str(big + small)
    return match[0]


def _plain(value: float) -> str:
    return str(int(value)) if value == int(value) else str(value)


def spoken_number(value: float) -> str:
    """A result as it is said: whole numbers whole, others to about three significant
    digits (8.05, 0.0283, 37.8), big ones to one decimal."""
    if not math.isfinite(value):
        raise ValueError(f"not a finite number: {value}")
    if value == 0:
        return "0"
    if abs(value - round(value)) < 1e-9 * max(1.0, abs(value)):
        return str(int(round(value)))
    digits = 1 if abs(value) >= 100 else max(0, 2 - math.floor(math.log10(abs(value))))
    rounded = round(value, digits)
    if rounded == 0:
        return f"{value:.2g}"
    return _plain(rounded) if rounded != int(rounded) else str(int(rounded))


FUNCTION_WORDS = ("a", "an", "the", "is", "it", "of", "on", "in", "at", "for", "to", "and", "as", "are", "by")
"""Short unstressed words a recognizer most often writes one for another ("what time of it", "20% on
50"): a closed class, never a request's meaning (its content words and numbers are)."""


def one_word_off(text: str, most_words: int = 12) -> list[str]:
    """``text``, normalized, with one of its function words replaced by another: the requests a
    misheard function word may stand for. Content words and numbers stay as they were heard."""
    words = normalize(text).split()
    if len(words) > most_words:
        return []
    return [" ".join(words[:i] + [other] + words[i + 1 :])
            for i, word in enumerate(words) if word in FUNCTION_WORDS
            for other in FUNCTION_WORDS if other != word]


SOUNDS_LIKE_A_NUMBER = {"won": "one", "to": "two", "too": "two", "free": "three", "tree": "three", "for": "four",
                        "fore": "four", "ate": "eight"}
"""Words a recognizer writes for a number word it heard (eSpeak NG's British and Caribbean voices' "three" read
"free": "What's free plus free?", "13 times free"): the number words' homophones and near ones, a closed class."""


def numbers_misheard(text: str, most_words: int = 12) -> list[str]:
    """``text``, normalized, with a word that sounds like a number read as that number: each such word on its
    own, and all of them at once ("what's free plus free"). The other words stay as they were heard."""
    words = normalize(text).split()
    at = [i for i, word in enumerate(words) if word in SOUNDS_LIKE_A_NUMBER]
    if not at or len(words) > most_words:
        return []
    changes = [[i] for i in at] + ([at] if len(at) > 1 else [])
    return [normalize(" ".join(SOUNDS_LIKE_A_NUMBER[w] if i in change else w for i, w in enumerate(words)))
            for change in changes]


def spoken_duration(seconds: float) -> str:
    """ "8 minutes and 12 seconds", "1 hour and 5 minutes", "45 seconds"."""
    seconds = round(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [(hours, "hour"), (minutes, "minute")] + ([(secs, "second")] if not hours and minutes < 10 else [])
    said = [f"{n} {unit}{'' if n == 1 else 's'}" for n, unit in parts if n]
    return " and ".join(said[:2]) if said else "0 seconds"


def capital(text: str) -> str:
    """``text`` with its first letter in capitals (a sentence that starts with a name or a number said)."""
    return text[:1].upper() + text[1:]
