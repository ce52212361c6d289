"""The English requests the timers skill reads (:mod:`.timers`), as :func:`~assistant.think.skills.text.normalize`
writes them: setting a timer, an alarm or a reminder, cancelling, asking what is left, correcting the one just set,
and the answers to what a request lacked."""

from __future__ import annotations

import re

from assistant.think.skills.text import NUMBER
from assistant.think.skills.timer_store import CLOCK_TIME

UNIT_S = {"hour": 3600, "hr": 3600, "minute": 60, "min": 60, "second": 1, "sec": 1}
COUNT = rf"(?:{NUMBER}|an?)"
UNIT = r"(?:hours?|hrs?|minutes?|mins?|seconds?|secs?)"
DURATION = rf"{COUNT} {UNIT}(?: and a half)?(?:(?: and)? {COUNT} {UNIT})?"
TIMER_NAME = r"[a-z]+(?: [a-z]+){0,2}?"
ANY_NAME = r"[a-z0-9.]+(?: [a-z0-9.]+){0,3}?"
VERB = r"(?:set|start|create|make|add|put on|put|begin|give me|i need|i want)"
SET = rf"(?:(?:can you |could you |please )?{VERB} )?"
ARTICLE = r"(?:(?:a|an|the|my|your|our|another|one more) )?"
OWNER = r"(?:the |my |your |our |a |that |this )?"
REQUEST = re.compile(rf"\b{VERB} ")
"""A request's verb (:data:`VERB`) inside what would be a timer's name: the words before it are not the
request's ("Mike, set a timer...", its comma dropped)."""

SET_TIMER = (
    re.compile(rf"^{SET}{ARTICLE}(?:(?P<duration>{DURATION}) )?(?:(?P<name>{TIMER_NAME}) )?timer(?: on)?"
               rf"(?: (?:for|of|to|at|on) (?P<duration2>{DURATION}))?(?: (?:for|called|named) {OWNER}(?P<name2>{TIMER_NAME}))?"
               rf"(?: please)?$"),  # (the "for" is needed: Whisper writes "timer for five minutes" "timer 45 minutes")
    re.compile(rf"^{SET}{ARTICLE}timer (?:for|called|named) {OWNER}(?P<name>{TIMER_NAME}) (?:for|of|to) "
               rf"(?P<duration>{DURATION})$"),
)
TIMER_HEARD_AS_TIME = re.compile(rf"^{SET}(?:at |up |up a |a |an )?time (?:for|of) (?P<duration>{DURATION})$")
"""A timer request whose "a timer" the recognizer heard as "at time" or "up time" (its r lost): "set at time for
10 minutes". A time set for a length is a timer; "set a time for the meeting" has no length and is not one."""
REMIND = re.compile(rf"^(?:remind me|(?:please )?(?:can you |could you )?wake me(?: up)?) (?:in (?P<duration>{DURATION})|"
                    rf"at (?P<clock>\d{{1,2}}(?:[:. -]?[0-5]\d)?(?: ?(?:am|pm|oclock))?))$")
"""A reminder with nothing to remind of is a timer ("remind me in 10 minutes", "wake me up in 20 minutes") or an alarm
("remind me at 7")."""
REMIND_TO = (re.compile(rf"^remind me to (?P<task>[a-z]+(?: [a-z]+){{0,5}}?) in (?P<duration>{DURATION})$"),
              re.compile(rf"^in (?P<duration>{DURATION}) remind me to (?P<task>[a-z]+(?: [a-z]+){{0,5}})$"),
              re.compile(rf"^remind me in (?P<duration>{DURATION}) to (?P<task>[a-z]+(?: [a-z]+){{0,5}})$"))
"""A reminder of something after a while: a timer named by it, said when it runs out ("This is your reminder
to call your mom.")."""
_TASK = r"[a-z]+(?: [a-z]+){0,5}?"
_PART = r"morning|afternoon|evening|night"
WHEN = (rf"(?:(?:(?P<day>tomorrow|today|tonight)(?: (?P<part0>{_PART}))?|(?:in the|this) (?P<part1>{_PART})) )?"
        rf"(?:at )?(?P<clock>{CLOCK_TIME}|noon|midnight)"
        rf"(?: (?P<day2>tomorrow|today|tonight))?(?: (?:in the |this )?(?P<part>{_PART}))?")
"""When an alarm or a reminder is to ring: a clock time with the day and the part of the day before or after it
("tomorrow morning at 7", "at 6 tomorrow night", "in the morning at 7", "at 9 this evening", "noon"):
:func:`~assistant.think.skills.timers.when_said` reads it."""
REMIND_AT = (re.compile(rf"^remind me {WHEN} to (?P<task>{_TASK})$"),
             re.compile(rf"^remind me to (?P<task>{_TASK}) {WHEN}$"),
             re.compile(rf"^{WHEN} remind me to (?P<task>{_TASK})$"))
