"""A request said politely, or as a question inside a question, in its plain form.

"Can you make it louder?", "Could you tell me what time it is?", "Do you know what day it is?" and
"Turn it up a bit." are the plain "make it louder", "what time is it", "what day is it" and "turn it
up" in a frame: a modal before "you", a question asked inside "do you know" or "tell me" in the word
order of a statement, a softener after it. The skills and the instant-reply table list the plain
forms, each its own way; :func:`plain_forms` gives the forms a frame leaves, for the responder to try
after the words as they were said. They are for matching only: the model always reads what was said.

In English, closed classes of words only (modals, the verbs of asking, "be" and the auxiliaries,
softeners, a degree word after the subject, a time after the words: "I'm really sad today" is "I'm sad"), never a
sentence's content words: a frame stripped leaves words that must still be one of
a skill's or the table's requests, whole, as before. In Korean, the endings that make a request polite or
a question indirect: "몇 시인지 알려 줄래요?" is "몇 시야?", "조용히 해 줄래?" is "조용히 해 줘", "조금 더 크게" is "더
크게".
"""

from __future__ import annotations

import re

from text_to_num import alpha2digit

from assistant.think.hangul import final_consonant
from assistant.writing import has_hangul, plain_words

OPENERS = ("can you", "could you", "would you", "will you", "can't you", "would you please", "can we", "could we",
           "i want you to", "i would like you to", "i'd like you to", "i need you to", "go ahead and", "just")
"""Said before a request and changing nothing in it ("could you set a timer..."), longest first where one
begins another."""
ASKING = ("do you know", "do you happen to know", "can you tell me", "could you tell me", "would you tell me",
          "will you tell me", "tell me", "i want to know", "i would like to know", "i'd like to know",
          "i wonder", "i was wondering", "any idea")
"""Verbs of asking before a question put as a statement ("do you know what time it is")."""
QUESTION_WORDS = frozenset({"what", "which", "who", "whose", "where", "when", "how", "why"})
MOVED = frozenset({"is", "are", "was", "were", "will", "would", "can", "could", "should", "does", "do", "did", "has",
                   "have"})
"""The verbs a direct question puts before its subject ("what time it is" -> "what time is it")."""
SOFTENERS = ("a little bit", "a little", "a bit", "a tad", "slightly", "for me", "for a moment", "for a second",
             "for a minute", "for a bit")
"""Said after a request (or a comparative: "a bit quieter") and changing nothing in it."""
NOW_SAID = ("today", "right now", "tonight", "lately", "at the moment", "these days", "this morning", "this evening")
"""Said after how one is or how something was ("I'm feeling sad today", "How are you today?") and changing nothing
in it: the plain form is the words before it."""
SAYING = ("i am feeling", "i'm feeling", "i am", "i'm", "i feel", "you are not", "you're not", "you are", "you're",
          "that is not", "that's not", "that is", "that's", "that was", "this is", "it is", "it's")
DEGREE = ("so", "really", "very", "quite", "pretty", "super", "kind of", "a bit", "a little", "extremely", "totally")
"""How much, said between a subject and what it is ("I'm really sad", "You're not very smart"): the plain form is
without it."""
KOREAN_TELL = re.compile(r"(?P<what>\S+?)(?:이)?인지 (?:좀 )?(?:알려|말해) ?(?:줘|주세요|줄래요?|주실래요|주시겠어요|줄 수 있어요|"
                         r"주실 수 있어요|줄 수 있나요)$")
"""An indirect question ("지금 몇 시인지 알려 줄래요"): the question put plainly ("지금 몇 시야")."""
KOREAN_ASK = re.compile(r"[가-힣] (?:줄래요?|주실래요|주시겠어요|줄 수 있어요|주실 수 있어요|줄 수 있나요)$")
"""A request asked as a question ("조용히 해 줄래?"): asked plainly ("조용히 해 줘")."""
KOREAN_SOFTENERS = ("조금 ", "좀 ", "약간 ", "하나 ")
KOREAN_OPENERS = ("저기요", "저기", "혹시", "비서야", "비서님", "음", "어", "아")
"""Said before a request and changing nothing in it ("저기요, 화장실 어디예요?", "혹시 오 분 타이머 맞춰 줄래요?", "비서야, 지금
몇 시야?": excuse me, by any chance, the assistant called by what it is; not "그럼", then: "그럼 안녕" is goodbye)."""
MOST_WORDS = 16
"""Longer utterances are the model's whatever their frame."""


