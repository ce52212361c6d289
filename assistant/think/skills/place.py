"""What only someone there knows, said plainly: where the restroom is, when the place opens and closes, what a ticket
costs, the wifi password, where one is. The assistant has no map and no information about the place it stands in
(a lobby, a museum, a shop, a home), so "Where is the bathroom?" must not get a small model's guess (SmolLM2-135M:
"The bathroom is in your home.", "I'm closed at 10:59pm.", "The password is "123456".", "The exit is the top of a
mountain."); it says it does not know the place.

Guard (taken only as said): the whole utterance must ask where a thing of a building is ("where is the exit", "is
there a cafe here"), when "you" or "this place" open or close, what getting in costs, the wifi, or where one is.
Where things of the world are ("where is the Eiffel Tower", "where is the heart") stays the model's; the nearest
pharmacy and directions are the maps' (:mod:`.reach`). A kiosk that answers these itself (its own ``replies.toml``)
leaves this skill out: ``skills.disabled = ["place"]``. Korean too: "화장실 어디예요?", "몇 시에 문 닫아요?".
"""

from __future__ import annotations

import re

from assistant.think.skills import SkillContext, SkillReply, SkillSetup
from assistant.think.skills.korean_pattern import Form, first
from assistant.think.skills.text import normalize
from assistant.writing import has_hangul

NAME = "place"
ANSWER = "Sorry, I don't know this place: I have no map or information about where I am."
KOREAN_ANSWER = "죄송해요, 저는 이곳의 지도나 정보가 없어서 알려 드릴 수 없어요."

_FACILITY = (r"(?:rest ?rooms?|bathrooms?|toilets?|washrooms?|ladies room|mens room|lavatory|loo|restroom|wc|"
             r"(?:emergency |fire )?exits?|entrances?|way out|way in|elevators?|lifts?|stairs|staircase|stairway|"
             r"escalators?|(?:information|info|help|front|reception|check in|ticket) desk|reception|"
             r"ticket office|box office|gift shop|shop|store|cafe|cafeteria|canteen|coffee shop|restaurant|"
             r"food court|snack bar|bar|cloakroom|coat check|lockers?|parking(?: lot| garage)?|car park|atm|"
             r"cash machine|water fountain|drinking fountain|first aid(?: room| station)?|lost and found|"
             r"changing rooms?|fitting rooms?|baby changing(?: room)?|checkout|cashier|tills?)")
"""The things of a building a visitor asks the way to."""
_HERE = r"(?: here| in here| around here| nearby| near here| in this building| on this floor| downstairs| upstairs)?"
_THIS = r"(?:you|this place|this building|it)"
"""(Not "the store": which store is not known, and that is the model's, as "what time does the store open".)"""
_WHEN = r"(?: today| tomorrow| tonight| now| on (?:the )?weekends?| on (?:mon|tues|wednes|thurs|fri|satur|sun)days?)?"
_FORMS = tuple(re.compile(form) for form in (
    rf"^(?:where is|where are|where can i find|where do i find|where would i find|which way is|which way to"
    rf"|which floor is|what floor is) (?:the |a |an )?{_FACILITY}(?: on)?{_HERE}$",
    rf"^(?:is there|are there|do you have|have you got|is there still) (?:a |an |any |some )?{_FACILITY}{_HERE}$",
    rf"^(?:what time|when) (?:do|does|will) {_THIS} (?:open|close|shut|open up)(?: up)?{_WHEN}$",
    rf"^what (?:are|is) (?:your|the|its) (?:opening |business |closing )?(?:hours|times|(?:opening|closing) time){_WHEN}$",
    rf"^(?:are|is) {_THIS} (?:still )?open{_WHEN}$",
    r"^how much (?:is|are|does) (?:a |the |one )?(?:ticket|tickets|entry|admission|entrance|the entrance fee|"
    r"an entry ticket|it cost to (?:get|go) in|it cost)(?: cost)?$",
    r"^(?:where am i|where are we|what is this place|what place is this|what building is this|what is this building"
    r"|what room is this|what is this room)(?: right now| now)?$",
    r"^(?:what is )?(?:the |your )?(?:wifi|wi fi|wireless|internet)(?: network)? (?:password|code)$",
    r"^(?:is there|do you have|have you got) (?:free |any )?(?:wifi|wi fi)(?: here)?$",
))
_KOREAN = [(kind, Form(spec, {})) for kind, spec in (
    ("where", "[여기] 화장실|출구|입구|엘리베이터|계단|안내_데스크|매표소|카페|식당|주차장 [이|가|은|는] [어디|어디에] "
              "[있어|있어요|있나요|예요|에요|야|인가요|있습니까]"),
    ("hours", "[여기|이_건물|이곳] [은|는] [오늘|내일] [몇_시에|언제] 문 [을] 열어|닫아|열어요|닫아요|여나요|닫나요"),
    ("where", "여기 [가|는] 어디 [예요|에요|야|인가요|입니까]"),
    ("wifi", "와이파이 [비밀번호|비번] [가|는] [뭐예요|뭐야|뭐에요|알려_줘|알려_주세요]"),
)]


class Place:
    name = NAME

    def match(self, text: str, context: SkillContext) -> SkillReply | None:  # noqa: ARG002 - the skills' signature
        if has_hangul(text):
            return SkillReply(NAME, KOREAN_ANSWER) if first(_KOREAN, text) is not None else None
        said = normalize(text)
        return SkillReply(NAME, ANSWER) if any(form.match(said) for form in _FORMS) else None


def create(setup: SkillSetup) -> Place:  # noqa: ARG001 - every skill gets the setup
    return Place()
