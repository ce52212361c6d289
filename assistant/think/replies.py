"""Instant replies: short fixed phrases answered without the language model.

The phrase table (``data/replies.toml``, extended by ``replies.toml`` in the config dir)
maps what the user may say to a reply text, an action (stop, repeat, louder, quieter)
or a text with the time or date filled in. A transcript is normalized (case,
punctuation, fillers, contractions), scored against every phrase with rapidfuzz, and
hits only when the whole utterance is close to one phrase and every word said belongs
to that phrase, so "thanks, and what about tomorrow?" still goes to the LLM. Korean is
compared letter by letter (jamo, spaces ignored) and must have about as many syllables as
the phrase, so "감사합리가" (a misheard "감사합니다") hits and "감사한 마음을 어떻게 전해요" does not.

Reply audio is synthesized ahead and kept on disk, one file per voice and text, so a
hit plays at once and the next start reads it back instead of synthesizing again.
Piper renders on a background thread (its session may be shared with the TTS worker);
the system voice (pyttsx3, not thread-safe) renders at load, before the engine starts.
Until a phrase's audio is ready, its reply comes without audio and is spoken live.
The time and date are spoken live unless rendered ahead (``render_passing``); ``stop`` says nothing.
"""

from __future__ import annotations

import logging
import re
import string
import tomllib
import unicodedata
from dataclasses import dataclass
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Mapping, Protocol

import numpy as np
from rapidfuzz import fuzz, process

from assistant.think import hangul, korean
from assistant.writing import has_hangul
from assistant.think.korean_guard import CANNOT_ANSWER, CANNOT_ANSWER_AGAIN
from assistant.think.misheard import DID_NOT_CATCH, NOT_HEARD
from assistant.think.said import Said
from assistant.config import ConfigError, RepliesConfig
from assistant.resources import config_dir

log = logging.getLogger(__name__)

ACTIONS = ("stop", "repeat", "louder", "quieter", "slower", "faster", "recall", "continue", "start_over")
FILLER_WORDS = frozenset({"um", "umm", "uh", "uhh", "uhm", "erm", "er", "hmm", "hm", "mm", "ah", "eh", "oh",
                          "please", "음"})
"""Dropped before matching: hesitations, and "please", which changes no request."""
WORD_CUTOFF = 75.0
"""Score (0-100) each word said must reach against some word of the matched phrase."""
KOREAN_CUTOFF = 75.0
"""Score (0-100) Korean said must reach against a Korean phrase, compared in jamo
(``replies.score_cutoff`` is for other scripts). Chosen on the tune half of the Korean
corpus (``tests/data/korean``): phrases the recognizer misheard scored 75 to 96 against
their own, other sentences' transcripts 67 or less against any phrase."""
KOREAN_STEM_CUTOFF = 55.0
"""...and the letters before the ending they share this (a short sentence is mostly its ending: "맞습니다" was
"고맙습니다" at 82; docs/korean.md)."""
CLOCK_FIELDS = ("time", "date", "weekday", "hour", "minute", "ko_time", "ko_date", "ko_weekday")
"""Placeholders a reply text may use; such replies are filled in when said."""

_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS = "January February March April May June July August September October November December".split()
_WHOLE_CONTRACTIONS = {
    "can't": "can not", "cannot": "can not", "won't": "will not", "let's": "let us", "i'm": "i am",
}
_SUFFIX_CONTRACTIONS = (("n't", " not"), ("'re", " are"), ("'ve", " have"), ("'ll", " will"), ("'d", " would"))
_IS_CONTRACTIONS = frozenset({"what", "it", "that", "there", "here", "who", "where", "how", "he", "she"})


@dataclass(frozen=True)
class InstantReply(Said):
    """What the instant-reply table answers for a transcript."""

    text: str
    """What to say ('' for a silent action)."""
    action: str | None = None
    """``stop``, ``repeat``, ``louder``, ``quieter`` or None."""
    audio: np.ndarray | None = None
    """Prerendered audio at the output rate, when it is ready."""
    social: bool = False
    """A fixed text and no action (a greeting, thanks, yes): often the opening of a request."""

    source = "cache"


class Replies(Protocol):
    def lookup(self, transcript: str, whole: bool = False) -> InstantReply | None:
        """The reply for a short fixed phrase, or None when the LLM should answer (``whole``: :meth:`Matcher.match`)."""

    def audio(self, text: str) -> np.ndarray | None:
        """Prerendered audio of a fixed reply text at the output rate, once it is ready."""

    def filler(self, transcript: str, model: Path | None = None) -> InstantReply | None:
        """A short cached filler (with audio) to play before an LLM answer predicted to be slow."""


