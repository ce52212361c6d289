"""Which end-of-turn signals work: every pause of the turn-taking corpus, replayed.

Each take goes through the same Silero VAD and endpointer as the pipeline; at every
pause (the endpointer's early silence) the words so far are transcribed and the model's
end-of-turn probability is read, as the pipeline does. Each way of deciding is then
scored on those pauses: a commit inside a pause the user speaks on after is premature;
on a finished turn, the silence waited is what the user waits. The compute time of the
signals is not counted here (the real-time run measures it).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from assistant.sound import load_wav
from assistant.config import Config, TurnConfig
from assistant.events import TurnSignals
from assistant.hear.end_of_turn import judge, words_for_model
from assistant.think.misheard import MisheardGuard
from assistant.think.replies import Replies
from assistant.think.skills import load_skills
from assistant.pipeline.at_once import AtOnce, ends_at_once, opens_a_turn
from assistant.pipeline.session import LoadedModels
from assistant.pipeline.transcription import choose
from assistant.hear.vad import Endpointer, VadEventType
from assistant.commands.bench.turn_corpus import TurnTake
from assistant.commands.bench.stats import median

RATE = 16000


@dataclass(frozen=True)
class PauseRecord:
    take: str
    kind: str
    start_s: float
    """Where the pause starts (the end of the last speech frame before it)."""
    final: bool
    """The user is done: this is the turn's end, not a pause inside it."""
    trailing: bool
    silence_ms: float
    """How long the pause lasted (to the next speech, or the end of the take)."""
    thinking: bool
    """A thinking pause the corpus put mid-sentence (not a gap between words or sentences)."""
    transcript: str
    end_of_turn: float | None
    instant: bool
    """The words are answered without the model (a skill's request, or the instant-reply table's)."""
    punctuated: bool = True
    """The recognizer writes end marks (Whisper)."""
    last_word_p: float | None = None
    """The recognizer's probability of the last word."""
    least_word_p: float | None = None
    """...and of its least sure word (docs/tuning.md, "Misheard words")."""
    social: bool = False
    """The words may open a longer turn (:func:`opens_a_turn`: a greeting, thanks, yes or no, "wait")."""


def replay(takes: list[TurnTake], models: LoadedModels, config: Config, replies: Replies | None) -> list[PauseRecord]:
    """Every pause of every take, with the signals the pipeline would have there: what is answered
    without the model is found as the engine finds it (the skills, the instant-reply table, after an
    opening or in a frame: :class:`AtOnce`), with no turn before it to follow up."""
    skills = load_skills(config)
    at_once = AtOnce(skills, replies, config.wake.phrase)
    try:
        return [record for take in takes for record in _replay_take(take, models, config, at_once)]
    finally:
        if skills is not None:
            skills.close()


