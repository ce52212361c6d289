"""Near misses of a wake phrase made from its sounds, for any English phrase: eSpeak NG's phonemes of
the phrase with one thing changed, spoken as phonemes by the English training voices (``[[...]]``,
eSpeak NG's phoneme input), alone or going on with everyday words.

What is changed, one at a time and in pairs (a changed onset with a changed ending): a stressed vowel
for another ("hey" as "high", "assistant" as "assestant"); a stressed syllable's first consonant for a
neighbour or nothing ("hey" as "they", "way", "bay"); a word's ending, from its last vowel on, for
another common ending ("assistant" as "assister", "assisted", "assist her", "assisty"). These are
the sentences that sound nearly like the phrase and are not it ("Hey, a sister of mine...", "They
assisted...") without a list of them per phrase. Nothing that only re-splits the words (that is the
phrase said differently), nor reduced vowels swapped for one another (they sound alike).
"""

from __future__ import annotations

import functools
import re

VOWELS = ("aI@", "aU@", "a#", "A:", "A@", "aI", "aU", "@L", "@5", "3:", "e@", "eI", "i:", "i@", "I2", "I#", "0@",
          "O:", "O@", "OI", "o@", "oU", "u:", "U@", "@", "3", "a", "e", "E", "i", "I", "0", "O", "U", "V")
CONSONANTS = ("tS", "dZ", "r-", "p", "b", "t", "d", "k", "g", "f", "v", "T", "D", "s", "z", "S", "Z", "h", "m",
              "n", "N", "l", "r", "j", "w", "x", "?")
VOWEL_FOR = {"eI": ("aI", "i:", "oU"), "aI": ("eI", "A:", "OI"), "i:": ("eI", "I", "aI"), "I": ("E", "i:", "a"),
             "E": ("I", "a", "eI"), "a": ("E", "V", "A:"), "V": ("a", "0", "3:"), "A:": ("aI", "O:", "a"),
             "0": ("V", "oU", "a"), "O:": ("oU", "A:", "3:"), "oU": ("aU", "O:", "u:"), "u:": ("oU", "U", "i:"),
             "U": ("u:", "V"), "3:": ("e@", "O:", "V"), "aU": ("oU", "aI"), "OI": ("aI", "oU"), "e@": ("3:", "I@")}
"""A stressed vowel's neighbours (sounds a listener could take for it)."""
CONSONANT_FOR = {"h": ("D", "w", "b"), "s": ("T", "S", "z"), "z": ("s", "D"), "t": ("d", "k"), "d": ("t", "g"),
                 "k": ("t", "g"), "g": ("k", "d"), "p": ("b", "t"), "b": ("p", "d"), "m": ("n", "b"),
                 "n": ("m", "d"), "l": ("r", "w"), "r": ("l", "w"), "w": ("r", "h"), "f": ("T", "v"),
                 "v": ("f", "D"), "T": ("f", "s"), "D": ("d", "v"), "S": ("s", "tS"), "j": ("", "h"),
                 "tS": ("S", "dZ"), "dZ": ("tS", "j")}
"""A syllable's first consonant's neighbours ('' drops it)."""
ENDINGS = (("3",), ("I2", "d"), ("3", "z"), ("h", "3:"), ("i",), ("@", "m"))
"""What a word's ending (its last vowel and what follows it) becomes."""
GOING_ON = ("of my friends came.", "is at home.", "and then.", "was here today.", "will be late.")
"""Everyday words after a near miss (none from the wake bench's sentences)."""
REDUCED = {"@", "a#", "I2", "I#", "@L", "@5", "3"}


@functools.lru_cache(maxsize=64)
def phonemes(phrase: str) -> tuple[str, ...]:
    """eSpeak NG's phonemes of ``phrase`` in en-us (its mnemonics, a word a string: ("h'eI", "a#s'Ist@nt"))."""
    from assistant.speak.espeak import phonemes as espeak_phonemes

    return tuple(espeak_phonemes(phrase, "en-us").split())


_TOKEN = re.compile("|".join(re.escape(p) for p in sorted(VOWELS + CONSONANTS, key=len, reverse=True)) + "|.")


def split(word: str) -> list[str]:
    """A word's phonemes, each stress mark kept with the vowel after it ("'eI")."""
    tokens, stress = [], ""
    for token in _TOKEN.findall(word):
        if token in ("'", ","):
            stress = token
        elif token in ("_", ":", "-", "!"):
            continue
        else:
            tokens.append(stress + token if token in VOWELS else token)
            stress = "" if token in VOWELS else stress
    return tokens


def _vowel(token: str) -> str:
    return token.lstrip("',")


def _changes(word: list[str]) -> tuple[list[list[str]], list[list[str]]]:
    """(onset or vowel changed, ending changed): the word's phonemes with one change each."""
    firsts, endings = [], []
    for i, token in enumerate(word):
        vowel = _vowel(token)
        if token.startswith("'") and vowel in VOWEL_FOR:
            firsts += [word[:i] + ["'" + other] + word[i + 1 :] for other in VOWEL_FOR[vowel]]
            if i > 0 and word[i - 1] in CONSONANT_FOR:
                firsts += [word[: i - 1] + ([other] if other else []) + word[i:] for other in CONSONANT_FOR[word[i - 1]]]
    last = max((i for i, t in enumerate(word) if _vowel(t) in VOWELS), default=None)
    if last is not None and sum(_vowel(t) in VOWELS for t in word) > 1:
        endings = [word[:last] + list(ending) for ending in ENDINGS if list(ending) != word[last:]]
    return firsts, endings


def _plain(words: list[list[str]]) -> str:
    return "".join(_vowel(t) if _vowel(t) not in REDUCED else "@" for word in words for t in word)


def sound_misses(phrase: str) -> list[str]:
    """The phrase's near misses as eSpeak NG phoneme input, each alone and going on with everyday words
    (``"[[h'aI a#s'Ist@nt]]"``, ``"[[h'eI a#s'Ist3]] of my friends came."``), in a fixed order."""
    words = [split(w) for w in phonemes(phrase)]
    if not words or not any(words):
        return []
    changed: list[list[list[str]]] = []
    per_word = [_changes(word) for word in words]
    for i, (firsts, endings) in enumerate(per_word):
        for new in firsts + endings:
            changed.append(words[:i] + [new] + words[i + 1 :])
    for i, (firsts, _) in enumerate(per_word):  # an onset or vowel changed and another word's ending
        for j, (_, endings) in enumerate(per_word):
            if i != j:
                for a, first in enumerate(firsts):
                    ending = endings[a % len(endings)] if endings else None
                    if ending is not None:
                        both = list(words)
                        both[i], both[j] = first, ending
                        changed.append(both)
    own, seen, made = _plain(words), set(), []
    for k, version in enumerate(changed):
        plain = _plain(version)
        if plain == own or plain in seen:
            continue
        seen.add(plain)
        text = "[[" + " ".join("".join(word) for word in version) + "]]"
        made.append(text if k % 2 == 0 else f"{text} {GOING_ON[k % len(GOING_ON)]}")
    return made