"""A reminder of something at a clock time: an alarm named by it ("Remind me at 5 pm to call mom.", "Remind me to
water the plants at 8 am.", "Remind me tomorrow at noon to call the dentist.")."""
REPEATING = re.compile(r"^(?=.*\b(?:every|each|daily|weekdays|weekends|recurring|repeating|repeat)\b)"
                       rf"(?:(?:can you |could you |please )?{VERB} (?=.*\balarm\b)|(?:please )?(?:can you |could you )?wake me )")
"""An alarm to repeat ("every weekday at 7", "a recurring alarm"): alarms ring once, and that is said."""
YOURS = {"me": "you", "my": "your", "i": "you", "myself": "yourself", "mine": "yours", "am": "are"}
CLOCK = CLOCK_TIME
SET_ALARM = (
    re.compile(rf"^{SET}{ARTICLE}(?:wake up )?alarm (?:(?:for|at) )?{WHEN}"
               rf"(?: (?:for|called|named) {OWNER}(?P<name>{TIMER_NAME}))?(?: please)?$"),
    re.compile(rf"^(?:please )?(?:can you |could you )?wake me(?: up)? {WHEN}(?: please)?$"),
)
CANCEL = re.compile(
    rf"^(?:please )?(?:cancel|stop|delete|remove|clear|turn off|switch off|dismiss|end|kill) "
    rf"(?P<all>all (?:the |my |of the |of my )?|every )?{OWNER}(?:(?P<name>{ANY_NAME}) )?"
    rf"(?P<kind>timers?|alarms?|reminders?)"
    rf"(?: (?:for|called|named|to) {OWNER}(?P<name2>{ANY_NAME}))?$"
)
ASK_LEFT = (
    re.compile(rf"^how (?:much time|long|much longer|many minutes) (?:is |are |do i have |have i got )?(?:there )?"
               rf"(?:left |remaining )?"
               rf"(?:on|for|in|until) {OWNER}(?:(?P<name>{ANY_NAME}) )?(?P<kind>timer|alarm|reminder)(?: goes off| rings)?$"),
    # A misheard "how long" ("how on is left on the pasta timer"): "left" and the timer decide.
    re.compile(rf"^how [a-z]+(?: [a-z]+)? (?:is |are )?(?:there )?(?:left|remaining) "
               rf"(?:on|for|in) {OWNER}(?:(?P<name>{ANY_NAME}) )?(?P<kind>timer|alarm|reminder)$"),
    re.compile(rf"^how long until {OWNER}(?:(?P<name>{ANY_NAME}) )?(?P<kind>timer|alarm|reminder)(?: goes off| rings)?$"),
    re.compile(r"^(?:what|which) (?P<kind>timers|alarms|reminders) (?:do i have|are (?:running|set|there|on))(?: now)?$"),
    re.compile(r"^(?:list|show)(?: me)? (?:my |the |all )?(?:running )?(?P<kind>timers|alarms|reminders)$"),
    re.compile(r"^(?:is there|are there|do i have) (?:a |an |any )?(?P<kind>timers?|alarms?|reminders?)(?: running| set| on)?$"),
    re.compile(rf"^(?:is|are) {OWNER}(?:(?P<name>{ANY_NAME}) )?(?P<kind>timers?|alarms?|reminders?) (?:still )?"
               rf"(?:running|going|on|set)$"),
    # when an alarm rings ("What's my next alarm?", "When is my alarm?", "What time is my alarm set for?")
    re.compile(rf"^(?:what|when|what time) is {OWNER}(?P<next>next )?(?:(?P<name>{ANY_NAME}) )?(?P<kind>alarm|reminder)"
               rf"(?: set for| set| for| going off| going to go off)?$"),
    re.compile(rf"^when (?:does|will) {OWNER}(?P<next>next )?(?:(?P<name>{ANY_NAME}) )?(?P<kind>alarm|reminder) (?:go off|ring)$"),
)
JUST = r"(?:(?:no|actually|oh|oops|sorry|wait|never mind|hmm) )*"
"""How a correction may open ("Actually, make it twelve minutes.", "Never mind, cancel it.")."""
CANCEL_THAT = re.compile(rf"^{JUST}(?:cancel|delete|remove|undo|scratch|forget) (?:that|it|this)(?: one)?$")
CHANGE_THAT = re.compile(rf"^{JUST}(?:make|change|set|switch|move) (?:it|that|this)(?: one)? (?:to |for |into )?(?P<what>.+)$")
ADD_MORE = re.compile(rf"^{JUST}(?:add|give (?:me|it)) (?:another |an extra )?(?P<count>{COUNT}) (?:more |extra )?"
                       rf"(?P<unit>{UNIT})(?: more| extra)?(?: (?:to|on) (?:it|that|this|the timer|my timer))?$")
_POLITE = r"(?:please )?(?:can you |could you )?"
PAUSE = re.compile(rf"^{_POLITE}(?:pause|hold|freeze) {OWNER}(?:(?P<name>{ANY_NAME}) )?(?P<kind>timer|reminder)"
                   rf"(?: for (?:a (?:moment|minute|second|bit)|now))?$")
