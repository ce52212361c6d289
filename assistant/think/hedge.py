"""Saying "I'm not sure" when the model was not: the decision after the reply's first
sentence, and the words of the hedge in the user's language.

The confidence of a reply is that of its first sentence (:mod:`.confidence`), where a
short spoken answer says what it knows. It is known once the word after the sentence's
end has been chosen; by then the first words may already be playing, so the sentence is
finished, never cut, and the hedge follows it; the rest of the reply is not said.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.think.confidence import first_sentence, sentence_confidence
from assistant.think.conversation import GenerationStats

HEDGES = {
    "en": "But I'm not sure of that.",
    "ko": "하지만 확실하지 않아요.",
}
DONT_KNOW = {
    "en": "I don't know that one.",
    "ko": "그건 잘 모르겠어요.",
}
"""Said instead of a reply that only repeats an example answer (:mod:`.copy_guard`)."""
BIGGER_KNOWS = {
    "en": "A bigger model, such as {model}, would know better.",
    "ko": "{model} 같은 더 큰 모델이 더 잘 답할 거예요.",
}


def hedge_words(language: str, bigger_model: str = "") -> str:
    """The hedge, naming a bigger model for this machine when there is one."""
    return _naming(HEDGES, language, bigger_model)


def model_words(reply: str, language: str, bigger_model: str = "") -> str:
    """What the model said of ``reply``: not the hedge said after it, nothing of "I don't know that one"
    said instead of it. Neither is the model's, and a small model that finds them in the conversation
    says them too, after or instead of any answer ("The answer to this question is 25. But I'm not sure
    of that.")."""
    for named in dict.fromkeys((bigger_model, "")):  # the bigger model is named once a conversation
        if reply == dont_know_words(language, named):
            return ""
        hedge = hedge_words(language, named)
        if reply.endswith(hedge):
            return reply[: -len(hedge)].rstrip()
    return reply


def names_bigger(reply: str, language: str, bigger_model: str) -> bool:
    """Whether ``reply`` ends by naming ``bigger_model`` (a hedge's or "I don't know that one"'s last sentence)."""
    return bool(bigger_model) and reply.endswith(_bigger_knows(language, bigger_model))


def dont_know_words(language: str, bigger_model: str = "") -> str:
    """"I don't know that one.", naming a bigger model for this machine when there is one."""
    return _naming(DONT_KNOW, language, bigger_model)


def _naming(words: dict[str, str], language: str, bigger_model: str) -> str:
    language = language if language in words else "en"
    return f"{words[language]} {_bigger_knows(language, bigger_model)}" if bigger_model else words[language]


def _bigger_knows(language: str, bigger_model: str) -> str:
    """"A bigger model, such as Qwen 2.5 0.5B, would know better." in ``language`` (English where it has none)."""
    return BIGGER_KNOWS[language if language in BIGGER_KNOWS else "en"].format(model=spoken_model_name(bigger_model))


def spoken_model_name(name: str) -> str:
    """"Qwen2.5-3B-Instruct Q4_K_M" as it is said: "Qwen 2.5 3B"."""
    words = name.split()[0].replace("-Instruct", "").replace("-", " ")
    return re.sub(r"([A-Za-z])(\d)", r"\1 \2", words, count=1)


_ADVICE = re.compile(r"\b(?:could|might|may|should)\b|^\W*try\b", re.IGNORECASE)


def is_advice(sentence: str) -> bool:
    """Whether a first sentence suggests rather than states ("You could have a bowl of oatmeal.", "A scarf could
    be a nice gift.", "Try to sleep eight hours."): a modal of possibility or advice, or "try". There is no fact in
    it to be unsure of, and the model's odds of one suggestion among many are low by nature: hedged, advice was
    followed by "But I'm not sure of that." more often than not."""
    return bool(_ADVICE.search(sentence))


_UNSURE = re.compile(r"\b(?:not sure|not certain|unsure|(?:don't|do not) know|no idea|(?:can't|cannot) (?:say|tell))\b"
                     r"|모르|확실하지", re.IGNORECASE)
_SOCIAL = re.compile(r"^\W*(?:hello|hi|hey|good (?:morning|afternoon|evening|night)|you're welcome|thank you|thanks"
                     r"|nice to meet you|goodbye|bye)\b|^\W*(?:안녕|감사|고마워|고맙|천만에)", re.IGNORECASE)


def claims_nothing(sentence: str) -> bool:
    """Whether a first sentence has no fact to hedge: advice (:func:`is_advice`), a sentence that says it is unsure
    itself ("I can tell you a lot of things, but I'm not sure what you're asking." was followed by "But I'm not sure
    of that."), or a greeting or thanks ("Hello, I'm here to help with any questions you have.")."""
    return is_advice(sentence) or bool(_UNSURE.search(sentence) or _SOCIAL.search(sentence))


@dataclass(frozen=True)
class Verdict:
    confidence: float | None
    unsure: bool

    @property
    def reason(self) -> str:
        return f"unsure: {self.confidence:.2f}" if self.unsure and self.confidence is not None else ""


class Hedging:
    """Judges one reply: :meth:`judge` returns a verdict once the first sentence is known
    (None before, and after the one verdict)."""

    def __init__(self, threshold: float | None, stats: GenerationStats, question: str = ""):
        self.threshold = threshold
        self.question = question
        self.stats = stats
        """Where the backend puts the odds of the tokens it chose (once it starts generating)."""
        self.verdict: Verdict | None = None
        self._looked = 0
        """Tokens there were at the last look (no new token, nothing new to judge)."""

    @property
    def odds(self):
        return self.stats.odds

    def judge(self, finished: bool = False) -> Verdict | None:
        if self.verdict is not None or self.odds is None or self.stats.replaced:
            return None  # (words of the reply guard's own are not the model's to hedge)
        if len(self.odds.tokens) == self._looked and not finished:
            return None
        self._looked = len(self.odds.tokens)
        words, ended = first_sentence(self.odds.words())
        if not (ended or finished) or not words:
            return None
        confidence = sentence_confidence(words, self.question)
        unsure = (bool(self.threshold) and confidence is not None and confidence < self.threshold
                  and not claims_nothing(" ".join(w.text.strip() for w in words)))
        self.verdict = Verdict(confidence, unsure)
        return self.verdict

