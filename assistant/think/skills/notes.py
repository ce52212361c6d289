"""Lists and things to remember, kept for the user: "add milk and eggs to my shopping list", "what's on my shopping
list", "take milk off my list", "clear my list"; "remember that my car is parked on level 3", "what did I ask you to
remember", "where did I park my car?" (a note it was told, said back), "forget everything"; "우유 장보기 목록에 추가해
줘", "장보기 목록 읽어 줘", "차를 지하 이층에 세웠다고 기억해 줘", "내가 뭐 기억하라고 했지?".

A language model keeps nothing between runs and says it does ("Remember that my car is parked on level 3." was
answered "Okay, I'll remember that." and forgotten). Kept in the place's file beside its timers (the desktop's
survive a restart; ``skills.timers_file``'s folder where it is set), or in memory: a kiosk's visitor takes theirs
along (:meth:`Notes.forget`). Each change is made when the turn is committed. Guard: the whole utterance is one of
the forms below; a note is only said back to a question all of whose content words it holds.
"""

from __future__ import annotations

import json
import logging
import os
import re
import threading
from pathlib import Path

from assistant import resources
from assistant.think.confidence import FUNCTION_WORDS, echoes
from assistant.think.skills import SkillContext, SkillReply, SkillSetup
from assistant.think.skills.korean_numbers import obj, subject, topic
from assistant.think.skills.korean_pattern import Form, first
from assistant.think.skills.text import capital
from assistant.think.skills.timer_forms import YOURS, yours
from assistant.writing import has_hangul

log = logging.getLogger(__name__)

NAME = "notes"
FILE = "notes.json"
MOST = 50
"""Items a list, and notes, kept at most (the oldest go first)."""

_KIND = r"(?:(?P<kind>shopping|grocery|groceries|to do|todo|to-do|packing) )?"
_LIST = rf"(?:my|the|our) {_KIND}list"
_ITEMS = r"(?P<items>[a-z0-9' ,-]+?)"
_FORMS = (
    ("add", rf"^(?:(?:can|could|would) you |please )?(?:add|put|write) {_ITEMS} (?:to|on|onto|in) {_LIST}(?: please)?$"),
    ("read", rf"^(?:what is|what are|what's|what do i have|what have i got|what else is) (?:on|in) {_LIST}$"),
    ("read", rf"^(?:(?:can|could) you )?(?:read|read me|show me|tell me|check) {_LIST}$"),
    ("to_buy", r"^what do (?:i|we) (?:need to buy|need from the (?:shop|store)|have to buy)$"),
    ("remove", rf"^(?:remove|delete|take|cross|cross off|scratch) {_ITEMS} (?:off|from|off of|out of) {_LIST}$"),
    ("clear", rf"^(?:clear|empty|delete|erase|reset) {_LIST}$"),
    ("remember", r"^(?:please )?(?:remember|note|make a note|take a note|write down)(?: that| this|:)? "
                 r"(?P<note>(?:i|i am|my|the|our|we|it|its|mom|dad|[a-z]+ is)\b[a-z0-9' ,:.-]*)$"),
    ("recall", r"^(?:what did i (?:ask|tell) you to remember|what (?:do|did) you remember|what did i tell you"
               r"|(?:read|read me|show me|tell me) (?:my notes|what i told you)|what are my notes|what notes do i have)$"),
    ("forget", r"^(?:forget|delete|clear|erase) (?:everything|it all|all my notes|my notes|what i told you)"
               r"(?: i told you)?$"),
    ("note_bare", r"^(?:take|make) (?:a |an )?(?:note|memo)$|^(?:write|note|jot) (?:this|that|it) down$"),
)
_ENGLISH = tuple((kind, re.compile(form)) for kind, form in _FORMS)
_KINDS = {"shopping": "shopping", "grocery": "shopping", "groceries": "shopping", "to do": "to-do", "todo": "to-do",
          "to-do": "to-do", "packing": "packing"}
_QUESTION = re.compile(r"^(?:where|what|when|which|who|how)\b")
_MINE = re.compile(r"\b(?:i|my|me|mine|we|our|us)\b")
_YOURS = {**YOURS, "we": "you", "our": "your", "us": "you", "i'm": "you're", "we're": "you're", "i've": "you've"}
"""The timers' words of the user's own, and those of a note ("we", "our")."""

