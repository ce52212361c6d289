"""``assistant stt-bench``: speech recognizers side by side on one corpus.

Each clip is fed as the app feeds a microphone: in real time, in 32 ms frames, followed by
the endpoint's silence. Reported per engine: the character error rate (spaces and
punctuation ignored, so Korean word spacing does not count), the latency from the
endpoint to the final transcript (backlog included), and the CPU time spent per second
of speech (above 1, a streaming recognizer on one core cannot keep up).

The default Korean corpus is synthesized by eSpeak NG's ``ko`` voice, a weak stand-in for
people: one robotic speaker, no noise, no accents. ``--corpus`` takes real recordings (a
folder of WAVs with ``transcripts.tsv``: file name, tab, what was said).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import time
import unicodedata
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from rapidfuzz.distance import Levenshtein

from assistant.sound import load_wav, resample
from assistant.config import SttConfig
from assistant.resources import cache_dir
from assistant.hear.stt import RATE, load_stt

KOREAN_SENTENCES = (
    "안녕하세요", "감사합니다", "지금 몇 시예요", "오늘 며칠이에요", "다시 말해 주세요", "그만",
    "화장실이 어디에 있어요", "출구는 어느 쪽이에요", "이 건물은 몇 시에 문을 닫아요",
    "가까운 지하철역이 어디예요", "오늘 날씨가 어때요", "커피 한 잔 주문하고 싶어요",
    "영업시간을 알려 주세요", "주차장은 몇 층에 있어요", "엘리베이터를 타고 싶어요",
    "표를 어디에서 사요", "도움이 필요해요", "한국어로 말해 주세요", "버스 정류장이 어디예요",
    "내일 아침 일곱 시에 깨워 주세요",
)
SPEEDS = (150, 175)
"""eSpeak NG speaking rates (words per minute) of the synthesized corpus."""
ENDPOINT_S = 0.3
FRAME = 512


@dataclass(frozen=True)
class Clip:
    name: str
    text: str
    pcm: np.ndarray


@dataclass
class Score:
    engine: str
    cer: float
    latency_ms: list[float]
    cpu_per_s: float
    examples: list[tuple[str, str]]

    def row(self) -> dict:
        return {"engine": self.engine, "cer": round(self.cer, 3),
                "latency_ms_median": round(statistics.median(self.latency_ms)),
                "latency_ms_max": round(max(self.latency_ms)), "cpu_per_s": round(self.cpu_per_s, 2)}


def normalize(text: str) -> str:
    return re.sub(r"[\W_]+", "", unicodedata.normalize("NFKC", text).casefold())


def cer(pairs: list[tuple[str, str]]) -> float:
    """Character edits over reference characters, summed over the corpus."""
    edits = sum(Levenshtein.distance(normalize(ref), normalize(hyp)) for ref, hyp in pairs)
    return edits / max(1, sum(len(normalize(ref)) for ref, _ in pairs))


def synthesized_corpus() -> list[Clip]:
    """The Korean sentences in eSpeak NG's ``ko`` voice at each speed (cached on disk)."""
    import soundfile as sf

    from assistant.speak.espeak import EspeakTts

    folder = cache_dir() / "stt-corpus" / "ko-espeak"
    folder.mkdir(parents=True, exist_ok=True)
    clips = []
    for speed in SPEEDS:
        voice = None
        for i, text in enumerate(KOREAN_SENTENCES):
            path = folder / f"{speed}-{i:02d}.wav"
            if not path.exists():
                voice = voice or EspeakTts("ko", words_per_minute=speed)
                pcm = np.concatenate(list(voice.synthesize(text)))
                sf.write(path, resample(pcm, voice.rate, RATE), RATE)
            clips.append(Clip(path.name, text, load_wav(path, RATE)))
    return clips


def folder_corpus(folder: Path) -> list[Clip]:
    rows = [line.split("\t", 1) for line in (folder / "transcripts.tsv").read_text(encoding="utf-8").splitlines()]
    return [Clip(name, text.strip(), load_wav(folder / name, RATE)) for name, text in rows if text.strip()]


def run_clip(stt, clip: Clip) -> tuple[str, float, float]:
    """(transcript, ms from the endpoint to the transcript, CPU seconds spent decoding).

    The endpoint is when the last frame arrived, so a recognizer that fell behind the
    speech counts its backlog too. CPU time (every thread of the process) is what a
    core must give per second of speech, whatever else runs on the machine."""
    pcm = np.concatenate([clip.pcm, np.zeros(int(ENDPOINT_S * RATE), np.float32)])
    utterance = stt.utterance()
    cpu = time.process_time()
    start = time.perf_counter()
    for i in range(0, pcm.size, FRAME):
        due = start + (i + FRAME) / RATE
        if (wait := due - time.perf_counter()) > 0:
            time.sleep(wait)
        utterance.feed(pcm[i:i + FRAME])
    text = utterance.transcribe()
    done = time.perf_counter()
    return text, (done - (start + pcm.size / RATE)) * 1000, time.process_time() - cpu


def score(label: str, stt, clips: list[Clip]) -> Score:
    pairs, latencies, busy = [], [], 0.0
    for clip in clips:
        text, latency, spent = run_clip(stt, clip)
        pairs.append((clip.text, text))
        latencies.append(latency)
        busy += spent
    audio_s = sum(c.pcm.size for c in clips) / RATE
    return Score(label, cer(pairs), latencies, busy / audio_s, pairs)


def engines(language: str) -> list[tuple[str, SttConfig]]:
    base = SttConfig(language=language)
    return [
        ("vosk", replace(base, engine="vosk")),
        ("vosk, fast decoding", replace(base, engine="vosk", vosk_fast=True)),
        ("whisper base", replace(base, engine="whisper")),
    ]


def markdown(scores: list[Score], corpus: str) -> str:
    lines = [f"Corpus: {corpus}", "",
             "| engine | CER | endpoint → transcript, median (max) | CPU s per s of speech |",
             "|---|---|---|---|"]
    for s in scores:
        r = s.row()
        lines.append(f"| {s.engine} | {r['cer']:.1%} | {r['latency_ms_median']} ms ({r['latency_ms_max']} ms) | {r['cpu_per_s']} |")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    clips = folder_corpus(args.corpus) if args.corpus else synthesized_corpus()
    corpus = str(args.corpus) if args.corpus else (
        f"{len(clips)} Korean sentences by eSpeak NG ko at {' and '.join(map(str, SPEEDS))} wpm (synthetic)")
    scores = []
    for label, config in engines(args.language):
        if args.engines and not any(label.startswith(name) for name in args.engines.split(",")):
            continue
        scores.append(score(label, load_stt(config), clips))
        print(markdown(scores[-1:], corpus).splitlines()[-1], flush=True)
    print(markdown(scores, corpus))
    if args.json:
        report = {"corpus": corpus, "engines": [s.row() | {"examples": s.examples[:8]} for s in scores]}
        args.json.write_text(json.dumps(report, ensure_ascii=False, indent=2), encoding="utf-8")
    return 0


def add_parser(sub) -> None:
    parser = sub.add_parser("stt-bench", help="compare the speech recognizers: character error rate and latency",
                            description=__doc__.split("\n\n")[0])
    parser.add_argument("--language", default="ko", help="language of the corpus (default ko)")
    parser.add_argument("--corpus", type=Path, help="folder of WAVs with transcripts.tsv (default: synthesized Korean)")
    parser.add_argument("--engines", help="comma-separated subset: vosk, whisper")
    parser.add_argument("--json", type=Path, help="write the scores and a few transcripts to this file")
    parser.set_defaults(func=run)