def _replay_take(take: TurnTake, models: LoadedModels, config: Config, at_once: AtOnce) -> list[PauseRecord]:
    vad = models.vad
    vad.reset()
    endpointer = Endpointer(replace(config.vad, endpoint_ms=10**7, max_speech_s=10**7))
    pcm = load_wav(take.path, RATE)
    frame = vad.frame_samples
    frame_s = frame / RATE
    pad = round(config.vad.speech_pad_ms / 1000 / frame_s) + round(config.vad.min_speech_ms / 1000 / frame_s) + 2
    speech: list[np.ndarray] = []
    pending: dict[str, Any] | None = None
    records: list[PauseRecord] = []
    for index in range(pcm.size // frame):
        chunk = pcm[index * frame : (index + 1) * frame]
        events = endpointer.process(frame_s, vad.probability(chunk))
        for event in events:
            if event.type is VadEventType.SPEECH_START:
                speech = [pcm[max(0, (index + 1) * frame - pad * frame) : (index + 1) * frame]]
            elif event.type is VadEventType.EARLY_SILENCE:
                text, last_word_p, decoding = models.stt.transcribe_decoding(np.concatenate(speech))
                if text and getattr(models.stt, "looks_again", False):  # the transcription stage's second look
                    text, _seen = choose(text, lambda: models.stt.second_look(decoding),
                                         lambda words: at_once.find(words) is not None)
                probability = models.llm.end_of_turn(words_for_model(text)) if text else None
                hit = at_once.find(text) if text else None
                pending = dict(start=event.at, text=text, p=probability, instant=ends_at_once(hit),
                               social=opens_a_turn(hit, replying=False),
                               punctuated=models.stt.punctuates, last_word_p=last_word_p,
                               least_word_p=decoding.least_word_p if decoding else None)
            elif event.type is VadEventType.SPEECH_RESUMED and pending:
                records.append(_record(take, pending, event.at - pending["start"], final=False))
                pending = None
        if endpointer.in_speech and not any(e.type is VadEventType.SPEECH_START for e in events):
            speech.append(chunk)
    if pending:
        records.append(_record(take, pending, pcm.size / RATE - pending["start"], final=True))
    return records


def _record(take: TurnTake, pause: dict[str, Any], silence_s: float, final: bool) -> PauseRecord:
    start = pause["start"]
    thinking = take.kind != "monologue" and any(a - 0.3 <= start <= b for a, b in take.pauses)
    return PauseRecord(take.name, take.kind, round(start, 3), final, take.trailing and final, round(silence_s * 1000, 1),
                       thinking and not final, pause["text"], pause["p"], pause["instant"], pause["punctuated"],
                       pause["last_word_p"], pause["least_word_p"], pause["social"])


def guard_of(config: Config) -> MisheardGuard:
    """The misheard-words guard of ``config`` (what the responder asks at a pause)."""
    return MisheardGuard(config.stt.misheard_below, config.stt.language)


VARIANTS = {
    "fixed silence": dict(mode="fixed"),
    "words only": dict(model=False),
    "model only": dict(words=False),
    "words + model": dict(),
}
"""The ways of deciding compared (``words``: the last word and trailing-off rules and the
instant-reply table; ``model``: the end-of-turn probability)."""


def signals_of(record: PauseRecord, model: bool = True, misheard: MisheardGuard | None = None) -> TurnSignals:
    """The signals the pipeline would have had at the pause (``misheard``: the guard that
    tells words likely misheard, as the responder's does)."""
    return TurnSignals(record.transcript, record.end_of_turn if model else None, record.instant,
                       social=record.social, punctuated=record.punctuated, last_word_p=record.last_word_p,
                       misheard=misheard is not None and misheard.unsure(record.least_word_p))


def score(records: list[PauseRecord], config: Config, mode: str = "semantic",
          words: bool = True, model: bool = True) -> dict[str, Any]:
    """Premature commits (inside pauses) and the wait on finished turns, one way of deciding."""
    turn: TurnConfig = replace(config.turn, mode=mode)
    premature: list[str] = []
    premature_thinking = 0
    waits: list[float] = []
    trailing_waits: list[float] = []
    guard = guard_of(config)
    for record in records:
        judgement = judge(signals_of(record, model, guard), turn, config.vad.endpoint_ms, words=words)
        if not record.final:
            if judgement.wait_ms <= record.silence_ms:
                premature.append(f"{record.take} ({record.transcript[-60:]!r}, {record.silence_ms:.0f} ms pause)")
                premature_thinking += record.thinking
        elif record.trailing:
            trailing_waits.append(judgement.wait_ms)
        else:
            waits.append(judgement.wait_ms)
    return {
        "thinking_pauses": sum(r.thinking for r in records),
        "premature_in_thinking_pauses": premature_thinking,
        "other_pauses": sum(not r.final and not r.thinking for r in records),
        "premature": len(premature),
        "premature_in": premature,
        "finished_turns": len(waits),
        "mean_wait_ms": round(float(np.mean(waits)), 1) if waits else None,
        "median_wait_ms": median(waits),
        "slow_turns": sum(w >= 1000 for w in waits),
        "trailing_mean_wait_ms": round(float(np.mean(trailing_waits)), 1) if trailing_waits else None,
    }


def compare(records: list[PauseRecord], config: Config) -> dict[str, dict[str, Any]]:
    results = {}
    for name, variant in VARIANTS.items():
        variant = dict(variant)
        results[name] = score(records, config, variant.pop("mode", "semantic"), **variant)
    return results


def records_json(records: list[PauseRecord]) -> list[dict[str, Any]]:
    return [
        {**record.__dict__, "end_of_turn_log10": None if not record.end_of_turn else round(float(np.log10(record.end_of_turn)), 2)}
        for record in records
    ]
