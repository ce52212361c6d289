"""What is answered without the model: a skill's or the instant-reply table's, also after an opening
("Hello, what time is it?"), in a frame ("Could you tell me what time it is?") or as a follow-up to the
request a skill answered last ("What time is it in Tokyo?" ... "And in London?")."""

from __future__ import annotations

import re

from assistant.hear.bargein import words
from assistant.hear.wake import plain_letters
from assistant.think.about_itself import plain_question
from assistant.think.replies import InstantReply, Replies
from assistant.think.requests import MOVED, QUESTION_WORDS, follow_ups, plain_forms
from assistant.think.skills import SkillReply, Skills
from assistant.writing import plain_words

_CLAUSE_END = re.compile(r"[,.!?;]\s+(?=\S)")
ANOTHER = re.compile(r"^(?:(?:tell me|give me|say|and|okay|ok) )?(?:another(?: one)?|one more|one more time please|more)"
                     r"(?: please)?$|^(?:하나 더|또 해 줘|또 알려 줘|하나 더 해 줘|하나 더 알려 줘|또 하나|다른 거)$")
"""After a joke or a fun fact, "another one" asks for the next ("하나 더")."""

ASKS = QUESTION_WORDS | MOVED | {"am"}
"""The words a question begins with: words before a request with no comma after them that begin so are no opening."""
OPENING_WORDS = 4
"""The most words an opening with no comma after it may have ("thank you very much")."""
OPENINGS = 4
"""The most openings set aside before a request ("Okay, thanks, hey assistant, what time is it?")."""

NAME = "assistant"
"""What people call this product when they speak to it ("Assistant, what time is it?")."""


def names_for(wake_phrase: str) -> frozenset[str]:
    """What a user may address the assistant by before a request: its name, and the wake phrase
    (without its first word too: "hey assistant", "assistant"), as :func:`plain_letters` writes them."""
    said = [NAME, f"hey {NAME}"]
    words = wake_phrase.split(maxsplit=1)
    said += [wake_phrase, *words[1:]]
    return frozenset(filter(None, map(plain_letters, said)))


def first_clause(text: str) -> tuple[str, str] | None:
    """``text`` cut after its first clause, as the recognizer punctuated it ("Hello," and
    "what time is it?"); None when it has one clause only."""
    end = _CLAUSE_END.search(text)
    return (text[: end.start()], text[end.end() :]) if end else None


def ends_at_once(hit: InstantReply | SkillReply | None) -> bool:
    """Words ``hit`` answers are a whole request: the turn may end on them without the model (after a
    comma's pause, ``turn.phrase_ms``). A skill that asks for what the request lacked ("Set a timer." ->
    "For how long?") leaves the end of the turn to the model: the length may be on its way."""
    return hit is not None and not (isinstance(hit, SkillReply) and hit.asks)


def opens_a_turn(hit: InstantReply | SkillReply | None, replying: bool) -> bool:
    """The words ``hit`` answers may open a longer turn, so the end of turn waits ``turn.phrase_ms``
    for more: a greeting, thanks, yes or no of the table, or "stop", "wait", "never mind" with no
    reply to stop (``replying``): what follows a comma's pause is the request."""
    if hit is None:
        return False
    return isinstance(hit, InstantReply) and hit.social or (hit.action == "stop" and not replying)


class AtOnce:
    """Finds the answer without the model, and remembers the request a skill took in each turn (the one
    a follow-up of the next turn goes on from)."""

    def __init__(self, skills: Skills | None, replies: Replies | None, wake_phrase: str = ""):
        self.skills = skills
        self.replies = replies
        self._names = names_for(wake_phrase)
        self._turn: int | None = None
        self._this_turn = ""
        """What a skill took in the turn being answered ('' where it was not a skill's)."""
        self._before = ""
        """What a skill took in the turn before it: a follow-up's request."""

    def find(self, text: str, turn: int | None = None) -> InstantReply | SkillReply | None:
        """The skill or the instant reply that answers ``text`` without the model, or None. What follows
        an opening that is itself an instant-reply phrase ("Okay, thanks, set a timer...") or the
        assistant's name (:func:`names_for`) is answered as if said alone. ``turn``: the words are that
        turn's (they may follow up the turn before; None: only asking)."""
        if turn is not None and turn != self._turn:
            self._before, self._this_turn, self._turn = self._this_turn, "", turn
        hit, took = None, text
        if self._before and self.skills and turn is not None and ANOTHER.match(plain_words(text.lower())):
            again = self.skills.match(self._before)  # after a joke, "another one" is the next joke
            if again is not None and again.next_one:
                hit, took = again, self._before
        if hit is None:
            hit = self._after_openings(text, OPENINGS)
        if hit is None and self._before and self.skills and turn is not None:
            for form in follow_ups(text, self._before):  # "and in London?" after "what time is it in Tokyo?"
                found = self.skills.match(form)
                if found is not None and found.effect is None:  # a follow-up asks: it never sets or cancels anything
                    hit, took = found, form                    # ("Add 30 seconds." read "and 30 seconds.")
                    break
        if turn is not None:
            self._this_turn = took if isinstance(hit, SkillReply) else ""
        return hit

    def is_stop(self, text: str) -> bool:
        """``text`` is the instant "stop" phrase ("stop", "wait", "hold on", …), also in a frame ("could you
        please stop")."""
        if self.replies is None:
            return words(text) == ["stop"]
        hits = (self.replies.lookup(said) for said in [text, *plain_forms(text)])
        return any(hit is not None and hit.action == "stop" for hit in hits)

    def _after_openings(self, text: str, openings: int) -> InstantReply | SkillReply | None:
        hit = self._without_model(text)
        if hit is not None or openings == 0:
            return hit
        split = first_clause(text)
        for opening, rest in [split] if split else self._opening_words(text):
            if not split and opening.split()[0].strip(",.!?").casefold() in ASKS:
                continue  # a question opens no request without a pause: "Are you really sure?" is no "are you real" + "sure"
            if self._is_opening(opening, whole=not split):
                if (hit := self._after_openings(rest, openings - 1)) is not None:
                    return hit
        return None

    def _is_opening(self, words: str, whole: bool) -> bool:
        """``words`` are the assistant's name or an instant-reply phrase (a greeting, thanks, stop);
        ``whole``: all of the phrase (with no comma after them, the first words of a question may be
        most of one: "what do you" of "what do you do", in "What do you call a baby cow?")."""
        return plain_letters(words) in self._names or (
            self.replies is not None and self.replies.lookup(words, whole) is not None)

    @staticmethod
    def _opening_words(text: str) -> list[tuple[str, str]]:
        """Where the recognizer left out the comma ("Never mind what is seven times eight"): the
        first one to :data:`OPENING_WORDS` words, each with what follows them."""
        words = text.split()
        return [(" ".join(words[:n]), " ".join(words[n:])) for n in range(1, min(OPENING_WORDS, len(words) - 1) + 1)]

    def _without_model(self, text: str) -> InstantReply | SkillReply | None:
        forms = [text, *plain_forms(text)]  # then a request in a frame: "could you tell me what time it is"
        for said in forms:
            if (hit := self._answer(said)) is not None:
                return hit
        plain = next(filter(None, map(plain_question, forms)), None)  # then what it can do, however asked
        return self._answer(plain) if plain is not None else None

    def _answer(self, said: str) -> InstantReply | SkillReply | None:
        hit = self.skills.match(said) if self.skills else None
        return self.replies.lookup(said) if hit is None and self.replies else hit
