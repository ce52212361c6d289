"""Korean request forms, matched on what a recognizer really writes.

A form is a line of elements, e.g. ``"{a} op=더하기:+|빼기:- {b} [은|는] [얼마 @IS]"``:

- ``word|other`` one of these words; ``name=word:value|other:value`` the same, and the
  value of the one said is kept under ``name`` (the word itself when it has no value);
- ``{name:reader}`` a slot: what stands there is read by the reader (a number, a clock
  time, a timer's name) and kept under ``name``; ``{name}`` is read by the reader of
  that name;
- ``[...]`` an element (or several) that may be left out; ``@NAME`` a shared list of
  words (:data:`WORDS`); ``_`` in a word is a space, for the eye only.

Spaces and punctuation do not count (recognizers space Korean as they like). Words are
compared letter by letter (:mod:`assistant.think.hangul`): each may be off by a letter in
four ("타이머" heard "타임어", "더하기" heard "도하기"), and all of them together by a
letter in :data:`MAX_ERROR`; what a slot reads (a number) must be exact. A form must
cover the whole utterance, so "몇 시에 문을 닫아요" is no "몇 시예요".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable

from assistant.think import hangul

MAX_ERROR = 0.2
"""Share of a form's letters (its words, not its slots) that may be misheard."""
WORDS: dict[str, tuple[str, ...]] = {
    "IS": ("이에요", "예요", "에요", "이야", "야", "입니까", "인가요", "인가", "이죠", "죠", "이지", "지", "이니",
           "니", "일까요", "요"),
    "WAS": ("이었어요", "였어요", "이었어", "였어", "이었지", "였지", "이었나요", "였나요"),
    "TELL": ("알려_줘", "알려_주세요", "알려_줄래", "알려_줄래요", "말해_줘", "말해_주세요", "좀_알려_줘",
             "좀_알려_주세요", "가르쳐_줘", "가르쳐_주세요"),
    "TOPIC": ("은", "는", "이", "가"),
}

Reader = Callable[[str], Any]
"""A slot's reader: the text of the slot (spaces dropped) → its value, or None."""


@dataclass(frozen=True)
class Word:
    text: str
    letters: str
    syllables: int
    value: Any


@dataclass(frozen=True)
class Element:
    words: tuple[Word, ...] = ()
    slot: str = ""
    reader: str = ""
    name: str = ""
    optional: bool = False


@dataclass(frozen=True)
class Found:
    """A form said: its values, and how many of its letters were misheard."""

    values: dict[str, Any]
    errors: int
    letters: int
    """Letters of its words (slots not counted)."""


@dataclass
class Form:
    """One way of saying a request (see the module's doc for the notation)."""

    spec: str
    readers: dict[str, Reader]
    elements: list[Element] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.elements = _parse(self.spec)
        for element in self.elements:
            if element.slot and element.reader not in self.readers:
                raise ValueError(f"form {self.spec!r}: no reader for slot {{{element.slot}}}")

    def match(self, text: str) -> Found | None:
        """The form's values when ``text`` is this form, else None."""
        said = hangul.squeeze(text)
        letters = [hangul.syllable_jamo(c) for c in said]
        spans: dict[tuple[int, int], str] = {}

        def span(i: int, j: int) -> str:
            if (i, j) not in spans:
                spans[(i, j)] = "".join(letters[i:j])
            return spans[(i, j)]

        @lru_cache(maxsize=None)
        def best(k: int, i: int) -> tuple[int, int, tuple] | None:
            """(errors, letters, values) of the cheapest way elements[k:] cover said[i:]."""
            if k == len(self.elements):
                return (0, 0, ()) if i == len(said) else None
            element, options = self.elements[k], []
            if element.optional:
                options.append(best(k + 1, i))
            if element.slot:
                read = self.readers[element.reader]
                for j in range(i + 1, min(len(said), i + 12) + 1):
                    value = read(said[i:j])
                    rest = best(k + 1, j) if value is not None else None
                    if rest is not None:
                        options.append((rest[0], rest[1], ((element.slot, value),) + rest[2]))
            for word in element.words:
                for j in range(i + max(1, word.syllables - 1), min(len(said), i + word.syllables + 1) + 1):
                    errors = hangul.distance(span(i, j), word.letters)
                    if errors > len(word.letters) // 4:
                        continue
                    rest = best(k + 1, j)
                    if rest is not None:
                        kept = ((element.name, word.value),) if element.name else ()
                        options.append((rest[0] + errors, rest[1] + len(word.letters), kept + rest[2]))
            options = [o for o in options if o is not None]
            return min(options, key=lambda o: (o[0], -o[1])) if options else None

        found = best(0, 0)
        if found is None or found[0] > MAX_ERROR * found[1]:
            return None
        return Found(dict(found[2]), found[0], found[1])


def _parse(spec: str) -> list[Element]:
    elements: list[Element] = []
    optional = 0
    for token in spec.split():
        opens, closes = len(token) - len(token.lstrip("[")), len(token) - len(token.rstrip("]"))
        body = token.strip("[]")
        optional += opens
        elements.append(_element(body, optional > 0))
        optional -= closes
    if optional:
        raise ValueError(f"form {spec!r}: unbalanced [ ]")
    return elements


def _element(body: str, optional: bool) -> Element:
    if body.startswith("{") and body.endswith("}"):
        slot, _, reader = body[1:-1].partition(":")
        return Element(slot=slot, reader=reader or slot, optional=optional)
    name, _, choices = body.rpartition("=")
    words = []
    for choice in choices.split("|"):
        if choice.startswith("@"):
            words += [_word(w, w) for w in WORDS[choice[1:]]]
            continue
        text, _, value = choice.partition(":")
        words.append(_word(text, value or text))
    return Element(words=tuple(words), name=name, optional=optional)


def _word(text: str, value: Any) -> Word:
    text = text.replace("_", "")
    value = value.replace("_", " ") if isinstance(value, str) else value
    return Word(text, hangul.jamo(text), len(hangul.squeeze(text)), value)


def first(forms: list[tuple[str, Form]], text: str) -> tuple[str, Found] | None:
    """The (kind, found) of the form that fits ``text`` best (fewest misheard letters per
    letter; the earlier form on a tie), or None."""
    found = [(kind, f) for kind, form in forms if (f := form.match(text)) is not None]
    if not found:
        return None
    return min(found, key=lambda kf: kf[1].errors / max(1, kf[1].letters))
