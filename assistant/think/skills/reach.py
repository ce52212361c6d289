"""What this assistant cannot reach, said plainly: music, calls and messages, lights and other devices, apps and
websites, the web, maps, orders and bookings, calendars (lists and notes: :mod:`.notes`).

It hears, answers and keeps time on this computer, offline, and nothing else: a request to play music or call
someone must not get a small model's echo of it ("Play the Beatles." -> "You could play the Beatles.", "Turn
on the lights." -> "Turn on the lights.", "Order a pizza." -> "You could order a pizza.", all said as if done).
It says what it cannot do instead.

Guard (taken only as said): the whole utterance must be such a request, in the imperative (a frame, "Can you
call Sarah?", is taken off first: :mod:`assistant.think.requests`) or asking for one's messages, schedule or
list. Questions about these things stay the model's ("how do I play chess", "should I turn on the heating",
"who invented the telephone"); so do games ("play a game with me") and the assistant's own volume ("turn it
up", the table's) and alarms (the timers'). Korean too: "음악 틀어 줘", "엄마한테 전화해 줘", "불 꺼 줘".
"""

from __future__ import annotations

import re

from assistant.think.skills import SkillContext, SkillReply, SkillSetup
from assistant.think.skills.korean_pattern import Form, first
from assistant.think.skills.text import normalize
from assistant.writing import has_hangul

NAME = "reach"
ANSWERS = {
    "emergency": "I can't make calls. In an emergency, call your local emergency number from a phone now.",
    "music": "Sorry, I can't play music or the radio: there's no player I can reach.",
    "calls": "Sorry, I can't make calls or send messages: I'm not connected to a phone or an inbox.",
    "devices": "Sorry, I can't control lights or other devices: I'm not connected to any.",
    "apps": "Sorry, I can't open apps or websites: I only listen and answer.",
    "web": "Sorry, I can't search the web: I work offline, with no internet connection.",
    "maps": "Sorry, I can't give directions or find places: I have no maps, and I work offline.",
    "orders": "Sorry, I can't order, buy or book anything: I work offline.",
    "lists": "Sorry, I can't keep a calendar. I can keep lists and things to remember, and set timers, alarms and "
             "reminders.",
}
KOREAN_ANSWERS = {
    "emergency": "저는 전화를 걸 수 없어요. 응급 상황이면 지금 휴대폰으로 119나 112에 전화하세요.",
    "music": "죄송해요, 저는 음악이나 라디오를 틀 수 없어요.",
    "calls": "죄송해요, 저는 전화를 걸거나 메시지를 보낼 수 없어요.",
    "devices": "죄송해요, 저는 불이나 가전제품을 켜고 끌 수 없어요.",
    "apps": "죄송해요, 저는 앱이나 웹사이트를 열 수 없어요.",
    "web": "죄송해요, 저는 인터넷 없이 작동해서 검색할 수 없어요.",
    "maps": "죄송해요, 저는 지도가 없어서 길을 안내할 수 없어요.",
    "orders": "죄송해요, 저는 주문이나 예약을 할 수 없어요.",
    "lists": "죄송해요, 저는 일정을 관리할 수 없어요. 장보기 목록과 기억할 일, 타이머와 알람은 맡을 수 있어요.",
}

_WORDS = r"[a-z0-9']+(?: [a-z0-9']+)*"
"""Any words: a name, a song, a place."""
_FEW = r"[a-z0-9']+(?: [a-z0-9']+){0,3}"
"""One to four words: an app, a room, a person."""
_GAMES = (r"(?:(?:a |an |the |some )?(?:game|games|round|trick|quiz|trivia|chess|cards|checkers|hangman|i spy|"
          r"tag|hide and seek|rock paper scissors|tic tac toe|\d+ questions|twenty questions)\b|with\b|along\b|"
          r"(?:the |a )?(?:piano|guitar|violin|drums|flute|ball|dead|fair|it (?:safe|cool)))")