RESUME = re.compile(rf"^{_POLITE}(?:(?:resume|unpause|continue|unfreeze) {OWNER}(?:(?P<name>{ANY_NAME}) )?(?P<kind>timer|reminder)"
                    rf"|(?:start|run) {OWNER}(?:(?P<name2>{ANY_NAME}) )?(?P<kind2>timer|reminder) again)$")
PAUSE_IT = re.compile(rf"^{JUST}(?P<verb>pause|resume|unpause|continue) (?:it|that|this)(?: one)?$")
"""Pausing a timer and running it on ("pause the pasta timer", "start the timer again"); "pause it" is about the timer
just set, else the only one running ("stop the timer" cancels it)."""
SNOOZE = re.compile(rf"^{JUST}(?:please )?snooze(?: it| that| {OWNER}(?:alarm|timer))?(?: for (?P<duration>{DURATION}))?"
                    rf"(?: please)?$")
MORE_NOW = re.compile(rf"^{JUST}(?:just |give me |another )?(?P<count>{COUNT}) more (?P<unit>{UNIT})(?: please)?$")
"""A snooze: "snooze", "snooze for 5 minutes", and, right after a ring, "five more minutes" (or "add 2 more minutes")."""
NO_TIME = re.compile(rf"^{SET}{ARTICLE}alarm(?: for me)?(?: please)?$"
                      rf"|^(?:please )?(?:can you |could you )?wake me(?: up)?(?: please)?$")
"""An alarm asked for with no time: the time is asked for ("For what time?")."""
ASKED_FOR = re.compile(rf"^(?:can you |could you |please )?{VERB} |^(?:a |an )?timer$")
"""A timer with no length is asked for only with a request's verb ("set a pasta timer") or alone ("timer")."""
GIVEN_LENGTH = re.compile(rf"^{JUST}(?:for |about |make it |let us say )?(?P<duration>{DURATION})(?: please)?$")
GIVEN_TIME = re.compile(rf"^{JUST}(?:for |at |make it |let us say )?(?P<clock>{CLOCK})(?: (?P<day>tomorrow|today))?"
                         rf"(?: please)?$")
"""The answer to "For how long?" or "For what time?": a length or a clock time alone ("Ten minutes.", "At 7 am.")."""
ASK_BARE = re.compile(r"^how (?:much time|long|much longer) (?:is |are |do i have |have i got )?(?:there )?"
                      r"(?:left|remaining)(?: now)?$")


_PAST_TO = re.compile(r"\b(?:(?P<half>half)|(?:a )?(?P<quarter>quarter)|(?P<minutes>[1-5]?\d)(?: minutes?)?) "
                      r"(?P<way>past|after|to|till|before) (?P<hour>1[0-2]|[1-9])\b(?! ?(?:hours?|minutes?|seconds?))")


def timer_words(said: str) -> str:
    """A countdown is a timer ("Start a countdown for two minutes.", "Count down from one minute.", "Cancel the
    countdown."), and a clock time said the old way is digits (:func:`clock_words`)."""
    said = re.sub(rf"\bcount ?down (?:from |for |of )?(?={COUNT} {UNIT})", "timer for ", said)
    return clock_words(re.sub(r"\bcount ?down\b", "timer", said))


def clock_words(said: str) -> str:
    """A clock time said the old way written as digits: "half past 6" -> "6:30", "quarter to 8" -> "7:45", "10 after
    7" -> "7:10" (as :func:`~assistant.think.skills.text.normalize` writes the numbers)."""
    def digits(found: re.Match) -> str:
        minutes = 30 if found["half"] else 15 if found["quarter"] else int(found["minutes"])
        hour = int(found["hour"])
        if found["way"] in ("past", "after"):
            return f"{hour}:{minutes:02d}"
        if found["half"] or not 0 < minutes < 60:
            return found[0]  # "half to 6" is no time
        return f"{(hour - 2) % 12 + 1}:{60 - minutes:02d}"

    return _PAST_TO.sub(digits, said)


def duration_s(words: str) -> float:
    """Seconds in "1 hour and 30 minutes", "a minute and a half", "2 and a half hours", "half an hour", "0.5 hour"
    (as :func:`~assistant.think.skills.text.normalize` writes them); 0 when there is no length."""
    if words.startswith("half a"):
        return UNIT_S[words.split()[-1].rstrip("s")] / 2
    total = 0.0
    for count, half, unit, half_after in re.findall(rf"({COUNT})( and a half)? ({UNIT})( and a half)?", words):
        size = UNIT_S[unit.rstrip("s")]
        total += (1.0 if count in ("a", "an") else float(count)) * size + (size / 2 if half or half_after else 0)
    return total


def yours(words: str, table: dict[str, str] = YOURS) -> str:
    """What the user said of themselves, said back to them: "call my mom" -> "call your mom"."""
    return " ".join(table.get(word, word) for word in words.split())
