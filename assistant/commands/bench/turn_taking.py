"""The turn-taking run: every take of the turn-taking corpus through the real pipeline,
in real time, and what a listener would judge of it.

Per take: the turns it was taken as, when each was committed relative to the end of the
user's last word (negative: the user was not done), the end-of-turn decision the
pipeline gave, and the heard latency off the same-clock WAVs. The summary gives the
premature commits in thinking pauses, the wait on finished turns, and how the long
monologue, the trailing "um" and the noisy takes came out.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

import numpy as np

from assistant.sound import load_wav
from assistant.config import Config
from assistant.hear.end_of_turn import longest_silence_ms
from assistant.think.replies import Replies
from assistant.pipeline.session import LoadedModels, build_engine
from assistant.timeline import Mark
from assistant.commands.bench.streaming import TurnCollector
from assistant.commands.bench.takes import open_take
from assistant.commands.bench.turn_corpus import RATE, TurnTake
from assistant.commands.bench.stats import median

log = logging.getLogger(__name__)

PREMATURE_MARGIN_S = 0.05
"""A commit this much before the end of the last word is premature (VAD frames are 32 ms)."""


def run_take(models: LoadedModels, config: Config, replies: Replies | None, take: TurnTake,
             wav: Path | None = None) -> dict[str, Any]:
    """Listen to the whole take (and the silence after it) in real time."""
    samples = load_wav(take.path, RATE)
    played = open_take(samples, RATE, config.audio.output_rate, fast=False, wav=wav)
    turns = TurnCollector()
    engine = build_engine(config, models, played.sink, replies=replies, on_event=turns)
    grace_s = longest_silence_ms(config) / 1000 + 0.5
    deadline = time.perf_counter() + played.source.duration_s + grace_s + 120
    try:
        engine.listen(played.source)
        while time.perf_counter() < deadline and not (played.input_over(grace_s) and not engine.busy):
            time.sleep(0.05)
    finally:
        engine.close()
        played.close()
    t0 = played.source.t0
    heard = played.heard(take.speech_end_s)
    rows = []
    for result in turns.results:
        timeline = result.timeline
        endpoint = timeline.get(Mark.ENDPOINT)
        at_s = None if endpoint is None else endpoint - t0
        rows.append({
            "transcript": result.transcript,
            "reply": result.reply,
            "source": result.source,
            "interrupted": result.interrupted,
            "committed_at_s": None if at_s is None else round(at_s, 3),
            "after_last_word_ms": None if at_s is None else round((at_s - take.speech_end_s) * 1000, 1),
            "decision": timeline.counts.get("turn_decision"),
            "decision_reason": timeline.counts.get("turn_reason"),
            "voice_to_voice": timeline.latency_ms()["voice_to_voice"],
        })
    committed = [r for r in rows if r["committed_at_s"] is not None]
    first = committed[0] if committed else None
    return {
        "take": take.name,
        "kind": take.kind,
        "voice": take.voice,
        "words": take.words,
        "trailing": take.trailing,
        "thinking_pauses": len(take.pauses) if take.kind != "monologue" else 0,
        "turns": rows,
        "premature": bool(first and first["committed_at_s"] < take.speech_end_s - PREMATURE_MARGIN_S),
        "wait_ms": first["after_last_word_ms"] if first else None,
        "heard_ms": heard.ms if heard else None,
    }


def run_turn_taking(models: LoadedModels, config: Config, replies: Replies | None, takes: list[TurnTake],
                    audio_dir: Path | None = None, progress=None) -> list[dict[str, Any]]:
    results = []
    for take in takes:
        models.llm.reset()
        wav = audio_dir / f"{take.name}.wav" if audio_dir else None
        if wav:
            wav.parent.mkdir(parents=True, exist_ok=True)
        results.append(run_take(models, config, replies, take, wav))
        if progress:
            progress(take.name)
    return results


def _mean(values: list[float]) -> float | None:
    return round(float(np.mean(values)), 1) if values else None


def summarize_turn_taking(rows: list[dict[str, Any]]) -> dict[str, Any]:
    paused = [r for r in rows if r["thinking_pauses"]]
    finished = [r for r in rows if r["kind"] in ("complete", "noise", "pause", "um") and not r["trailing"]]
    complete = [r for r in finished if not r["thinking_pauses"]]
    waits = [r["wait_ms"] for r in complete if r["wait_ms"] is not None and not r["premature"]]
    heard = [r["heard_ms"] for r in complete if r["heard_ms"] is not None]

    def outcome(kind: str, trailing: bool | None = None) -> list[dict[str, Any]]:
        return [{"take": r["take"], "turns": len(r["turns"]), "answered": sum(not t["interrupted"] for t in r["turns"]),
                 "wait_ms": r["wait_ms"], "transcript": r["turns"][0]["transcript"] if r["turns"] else ""}
                for r in rows if r["kind"] == kind and (trailing is None or r["trailing"] == trailing)]

    return {
        "takes": len(rows),
        "thinking_pause_takes": len(paused),
        "premature_in_thinking_pauses": sum(r["premature"] for r in paused),
        "premature_takes": [r["take"] for r in rows if r["premature"]],
        "complete_takes": len(complete),
        "mean_wait_ms": _mean(waits),
        "median_wait_ms": median(waits),
        "heard_median_ms": median(heard),
        "split_turns": [r["take"] for r in rows if len(r["turns"]) != 1],
        "monologue": outcome("monologue"),
        "trailing_um": outcome("um", trailing=True),
        "noise": outcome("noise"),
    }
