"""The phrase model on the wake phrase's held-out sets (``assistant/commands/bench/wake_sets.toml``):
false accepts (all of them, and those on speech without a near homophone) and misses at each
threshold, on each set as said and, with ``--room``, through a reverberator (sox).

Each set is made once into the cache folder (``wake-sets/``), each take replayed as the bench's
halves are (the Silero VAD, the endpointer, the model's looks up to ``wake.spot_s``), and scored by
the phrase model as the app trains it for "hey assistant" (trained on first use, then read from the
cache; a Korean set's phrase, "안녕 비서", by Korean voices). Deterministic, but for the CPU each look cost.

    python -m tools.wake_sets [--sets 1,2,3,4,5] [--room] [--thresholds 79.5,83.2] [--probability]

``--probability``: Whisper's probability of the phrase too, and for a Korean set the phrase model as a gate in
front of it (``wake.korean_gate``), as the app tells a Korean phrase.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import soundfile

from assistant.commands.bench.wake import PHRASE, merged_looks
from assistant.commands.bench.wake_sets import SETS, make_set, near_homophone_takes, phrase_of, reverberant
from assistant.config import Config, with_overrides
from assistant.resources import cache_dir


def scored_rows(takes, number: int, model, config: Config) -> list[dict]:
    """The takes as the bench's figures read them: the model's looks, scored."""
    from assistant.commands.bench.wake_looks import model_looks
    from assistant.hear.vad import SileroVad
    from assistant.hear.wake_model import shared_embedder
    from assistant.machine.models import find_silero_vad

    vad, rows = SileroVad(find_silero_vad()), []
    for take in takes:
        done, found = model_looks(take, vad, shared_embedder(), config)
        kept = np.stack(found).astype(np.float16).astype(np.float32) if found else None  # as the bench keeps them
        scores = iter(100 * model.probability(kept) if found else [])
        for utterance in done["utterances"]:
            for look in utterance["looks"]:
                look["model"] = float(next(scores))
        index = None if take.positive else int(take.name.split("-")[2])
        rows.append({"take": take.name, "positive": take.positive, "phrase_end_s": take.phrase_end_s,
                     "seconds": soundfile.info(str(take.path)).duration,
                     "model_utterances": merged_looks({"utterances": []}, done),  # no Whisper looks: none cost
                     "near": index is not None and near_homophone_takes(number, index)})
    return rows


def gated(row: dict) -> dict:
    """A row whose Whisper looks were added: its model's looks with what Whisper's look at the same point
    gave (``model+probability``: the model first, Whisper where the model lets a look through)."""
    done = {"utterances": [{"start_s": u["start_s"], "looks": [{**look, "ms": look["model_ms"]} for look in u["looks"]]}
                           for u in row["model_utterances"]]}
    return {**row, "model_utterances": merged_looks(row, done)}


def whisper_looks(takes, config: Config, phrase: str, whisper: str | None = None) -> dict[str, list[dict]]:
    """Whisper's looks at every take (the probability of ``phrase``), by the recognizer of the phrase's
    language as the app loads it (Korean: the multilingual Whisper of the ``ko`` extra), or by the
    CTranslate2 Whisper in the folder ``whisper``."""
    from assistant.commands.bench.wake_looks import take_looks
    from assistant.hear.stt import WhisperStt
    from assistant.hear.vad import SileroVad
    from assistant.hear.wake_score import PhraseProbability
    from assistant.languages import for_language
    from assistant.machine.models import find_silero_vad
    from assistant.writing import has_hangul

    config = with_overrides(config, wake={"phrase": phrase})
    if has_hangul(phrase):
        config = for_language(with_overrides(config, stt={"language": "ko"}))
    if whisper:
        config = with_overrides(config, stt={"whisper_model": whisper})
    stt, vad = WhisperStt(config.stt), SileroVad(find_silero_vad())
    scorer = PhraseProbability(stt, phrase)
    return {take.name: take_looks(take, vad, scorer, config)["utterances"] for take in takes}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.wake_sets", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default=",".join(str(n + 1) for n in range(len(SETS))))
    parser.add_argument("--room", action="store_true", help="also each set through a reverberator (needs sox)")
    parser.add_argument("--thresholds", default="", help="model scores to wake at (default: the configured one)")
    parser.add_argument("--probability", action="store_true",
                        help="also Whisper's probability of the phrase, at the configured threshold (slow: a look costs a decoding)")
    parser.add_argument("--whisper", default="", help="--probability by the CTranslate2 Whisper in this folder")
    args = parser.parse_args(argv)
    from assistant.commands.bench.wake_ways import figures
    from assistant.pipeline.wake_training import phrase_model
    from assistant.speak.tts import PiperTts

    config = with_overrides(Config(), wake={"phrase": PHRASE})
    thresholds = [float(t) for t in args.thresholds.split(",") if t] or [config.wake.model]
    models = {}
    folder = cache_dir() / "wake-sets"
    print("set | threshold | false accepts (an hour) | without a near homophone | misses")
    for number in (int(n) for n in args.sets.split(",")):
        takes, phrase = make_set(number, folder / f"set{number}"), phrase_of(number)
        if phrase not in models:  # trained as the app trains it (a Korean phrase by Korean voices)
            models[phrase] = phrase_model(phrase, PiperTts(config.tts))
        model = models[phrase]
        versions = [(f"set {number}", takes)]
        if args.room:
            versions.append((f"set {number}, room", reverberant(takes, folder / f"set{number}-room")))
        for name, version in versions:
            rows = scored_rows(version, number, model, config)
            plain = [r for r in rows if not r["near"]]
            if args.probability:
                by = f"-{Path(args.whisper).name}" if args.whisper else ""
                kept = folder / f"{name.replace(' ', '').replace(',', '-')}-looks{by}.json"  # made once, scored again
                looks = ({r["take"]: r["utterances"] for r in json.loads(kept.read_text(encoding="utf-8"))}
                         if kept.is_file() else whisper_looks(version, config, phrase, args.whisper or None))
                for row in rows:
                    row["utterances"] = looks[row["take"]]
                kept.write_text(json.dumps(rows), encoding="utf-8")
                wake = with_overrides(config, wake={"phrase": phrase}).wake
                wakes_at, gate = wake.phrase_probability(), wake.phrase_gate()
                ways = [("probability", wakes_at, f"by probability {wakes_at}")]
                if gate is not None:  # a Korean phrase: its model gates Whisper's looks
                    ways.append(("model+probability", (gate, wakes_at), f"model {gate}, then probability {wakes_at}"))
                merged = [gated(r) for r in rows] if gate is not None else []
                for way, threshold, label in ways:
                    every = merged if way != "probability" else rows
                    for part, chosen in (("", every), (" without a near homophone", [r for r in every if not r["near"]])):
                        got = figures(way, chosen, threshold, phrase)
                        print(f"{name}{part} | {label} | {got['false_accepts']} in "
                              f"{got['negative_minutes']} min ({got['false_accepts_per_hour']}) | "
                              f"{got['misses']}/{got['phrase_takes']} | CPU {got['cpu_share_of_a_core']} of a core | "
                              f"latency {got['latency_ms_median']} / {got['latency_ms_p90']} ms", flush=True)
            for threshold in thresholds:
                every, without = figures("model", rows, threshold, phrase), figures("model", plain, threshold, phrase)
                print(f"{name} | {threshold} | {every['false_accepts']} in {every['negative_minutes']} min "
                      f"({every['false_accepts_per_hour']}) | {without['false_accepts']} in "
                      f"{without['negative_minutes']} min ({without['false_accepts_per_hour']}) | "
                      f"{every['misses']}/{every['phrase_takes']}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
