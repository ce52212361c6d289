"""A question about what the assistant can do, however it is put, in the plain form the table answers; and its
favourite anything.

"What are you good at?", "What kind of things can you help me with?", "What else can you do?" and "Tell me your
skills." all ask what the instant-reply table answers for "what can you do"; the table lists a few wordings, and
the small model answers the others as if asked about a person ("I'm good at playing chess."). The forms below are
a question's shape, asked of "you": a question word, what may stand between it and the verb (kinds of things,
questions, commands), a verb of doing or helping; or what "you" or "your" are (good at, able to do, your skills,
your purpose); never a content word of the question's own ("What can you tell me about dolphins?", "What do you
know about Paris?", "What are the skills of a good manager?" stay the model's). Its favourite colour, song or food is
the table's "do you have favorites" (it has none: the model said "My favorite color is blue."), in Korean too
("제일 좋아하는 색이 뭐야?"); what it can do is asked in Korean of the table's rows, matched letter by letter.
"""

from __future__ import annotations

import re

from assistant.think.replies import normalize
from assistant.think.skills.korean_pattern import Form
from assistant.writing import has_hangul

PLAIN = "what can you do"
"""The table's wording that what the forms of :data:`_FORMS` ask is put as."""
FAVORITE = "do you have favorites"
"""... and what those of :data:`_FAVORITES` ask."""
KOREAN_FAVORITE = "좋아하는 거 있어"
"""... and those of :data:`_KOREAN_FAVORITES`."""

_WHAT = r"(?:what|which)(?: else| other| more)?(?: (?:kinds?|sorts?|types?) of)?"
_THINGS = r"(?: (?:things|stuff|questions|commands|requests|tasks|jobs|features|functions|skills))?"
_DOING = r"(?:do|help(?: me| us)?(?: with| do)?|answer|understand|handle|know how to do|take care of)"
_WHAT_YOU_ARE = (r"(?:good at|able to do|capable of|useful for|for|made for|meant for|designed for|skills|"
                 r"abilities|features|functions|capabilities|strengths|purpose|job|role|function)")
_FORMS = tuple(re.compile(form) for form in (
    rf"^{_WHAT}{_THINGS} (?:can|could|do) you {_DOING}(?: for (?:me|us))?"
    rf"(?: (?:besides|apart from|other than) [a-z ]+)?$",
    rf"^{_WHAT} (?:features|functions|skills|commands|abilities|options) do you (?:have|know|offer|support)$",
    r"^what (?:can|should|could) i (?:ask|tell|say to) you(?: to do)?$",
    rf"^what (?:are|is) (?:you|your) {_WHAT_YOU_ARE}(?: doing)?$",
    rf"^what (?:are|is) (?:the )?(?:things|stuff)(?: that)? you (?:can|could) do$",
    rf"^(?:tell me|show me|list|name|say) (?:what you (?:can do|are good at|do)|your (?:skills|abilities|features|"
    rf"functions|capabilities|commands))(?: for me)?$",
    r"^(?:do|can) you (?:have|do) (?:any )?(?:special )?(?:skills|abilities|features|functions|tricks)$",
    r"^how (?:can|could|do|will|might) you (?:help|be useful|assist)(?: me| us)?(?: today)?$",
    # who it is
    r"^(?:tell|talk to) (?:me|us) (?:a (?:little|little bit|bit) |more |something |a few things )?"
    r"about (?:yourself|you)$",
    r"^(?:introduce|describe|present) yourself$",
    r"^(?:do you have|have you got) (?:a )?name$",
    r"^(?:tell|give) (?:me|us) (?:a |an |one )?(?:fun |interesting |cool )?fact about (?:yourself|you)$",
))

_FAVORITES = tuple(re.compile(form) for form in (
    r"^(?:what|which) (?:is|are) your (?:very )?(?:favorite|favourite|best loved) [a-z]+(?: [a-z]+)?$",
    r"^(?:do|did) you (?:have|got) (?:a|any) (?:favorite|favourite) [a-z]+(?: [a-z]+)?$",
    r"^what (?:[a-z]+ )?do you like (?:best|most|the most)$",
))

_ANY = {"thing": lambda said: said if 1 <= len(said) <= 6 else None}
_KOREAN_FAVORITES = tuple(Form(spec, _ANY) for spec in (
    "[너는|넌] [제일|가장] 좋아하는 {thing} [이|가|은|는] 뭐야|뭐예요|뭐니|뭔데|뭐에요|있어|있어요|있니",
    "[너는|넌] [제일|가장] 무슨|어떤 {thing} [을|를] 좋아해|좋아해요|좋아하니|좋아하세요",
))


def plain_question(text: str) -> str | None:
    """:data:`PLAIN` where ``text`` asks what the assistant can do, :data:`FAVORITE` (:data:`KOREAN_FAVORITE`) where
    it asks its favourite anything, else None."""
    if has_hangul(text):
        return KOREAN_FAVORITE if any(form.match(text) is not None for form in _KOREAN_FAVORITES) else None
    said = normalize(text)
    if any(form.match(said) for form in _FORMS):
        return PLAIN
    return FAVORITE if any(form.match(said) for form in _FAVORITES) else None
