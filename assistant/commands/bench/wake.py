"""``assistant bench --wake``: the wake phrase spotted on a generated corpus, a tuning half and a
test half apart by voice and by sentence (decided before any tuning; the test half is reported first).

Negatives never say the phrase: sentences said by many espeak-ng voices, three at a time, some
as a TV would sound (a second voice talking over, 6 dB down) and some under steady noise, at least
``NEGATIVE_MINUTES`` a half; the tuning half's also hold the phrase's near misses made from its sounds
(:data:`NEAR_MISSES`, for any phrase), heard the same ways. Positives say it: alone, then the question in one breath, and with a
pause before the question, by each voice of the half at three rates (decided before tuning).

Each take is replayed as the engine hears it, faster than real time: the Silero VAD and the
endpointer cut it into utterances (:class:`~assistant.pipeline.listen.Segmenter`), and each
utterance's start is looked at once with the loaded Whisper, everything each way of deciding
needs kept (:mod:`~assistant.commands.bench.wake_looks`); each way then decides on those looks
as the engine's :class:`~assistant.hear.wake.Spotting` does (:mod:`~assistant.commands.bench.wake_ways`).
Figures: false accepts per hour of negative speech, misses, latency from the end of the phrase to
the look that found it (audio waited for plus the look's compute), and the CPU the waiting costs
as a share of one core (the parts of a look that way needs).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from assistant.commands.bench.turn_corpus import MONOLOGUE, espeak_speaker, join_parts, noise
from assistant.commands.bench.turn_split import FIRST_COMPLETE as COMPLETE, FIRST_REQUESTS as REQUESTS
from assistant.commands.bench.turn_split import FIRST_STATEMENTS as STATEMENTS, FIRST_VOICES as VOICES, Voice
from assistant.config import Config, with_overrides
from assistant.pipeline.wake_sounds import sound_misses
from assistant.resources import cache_dir
from assistant.sound import save_wav

RATE = 16000
VERSION = 3
"""Of the corpus (v3: the tuning half's near misses made from the phrase's sounds; the test half as in v2)."""
PHRASE = "hey assistant"
NEGATIVE_MINUTES = 31.0
CONFUSABLE = {
    "tune": ["Hey, is this seat taken?", "Hey Sam, can you assist me with this?", "The assistant said hello."],
    "test": ["Hey, a sister of mine called.", "Hey there, I am the assistant manager.", "Hey, this is so tense."],
}
"""Sentences that begin like the phrase, or hold its words."""
NEAR_MISSES = ("tune",)
"""The halves whose negatives also hold the phrase's near misses made from its sounds (for any phrase,
:mod:`assistant.pipeline.wake_sounds`, as the training makes them for other voices): the tuning half's,
so that its threshold is chosen with near misses said; the test half keeps its v2 takes."""
NEAR_SEED = 10_000
"""The near-miss takes' noise seeds start here (the other negatives' are their take numbers)."""
KINDS = ("tv", "noise", "plain")
RATE_STEPS = (-20, 0, 30)
"""Each voice says the positives at three rates (words a minute, about its own): 54 phrase takes in the test half."""
QUESTIONS = {"tune": ["what time is it?", "tell me a joke."], "test": ["what is the weather like?", "set a timer."]}


@dataclass(frozen=True)
class WakeTake:
    name: str
    path: Path
    half: str
    positive: bool
    voice: str
    phrase_end_s: float | None = None
    """Where the phrase's last word ends (positives)."""


def _sentences(half: str) -> list[str]:
    monologue = [s for i, s in enumerate(MONOLOGUE) if i % 2 == (half == "test")]
    return COMPLETE[half] + REQUESTS[half] + STATEMENTS[half] + monologue + CONFUSABLE[half]


def make_wake_corpus(folder: Path | None = None) -> list[WakeTake]:
    """Both halves (made on first use, then read from ``folder``)."""
    folder = folder or cache_dir() / "wake-corpus" / f"v{VERSION}"
    manifest = folder / "manifest.json"
    if manifest.is_file():
        return [WakeTake(**{**row, "path": folder / row["path"]}) for row in json.loads(manifest.read_text())]
    folder.mkdir(parents=True, exist_ok=True)
    takes: list[WakeTake] = []
    for half in ("test", "tune"):
        voices = [v for v in VOICES[half] if v.name != "piper"]
        takes += positive_takes(folder, half, voices) + negative_takes(folder, half, voices)
        takes += _near_misses(folder, half, voices)
    rows = [{**t.__dict__, "path": t.path.name} for t in takes]
    manifest.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return takes


