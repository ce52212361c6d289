"""What only the internet knows, said plainly: the weather, the news, exchange rates. The assistant works offline, so
"Will it rain today?" must not be answered by a language model's guess (SmolLM2-135M: "No, it won't.",
and a forecast for Italy to "What's the weather like tomorrow?"); it says it cannot check.

Guard (taken only as said, never from a misheard function word guessed: "is it cold on Mars" is no
"in Mars"): the whole utterance must ask for the weather or the news of now (today, tomorrow, this week, a
place, or no time at all: "what's the weather like"); how weather works ("why does it rain", "what is
the weather like in Paris in summer", "what causes snow") stays the model's. Korean too: "오늘 날씨
어때?", "내일 비 와?", "오늘 뉴스 알려 줘".
"""

from __future__ import annotations

import re

from assistant.think.skills import SkillContext, SkillReply, SkillSetup
from assistant.think.skills.korean_pattern import Form, first
from assistant.think.skills.text import normalize
from assistant.writing import has_hangul, plain_words

NAME = "live"
ANSWERS = {
    "weather": "Sorry, I can't check the weather: I work offline, with no internet connection.",
    "news": "Sorry, I can't read the news: I work offline, with no internet connection.",
    "money": "Sorry, I can't check exchange rates: I work offline, with no internet connection.",
    "hours": "Sorry, I can't check opening hours: I work offline, with no internet connection.",
    "scores": "Sorry, I can't check scores or results: I work offline, with no internet connection.",
    "stocks": "Sorry, I can't check the markets: I work offline, with no internet connection.",
    "traffic": "Sorry, I can't check the traffic: I work offline, with no internet connection.",
    "travel": "Sorry, I can't check flights, trains or buses: I work offline, with no internet connection.",
    "listings": "Sorry, I can't check what's on: I work offline, with no internet connection.",
}
KOREAN_ANSWERS = {
    "weather": "죄송해요, 저는 인터넷 없이 작동해서 날씨를 확인할 수 없어요.",
    "news": "죄송해요, 저는 인터넷 없이 작동해서 뉴스를 볼 수 없어요.",
    "money": "죄송해요, 저는 인터넷 없이 작동해서 환율을 확인할 수 없어요.",
    "hours": "죄송해요, 저는 인터넷 없이 작동해서 영업시간을 확인할 수 없어요.",
    "scores": "죄송해요, 저는 인터넷 없이 작동해서 경기 결과를 확인할 수 없어요.",
    "stocks": "죄송해요, 저는 인터넷 없이 작동해서 주가를 확인할 수 없어요.",
    "traffic": "죄송해요, 저는 인터넷 없이 작동해서 교통 상황을 확인할 수 없어요.",
    "travel": "죄송해요, 저는 인터넷 없이 작동해서 항공편이나 기차, 버스를 확인할 수 없어요.",
    "listings": "죄송해요, 저는 인터넷 없이 작동해서 상영이나 방송 정보를 확인할 수 없어요.",
}

_TIME = (r"(?:today|tonight|tomorrow|now|right now|outside|out there|at the moment|currently|later|this "
         r"(?:morning|afternoon|evening|week|weekend)|next week|on the weekend|for (?:today|tomorrow|the weekend|"
         r"this week|the week))")