# ------------------------------------------------------------------ normalization


def _expand(word: str) -> str:
    if word in _WHOLE_CONTRACTIONS:
        return _WHOLE_CONTRACTIONS[word]
    for suffix, expansion in _SUFFIX_CONTRACTIONS:
        if word.endswith(suffix) and len(word) > len(suffix):
            return word[: -len(suffix)] + expansion
    if word.endswith("'s") and word[:-2] in _IS_CONTRACTIONS:
        return word[:-2] + " is"
    return word.replace("'", "")


def normalize(text: str) -> str:
    """Lower case, contractions expanded, punctuation, fillers and repeated words dropped."""
    text = unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'").replace("\u2018", "'")
    text = " ".join(_expand(word) for word in re.sub(r"[^\w\s']", " ", text).split())
    words: list[str] = []
    for word in re.sub(r"[^\w\s]", " ", text).split():
        if word not in FILLER_WORDS and (not words or words[-1] != word):
            words.append(word)
    return " ".join(words)


# ------------------------------------------------------------------ the phrase table


@dataclass(frozen=True)
class Entry:
    """One row of the table: the phrases (normalized) and what they get."""

    phrases: tuple[str, ...]
    text: str
    action: str | None

    @property
    def dynamic(self) -> bool:
        """True when the text is filled in when said (time, date)."""
        return any(name for _, name, _, _ in string.Formatter().parse(self.text))


@dataclass(frozen=True)
class PhraseTable:
    entries: tuple[Entry, ...]
    filler: str = ""
    """Said before a slow LLM answer when latency masking is on."""

    def static_texts(self) -> list[str]:
        """Texts whose audio can be rendered ahead, in table order."""
        texts = [e.text for e in self.entries if e.text and not e.dynamic]
        return list(dict.fromkeys(texts))


def _parse_entry(row: Any, where: str) -> Entry:
    if not isinstance(row, Mapping):
        raise ConfigError(f"{where} must be a table with 'phrases' and 'text' or 'action'")
    unknown = set(row) - {"phrases", "text", "action"}
    if unknown:
        raise ConfigError(f"{where}: unknown key '{sorted(unknown)[0]}' (known: action, phrases, text)")
    phrases = row.get("phrases")
    if not isinstance(phrases, list) or not phrases or not all(isinstance(p, str) for p in phrases):
        raise ConfigError(f"{where}: 'phrases' must be a non-empty list of strings")
    normalized = tuple(dict.fromkeys(normalize(p) for p in phrases))
    if "" in normalized:
        raise ConfigError(f"{where}: a phrase has no words left after dropping punctuation and fillers")
    text, action = row.get("text", ""), row.get("action")
    if not isinstance(text, str):
        raise ConfigError(f"{where}: 'text' must be a string, not {text!r}")
    if action is not None and action not in ACTIONS:
        raise ConfigError(f"{where}: 'action' must be one of {', '.join(ACTIONS)}, not {action!r}")
    if not text and action is None:
        raise ConfigError(f"{where}: needs a 'text' or an 'action'")
    try:
        fields = [(name, spec, how) for _, name, spec, how in string.Formatter().parse(text) if name is not None]
        if any(name not in CLOCK_FIELDS or spec or how for name, spec, how in fields):
            raise ValueError("a placeholder is one of the names below, with no format")
        fill(text, datetime(2000, 1, 1))
    except (KeyError, ValueError, IndexError, AttributeError) as exc:
        raise ConfigError(
            f"{where}: 'text' {text!r} is not a valid template ({exc}); "
            f"placeholders are {', '.join('{' + f + '}' for f in CLOCK_FIELDS)}"
        ) from exc
    return Entry(normalized, text, action)


