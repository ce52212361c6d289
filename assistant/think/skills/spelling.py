"""How a word is spelled, letter by letter: "how do you spell necessary", "spell rhythm",
"how is Wednesday spelled", "what is the spelling of receive"; a word's letters counted or picked ("how many
letters are in banana", "what's the third letter of apple": a language model reads tokens, not letters).

A small language model cannot spell (SmolLM2-135M answered "How do you spell necessary?" with
"A necessary is a verb."); the letters are in the recognizer's own writing of the word, so the
answer is exact for the word heard, and says which word it spells, so a misheard one is plain
to the user. The letters are said one by one with commas between them ("N, E, C, ..."), which
the voices read as letter names.

Guard: the whole utterance must be one of these forms, around one to three words of letters
only; a function word ("how do you spell the", cut off at a thinking pause; "spell it") is no
word to spell, and numbers are not spelled. English only: Korean is written as it sounds.
"""

from __future__ import annotations

import re

from assistant.writing import has_hangul
from assistant.think.skills import SkillContext, SkillReply, SkillSetup
from assistant.think.skills.text import normalize

NAME = "spelling"

_WORDS = r"(?P<word>[a-z']+(?: [a-z']+){0,2})"
_FORMS = (
    re.compile(rf"^(?:(?:can|could|would) you )?(?:tell me )?how (?:do|would|should) (?:you|i|we|one) spell "
               rf"(?:the word )?{_WORDS}$"),
    re.compile(rf"^(?:(?:can|could|would) you )?(?:tell me )?how to spell (?:the word )?{_WORDS}$"),
    re.compile(r"^(?:(?:can|could|would) you )?spell (?:the word |out )?(?P<word>[a-z']+(?: [a-z']+)?)(?: for me)?$"),
    re.compile(rf"^how is (?:the word )?{_WORDS} (?:spelled|spelt|written)$"),
    re.compile(rf"^what is the spelling of (?:the word )?{_WORDS}$"),
)
_ONE_WORD = r"(?:the word )?(?P<word>[a-z']+)"
_COUNTS = (  # a word's letters counted or picked: a language model reads tokens, not letters ("banana has 10 letters")
    ("count", re.compile(rf"^how many (?P<what>letters|vowels|consonants) (?:are |are there |is there )?(?:in )?"
                         rf"{_ONE_WORD}$")),
    ("count", re.compile(rf"^how many (?P<what>letters|vowels|consonants) (?:does|do) {_ONE_WORD} (?:have|contain|has)$")),
    ("count", re.compile(rf"^count (?:the |all the )?(?P<what>letters|vowels|consonants) (?:in|of) {_ONE_WORD}$")),
    ("pick", re.compile(rf"^what is the (?P<which>first|second|third|last|\d{{1,2}}(?:st|nd|rd|th)) letter (?:of|in) "
                        rf"{_ONE_WORD}$")),
    ("pick", re.compile(rf"^(?:what|which) letter does {_ONE_WORD} (?P<which>start|begin|end) with$")),
)
_ALPHABET = re.compile(r"^(?:(?:can|could) you )?(?:say|recite|sing|tell me|spell|read|go through) (?:me )?"
                       r"(?:the (?:english )?alphabet|the abcs|your abcs|the abc|abc)$")
"""The letters in order (the model said "The alphabet is a set of 26 letters."; "sing" is said, not sung)."""
_VOWELS = frozenset("aeiou")
_PLACES = {"first": 1, "second": 2, "third": 3, "start": 1, "begin": 1}
_NOT_A_WORD = frozenset(
    "a an the and or but nor of to in on for with at by from it this that these those them me you "
    "um uh er erm hmm my your his her their our its is are was were be".split())
"""Words that are no word asked for, nor part of one: articles, conjunctions, prepositions,
pronouns, fillers (the words before a thinking pause: "how do you spell the ..."), and the verb
of a sentence ("spell checker is broken")."""


class Spelling:
    name = NAME

    def match(self, text: str, context: SkillContext) -> SkillReply | None:  # noqa: ARG002 - the skills' signature
        if has_hangul(text):
            return None
        said = normalize(text)
        if _ALPHABET.match(said):
            return SkillReply(NAME, ", ".join("ABCDEFGHIJKLMNOPQRSTUVWXYZ") + ".")
        counted = next(((kind, m) for kind, f in _COUNTS if (m := f.match(said))), None)
        if counted is not None:
            return _letters(*counted, text)
        form = next((m for f in _FORMS if (m := f.match(said))), None)
        if form is None:
            return None
        written = _as_written(text, form["word"])
        words = [re.sub(r"[^\w]", "", word) for word in written.split()]
        if not all(words) or any(word.casefold() in _NOT_A_WORD for word in words):
            return None
        letters = ". ".join(", ".join(word.upper()) for word in words)
        return SkillReply(NAME, f"{written[:1].upper()}{written[1:]} is spelled {letters}.")


def _letters(kind: str, found: re.Match, text: str) -> SkillReply | None:
    """A word's letters counted ("Banana has 6 letters."), or one of them picked ("The third letter of apple is P.")."""
    written = _as_written(text, found["word"])
    letters = [c for c in written.casefold() if c.isalpha()]
    if not letters or found["word"] in _NOT_A_WORD:
        return None
    name = f"{written[:1].upper()}{written[1:]}"
    if kind == "count":
        what = found["what"]
        chosen = letters if what == "letters" else [c for c in letters if (c in _VOWELS) == (what == "vowels")]
        if not chosen:
            return SkillReply(NAME, f"{name} has no {what}.")
        listed = "" if what == "letters" else f": {', '.join(c.upper() for c in chosen)}"
        return SkillReply(NAME, f"{name} has {len(chosen)} {what if len(chosen) > 1 else what[:-1]}{listed}.")
    which = found["which"]
    place = len(letters) if which in ("last", "end") else _PLACES.get(which) or int(re.sub(r"\D", "", which))
    if not 1 <= place <= len(letters):
        return SkillReply(NAME, f"{name} has only {len(letters)} letters.")
    if which in ("start", "begin", "end"):
        return SkillReply(NAME, f"{name} {which}s with {letters[place - 1].upper()}.")
    return SkillReply(NAME, f"The {which} letter of {written} is {letters[place - 1].upper()}.")


def _as_written(text: str, words: str) -> str:
    """The words as the recognizer wrote them ("O'Brien": a name keeps its capital and its
    apostrophe), else as matched."""
    pattern = r"(?:\s+|')".join("'?".join(re.escape(c) for c in word if c != "'") for word in words.split())
    found = re.search(rf"\b{pattern}\b", text, re.IGNORECASE)
    return found[0] if found else words


def create(setup: SkillSetup) -> Spelling:  # noqa: ARG001 - every skill gets the setup
    return Spelling()