def _save(folder: Path, name: str, audio: np.ndarray) -> Path:
    path = folder / f"{name}.wav"
    save_wav(path, np.clip(audio, -1, 1), RATE)
    return path


def positive_takes(folder: Path, half: str, voices: list[Voice], questions: list[str] | None = None,
                   said: str = PHRASE) -> list[WakeTake]:
    """The phrase (``said``) alone, in one breath with a question and before it after a pause, by each
    voice at each of :data:`RATE_STEPS` (the questions: the half's, else ``questions``, taken in turn)."""
    questions = questions or QUESTIONS[half]
    takes = []
    for v, voice in enumerate(voices):
        for rate in (voice.rate + step for step in RATE_STEPS):
            say = espeak_speaker(voice.name, rate, voice.pitch)
            phrase = say(said.capitalize())
            question = questions[v % len(questions)]
            forms = {"alone": ([phrase], []), "breath": ([say(f"{said.capitalize()}, {question}")], []),
                     "pause": ([phrase, say(question.capitalize())], [0.6])}
            for form, (parts, gaps) in forms.items():
                audio, _, _ = join_parts(parts, gaps)
                name = f"{half}-pos-{form}-{voice.name}-{rate}"
                takes.append(WakeTake(name, _save(folder, name, audio), half, True, voice.name,
                                      round(0.5 + phrase.size / RATE, 3)))
    return takes


def negative_said(sentences: list[str], index: int) -> tuple[list[str], str | None]:
    """What negative take ``index`` says: three of ``sentences`` in turn, and in a TV-like take (one in
    three) one more, by another voice over them."""
    picked = [sentences[(index * 3 + k) % len(sentences)] for k in range(3)]
    return picked, sentences[(index * 7 + 1) % len(sentences)] if KINDS[index % 3] == "tv" else None


def negative_takes(folder: Path, half: str, voices: list[Voice], sentences: list[str] | None = None,
               minutes: float = NEGATIVE_MINUTES, seed: int = 0) -> list[WakeTake]:
    """Three sentences a take (the half's, else ``sentences``) by the voices in turn, heard as
    :data:`KINDS` say, until ``minutes`` of them; take ``index``'s noise from seed ``seed + index``."""
    sentences, takes, seconds, index = sentences or _sentences(half), [], 0.0, 0
    speakers = [espeak_speaker(v.name, v.rate + d, v.pitch) for v in voices for d in (0, 25)]
    while seconds < minutes * 60:
        say = speakers[index % len(speakers)]
        picked, over = negative_said(sentences, index)
        audio, _, _ = join_parts([say(s) for s in picked], [0.35, 0.5])
        kind = KINDS[index % 3]
        other = speakers[(index + 5) % len(speakers)](over) if over is not None else None
        audio = _heard(audio, kind, seed + index, other)
        name = f"{half}-neg-{index:03d}-{kind}"
        takes.append(WakeTake(name, _save(folder, name, audio), half, False, voices[index % len(voices)].name))
        seconds += audio.size / RATE
        index += 1
    return takes


def _heard(audio: np.ndarray, kind: str, seed: int, other: np.ndarray | None) -> np.ndarray:
    """A negative take as heard: ``tv``, ``other`` over it 6 dB down from 0.8 s on and noise 26 dB
    down; ``noise``, steady noise 20 dB down; ``plain``, as said."""
    if kind == "tv":
        start = int(0.8 * RATE)
        end = min(audio.size, start + other.size)
        audio[start:end] += 0.5 * other[: end - start]
    if kind != "plain":
        level = float(np.sqrt(np.mean(audio[np.abs(audio) > 0.01] ** 2)))
        audio = audio + noise(audio.size, seed) * level * (0.1 if kind == "noise" else 0.05)
    return audio