"""What "play" is when it is not music: a game, an instrument, a way of playing."""
_VERB = r"(?:is|was|are|were|can|could|should|will|would|may|might|must|has|had|does|did|helps|makes|means)\b"
"""After "play", a verb: "play" is the subject of a statement ("Play is important for children.")."""
_MEDIA = (r"(?:music|songs?|tunes|tracks?|albums?|playlists?|radio|podcasts?|audiobooks?|jazz|rock|pop|classical|"
          r"hip hop|rap|country|blues|reggae|something|anything)")
_MEDIA_NOUN = r"(?:music|song|track|radio|podcast|playlist|album)"
_OWNER = r"(?:the |my |this |that |all the |all |our |some )?"
_DEVICE = (r"(?:lights?|lamps?|tv|television|fan|heater|heating|heat|air conditioning|air conditioner|ac|"
           r"thermostat|oven|stove|kettle|coffee (?:machine|maker)|dishwasher|washing machine|dryer|vacuum|"
           r"(?:front |back |garage |bedroom )?doors?|garage|blinds|curtains|sprinklers?|alarm system|"
           r"security system|speakers?)")
_ROOM = r"(?: (?:in|on) (?:the |my )?[a-z]+(?: room)?| upstairs| downstairs| outside)?"
_APP = r"(?:app|apps|application|program|browser|web browser|website|site|tab|window)"
_MESSAGES = r"(?:messages|texts|text messages|emails|email|e mails|mail|inbox|voicemails?|missed calls)"
_LIST = r"(?:(?:shopping|grocery|to do|todo|packing) )?list"
_SCHEDULE = r"(?:calendar|schedule|agenda|appointments|plans|meetings|diary)"
_WHEN = r"(?: (?:for )?(?:today|tonight|tomorrow|this week|next week|this weekend|this morning|this afternoon))?"
_EMERGENCY = (r"(?:911|999|112|119|an ambulance|the police|the cops|the fire department|the fire brigade|"
              r"emergency services|the emergency services|for help|help|a doctor)")