def _words(text: str) -> list[str]:
    text = text.casefold().replace("\u2019", "'").replace("%", " percent")
    return re.sub(r"[^\w\s']", " ", re.sub(r"\bplease\b", " ", text)).split()


def _without(words: list[str], phrases: tuple[str, ...], at_start: bool) -> list[str] | None:
    """``words`` without one of ``phrases`` at their start (or end), or None."""
    for phrase in phrases:
        said = phrase.split()
        if len(words) > len(said) and (words[: len(said)] if at_start else words[-len(said):]) == said:
            return words[len(said):] if at_start else words[: -len(said)]
    return None


def _without_degree(words: list[str]) -> list[str] | None:
    """``words`` without the degree word after their subject ("i am really sad" -> "i am sad"), or None."""
    for subject in SAYING:
        said = subject.split()
        if words[: len(said)] == said and (rest := _without(words[len(said):], DEGREE, at_start=True)) is not None:
            return said + rest
    return None


def _direct(clause: list[str]) -> list[list[str]]:
    """A question put as a statement, as questions ("what time it is" -> "what time is it"; "if it will
    rain" -> "will it rain"): its verb moved before each place the subject may start."""
    if clause[0] in ("if", "whether"):
        return [[clause[j]] + clause[1:j] + clause[j + 1:] for j in range(2, len(clause)) if clause[j] in MOVED][:1]
    return [clause[:k] + [clause[j]] + clause[k:j] + clause[j + 1:]
            for j in range(2, len(clause)) if clause[j] in MOVED for k in range(1, j)]


def plain_forms(text: str) -> list[str]:
    """The plain requests ``text`` may be in a frame, most likely first; [] where it has no frame."""
    if has_hangul(text):
        return _korean_forms(text)
    words = _words(text)
    if not words or len(words) > MOST_WORDS:
        return []
    forms: list[list[str]] = []
    while (rest := _without(words, OPENERS, at_start=True)) is not None:
        words = rest
        forms.append(words)
    asked = _without(words, ASKING, at_start=True)
    if asked is not None and (asked[0] in QUESTION_WORDS or asked[0] in ("if", "whether")):
        forms += [asked] + _direct(asked)
    for form in list(forms) + [words]:
        if (said := _without(form, NOW_SAID, at_start=False)) is not None:
            forms.append(said)
    for form in list(forms) + [words]:
        if (plainer := _without_degree(form)) is not None:
            forms.append(plainer)
    for form in list(forms) + [words]:
        if (rest := _without(form, ("i am feeling", "i'm feeling"), at_start=True)) is not None:
            forms += [["i", "feel", *rest], ["i", "am", *rest]]  # "I'm feeling tired" is "I feel tired", "I am tired"
    for form in list(forms) + [words]:
        softened = form
        while (rest := _without(softened, SOFTENERS, at_start=False)) is not None:
            softened = rest
        while (rest := _without(softened, SOFTENERS, at_start=True)) is not None:
            softened = rest
        if softened != form:
            forms.append(softened)
    plain = " ".join(_words(text))
    return [said for said in dict.fromkeys(" ".join(form) for form in forms) if said and said != plain]


def _korean_forms(text: str) -> list[str]:
    said = plain_words(text)
    for opener in KOREAN_OPENERS:
        if said.startswith(f"{opener} ") and len(said) > len(opener) + 1:
            rest = said[len(opener) + 1:]
            return [rest, *_korean_forms(rest)]
    forms = []
    if (told := KOREAN_TELL.search(said)) is not None:
        what = told["what"]
        forms.append(said[: told.start()] + what + ("이야" if final_consonant(what) else "야"))
    if (asked := KOREAN_ASK.search(said)) is not None:
        forms.append(said[: asked.start() + 1] + " 줘")
    for softener in KOREAN_SOFTENERS:
        if said.startswith(softener) and len(said) > len(softener):
            forms.append(said[len(softener):])
        elif f" {softener}" in said:  # before the verb: "소리 조금 키워 줘", "동화 하나 들려 줘"
            forms.append(said.replace(f" {softener}", " ", 1))
    return list(dict.fromkeys(form for form in forms if form != said))