def near_miss_plan(half: str, voices: list[Voice]) -> list[tuple[str, Voice, int, str, str]]:
    """The near-miss takes of ``half`` (none but in :data:`NEAR_MISSES`): (name, voice, rate, text,
    kind), each of the phrase's near misses made from its sounds (:func:`sound_misses`, for any
    phrase) said by each of the half's espeak-ng voices (as eSpeak NG phonemes), at its own rate or
    25 words a minute faster, and heard as the other negatives are (TV-like, under noise or plain:
    which one turns with the voice)."""
    if half not in NEAR_MISSES:
        return []
    texts, plan = sound_misses(PHRASE), []
    for v, voice in enumerate(voices):
        for k, text in enumerate(texts):
            index = v * len(texts) + k
            kind = KINDS[(k + v) % 3]
            plan.append((f"{half}-near-{index:03d}-{kind}", voice, voice.rate + (0, 25)[(k + v) % 2], text, kind))
    return plan


def _near_misses(folder: Path, half: str, voices: list[Voice]) -> list[WakeTake]:
    sentences, takes = _sentences(half), []
    for index, (name, voice, rate, text, kind) in enumerate(near_miss_plan(half, voices)):
        audio, _, _ = join_parts([espeak_speaker(voice.name, rate, voice.pitch)(text)], [])
        other = None
        if kind == "tv":  # another of the half's voices saying one of its sentences
            by = voices[(voices.index(voice) + 2) % len(voices)]
            other = espeak_speaker(by.name, by.rate, by.pitch)(sentences[(index * 7 + 1) % len(sentences)])
        audio = _heard(audio, kind, NEAR_SEED + index, other)
        takes.append(WakeTake(name, _save(folder, name, audio), half, False, voice.name))
    return takes