_FORMS = (
    # an emergency first: not the plain "cannot call"
    ("emergency", rf"^(?:call|phone|ring|dial|get|send for|contact) (?:me )?{_EMERGENCY}(?: now| please| quickly)?$"),
    # music
    ("music", rf"^(?:play|shuffle) (?!{_GAMES}|{_VERB}|(?:it|that|this)(?: one)? (?:again|back|one more time)$){_WORDS}$"),
    ("music", rf"^(?:put on|start|turn on|switch on) (?:some |the |my )?{_MEDIA}(?: music)?$"),
    ("music", rf"^(?:pause|stop|skip|resume|mute) {_OWNER}{_MEDIA_NOUN}$"),
    ("music", rf"^(?:play )?(?:the )?(?:next|previous|last) {_MEDIA_NOUN}$"),
    # calls and messages
    ("calls", rf"^(?:call|phone|ring|dial|facetime|video call) (?!me\b|it\b|this\b|that\b|a (?:taxi|cab)\b){_FEW}$"),
    ("calls", rf"^give {_FEW} a (?:call|ring)$"),
    ("calls", rf"^(?:text|message|email|e mail|whatsapp) (?!me\b){_WORDS}$"),
    ("calls", rf"^send (?:a |an )?(?:text|message|email|e mail|sms|whatsapp)(?: message)?(?: (?:to|for) {_WORDS})?$"),
    ("calls", rf"^send {_FEW} (?:a |an )(?:text|message|email|e mail)(?: {_WORDS})?$"),
    ("calls", rf"^(?:read|check|open|show)(?: me)? (?:my |the )?(?:new |latest |unread )?{_MESSAGES}$"),
    ("calls", rf"^(?:do i have|have i got|are there|did i get) (?:any )?(?:new |unread )?{_MESSAGES}$"),
    # lights and other devices
    ("devices", rf"^(?:turn|switch|shut|power) (?:on|off|up|down) {_OWNER}(?:[a-z]+ )?{_DEVICE}{_ROOM}$"),
    ("devices", rf"^(?:turn|switch|shut|power) {_OWNER}(?:[a-z]+ )?{_DEVICE}{_ROOM} (?:on|off|up|down)$"),
    ("devices", rf"^(?:dim|brighten|lock|unlock|open|close|shut) {_OWNER}(?:[a-z]+ )?{_DEVICE}{_ROOM}$"),
    ("devices", rf"^(?:set|change|put) {_OWNER}(?:thermostat|heating|heat|temperature|ac|air conditioning){_ROOM} "
                rf"(?:to|at) \d+(?: degrees)?(?: celsius| fahrenheit)?$"),
    # apps and websites, the web
    ("apps", rf"^(?:open|launch|start|close|quit) {_OWNER}(?:{_FEW} )?{_APP}$"),
    ("apps", r"^(?:open|launch) (?:[a-z0-9']+ ){0,2}[a-z0-9']+$"),
    ("apps", rf"^go to {_FEW} (?:com|org|net|dot com)$"),
    ("web", rf"^(?:search|look) (?:on )?(?:the web|online|the internet|google|the net) for {_WORDS}$"),
    ("web", rf"^(?:search for|look up) {_WORDS} (?:online|on the web|on the internet|on google)$"),
    ("web", rf"^google {_WORDS}$"),
    # maps
    ("maps", rf"^(?:give me |get me |show me |find |find me |i need |i want )?(?:the )?directions (?:to {_WORDS}|home)$"),
    ("maps", rf"^(?:navigate|take me|drive me|guide me|get me) (?:to {_WORDS}|home)$"),
    ("maps", rf"^how (?:do|can|would) i get (?:to the {_FEW}|home|to {_FEW} from here)$"),
    ("maps", rf"^(?:(?:find|show) (?:me )?(?:a |an |the |some )?(?:nearest |closest )?{_FEW}|(?:where is |is there )?"
             rf"(?:a |an |the )?(?:nearest |closest )?{_FEW}) (?:near me|nearby|near here|around here)$"),
    ("maps", rf"^(?:find|show me) (?:the )?(?:nearest|closest) {_FEW}$"),
    ("maps", rf"^(?:where is|where are|where can i find) (?:the |a )?(?:nearest|closest) "
             rf"(?!(?:stars?|planets?|galaxy|galaxies|moons?|black holes?|exoplanets?)\b){_FEW}$"),  # (the sky's: the model's)
    ("maps", rf"^where can i (?:get|find|buy|eat|park)(?: {_FEW})? (?:around here|near here|nearby|near me|close by)$"),
    # orders and bookings
    ("orders", rf"^(?:order|buy|purchase|reorder)(?: me)? (?!these\b|them\b|the following\b|by\b|from\b)"
               rf"(?:a |an |some |more )?{_WORDS}$"),
    ("orders", rf"^(?:call|book|get|order)(?: me)? (?:a |an )?(?:taxi|cab|uber|lyft|ride)(?: {_WORDS})?$"),
    ("orders", rf"^(?:book|reserve)(?: me)? (?:a |an |two |some )?(?:table|flight|hotel|room|tickets?|appointment|"
               rf"train|seats?|reservation)(?: {_WORDS})?$"),
    ("orders", rf"^make (?:a |an )?(?:reservation|booking|appointment)(?: {_WORDS})?$"),
    # lists, notes and the calendar
    ("lists", rf"^(?:add|put) {_WORDS} (?:to|on) (?:my |the )?{_LIST}$"),
    ("lists", rf"^(?:what is|read|read me|show me|tell me what is) (?:on|in) (?:my |the )?{_LIST}$"),
    ("lists", rf"^(?:read|read me|show me|open|check) (?:my |the )?{_LIST}$"),
    ("lists", rf"^(?:take|make|create|start|add) (?:a |an )?(?:note|memo)(?: (?:that|saying|about|to remember) {_WORDS})?$"),
    ("lists", rf"^(?:make|start|create) (?:a |an |my )?(?:new )?{_LIST}$"),  # not "make a list of fruits": the model's
    ("lists", r"^(?:write|note|jot) (?:this|that|it) down$"),
    ("lists", rf"^(?:what is|what are|tell me|read me|show me|check) (?:on )?(?:my |the )?{_SCHEDULE}{_WHEN}$"),
    ("lists", rf"^what is (?:on )?(?:my |the )?{_SCHEDULE} (?:like )?{_WHEN}$"),
    ("lists", rf"^(?:do i have|have i got|are there) (?:any )?(?:meetings|appointments|plans|events){_WHEN}$"),
    ("lists", rf"^(?:add|put|schedule|create|set up|make|book) (?:a |an )?(?:meeting|appointment|event|call)"
              rf"(?: {_WORDS})?$"),
    ("lists", rf"^(?:add|put) {_WORDS} (?:to|in|on) (?:my |the )?{_SCHEDULE}$"),
)
_ENGLISH = tuple((kind, re.compile(form)) for kind, form in _FORMS)
_GUARD = re.compile(r"\b(?:alarm|alarms|timer|timers|reminder|reminders|volume|sound|voice)\b")
"""What the assistant does itself: its alarms and timers (the timers'), its volume (the table's)."""