_WHEN = rf"(?: {_TIME})"
_PLACE = r"(?: (?:here|in (?!the )[a-z]+(?: [a-z]+)?))"
"""A town or a country ("in Paris", "in New York"); "in the desert", "in summer" are not where one is."""
_WHERE_WHEN = rf"(?:{_PLACE}?{_WHEN}?|{_WHEN}{_PLACE})"
_WEATHER = r"(?:rain|snow|be (?:sunny|cold|hot|warm|windy|cloudy|rainy|nice|stormy)|storm)"
_MONEY = r"(?:dollars?|euros?|yen|won|yuan|pesos?|rupees?|francs?|bitcoins?|canadian dollars?|us dollars?)"
_AMOUNT = r"(?:(?:\d+(?:\.\d+)?|a|an|1) )?"
_CURRENCY = (
    re.compile(rf"^(?:convert|change|exchange) {_AMOUNT}(?:{_MONEY}|pounds?) (?:to|into|in) {_MONEY}$"),
    re.compile(rf"^(?:convert|change|exchange) {_AMOUNT}{_MONEY} (?:to|into|in) (?:{_MONEY}|pounds?)$"),
    re.compile(rf"^how (?:much|many {_MONEY}) (?:is|are) {_AMOUNT}(?:{_MONEY}|pounds?)(?: worth)?(?: in {_MONEY})?$"),
    re.compile(rf"^what is the (?:current |latest )?exchange rate(?: (?:for|of|between|from|to) {_MONEY}| today)*"
               rf"(?: (?:and|to) (?:{_MONEY}|pounds?))?$"),
    re.compile(rf"^what is {_AMOUNT}{_MONEY} (?:in|to) (?:{_MONEY}|pounds?)$"),
    re.compile(rf"^what is {_AMOUNT}pounds? (?:in|to) {_MONEY}$"),
    re.compile(rf"^what is the {_MONEY} to (?:{_MONEY}|pounds?)(?: exchange)? rate(?: today| now)?$"),
)
"""Money from one currency into another: rates change by the minute, so they are not guessed ("Ten dollars is
EUR 1.05"); a pound alone is a weight (the units' "convert 10 pounds to kilograms")."""
_OPEN_PLACE = (r"(?!(?:it|you|this|they|we|he|she|the (?:door|doors|window|windows|fridge|gate|lid|box|sun|moon|"
               r"movie|show|party|game|school|season|shop window))\b)(?:the |my |our |a |your )?[a-z']+(?: [a-z']+){0,2}?")