_KOREAN_LIST = "장보기_목록|쇼핑_목록|장볼_목록|목록|리스트|할_일_목록"
_PLEASE = "[줘|주세요|줄래|줄래요]"
_KOREAN = [(kind, Form(spec, {"what": lambda said: said or None})) for kind, spec in (
    ("add", f"{{what}} [을|를] {_KOREAN_LIST} 에 추가해|넣어|적어 {_PLEASE}"),
    ("read", f"{_KOREAN_LIST} [좀] 읽어|알려|보여 {_PLEASE}"),
    ("read", f"{_KOREAN_LIST} 에 뭐 [가] 있어|있어요|있지|있나요"),
    ("remove", f"{_KOREAN_LIST} 에서 {{what}} [을|를] 빼|지워|삭제해 {_PLEASE}"),
    ("clear", f"{_KOREAN_LIST} [을|를] [다] 지워|비워|삭제해 {_PLEASE}"),
    ("recall", "[내가] 뭐 [를|라고] 기억하라고 했지|했어|했어요|했죠"),
    ("recall", "[내가] 기억하라고 한 거 [뭐야|뭐예요|알려_줘|알려_주세요]"),
)]


_KOREAN_REMEMBER = re.compile(r"^(?P<what>.+?)(?:다|라)?고 기억해(?: ?둬| ?놔| ?둬요)?(?: ?줘| ?주세요| ?줄래요?)?[.!?]*$")
"""("차를 지하 이층에 세웠다고 기억해 줘": the words kept as said, spaces and all.)"""