def parse_table(values: Mapping[str, Any], source: str) -> tuple[PhraseTable, bool]:
    """The table in ``values`` and whether it keeps the defaults; errors name ``source``."""
    unknown = set(values) - {"reply", "filler", "defaults"}
    if unknown:
        raise ConfigError(f"{source}: unknown key '{sorted(unknown)[0]}' (known: defaults, filler, reply)")
    rows = values.get("reply", [])
    if not isinstance(rows, list):
        raise ConfigError(f"{source}: 'reply' must be an array of tables ([[reply]])")
    entries = tuple(_parse_entry(row, f"{source}: reply #{i + 1}") for i, row in enumerate(rows))
    seen: dict[str, int] = {}
    for i, entry in enumerate(entries):
        for phrase in entry.phrases:
            if phrase in seen and seen[phrase] != i:
                raise ConfigError(f"{source}: phrase '{phrase}' is in reply #{seen[phrase] + 1} and reply #{i + 1}")
            seen[phrase] = i
    filler, defaults = values.get("filler", ""), values.get("defaults", True)
    if not isinstance(filler, str):
        raise ConfigError(f"{source}: 'filler' must be a string, not {filler!r}")
    if not isinstance(defaults, bool):
        raise ConfigError(f"{source}: 'defaults' must be true or false, not {defaults!r}")
    return PhraseTable(entries, filler), defaults


def _read_toml(text: str, source: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source} is not valid TOML: {exc}") from exc


def default_table() -> PhraseTable:
    text = resources.files(__package__).joinpath("data", "replies.toml").read_text(encoding="utf-8")
    return parse_table(_read_toml(text, "default replies table"), "default replies table")[0]


def merge(user: PhraseTable, base: PhraseTable) -> PhraseTable:
    """``user`` first; a phrase it lists is dropped from ``base``."""
    taken = {p for entry in user.entries for p in entry.phrases}
    kept = []
    for entry in base.entries:
        phrases = tuple(p for p in entry.phrases if p not in taken)
        if phrases:
            kept.append(Entry(phrases, entry.text, entry.action))
    return PhraseTable(user.entries + tuple(kept), user.filler or base.filler)


def load_table(path: Path | None = None) -> PhraseTable:
    """The default table, extended by ``path`` (or ``replies.toml`` in the config dir if present)."""
    explicit = path is not None
    path = path or config_dir() / "replies.toml"
    if not path.exists():
        if explicit:
            raise ConfigError(f"replies table {path} does not exist")
        return default_table()
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read replies table {path}: {exc}") from exc
    user, keep_defaults = parse_table(_read_toml(text, f"replies table {path}"), f"replies table {path}")
    return merge(user, default_table()) if keep_defaults else user


# ------------------------------------------------------------------ matching


def fill(text: str, now: datetime) -> str:
    """``text`` with the clock placeholders filled in for ``now``."""
    values = {
        "time": f"{now.hour % 12 or 12}:{now.minute:02d} {'AM' if now.hour < 12 else 'PM'}",
        "date": f"{_WEEKDAYS[now.weekday()]}, {_MONTHS[now.month - 1]} {now.day}",
        "weekday": _WEEKDAYS[now.weekday()],
        "hour": str(now.hour),
        "minute": str(now.minute),
        **korean.clock_values(now),
    }
    return text.format_map(values)


class Matcher:
    """Finds the entry whose phrase is close to the whole utterance, or None.

    Korean is compared letter by letter (:mod:`assistant.think.hangul`), spaces ignored:
    a recognizer gets a letter of a syllable wrong ("감사합니다" heard "감사합리가").
    """

    def __init__(self, table: PhraseTable, score_cutoff: float):
        self.score_cutoff = score_cutoff
        self._entries = {phrase: entry for entry in table.entries for phrase in entry.phrases}
        self._phrases = [p for p in self._entries if not has_hangul(p)]
        self._korean = {hangul.jamo(p): p for p in self._entries if has_hangul(p)}

    def match(self, transcript: str, whole: bool = False) -> Entry | None:
        """``whole``: every word of the phrase was said too ("what do you" is not "what do you do")."""
        said = normalize(transcript)
        if not said:
            return None
        if has_hangul(said):
            return self._match_korean(said)
        best = process.extractOne(said, self._phrases, scorer=fuzz.ratio, score_cutoff=self.score_cutoff)
        if best is None or not self._same_words(said, best[0]) or whole and not self._same_words(best[0], said, 0):
            return None
        return self._entries[best[0]]

    def _match_korean(self, said: str) -> Entry | None:
        """The Korean phrase whose letters are within :data:`KOREAN_CUTOFF` of what was said,
        with about as many syllables: "감사한 마음을 어떻게 전해요" is not "감사합니다"."""
        best = process.extractOne(hangul.jamo(said), list(self._korean), scorer=fuzz.ratio,
                                  score_cutoff=KOREAN_CUTOFF)
        if best is None:
            return None
        phrase = self._korean[best[0]]
        said_length, length = len(hangul.squeeze(said)), len(hangul.squeeze(phrase))
        if abs(said_length - length) > length // 3 or hangul.stems_similarity(hangul.jamo(said), best[0]) < KOREAN_STEM_CUTOFF:
            return None
        return self._entries[phrase]

    @staticmethod
    def _same_words(said: str, phrase: str, extra: int = 1) -> bool:
        """At most ``extra`` more words, each one of the phrase's ("what is the date" is not "what is the time")."""
        words, phrase_words = said.split(), phrase.split()
        if len(words) > len(phrase_words) + extra:
            return False
        return all(process.extractOne(w, phrase_words, scorer=fuzz.ratio, score_cutoff=WORD_CUTOFF) for w in words)