FOLLOW_UP = re.compile(r"^(?:and|what about|how about|and what about|and how about|ok and|okay and|then|and then)"
                       r" (?P<rest>.+)$")
"""A request that goes on from the last one, naming only what changes: "and in London", "what about
Halloween", "how about 20 percent"."""
KOREAN_FOLLOW_UP = re.compile(r"^(?:그럼 |그러면 |그리고 )?(?P<rest>\S+?)(?:은|는|도)(?:요)?$")
"""The same in Korean: what changes and a topic particle ("런던은?", "그럼 할로윈은요?")."""
KOREAN_PARTICLES = ("에서는", "까지", "에서", "은", "는", "이", "가", "을", "를", "의", "에", "도")
MOST_CHANGED = 4


def follow_ups(text: str, before: str) -> list[str]:
    """``before`` (the request answered last) with the part ``text`` names in place of its own, most
    likely first ("and in London" after "what time is it in Tokyo": "what time is it in london"); []
    where ``text`` is no follow-up. Only for matching: a skill must take one whole, as it is."""
    if has_hangul(text):
        return _korean_follow_ups(text, before) if has_hangul(before) else []
    asked = FOLLOW_UP.match(" ".join(_words(text)))
    said = _words(before)
    if asked is None or not said or has_hangul(before):
        return []
    new = asked["rest"].split()
    if len(new) > MOST_CHANGED:
        return []
    ranked: list[tuple[tuple[int, int], list[str]]] = []
    for i in range(len(said)):
        for j in range(i + 1, min(len(said), i + MOST_CHANGED) + 1):
            if i == 0 and j == len(said):
                continue                                  # nothing of the request left: not a follow-up
            if len(new) == 1 and j == i + 1 and _number(new[0]) and _number(said[i]):
                rank = 0 if not any(map(_number, said[j:])) else 1  # "and 50" after "convert 100 fahrenheit...": its last number
            elif said[i] == new[0]:
                rank = 0 if j - i == len(new) else 1      # "in tokyo" -> "in london"
            elif said[j - 1] == new[-1]:
                rank = 2                                  # "15 percent" -> "20 percent"
            elif j == len(said):
                rank = 3                                  # the request's end: "christmas" -> "halloween"
            else:
                continue
            ranked.append(((rank, abs(j - i - len(new))), said[:i] + new + said[j:]))
    ranked.sort(key=lambda item: item[0])
    return list(dict.fromkeys(" ".join(words) for _, words in ranked))


def _number(word: str) -> bool:
    """A number as written or spelled ("50", "fifty")."""
    return word.replace(".", "", 1).isdigit() or alpha2digit(word, "en").isdigit()


def _korean_follow_ups(text: str, before: str) -> list[str]:
    asked = KOREAN_FOLLOW_UP.match(plain_words(text))
    if asked is None:
        return []
    words = plain_words(before).split()
    forms = []
    for index, word in enumerate(words):
        particle = next((p for p in KOREAN_PARTICLES if word.endswith(p) and len(word) > len(p)), None)
        if particle is not None:
            changed = asked["rest"] + _particle_after(asked["rest"], particle)
            forms.append(" ".join(words[:index] + [changed] + words[index + 1:]))
    return forms


def _particle_after(word: str, particle: str) -> str:
    """``particle`` in the form that follows ``word`` (은/는, 이/가, 을/를 by its last sound)."""
    pairs = {"은": ("은", "는"), "는": ("은", "는"), "이": ("이", "가"), "가": ("이", "가"), "을": ("을", "를"), "를": ("을", "를")}
    if particle not in pairs:
        return particle
    closed, open_ = pairs[particle]
    return closed if final_consonant(word) else open_
