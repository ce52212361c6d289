"""Barge-in: whether speech over the reply stops it. Pure logic, no threads and no clock.

While the assistant speaks, the listener hears the room through the echo canceller.
Speech there is a *candidate* interruption:

- once it holds ``min_speech_ms`` of speech from its first sound (:meth:`Overlap.frame`),
  the reply is paused, so a person who talks over it is heard at once (a cough is shorter);
- at its endpoint, its transcript decides (:func:`decide`): enough words that are not
  "mm-hm" nor the reply's own echo, or the "stop" phrase, take the floor (the reply
  stops and the new words are answered); anything else lets the reply resume where it
  paused, or end there when the pause grew too long;
- words take the floor only if the speech went on once the paused reply had fallen
  silent (``confirm_ms``): a person who talks over the reply goes on talking, the echo
  the canceller left stops with the reply (a canceller that is still learning leaves
  bursts of it at the onsets of the reply's words, which the VAD takes for speech and
  Whisper for words). When nobody goes on (``resume_after_ms`` of silence; after speech
  as long as a word, ``resume_after_word_ms``: a speaker's comma), the speech is over at
  once and the reply resumes.

While the canceller is still learning the room (*learning*), a frame counts toward the
pause only where the canceller kept its energy (``learning_kept_db``: echo it took out
does not count). Half duplex (no echo canceller) never pauses. Either way the "stop"
phrase takes the floor, alone (nothing is answered) or at the start of a longer sentence
("wait, what is…": the sentence is answered).
:class:`PlayedReply` records what was played when, so the history keeps only what the
user heard, and a paused reply knows what is left to play.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum
from typing import Callable

import numpy as np

from assistant.config import BargeInConfig
from assistant.hear.echo import Cleaned


class Action(str, Enum):
    PAUSE = "pause"
    """Silence the reply now; it may resume."""
    STOP = "stop"
    """The user takes the floor: the reply ends where it stopped, their words are answered."""
    HUSH = "hush"
    """The "stop" phrase: the reply ends where it stopped, and nothing is answered."""
    RESUME = "resume"
    """The interruption had no words: play on from where the reply paused."""
    END = "end"
    """The interruption had no words but the pause was long: end the reply where it paused."""
    IGNORE = "ignore"
    """Nothing happened to the reply (it never paused); drop the words."""


class UserSpeech:
    """Frame by frame, the speech probability the endpointer gets and the threshold it
    uses (None: the configured one).

    While the reply is audible and the canceller has learnt the room, a frame counts as
    the user's only if the canceller kept enough of it (echo it took out does not count),
    against a lower threshold (it leaves the user's voice quieter and rougher).
    Otherwise frames are taken as they are: half duplex hears its own echo as speech,
    and only the "stop" phrase in it counts (:func:`decide`).
    """

    def __init__(self, config: BargeInConfig):
        self.config = config

    def judge(self, probability: float, cleaned: Cleaned) -> tuple[float, float | None]:
        if not cleaned.reply_audible or not cleaned.converged:
            return probability, None
        return (probability if cleaned.kept_db >= self.config.kept_db else 0.0), self.config.threshold


@dataclass
class Overlap:
    """One utterance heard while the reply plays, fed stream positions in seconds."""

    config: BargeInConfig
    full_duplex: bool
    start: float
    """Position of its first sound."""
    paused_at: float | None = None
    """Position at which it paused the reply; None while it has not."""
    speech_s: float = 0.0
    """Speech heard so far (pauses in it not counted)."""
    alone_s: float = 0.0
    """Speech heard once the paused reply (and its echo) had fallen silent."""
    quiet_s: float = 0.0
    """Silence since the paused reply fell silent, or since the last speech after that."""
    learning: bool = False
    """Begun while the canceller was still learning the room (not full duplex): only speech
    whose energy the canceller kept counts toward the pause."""
    kept_s: float = 0.0
    """Speech heard in frames whose energy the canceller kept (learning)."""
    _last: float | None = None

    def frame(self, position: float, speech: bool, reply_audible: bool = True, kept: bool = True) -> Action | None:
        """A frame ending at ``position`` was (``speech``) or was not speech, with the
        reply (or its echo) audible in it or not, and its energy ``kept`` by the canceller
        or not: PAUSE once the speech has lasted long enough (full duplex, or learning
        with the speech's energy kept)."""
        last = self.start if self._last is None else self._last
        self._last = position
        if speech:
            self.speech_s += position - last
            if kept:
                self.kept_s += position - last
        if self.paused_at is not None and not reply_audible:
            if speech:
                self.alone_s += position - last
                self.quiet_s = 0.0
            else:
                self.quiet_s += position - last
        if self.paused_at is not None or not (self.full_duplex or self.learning):
            return None
        heard = self.speech_s if self.full_duplex else self.kept_s
        if heard * 1000 + 1e-6 >= self.config.min_speech_ms:
            self.paused_at = position
            return Action.PAUSE
        return None

    def learnt(self) -> None:
        """The canceller has learnt the room while this speech went on: from now on it is
        full duplex, and the speech the canceller kept so far counts toward the pause."""
        self.full_duplex, self.learning, self.speech_s = True, False, self.kept_s

    @property
    def paused(self) -> bool:
        return self.paused_at is not None

    @property
    def confirmed(self) -> bool:
        """The speech paused the reply and went on once the reply had fallen silent (it is
        the user's: speech too short to pause the reply never takes the floor either)."""
        return self.paused and self.alone_s * 1000 + 1e-6 >= self.config.confirm_ms

    @property
    def unconfirmed_silence(self) -> bool:
        """The reply paused for it, fell silent, and nobody went on speaking: it was echo or a
        noise, and the reply need not wait for its endpoint to resume."""
        return self.paused and not self.confirmed and self.quiet_s * 1000 + 1e-6 >= self.resume_after_ms

    @property
    def resume_after_ms(self) -> int:
        """The silence a paused reply waits for: longer after a word (a speaker's comma)."""
        word = self.speech_s * 1000 + 1e-6 >= self.config.word_ms
        return self.config.resume_after_word_ms if word else self.config.resume_after_ms


WORD = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*")
"""A word in any script: Korean said over the reply is words too (an ASCII-only pattern found none in Hangul,
so no Korean words ever took the floor, nor began with the "stop" phrase)."""


def words(text: str) -> list[str]:
    return WORD.findall(text.lower())


def meaningful_words(transcript: str, config: BargeInConfig) -> list[str]:
    """The words of ``transcript`` that are not backchannels ("mm-hm", "yeah", "okay")."""
    said = " ".join(words(transcript))
    for phrase in sorted(config.backchannels, key=len, reverse=True):
        said = re.sub(rf"\b{re.escape(phrase)}\b", " ", said)
    return words(said)  # not split(): "uh-uh" less "uh" leaves a lone "-", no word


def starts_with_stop(transcript: str, is_stop: Callable[[str], bool], longest: int = 4) -> bool:
    """The transcript begins with the "stop" phrase and goes on ("wait, what is…"):
    ``is_stop`` says whether a few words are the phrase."""
    said = words(transcript)
    return any(is_stop(" ".join(said[:n])) for n in range(1, min(longest, len(said) - 1) + 1))


def is_echo(transcript: str, played_text: str, cutoff: float = 90.0) -> bool:
    """The transcript is the reply's own words heard back (echo the canceller left)."""
    said, played = " ".join(words(transcript)), " ".join(words(played_text))
    if not said or not played:
        return False
    from rapidfuzz import fuzz

    return fuzz.partial_ratio(said, played) >= cutoff


def decide(
    config: BargeInConfig,
    *,
    full_duplex: bool,
    transcript: str,
    played_text: str,
    is_stop: bool,
    paused_for_s: float | None,
    confirmed: bool = True,
    stop_first: bool = False,
) -> Action:
    """The verdict on an utterance heard over the reply, at its endpoint.

    ``played_text`` is what the reply said in the last seconds (its echo may have been
    transcribed); ``is_stop`` says the transcript is the instant "stop" phrase;
    ``paused_for_s`` is how long the reply has been paused (None: it never paused);
    ``confirmed``: the speech paused the reply and went on once the reply had fallen
    silent (:attr:`Overlap.confirmed`); words that did not are the echo's. ``stop_first``:
    the transcript begins with the "stop" phrase and goes on (:func:`starts_with_stop`):
    the reply stops and the sentence is answered, whatever the duplex.
    """
    if is_stop:
        return Action.HUSH
    if stop_first:
        return Action.STOP
    real = meaningful_words(transcript, config)
    takes_floor = (full_duplex and len(real) >= max(1, config.min_words) and not is_echo(transcript, played_text)
                   and confirmed)
    if takes_floor:
        return Action.STOP
    if paused_for_s is None:
        return Action.IGNORE
    return Action.RESUME if paused_for_s <= config.resume_within_s else Action.END


@dataclass
class Piece:
    start: float
    """Time (perf_counter) its first sample is heard."""
    pcm: np.ndarray
    rate: int
    text: str = ""
    """The reply text this piece begins (empty for a later piece of the same chunk)."""

    @property
    def end(self) -> float:
        return self.start + self.pcm.size / self.rate


@dataclass
class PlayedReply:
    """The pieces of one reply as they were scheduled on the speaker."""

    pieces: list[Piece] = field(default_factory=list)

    def add(self, start: float, pcm: np.ndarray, rate: int, text: str = "") -> None:
        self.pieces.append(Piece(start, pcm, rate, text))

    def heard_text(self, at: float | None = None) -> str:
        """The text of the chunks whose sound had begun by ``at`` (None: all of them)."""
        begun = [p.text for p in self.pieces if p.text and (at is None or p.start < at)]
        return " ".join(t.strip() for t in begun if t.strip())

    def recent_text(self, at: float, seconds: float) -> str:
        """The text of the chunks heard within ``seconds`` before ``at`` (their echo may be around)."""
        texts, current = [], ""
        for piece in self.pieces:
            current = piece.text or current
            if piece.start < at and piece.end > at - seconds and current and (not texts or texts[-1] != current):
                texts.append(current)
        return " ".join(texts)

    def unheard(self, at: float) -> list[tuple[np.ndarray, str]]:
        """What was scheduled but not heard by ``at``, as (pcm, text) to play again on resume;
        a piece cut in the middle goes on from where it was cut."""
        rest: list[tuple[np.ndarray, str]] = []
        for piece in self.pieces:
            if piece.end <= at:
                continue
            skip = max(0, round((at - piece.start) * piece.rate))
            rest.append((piece.pcm[skip:], piece.text if skip == 0 else ""))
        return rest

    def cut(self, at: float) -> None:
        """Forget what was not heard by ``at`` (it was flushed from the speaker)."""
        kept = []
        for piece in self.pieces:
            if piece.start >= at:
                continue
            if piece.end > at:
                piece = Piece(piece.start, piece.pcm[: round((at - piece.start) * piece.rate)], piece.rate, piece.text)
            kept.append(piece)
        self.pieces = kept