"""A shop, a bank, a business ("Walmart", "the post office"): not a door or the sun, not "it" or "you" (the place the
assistant stands in: :mod:`.place`)."""
_HOURS_WHEN = r"(?: today| tomorrow| tonight| now| right now| on (?:a )?[a-z]+| this [a-z]+)"
_HOURS = (
    re.compile(rf"^(?:what time|when) (?:does|do|will) {_OPEN_PLACE} (?:open|close|shut)(?: up)?{_HOURS_WHEN}?$"),
    re.compile(rf"^(?:is|are) {_OPEN_PLACE} (?:still )?open{_HOURS_WHEN}$"),  # ("is the bank open" alone: the model's)
    re.compile(rf"^what are (?:the )?(?:opening |business )?hours (?:of|for) {_OPEN_PLACE}{_HOURS_WHEN}?$"),
)
"""When a business opens or closes: its hours change and are online ("Is Target open on Sundays?" -> "Yes, Target
is open on Sundays.")."""
_NOW = r"(?: today| tonight| now| right now| this (?:morning|afternoon|evening)| at the moment)"
_RECENT = r"(?: last night| today| yesterday| tonight| this (?:weekend|week|morning|afternoon|evening)| on [a-z]+)"
_NAME = r"(?!(?:a|an|the)\b)[a-z0-9]+(?: [a-z0-9]+)?"
_VEHICLE = r"(?:flight|train|bus|plane|ferry|tram|subway)"
_TRADED = r"(?:gold|silver|platinum|oil|crude oil|a barrel of oil|bitcoin|ethereum|dogecoin)"
"""What is priced by the minute on a market ("How much is gold per ounce?"); what it is or weighs is the model's."""
_ROAD = r"(?: (?:on|in|to) (?:the )?[a-z]+(?: [a-z]+){0,2})?"
"""Where the traffic is asked about ("on the highway", "to the airport"), or nowhere named."""
_NOW_LIVE = (  # what is happening now and is only online: the model said "Yes, your flight is on time."
    ("scores", rf"^who (?:won|is winning|was winning)(?: the)?(?: [a-z]+)? (?:game|match|race|fight){_RECENT}?$"),
    ("scores", rf"^who won{_RECENT}$"),
    ("scores", rf"^what (?:is|was) the (?:final |latest |current )?score(?: (?:of|in|for) (?:the )?[a-z]+(?: [a-z]+){{0,2}} "
               rf"(?:game|match))?{_RECENT}?$"),
    ("scores", rf"^(?:did|do) (?:the )?{_NAME} win{_RECENT}$"),
    ("stocks", rf"^(?:what is |how much is |what is the price of |what is the share price of )?(?:the )?{_NAME} "
               rf"(?:stock|shares|share price|stock price){_NOW}?$"),
    ("stocks", rf"^how (?:is|are) (?:the )?(?:stock market|stocks|markets?|dow|nasdaq|s and p 500)(?: doing)?{_NOW}?$"),
    ("stocks", rf"^(?:is|are) (?:the )?(?:stock market|stocks|market|dow|nasdaq|s and p 500) (?:up|down){_NOW}?$"),
    ("stocks", rf"^(?:what is the (?:current )?(?:price|value|cost) of|how much is|how much does) (?:a |an |1 )?(?:ounce of )?"
               rf"{_TRADED}(?: worth| cost| going for| selling for| per ounce| an ounce| per barrel| a barrel)*{_NOW}?$"),
    ("stocks", rf"^what is (?:the )?{_TRADED} price(?: per ounce| per barrel)?{_NOW}?$"),
    ("traffic", rf"^(?:how is|how bad is|what is) the traffic(?: like)?{_ROAD}{_NOW}?$"),
    ("traffic", rf"^how is traffic{_ROAD}{_NOW}?$"),
    ("traffic", rf"^is there (?:a lot of |much |any |heavy )?traffic{_ROAD}{_NOW}?$"),
    ("travel", rf"^is (?:my|the) {_VEHICLE}(?: [a-z0-9]+(?: [a-z0-9]+)?)? (?:on time|delayed|late|cancelled|canceled)$"),
    ("travel", r"^is flight [a-z0-9]+(?: [a-z0-9]+){0,2} (?:on time|delayed|late|cancelled|canceled)$"),
    ("travel", rf"^when (?:is|does|will) the next {_VEHICLE}(?: (?:to|for|from) [a-z]+(?: [a-z]+){{0,2}})?"
               rf"(?: (?:come|leave|arrive|depart|go))?$"),
    ("travel", rf"^what time (?:is|does|will) (?:my|the) {_VEHICLE}(?: leave| depart| arrive| land| take off| come)?$"),
    ("listings", rf"^what (?:movies|films) (?:are|is) (?:playing|showing|on)(?:{_NOW}| near me| nearby)?$"),
    ("listings", rf"^what is on (?:tv|television|the tv|the radio){_NOW}?$"),
)
_FORMS = (
    ("weather", re.compile(rf"^(?:(?:(?:what|how) is |what will be |(?:can you |could you )?tell me )?the )?"
                           rf"(?:weather(?: forecast)?|forecast)(?: like| going to be(?: like)?)?{_WHERE_WHEN}$")),
    ("weather", re.compile(rf"^(?:will|is) it (?:going to )?{_WEATHER}{_WHERE_WHEN}$")),
    ("weather", re.compile(rf"^is it (?:raining|snowing|sunny|cold|hot|warm|windy)(?:{_WHEN}|{_PLACE})?$")),
    ("weather", re.compile(rf"^(?:do|will|should) i need an umbrella{_WHEN}?$")),
    ("weather", re.compile(rf"^(?:how (?:hot|cold|warm) is it|what is the temperature){_WHEN}?$")),
    ("news", re.compile(r"^(?:what is |what are |(?:can you |could you )?(?:(?:tell|give|read) me|check) )?(?:the )?"
                        r"(?:latest |today )?(?:news|headlines)(?: today| for today| this morning)?$")),
    ("news", re.compile(r"^what is (?:in the news|happening in the world)(?: today| right now)?$")),
    *(("money", form) for form in _CURRENCY),
    *(("hours", form) for form in _HOURS),
    *((kind, re.compile(form)) for kind, form in _NOW_LIVE),
)
_KOREAN_MONEY = re.compile(r"^(?:오늘 |지금 )?(?:(?:\S+) )?(?:환율|(?:\S*)(?:달러|유로|엔|위안|파운드) ?(?:은|는|이면|면)? ?(?:한국 ?)?(?:돈으로 )?"
                           r"몇 ?원)(?: ?(?:이|은|좀))? ?(?:얼마야|얼마예요|얼마에요|얼마|어때|어때요|알려 ?줘|알려 ?주세요|"
                           r"어떻게 ?돼|어떻게 ?돼요|이야|이에요|인가요|예요)?$")
