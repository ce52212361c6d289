"""Ways of deciding that an utterance began with the wake phrase, measured on the bench's looks
(:mod:`assistant.commands.bench.wake_looks`): each way walks an utterance's looks in order as
:class:`~assistant.hear.wake.Spotting` would and stops where it would (the phrase heard, or no
more to look at), so its misses, false accepts, latency and CPU are its own.

- ``text+skip``: the transcript's first words against the phrase's letters (score 80), one word
  allowed before it (the first round's rule);
- ``text``: the same, no word before it;
- ``model``: the phrase's own model on openWakeWord's embeddings (:mod:`assistant.hear.wake_model`),
  0-100; ``model+probability``: the model first, then Whisper's probability of the looks it lets
  through (two thresholds, both from the tuning half);
- ``probability``: Whisper's own probability of the phrase forced at the start (geometric mean of
  its tokens, best spelling); ``probability-min``: the least likely of its tokens instead;
  ``probability-ratio``: the geometric mean against the free transcription's own mean token
  probability (a log-ratio); ``probability-prompted``: the geometric mean with the phrase given as
  the text before (faster-whisper's ``initial_prompt``, the biasing its ``hotwords`` also use).

The probability ways' thresholds are calibrated on the tuning half only
(:func:`calibrate`), then the same threshold is used on the test half.
"""

from __future__ import annotations

import math

from assistant.config import WakeConfig
from assistant.hear.wake import FLOOR, FLOOR_AFTER_S, Spotting, Verdict, WakePhrase
from assistant.hear.wake_score import geometric_mean

WAYS = ("text+skip", "text", "probability", "probability-min", "probability-ratio", "probability-prompted",
        "model", "model+probability")
MODEL_WAYS = ("model", "model+probability")
"""Ways that walk the model's looks (``model_looks`` of a take: the phrase model's score at each)."""
MISS_WEIGHT = 1.0
"""Calibration: a point of miss rate (%) weighs this much ..."""
FA_WEIGHT = 10.0
"""... and a false accept an hour this much (the targets, 10% and 1/h, weigh the same)."""
MODEL_MISS_SHARE = 0.05
"""The phrase model's threshold: the highest at which the tuning half's phrase takes are missed no
more often than this (half the 10% target). Its false accepts are not bounded by any tuning half (the
near misses made from the phrase's sounds score as high as the phrase, and the held-out sets' near
homophones above the threshold a cost rule chose where the tuning half woke on nothing), its misses by
voices are: so half the miss budget buys margin against what the tuning half never said."""
SCORES = tuple(10 ** (-2 + 0.02 * i) for i in range(201))
"""The thresholds a probability or the model's score is calibrated over: 0.01 to 100, in steps of 10^0.02."""


def look_score(way: str, row: dict, phrase: WakePhrase | None = None) -> float:
    """The way's score of one look (text ways: 0-100 letters alike; probability: 0-100;
    ratio: natural log)."""
    if way.startswith("text"):
        found = phrase.best(row["text"])
        return found.score if found else 0.0
    if way in MODEL_WAYS:
        return row["model"] if way == "model" else 100 * max(geometric_mean(p) for p in row.get("probs") or [[0.0]])
    if way == "probability-min":
        return 100 * max(min(p) for p in row["probs"])
    gm = max(geometric_mean(p) for p in row["probs_prompted" if way == "probability-prompted" else "probs"])
    if way == "probability-ratio":
        return math.log(max(gm, 1e-12)) - row["logprob"]
    return 100 * gm


