"""The ``wake`` section: hands-free listening that answers only when addressed by its phrase
(its own module: the sections' file is full)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from assistant.config.rules import choice, rule, within
from assistant.writing import has_hangul


@dataclass(frozen=True)
class WakeConfig:
    """Hands-free answers only when addressed (see :mod:`assistant.hear.wake`, docs/wake.md)."""
    table: ClassVar[str] = "wake"

    phrase: str = rule("", lambda text: None if len(text) <= 60 else "must be at most 60 characters")
    """The words that wake hands-free listening ("hey assistant", "안녕 비서"); '' answers whatever it
    hears. Push-to-talk, tap-to-talk and typing never need it."""
    follow_up_s: float = within(5.0, 0, 60, "seconds")
    """After a reply, speech that starts within this many seconds is a follow-up, no phrase needed."""
    spot_s: float = within(2.0, 0.5, 4.0, "seconds")
    """While waiting, only the first this-many seconds of an utterance are transcribed to find the phrase."""
    spot_every_ms: int = within(192, 64, 1000, "ms")
    """...transcribed again after each this-many ms of speech (and at a pause), so the phrase is
    known soon after it is said."""
    by: str = choice("model", "probability", "model+probability", "letters")
    """How the phrase is told: ``model``, a small model of the phrase's own on openWakeWord's speech
    embeddings, trained when an English phrase is first chosen (:mod:`assistant.pipeline.wake_training`;
    by probability meanwhile, and for any other phrase); ``probability``, the recognizer's own probability
    of the phrase given the start of the utterance; ``model+probability``, both (the model first,
    Whisper's probability only where the model let the look through). All three need Whisper (with vosk,
    and for a Korean phrase with an English-only Whisper, it is letters); ``letters``, the transcript's
    first words against the phrase letter by letter."""
    probability: float = within(7.8, 0.01, 100.0)
    """``by = probability``: the phrase's probability (0-100, the geometric mean over its tokens) that
    wakes; calibrated on the wake bench's tuning half of corpus v2 (docs/wake.md)."""
    korean_probability: float = within(4.27, 0.01, 100.0)
    """The same for a phrase in Hangul (told by the multilingual Whisper of the ``ko`` extra): chosen by the
    same rule on the Korean wake set 7, judged on set 8 (docs/wake.md)."""
    korean_gate: float = within(31.6, 0.01, 100.0)
    """A phrase in Hangul is told by its own model first (trained when the phrase is first chosen, by
    eSpeak NG's Korean voices; ``by = model`` or ``model+probability``), then by Whisper's probability at
    :attr:`korean_probability` where the model's score (0-100) reaches this: the model spares most of
    Whisper's looks and decides nothing (alone it woke 50-71 times an hour on the Korean sets). The
    middle of the gates that cost nothing on the Korean wake set 7, judged on set 8 (docs/wake.md)."""
    model: float = within(83.2, 0.01, 100.0)
    """``by = model``: the phrase model's score (0-100) that wakes; ``model+probability``: the score a look
    needs before Whisper is asked. The highest at which the wake bench's tuning half (corpus v3) misses at
    most 5% of its phrase takes, half the miss target, spent on margin against near homophones no tuning
    half holds (docs/wake.md)."""
    prompted: bool = False
    """``by = probability``: the phrase is also given to Whisper as the text before (as faster-whisper's
    ``initial_prompt`` and ``hotwords`` do), which makes it likelier in every utterance, said or not."""
    score: float = within(80.0, 50.0, 100.0)
    """``by = letters``: how alike (0-100, letter by letter) the start of the words and the phrase must
    be (the phrase taken out of the words always goes by letters)."""
    chime: bool = True
    """A short chime when the phrase is heard (the screen shows it either way)."""

    def phrase_gate(self) -> float | None:
        """The model's score a look needs before Whisper is asked: :attr:`korean_gate` for a phrase in
        Hangul, :attr:`model` for another with ``by = model+probability``; None (the model decides alone)."""
        if has_hangul(self.phrase):
            return self.korean_gate
        return self.model if self.by == "model+probability" else None

    def phrase_probability(self) -> float:
        """The probability that wakes for this phrase: :attr:`korean_probability` for a phrase in Hangul."""
        return self.korean_probability if has_hangul(self.phrase) else self.probability

