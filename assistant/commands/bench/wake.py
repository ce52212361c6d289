"""``assistant bench --wake``: the wake phrase spotted on a generated corpus, a tuning half and a
test half apart by voice and by sentence (decided before any tuning; the test half is reported first).

Negatives never say the phrase: sentences said by many espeak-ng voices, three at a time, some
as a TV would sound (a second voice talking over, 6 dB down) and some under steady noise, at least
``NEGATIVE_MINUTES`` a half. Positives say it: alone, then the question in one breath, and with a
pause before the question, by each voice of the half at two rates.

Each take is replayed as the engine hears it, faster than real time: the Silero VAD and the
endpointer cut it into utterances (:class:`~assistant.pipeline.listen.Segmenter`), and each
utterance is looked at as the transcription stage does (:class:`~assistant.hear.wake.Spotting`,
the loaded Whisper). Figures: false accepts per hour of negative speech, misses, latency from
the end of the phrase to the look that found it (audio waited for plus the look's compute), and
the CPU the waiting costs as a share of one core.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from assistant.commands.bench.turn_corpus import MONOLOGUE, espeak_speaker, join_parts, noise
from assistant.commands.bench.turn_split import COMPLETE, REQUESTS, STATEMENTS, VOICES, Voice
from assistant.config import Config, VadConfig
from assistant.hear.wake import Spotting, Verdict, WakePhrase
from assistant.hear.vad import VadEventType
from assistant.pipeline.listen import Segmenter
from assistant.resources import cache_dir
from assistant.sound import load_wav, save_wav
from assistant.think.hangul import jamo

RATE = 16000
VERSION = 1
PHRASE = "hey assistant"
NEGATIVE_MINUTES = 31.0
CONFUSABLE = {
    "tune": ["Hey, is this seat taken?", "Hey Sam, can you assist me with this?", "The assistant said hello."],
    "test": ["Hey, a sister of mine called.", "Hey there, I am the assistant manager.", "Hey, this is so tense."],
}
"""Sentences that begin like the phrase, or hold its words."""
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
        takes += _positives(folder, half, voices) + _negatives(folder, half, voices)
    rows = [{**t.__dict__, "path": t.path.name} for t in takes]
    manifest.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return takes


def _save(folder: Path, name: str, audio: np.ndarray) -> Path:
    path = folder / f"{name}.wav"
    save_wav(path, np.clip(audio, -1, 1), RATE)
    return path


def _positives(folder: Path, half: str, voices: list[Voice]) -> list[WakeTake]:
    takes = []
    for v, voice in enumerate(voices):
        for rate in (voice.rate, voice.rate + 30):
            say = espeak_speaker(voice.name, rate, voice.pitch)
            phrase = say(PHRASE.capitalize())
            question = QUESTIONS[half][v % 2]
            forms = {"alone": ([phrase], []), "breath": ([say(f"{PHRASE.capitalize()}, {question}")], []),
                     "pause": ([phrase, say(question.capitalize())], [0.6])}
            for form, (parts, gaps) in forms.items():
                audio, _, _ = join_parts(parts, gaps)
                name = f"{half}-pos-{form}-{voice.name}-{rate}"
                takes.append(WakeTake(name, _save(folder, name, audio), half, True, voice.name,
                                      round(0.5 + phrase.size / RATE, 3)))
    return takes


def _negatives(folder: Path, half: str, voices: list[Voice]) -> list[WakeTake]:
    sentences, takes, seconds, index = _sentences(half), [], 0.0, 0
    speakers = [espeak_speaker(v.name, v.rate + d, v.pitch) for v in voices for d in (0, 25)]
    while seconds < NEGATIVE_MINUTES * 60:
        say = speakers[index % len(speakers)]
        picked = [sentences[(index * 3 + k) % len(sentences)] for k in range(3)]
        audio, _, _ = join_parts([say(s) for s in picked], [0.35, 0.5])
        kind = ("tv", "noise", "plain")[index % 3]
        if kind == "tv":  # a second voice over the first, 6 dB down
            other = speakers[(index + 5) % len(speakers)](sentences[(index * 7 + 1) % len(sentences)])
            start = int(0.8 * RATE)
            end = min(audio.size, start + other.size)
            audio[start:end] += 0.5 * other[: end - start]
        if kind != "plain":
            level = float(np.sqrt(np.mean(audio[np.abs(audio) > 0.01] ** 2)))
            audio = audio + noise(audio.size, index) * level * (0.1 if kind == "noise" else 0.05)
        name = f"{half}-neg-{index:03d}-{kind}"
        takes.append(WakeTake(name, _save(folder, name, audio), half, False, voices[index % len(voices)].name))
        seconds += audio.size / RATE
        index += 1
    return takes


def replay(take: WakeTake, vad, stt, config: Config) -> dict:
    """The take as the engine hears it while waiting: its utterances and what each look found."""
    pcm = load_wav(take.path, RATE)
    frame = config.audio.frame_samples
    segmenter = Segmenter(vad, VadConfig(), frame / RATE)
    phrase = WakePhrase(config.wake.phrase, config.wake.score, jamo)
    looks, woke, best, cpu = 0, None, 0.0, time.process_time()
    utterance: list[np.ndarray] | None = None
    spotting = start = preroll = None
    for i in range(0, pcm.size - frame + 1, frame):
        for detected in segmenter.push(pcm[i : i + frame], i / RATE):
            if detected.event is VadEventType.SPEECH_START and woke is None:
                utterance, spotting = [detected.pcm], Spotting(phrase, config.wake)
                start, preroll = detected.at, detected.pcm.size / RATE
            elif utterance is not None and detected.event is None:
                utterance.append(detected.pcm)
            final = detected.event is VadEventType.ENDPOINT
            if utterance is None or not (final or detected.event is VadEventType.EARLY_SILENCE
                                          or spotting.due(sum(u.size for u in utterance) / RATE - preroll)):
                continue
            audio = np.concatenate(utterance)
            speech_s = audio.size / RATE - preroll
            began = time.perf_counter()
            verdict, found = spotting.hear(stt.transcribe_array(audio), speech_s, final)
            compute = time.perf_counter() - began
            looks += 1
            best = max(best, found.score if found else 0.0)
            if verdict is Verdict.WOKE:
                woke = {"at_s": round(start + speech_s, 3), "compute_ms": round(compute * 1000, 1),
                        "score": found.score, "said": found.said}
            if verdict is not Verdict.WAIT:
                utterance = None
    row = {"take": take.name, "half": take.half, "positive": take.positive, "voice": take.voice,
           "seconds": round(pcm.size / RATE, 2), "looks": looks, "best": best, "woke": woke,
           "cpu_s": round(time.process_time() - cpu, 3)}
    if woke and take.phrase_end_s is not None:
        row["latency_ms"] = round((woke["at_s"] - take.phrase_end_s) * 1000 + woke["compute_ms"], 1)
    return row


def wake_figures(rows: list[dict]) -> dict:
    """Per half: false accepts per hour, misses, latency, CPU while waiting."""
    out = {}
    for half in ("test", "tune"):
        neg = [r for r in rows if r["half"] == half and not r["positive"]]
        pos = [r for r in rows if r["half"] == half and r["positive"]]
        hours = sum(r["seconds"] for r in neg) / 3600
        accepts = sum(1 for r in neg if r["woke"])
        latencies = sorted(r["latency_ms"] for r in pos if "latency_ms" in r)
        out[half] = {
            "negative_minutes": round(hours * 60, 1), "negative_takes": len(neg),
            "false_accepts": accepts, "false_accepts_per_hour": round(accepts / hours, 2) if hours else None,
            "false_accept_takes": [r["take"] for r in neg if r["woke"]],
            "phrase_takes": len(pos), "misses": sum(1 for r in pos if not r["woke"]),
            "miss_rate": round(sum(1 for r in pos if not r["woke"]) / len(pos), 3) if pos else None,
            "missed_takes": [r["take"] for r in pos if not r["woke"]],
            "latency_ms_median": latencies[len(latencies) // 2] if latencies else None,
            "latency_ms_max": latencies[-1] if latencies else None,
            "latency_ms_p90": latencies[int(0.9 * (len(latencies) - 1))] if latencies else None,
            "cpu_share_of_a_core": round(sum(r["cpu_s"] for r in neg) / (hours * 3600), 3) if hours else None,
            "looks_per_minute": round(sum(r["looks"] for r in neg) / (hours * 60), 1) if hours else None,
        }
    return out


def run_wake_bench(config: Config, out: Path, halves: tuple[str, ...] = ("test", "tune")) -> dict:
    """Make (or read) the corpus, replay every take of ``halves``, write ``out``/wake.json."""
    from assistant.config import with_overrides
    from assistant.hear.stt import WhisperStt
    from assistant.hear.vad import SileroVad
    from assistant.machine.models import find_silero_vad

    if not config.wake.phrase:
        config = with_overrides(config, wake={"phrase": PHRASE})
    stt, vad = WhisperStt(config.stt), SileroVad(find_silero_vad())
    takes = [t for half in halves for t in make_wake_corpus() if t.half == half]
    rows = [replay(take, vad, stt, config) for take in takes]
    report = {"phrase": config.wake.phrase, "score": config.wake.score, "spot_s": config.wake.spot_s,
              "spot_every_ms": config.wake.spot_every_ms, "stt": stt.name, "halves": wake_figures(rows), "takes": rows}
    out.mkdir(parents=True, exist_ok=True)
    (out / "wake.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    return report