# ------------------------------------------------------------------ the replies


class ReplyAudio(Protocol):
    """The fixed replies' audio, rendered by the voice (:class:`assistant.speak.ready.ReadyAudio`)."""

    synthesized: list[str]

    def audio(self, text: str) -> np.ndarray | None: ...

    def prerender(self, texts: list[str], background: bool) -> None: ...

    def render_passing(self, texts: list[str], before_each: Callable[[], bool] = ...) -> int: ...

    def wait_ready(self, timeout: float | None = None) -> bool: ...


class InstantReplies:
    """The phrase table, its matcher and the reply audio (ready or being rendered)."""

    def __init__(self, config: RepliesConfig, table: PhraseTable, audio: ReplyAudio):
        self.config = config
        self.table = table
        self.matcher = Matcher(table, config.score_cutoff)
        self._audio = audio

    @property
    def synthesized(self) -> list[str]:
        """Texts synthesized (not read from the disk cache) by :meth:`prerender`."""
        return self._audio.synthesized

    def lookup(self, transcript: str, whole: bool = False) -> InstantReply | None:
        entry = self.matcher.match(transcript, whole)
        if entry is None:
            return None
        text = fill(entry.text, datetime.now()) if entry.dynamic else entry.text  # the minute's may be ready too
        return InstantReply(text, entry.action, self.audio(text), social=entry.action is None and not entry.dynamic)

    def filler(self, transcript: str, model: Path | None = None) -> InstantReply | None:
        cfg = self.config
        if not cfg.filler or not self.table.filler:
            return None
        long_question = len(normalize(transcript).split()) >= cfg.filler_min_words
        if not (long_question or _size_mb(model) >= cfg.filler_model_mb):
            return None
        audio = self.audio(self.table.filler)
        return InstantReply(self.table.filler, None, audio) if audio is not None else None

    def audio(self, text: str) -> np.ndarray | None:
        """Audio of ``text`` at the output rate, once it is ready."""
        return self._audio.audio(text)

    def prerender(self, background: bool, also: tuple[str, ...] = ()) -> None:
        """Read the cached audio of every fixed reply (and of the texts ``also``: the skills' answers asked
        often) and synthesize what is missing, on a background thread or right here."""
        texts = self.table.static_texts() + ([self.table.filler] if self.config.filler and self.table.filler else [])
        # said as soon as the turn is over: Korean the model cannot answer, words the recognizer was unsure
        texts += [CANNOT_ANSWER, CANNOT_ANSWER_AGAIN, DID_NOT_CATCH, *NOT_HEARD.values(), *also]  # of, speech read as nothing
        self._audio.prerender(list(dict.fromkeys(texts)), background)

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Block until :meth:`prerender` is done; False on timeout."""
        return self._audio.wait_ready(timeout)

    def render_passing(self, texts: list[str], before_each: Callable[[], bool] = lambda: True) -> int:
        """Synthesize ahead, in memory, answers true for a while only (the time, the date)."""
        return self._audio.render_passing(texts, before_each)


def _size_mb(path: Path | None) -> float:
    try:
        return path.stat().st_size / 1e6 if path is not None else 0.0
    except OSError:
        return 0.0


def load_replies(config: RepliesConfig, audio: ReplyAudio, background: bool, also: tuple[str, ...] = ()) -> InstantReplies | None:
    """The instant replies, their audio rendering started (with the texts ``also``); None when disabled.
    Raises :class:`ConfigError` for a malformed table."""
    if not config.enabled:
        return None
    table = load_table(Path(config.table).expanduser() if config.table else None)
    replies = InstantReplies(config, table, audio)
    replies.prerender(background, also)
    return replies
