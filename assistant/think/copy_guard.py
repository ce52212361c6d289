"""A small model saying its prompt's example answer to a question it cannot answer, or the
question itself back.

A 135M model shown a few example exchanges (``data/few_shot.toml``) answers the way it was
just shown, and where it has nothing to say it says what it was shown: "who won the match?"
-> "Hamlet, William Shakespeare.", "what color is snow?" -> "You could read a good book, call
a friend.". Said as surely as a fact, such a reply is worse than none.

:class:`ExampleCopy` watches the first sentence's words as they come. A content word
(:func:`~assistant.think.confidence.is_content`) that repeats the question says nothing
either way; one that is in no example's words rules the examples out, one that is in an
example's words is *taken* from it. The reply is a copy once :data:`TAKEN` content words
have come from one example and none from anywhere else; it is not once no example is left
or the sentence ends first. The question's own words never count, and an example that asks
about the same thing (a content word in common with the question) is no example to copy:
"Who wrote Macbeth?" may well be answered "William Shakespeare wrote Macbeth.", and "Which
planet is nearest the sun?" "Mercury is the closest planet to the Sun.". Until it is known
the words are held, :data:`HELD_WORDS` at most, and only while the first spoken chunk would
wait for them anyway unless a word was taken (:data:`UNTAKEN_CHARS`).

Where it has nothing to say to a statement or a request it says it back, word for word ("I'm
feeling sad today." -> "I'm feeling sad today.", "Mute." -> "Mute.", "Where am I?" -> "Where am
I?"): a first sentence that is the question's words, all of them and in order, is a copy too. The
words are held while they are the question's from its start, which an answer's seldom are ("The
capital of France is..." to "What is the capital of France?").
"""

from __future__ import annotations

import re

from assistant.think.confidence import echoes, is_content

TAKEN = 2
"""Content words taken from one example, and none from elsewhere, that make a copy."""
HELD_WORDS = 6
"""Words held at most: a sentence copied shows it sooner ("Hamlet, William", "A bicycle has
two"), and every word held delays the first sound by a token or two."""
UNTAKEN_CHARS = 16
"""A reply this long, or with a comma, and no word taken from an example yet is not held
longer: the first spoken chunk waits for as much (``chunker.first_max_chars``, a clause's
end), so the check costs the usual reply nothing audible."""

_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?")
_CLAUSE = re.compile(r"[,;:]\s")


def _words(text: str) -> list[str]:
    return [w.casefold() for w in _WORD.findall(text)]


class ExampleCopy:
    """Feed :meth:`see` the first sentence as it grows; ``verdict`` is None until known,
    then True (a copy) or False."""

    def __init__(self, examples: list[tuple[str, str]], question: str):
        self._question = _words(question)
        self._asked = set(self._question)
        self._examples = [set(_words(f"{user} {reply}")) for user, reply in examples if not self._alike(user)]
        self.verdict: bool | None = None if self._examples else False

    def _alike(self, example_question: str) -> bool:
        """Whether the example asks about the same thing (a content word in common: "Who
        wrote Macbeth?" and "Who wrote Hamlet?"), so that its answer's words may be this
        one's too ("William Shakespeare")."""
        return any(is_content(w) and self._echoed(w) for w in _words(example_question))

    def _echoed(self, word: str) -> bool:
        return any(echoes(word, a) for a in self._asked)

    def see(self, text: str, complete: bool = False) -> bool | None:
        """Judge the words of ``text`` (the last one only when ``complete``: it may go on)."""
        if self.verdict is not None:
            return self.verdict
        words = _words(text)
        if not complete and words and re.search(r"[^\W_]$", text):
            words = words[:-1]
        if words and words == self._question[: len(words)]:  # so far, the question said back
            if not complete:
                return None
            if len(words) == len(self._question):  # all of it: "I'm feeling sad today." to "I'm feeling sad today."
                self.verdict = True
                return True
        alive = set(range(len(self._examples)))
        taken = dict.fromkeys(alive, 0)
        for word in words:
            if not is_content(word) or self._echoed(word):
                continue
            for i in list(alive):
                if word in self._examples[i]:
                    taken[i] += 1
                else:
                    alive.discard(i)
            if not alive:
                self.verdict = False
                return False
            if any(taken[i] >= TAKEN for i in alive):
                self.verdict = True
                return True
        chunk_ready = len(text) >= UNTAKEN_CHARS or _CLAUSE.search(text)
        if complete or len(words) >= HELD_WORDS or (chunk_ready and not any(taken.values())):
            self.verdict = False
        return self.verdict