def _utterance(way: str, looks: list[dict], threshold: float, phrase: WakePhrase) -> tuple[int | None, int]:
    """(index of the look that found the phrase or None, looks spent). ``text`` ways and
    ``probability`` go through the engine's own :class:`Spotting`."""
    if way in MODEL_WAYS:
        model, probability = (threshold, 100.0) if way == "model" else threshold
        spotting = Spotting(phrase, WakeConfig(phrase=phrase.phrase, by=way, model=model, probability=probability))
        for i, row in enumerate(looks):
            score = row["model"] if way == "model" else look_score(way, row) if row["model"] >= model else 0.0
            verdict, _ = spotting.hear("", row["speech_s"], row["final"], score)
            if verdict is not Verdict.WAIT:
                return (i if verdict is Verdict.WOKE else None), i + 1
        return None, len(looks)
    if way.startswith("text") or way in ("probability", "probability-prompted"):
        by = "letters" if way.startswith("text") else "probability"
        spotting = Spotting(phrase, WakeConfig(phrase=phrase.phrase, by=by, probability=threshold))
        for i, row in enumerate(looks):
            if way.startswith("probability"):
                probability = look_score(way, row)
                text = row["text"] if probability >= threshold else ""
                verdict, _ = spotting.hear(text, row["speech_s"], row["final"], probability)
            else:
                verdict, _ = spotting.hear(row["text"], row["speech_s"], row["final"])
            if verdict is not Verdict.WAIT:
                return (i if verdict is Verdict.WOKE else None), i + 1
        return None, len(looks)  # the looks ran out: the bench stopped where no way could still wake
    for i, row in enumerate(looks):
        if look_score(way, row, phrase) >= threshold:
            return i, i + 1
        if 100 * max(geometric_mean(p) for p in row["probs"]) < FLOOR and row["speech_s"] >= FLOOR_AFTER_S:
            return None, i + 1
    return None, len(looks)


def _cost_ms(way: str, row: dict, woke: bool, threshold=None) -> float:
    ms = row["ms"]
    if way in MODEL_WAYS:
        whisper = way != "model" and row["model"] >= threshold[0]
        return row["model_ms"] + (ms["encode"] + ms["align"] if whisper else 0.0) + (ms["decode"] if woke else 0.0)
    if way.startswith("text"):
        return ms["encode"] + ms["decode"]
    return ms["encode"] + ms["align"] + (ms["decode"] if woke else 0.0)


def decide(way: str, take: dict, threshold: float, phrase: WakePhrase) -> dict:
    """One take under one way: woken (and where), looks and CPU spent."""
    looks = cpu = 0
    for utterance in take["model_utterances" if way in MODEL_WAYS else "utterances"]:
        index, spent = _utterance(way, utterance["looks"], threshold, phrase)
        looks += spent
        cpu += sum(_cost_ms(way, row, i == index, threshold) for i, row in enumerate(utterance["looks"][:spent]))
        if index is not None:
            row = utterance["looks"][index]
            woke = {"look": looks, "score": round(look_score(way, row, phrase), 3), "text": row.get("text", "")}
            if take["phrase_end_s"] is not None:
                at = utterance["start_s"] + row["speech_s"]
                woke["latency_ms"] = round((at - take["phrase_end_s"]) * 1000 + _cost_ms(way, row, True, threshold), 1)
            return {"woke": woke, "looks": looks, "cpu_ms": cpu}
    return {"woke": None, "looks": looks, "cpu_ms": cpu}


def figures(way: str, takes: list[dict], threshold: float, phrase_text: str) -> dict:
    """Misses, false accepts an hour, latency and CPU of one way on one half."""
    phrase = WakePhrase(phrase_text, 80.0, skipped_words=1 if way == "text+skip" else 0)
    decided = [(take, decide(way, take, threshold, phrase)) for take in takes]
    neg = [(t, d) for t, d in decided if not t["positive"]]
    pos = [(t, d) for t, d in decided if t["positive"]]
    hours = sum(t["seconds"] for t, _ in neg) / 3600
    accepts = [t["take"] for t, d in neg if d["woke"]]
    missed = [t["take"] for t, d in pos if not d["woke"]]
    latencies = sorted(d["woke"]["latency_ms"] for _, d in pos if d["woke"])
    pick = (lambda q: latencies[int(q * (len(latencies) - 1))]) if latencies else (lambda q: None)
    return {
        "way": way, "threshold": [round(t, 3) for t in threshold] if isinstance(threshold, tuple) else round(threshold, 3), "negative_minutes": round(hours * 60, 1),
        "negative_takes": len(neg), "false_accepts": len(accepts),
        "false_accepts_per_hour": round(len(accepts) / hours, 2) if hours else None,
        "false_accept_takes": accepts, "phrase_takes": len(pos), "misses": len(missed),
        "miss_rate": round(len(missed) / len(pos), 3) if pos else None, "missed_takes": missed,
        "latency_ms_median": pick(0.5), "latency_ms_p90": pick(0.9), "latency_ms_max": latencies[-1] if latencies else None,
        "cpu_share_of_a_core": round(sum(d["cpu_ms"] for _, d in neg) / 1000 / (hours * 3600), 3) if hours else None,
        "looks_per_minute": round(sum(d["looks"] for _, d in neg) / (hours * 60), 1) if hours else None,
    }