def run_wake_bench(config: Config, out: Path, halves: tuple[str, ...] = ("test", "tune")) -> dict:
    """Make (or read) the corpus, look at every take of ``halves`` once (the looks are kept in
    ``out``/wake-looks.jsonl and read again from there), then measure every way of deciding
    (:mod:`~assistant.commands.bench.wake_ways`): thresholds from the tuning half only. Writes
    ``out``/wake.json; ``default`` names the way the config's ``wake.by`` uses."""
    from assistant.commands.bench.wake_ways import WAYS, calibrate, figures

    if not config.wake.phrase:
        config = with_overrides(config, wake={"phrase": PHRASE})
    out.mkdir(parents=True, exist_ok=True)
    looks = _looks(config, out / "wake-looks.jsonl", halves)
    model = _model_looks(config, out, looks)
    for row in looks:
        row["model_utterances"] = merged_looks(row, model[row["take"]])
    by_half = {half: [t for t in looks if t["half"] == half] for half in halves}
    ways = {}
    for way in WAYS:
        data = by_half if way != "probability-prompted" else {  # looks kept before it was measured lack it
            half: [t for t in takes if all("probs_prompted" in row for u in t["utterances"] for row in u["looks"])]
            for half, takes in by_half.items()}
        threshold = calibrate(way, data["tune"], config.wake.phrase) if "tune" in data else _configured(way, config)
        ways[way] = {half: figures(way, takes, threshold, config.wake.phrase) for half, takes in data.items()}
    report = {"phrase": config.wake.phrase, "spot_s": config.wake.spot_s, "spot_every_ms": config.wake.spot_every_ms,
              "default": _default_way(config.wake.by), "ways": ways, "halves": ways[_default_way(config.wake.by)]}
    (out / "wake.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    return report


def _configured(way: str, config: Config):
    """A way's threshold as configured (without a tuning half to calibrate it on)."""
    wake = config.wake
    gate = wake.phrase_gate()
    gate = wake.model if gate is None else gate
    return {"model": wake.model, "model+probability": (gate, wake.phrase_probability())}.get(way, wake.phrase_probability())


def _default_way(by: str) -> str:
    return "text" if by == "letters" else by


def merged_looks(row: dict, model: dict) -> list[dict]:
    """The model's looks at a take, each with what Whisper's look at the same point gave (the
    probabilities, the words, the cost), where the Whisper looks went that far. Past them (Whisper's
    probability was under 1/100 after a second: the bench looked no further) the probability counts
    as none, and a look costs what the take's Whisper looks cost on average."""
    ms = [look["ms"] for u in row["utterances"] for look in u["looks"]]
    mean = {part: sum(m[part] for m in ms) / len(ms) for part in ("encode", "align", "decode")} if ms else {
        "encode": 0.0, "align": 0.0, "decode": 0.0}
    merged = []
    for index, utterance in enumerate(model["utterances"]):
        whisper = row["utterances"][index]["looks"] if index < len(row["utterances"]) else []
        looks = []
        for j, look in enumerate(utterance["looks"]):
            kept = whisper[j] if j < len(whisper) else {}
            looks.append({"speech_s": look["speech_s"], "paused": look["paused"], "final": look["final"],
                          "model": look["model"], "model_ms": look["ms"], "text": kept.get("text", ""),
                          "probs": kept.get("probs"), "ms": kept.get("ms", mean)})
        merged.append({"start_s": utterance["start_s"], "looks": looks})
    return merged


def _looks(config: Config, path: Path, halves: tuple[str, ...]) -> list[dict]:
    from assistant.commands.bench.wake_looks import take_looks
    from assistant.hear.stt import WhisperStt
    from assistant.hear.vad import SileroVad
    from assistant.hear.wake_score import PhraseProbability
    from assistant.machine.models import find_silero_vad

    kept = [json.loads(line) for line in path.read_text().splitlines()] if path.is_file() else []
    done = {row["take"] for row in kept}
    todo = [t for t in make_wake_corpus() if t.half in halves and t.name not in done]
    if todo:
        stt, vad = WhisperStt(config.stt), SileroVad(find_silero_vad())
        scorer = PhraseProbability(stt, config.wake.phrase)
        prompted = PhraseProbability(stt, config.wake.phrase, prompted=True)
        with path.open("a", encoding="utf-8") as file:
            for take in todo:
                row = take_looks(take, vad, scorer, config, prompted)
                file.write(json.dumps(row) + "\n")
                kept.append(row)
    return [row for row in kept if row["half"] in halves]


def _model_looks(config: Config, out: Path, looks: list[dict]) -> dict[str, dict]:
    """The phrase model's looks at every take of ``looks``: their places and embeddings kept in
    ``out`` (wake-model-looks.jsonl, wake-model-embeddings.npy: made once a take, kept by its name, as
    the Whisper looks are), scored by the phrase's model as the engine trains it
    (:mod:`assistant.pipeline.wake_training`, on none of the bench's voices; trained on first use,
    then read from the cache folder)."""
    from assistant.commands.bench.wake_looks import model_looks
    from assistant.hear.vad import SileroVad
    from assistant.hear.wake_model import shared_embedder
    from assistant.machine.models import find_silero_vad
    from assistant.pipeline.wake_training import phrase_model
    from assistant.speak.tts import PiperTts

    rows_path, embeddings_path = out / "wake-model-looks.jsonl", out / "wake-model-embeddings.npy"
    kept = rows_path.is_file() and embeddings_path.is_file()
    rows = {r["take"]: r for r in map(json.loads, rows_path.read_text().splitlines())} if kept else {}
    embeddings = list(np.load(embeddings_path)) if kept else []
    todo = [row for row in looks if row["take"] not in rows]
    if todo:  # the takes not looked at yet (a corpus that grew), their looks added to those kept
        takes = {t.name: t for t in make_wake_corpus()}
        vad = SileroVad(find_silero_vad())
        for row in todo:
            done, found = model_looks(takes[row["take"]], vad, shared_embedder(), config)
            for utterance in done["utterances"]:
                for look in utterance["looks"]:
                    look["index"] = len(embeddings)
                    embeddings.append(found.pop(0))
            rows[done["take"]] = done
    stacked = np.stack(embeddings).astype(np.float16)  # as kept
    if todo:
        np.save(embeddings_path, stacked)
        rows_path.write_text("".join(json.dumps(r) + "\n" for r in rows.values()), encoding="utf-8")
    model = phrase_model(config.wake.phrase, PiperTts(config.tts))
    scores = 100 * model.probability(stacked.astype(np.float32))
    for row in rows.values():
        for utterance in row["utterances"]:
            for look in utterance["looks"]:
                look["model"] = round(float(scores[look["index"]]), 3)
    return rows