class Notes:
    name = NAME

    def __init__(self, path: Path | None = None):
        self.path = path
        self._lock = threading.Lock()
        self.lists: dict[str, list[str]] = {}
        self.notes: list[str] = []
        self._load()

    # -------------------------------------------------------------- asked

    def match(self, text: str, context: SkillContext) -> SkillReply | None:  # noqa: ARG002 - the skills' signature
        if has_hangul(text):
            if told := _KOREAN_REMEMBER.match(text.strip()):
                return self._korean("remember", told["what"].strip())
            hit = first(_KOREAN, text)
            return self._korean(hit[0], hit[1].values.get("what", "")) if hit else None
        said = re.sub(r"[^\w\s',:-]", " ", text.casefold().replace("\u2019", "'")).strip(" ,:")
        said = " ".join(said.split())
        found = next(((kind, m) for kind, form in _ENGLISH if (m := form.match(said))), None)
        if found is None:
            return self._told(said)
        kind, m = found
        name = "shopping" if kind == "to_buy" else _KINDS.get(m.groupdict().get("kind") or "", "")
        label = f"your {name + ' ' if name else ''}list"
        if kind == "add":
            items = _items(m["items"])
            new = [i for i in items if i not in self.lists.get(name, [])]
            if not new:
                return SkillReply(NAME, f"{capital(_and(items))} {'is' if len(items) == 1 else 'are'} already on {label}.")
            return SkillReply(NAME, f"Added {_and(new)} to {label}.", effect=lambda: self._change(name, add=new))
        if kind in ("read", "to_buy"):
            return SkillReply(NAME, self._reading(name, label))
        if kind == "remove":
            items = [i for i in _items(m["items"]) if i in self.lists.get(name, [])]
            if not items:
                return SkillReply(NAME, f"{capital(_and(_items(m['items'])))} isn't on {label}. {self._reading(name, label)}")
            return SkillReply(NAME, f"Took {_and(items)} off {label}.", effect=lambda: self._change(name, remove=items))
        if kind == "clear":
            return SkillReply(NAME, f"{capital(label)} is empty now.", effect=lambda: self._change(name, clear=True))
        if kind == "remember":
            note = yours(m["note"].strip(" ,.:"), _YOURS)
            return SkillReply(NAME, f"Okay, I'll remember that {note}.", effect=lambda: self._remember(note))
        if kind == "recall":
            return SkillReply(NAME, self._recall())
        if kind == "forget":  # everything: the conversation too (as "let's start over"), not where only notes are named
            everything = "note" not in said
            return SkillReply(NAME, "Okay, I've forgotten what you told me.", effect=self._forget_notes,
                              action="start_over" if everything else None)
        return SkillReply(NAME, "Say what to remember: for example, remember that my keys are in the drawer.")

    def _korean(self, kind: str, what: str) -> SkillReply:
        items = [i.strip() for i in re.split(r",|\s+(?:하고|그리고|랑|와|과)\s+", what) if i.strip()]
        if kind == "add":
            return SkillReply(NAME, f"장보기 목록에 {', '.join(items[:-1] + [obj(items[-1])])} 넣었어요.",
                              effect=lambda: self._change("shopping", add=items))
        if kind in ("read", "to_buy"):
            have = self.lists.get("shopping", [])
            return SkillReply(NAME, f"장보기 목록에는 {', '.join(have[:-1] + [subject(have[-1])])} 있어요." if have
                              else "장보기 목록이 비어 있어요.")
        if kind == "remove":
            there = [i for i in items if i in self.lists.get("shopping", [])]
            if not there:
                return SkillReply(NAME, f"장보기 목록에 {topic(what)} 없어요.")
            return SkillReply(NAME, f"장보기 목록에서 {', '.join(there[:-1] + [obj(there[-1])])} 뺐어요.",
                              effect=lambda: self._change("shopping", remove=there))
        if kind == "clear":
            return SkillReply(NAME, "장보기 목록을 비웠어요.", effect=lambda: self._change("shopping", clear=True))
        if kind == "remember":
            return SkillReply(NAME, f"네, {what}다고 기억해 둘게요.", effect=lambda: self._remember(f"{what}다"))
        return SkillReply(NAME, "기억하라고 하신 게 없어요." if not self.notes else ", ".join(self.notes) + "고 하셨어요.")

    def _told(self, said: str) -> SkillReply | None:
        """A question a note answers ("where did i park my car" after "my car is parked on level 3"): the latest note
        that holds every content word of the question (a stem counting), said back, where the question is about the
        user's own ("my", "I") or has two content words or more; None otherwise."""
        if not self.notes or not _QUESTION.match(said):
            return None
        asked = set(_content(said))
        if not asked or len(asked) < 2 and not _MINE.search(said):
            return None  # one word of the world's ("What is a car?") is no question about what the user told
        told = [n for n in self.notes if _shared(asked, _content(n)) == len(asked)]
        return SkillReply(NAME, f"You told me {told[-1]}.") if told else None

    def _reading(self, name: str, label: str) -> str:
        if not name and not self.lists.get(""):  # "my list": the one with something on it
            named = [(n, items) for n, items in self.lists.items() if items]
            if len(named) == 1:
                name, label = named[0][0], f"your {named[0][0]} list"
        items = self.lists.get(name, [])
        return f"{capital(label)} has {_and(items)}." if items else f"{capital(label)} is empty."

    def _recall(self) -> str:
        if not self.notes:
            return "You haven't asked me to remember anything."
        if len(self.notes) == 1:
            return f"You told me {self.notes[0]}."
        return f"You told me {len(self.notes)} things: {'; '.join(self.notes[:-1])}; and {self.notes[-1]}."

    # -------------------------------------------------------------- kept

    def _change(self, name: str, add: list[str] = (), remove: list[str] = (), clear: bool = False) -> None:
        with self._lock:
            items = [] if clear else [i for i in self.lists.get(name, []) if i not in remove]
            items += [i for i in add if i not in items]
            self.lists[name] = items[-MOST:]
            self._save()

    def _remember(self, note: str) -> None:
        with self._lock:
            self.notes = [n for n in self.notes if n != note][-(MOST - 1):] + [note]
            self._save()

    def _forget_notes(self) -> None:
        with self._lock:
            self.notes = []
            self._save()

    def forget(self) -> None:
        """A kiosk's visitor left: their lists and notes go with them."""
        with self._lock:
            self.lists, self.notes = {}, []
            self._save()

    def _load(self) -> None:
        if self.path is None or not self.path.exists():
            return
        try:
            kept = json.loads(self.path.read_text(encoding="utf-8"))
            self.lists = {str(k): [str(i) for i in v] for k, v in dict(kept.get("lists", {})).items()}
            self.notes = [str(n) for n in kept.get("notes", [])]
        except (OSError, ValueError, TypeError, AttributeError) as exc:
            aside = self.path.with_name(self.path.name + ".bad")
            log.warning("could not read the lists and notes in %s (%s); it is kept as %s, and they start empty",
                        self.path, exc, aside.name)
            try:
                os.replace(self.path, aside)
            except OSError:
                pass

    def _save(self) -> None:
        """Write the lists and notes whole (the caller holds the lock); a failure costs only keeping them."""
        if self.path is None:
            return
        try:
            resources.write_text(self.path, json.dumps({"lists": self.lists, "notes": self.notes}, ensure_ascii=False))
        except OSError as exc:
            log.warning("could not keep the lists and notes in %s (%s); they last until the app closes", self.path, exc)


def _items(said: str) -> list[str]:
    """"butter, cheese and yogurt" -> ["butter", "cheese", "yogurt"]."""
    parts = re.split(r",\s*(?:and\s+)?|\s+and\s+", said.strip(" ,"))
    return list(dict.fromkeys(p.strip() for p in parts if p.strip() and p.strip() not in ("some", "a", "the")))


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _content(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9']+", text.casefold()) if w not in FUNCTION_WORDS and w not in _YOURS
            and w not in ("did", "put", "leave", "left", "told", "tell")]


def _shared(asked: set[str], note: list[str]) -> int:
    """Content words of the question found in the note, a stem counting ("park", "parked")."""
    return sum(any(echoes(a, n) for n in note) for a in asked)


def notes_path(setup: SkillSetup) -> Path | None:
    """The place's file, beside its timers (None: in memory)."""
    return setup.timers_path.with_name(FILE) if setup.timers_path is not None else None


def create(setup: SkillSetup) -> Notes:
    return Notes(notes_path(setup))