_READERS = {"who": lambda said: said or None}
"""A person or a thing named: any words."""
_PLEASE = "줘|주세요|줄래|줄래요|줄_수_있어|줄_수_있어요|주시겠어요|줘요"
"""A request's ending, which every form with a slot must have: a slot with no ending after it would take any words."""
_KOREAN = [(kind, Form(spec, _READERS)) for kind, spec in (
    ("emergency", f"119|112|구급차|앰뷸런스|경찰|소방서 [좀|빨리] 불러|전화해|전화_걸어|연결해 {_PLEASE}"),
    ("music", f"[{{who}}] 음악|노래|라디오|팟캐스트 [좀|하나] 틀어|켜|재생해|들려 [{_PLEASE}]"),
    ("music", f"[{{who}}] 음악|노래|라디오 [좀] 꺼|멈춰|정지해|다음_곡|넘겨 [{_PLEASE}]"),
    ("music", "다음_곡|다음_노래"),
    ("calls", f"{{who}} 한테|에게|께 [좀] 전화해|전화_걸어|문자_보내|문자해|메시지_보내|카톡_보내|연락해 {_PLEASE}"),
    ("calls", f"{{who}} 전화_걸어|전화해 {_PLEASE}"),
    ("calls", "[새] 문자|메시지|이메일|메일 [좀] [읽어|확인해|보여] [줘|주세요|줄래|왔어|왔어요|있어|있어요]"),
    ("devices", f"[{{who}}] 불|전등|조명|티비|TV|텔레비전|에어컨|히터|난방|보일러|선풍기|문|창문 [좀] 켜|꺼|열어|닫아|잠가|"
                f"올려|내려 [{_PLEASE}]"),
    ("apps", f"{{who}} [좀] 열어|실행해 {_PLEASE}"),
    ("web", f"{{who}} [좀] 검색해|찾아봐 {_PLEASE}"),
    ("maps", f"[{{who}}] [까지] 길 [좀] 안내해|알려 [{_PLEASE}]"),
    ("maps", "[{who}] [까지] 길_안내 [좀] [해] [줘|주세요]"),
    ("orders", f"{{who}} [좀] 주문해|시켜|사|예약해 {_PLEASE}"),
    ("orders", f"택시|콜택시|대리|대리기사|차 [좀|하나|한_대] 불러|잡아 {_PLEASE}"),  # not any words: "노래 불러 줘" is sing
    ("lists", "[오늘|내일] 일정 [좀] [알려|확인해|보여] [줘|주세요|뭐야|있어|있어요]"),
    ("lists", f"[{{who}}] 메모 [좀] 해|남겨 [{_PLEASE}]"),
)]


class Reach:
    name = NAME

    def match(self, text: str, context: SkillContext) -> SkillReply | None:  # noqa: ARG002 - the skills' signature
        if has_hangul(text):
            hit = first(_KOREAN, text)
            return SkillReply(NAME, KOREAN_ANSWERS[hit[0]]) if hit is not None else None
        said = normalize(text)
        if _GUARD.search(said):
            return None
        kind = next((kind for kind, form in _ENGLISH if form.match(said)), None)
        return SkillReply(NAME, ANSWERS[kind]) if kind is not None else None


def create(setup: SkillSetup) -> Reach:  # noqa: ARG001 - every skill gets the setup
    return Reach()