_NOT_A_BUSINESS = ("여기", "이곳", "이건물", "거기", "문", "창문", "냉장고")
"""(Here is the place skill's; a door or a window opens, but has no hours.)"""
_KOREAN_READERS = {"who": lambda said: None if not said or said.startswith(_NOT_A_BUSINESS) or "몇" in said
                   or "언제" in said else said}
"""A business's name: not "here", nor the time asked for ("몇 시에" is no name)."""
_KOREAN = [(kind, Form(spec, _KOREAN_READERS)) for kind, spec in (
    ("weather", "[오늘|내일|지금|이번_주|주말] 날씨 [@TOPIC|좀] [어때|어때요|어떻습니까|어떄|어떨까|어떨까요|어떻게_돼|"
                "좋아|좋아요|알려_줘|알려_주세요|말해_줘|말해_주세요]"),
    ("weather", "[오늘|내일|지금|이번_주|주말] 비|눈 [가|이] [와|와요|올까|올까요|오나요|온대|오니]"),
    ("news", "[오늘] 뉴스 [좀] [알려_줘|알려_주세요|말해_줘|말해_주세요|뭐야|뭐예요|읽어_줘|읽어_주세요]"),
    ("hours", "{who} [은|는] [오늘|내일|지금|주말에] 영업해|영업해요|영업하나요|영업_시간 [이|은] [어떻게_돼|어떻게_돼요|알려_줘]"),
    ("scores", "[어제|오늘|지난밤] [{who}] 경기 [는|은] [누가] 이겼어|이겼어요|결과|몇_대_몇이야|몇_대_몇이에요 [알려_줘]"),
    ("stocks", "[오늘|지금] [{who}] 주가|주식|코스피|코스닥 [가|는|이|은] 얼마야|얼마예요|어때|어때요|알려_줘|알려_주세요|"
               "올랐어|내렸어|올랐어요|내렸어요"),
    ("traffic", "[지금] [{who}] 길 [이] [많이] 막혀|막혀요|막히나요"),
    ("traffic", "[지금] 교통_상황 [이|은] [좀] 어때|어때요|알려_줘|알려_주세요"),
    ("travel", "[내|제] 비행기|항공편|기차|버스 [가|는|이] [제시간에] 연착됐어|연착됐어요|지연됐어|지연됐어요|언제_와|언제_와요|"
               "언제_출발해|언제_출발해요"),
    ("listings", "[오늘|지금] 티비|TV|텔레비전 [에서|에] [뭐|무슨_프로] 해|해요|하나요"),
)]


class Live:
    name = NAME

    def match(self, text: str, context: SkillContext) -> SkillReply | None:  # noqa: ARG002 - the skills' signature
        if has_hangul(text):
            hit = first(_KOREAN, text)
            if hit is None and _KOREAN_MONEY.match(plain_words(text)):
                hit = ("money", None)
            return SkillReply(NAME, KOREAN_ANSWERS[hit[0]]) if hit is not None else None
        said = normalize(text)
        kind = next((kind for kind, form in _FORMS if form.match(said)), None)
        return SkillReply(NAME, ANSWERS[kind]) if kind is not None else None


def create(setup: SkillSetup) -> Live:  # noqa: ARG001 - every skill gets the setup
    return Live()