def calibrate(way: str, tune: list[dict], phrase_text: str) -> float:
    """The threshold of a probability way, from the tuning half only: the one that minimises
    ``MISS_WEIGHT`` × miss rate (%) + ``FA_WEIGHT`` × false accepts an hour; of equally good
    ones, the middle (geometrically, for the probabilities). The phrase model's: by its misses
    alone (:data:`MODEL_MISS_SHARE`)."""
    if way.startswith("text"):
        return 80.0
    if way == "model":
        return _calibrate_by_misses(tune, phrase_text)
    if way == "model+probability":
        return _calibrate_pair(tune, phrase_text)
    if way == "probability-ratio":
        candidates = [-8 + 0.05 * i for i in range(241)]
    else:
        candidates = list(SCORES)
    chosen = _best(way, tune, phrase_text, candidates)
    low, high = chosen[0], chosen[-1]
    if way == "probability-ratio":
        return (low + high) / 2
    return math.sqrt(low * high)


def calibrate_gate(tune: list[dict], phrase_text: str, probability: float) -> float:
    """The model's gate in front of a probability already calibrated (``model+probability`` with the
    probability fixed): of the gates (:data:`SCORES`) at which the tuning half costs what it costs with every
    look let through (the lowest gate: no more misses or false accepts), the middle on the model's own 0-100
    scale. The gate is there to spare Whisper's looks, not to decide: the highest such gate sits where the
    tuning half's quietest phrase take is about to be lost, so half of it keeps that margin."""
    alone = _cost("model+probability", tune, (SCORES[0], probability), phrase_text)
    free = [g for g in SCORES if _cost("model+probability", tune, (g, probability), phrase_text) <= alone + 1e-9]
    if not free:
        return SCORES[0]
    middle = (free[0] + free[-1]) / 2
    return min(free, key=lambda g: abs(g - middle))


def _calibrate_by_misses(tune: list[dict], phrase_text: str) -> float:
    """``model``: the highest threshold (of :data:`SCORES`) at which the tuning half misses at most
    :data:`MODEL_MISS_SHARE` of its phrase takes (its negatives do not count, so they are not walked)."""
    phrase_takes = [take for take in tune if take["positive"]]
    within_share = [t for t in SCORES
                    if (figures("model", phrase_takes, t, phrase_text)["miss_rate"] or 0.0) <= MODEL_MISS_SHARE + 1e-9]
    return max(within_share, default=SCORES[0])


def _cost(way: str, takes: list[dict], threshold, phrase_text: str) -> float:
    f = figures(way, takes, threshold, phrase_text)
    return MISS_WEIGHT * 100 * (f["miss_rate"] or 0) + FA_WEIGHT * (f["false_accepts_per_hour"] or 0)


def _best(way: str, tune: list[dict], phrase_text: str, candidates: list) -> list:
    """The candidates of least cost on the tuning half, in order."""
    best, chosen = None, []
    for threshold in candidates:
        cost = _cost(way, tune, threshold, phrase_text)
        if best is None or cost < best - 1e-9:
            best, chosen = cost, [threshold]
        elif abs(cost - best) <= 1e-9:
            chosen.append(threshold)
    return chosen


def _calibrate_pair(tune: list[dict], phrase_text: str) -> tuple[float, float]:
    """``model+probability``: the pair of least cost on the tuning half; of equally good pairs, the
    model's threshold in the geometric middle of theirs, then the probability's in the middle of
    those with that model threshold."""
    models = [10 ** (-0.3 + 0.1 * i) for i in range(24)]  # 0.5 (the bench's gate for Whisper looks) to 100
    probabilities = [10 ** (-2 + 0.05 * i) for i in range(81)]
    chosen = _best("model+probability", tune, phrase_text, [(m, p) for m in models for p in probabilities])
    ms = sorted({m for m, _ in chosen})
    model = min(ms, key=lambda m: abs(math.log(m) - (math.log(ms[0]) + math.log(ms[-1])) / 2))
    ps = [p for m, p in chosen if m == model]
    return model, math.sqrt(ps[0] * ps[-1])
