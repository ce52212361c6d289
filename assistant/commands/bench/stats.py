"""Figures of a bench run, all read from the turns' timelines: per-turn figures, the
per-stage breakdown, percentiles, the word error rate and peak memory."""

from __future__ import annotations

import re
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterable, Iterator

import numpy as np

from assistant.events import TurnResult
from assistant.timeline import Mark, Timeline


@dataclass(frozen=True)
class Metric:
    name: str
    unit: str
    about: str


METRICS = [
    Metric("heard_voice_to_voice", "ms", "last audible sample of the question to the first of the answer, "
           "off the same-clock WAVs (LLM turns)"),
    Metric("heard_cache_voice_to_voice", "ms", "the same, instant-reply turns"),
    Metric("voice_to_voice", "ms", "timeline: VAD speech end to first reply sample (LLM turns)"),
    Metric("endpoint_wait", "ms", "end of speech to the endpoint decision"),
    Metric("stt", "ms", "transcription of the answered words (at the first pause when speculative)"),
    Metric("ttft", "ms", "generation requested to first token"),
    Metric("tpot", "ms", "time per output token after the first"),
    Metric("tokens_per_s", "tok/s", "decode speed (1000 / tpot)"),
    Metric("tts_first_chunk", "ms", "text handed to TTS to its first audio"),
    Metric("tts_rtf", "x", "TTS real-time factor: synthesis time of the first audio / its length"),
    Metric("cache_voice_to_voice", "ms", "timeline: VAD speech end to first reply sample (instant-reply turns)"),
]

# The way from speech end to the first reply sound, stage by stage, each named for the
# mark that ends it. Work may start before the endpoint (a speculative reply), so a
# stage counts only the wait it adds after the stages before it: the stages add up to
# voice_to_voice, and a stage done before the endpoint adds nothing.
STAGES = {
    Mark.ENDPOINT: "endpoint wait",
    Mark.STT_FINAL: "stt",
    Mark.LLM_START: "handoff",
    Mark.LLM_FIRST_TOKEN: "ttft",
    Mark.FIRST_CHUNK: "to first chunk",
    Mark.TTS_FIRST_AUDIO: "tts first audio",
    Mark.AUDIO_OUT_START: "to output",
}


@dataclass
class TurnRecord:
    """One answered take."""

    mode: str
    item: str
    result: TurnResult
    expected: str | None = None
    repeat: int = 0
    conversation_turn: int | None = None
    first_audio_s: float | None = None
    """Length of the first reply audio played (for the TTS real-time factor)."""
    heard_ms: float | None = None
    """The wait heard on the same-clock WAVs (real time only)."""

    @property
    def timeline(self) -> Timeline:
        return self.result.timeline


def turn_figures(record: TurnRecord) -> dict[str, float | None]:
    """The :data:`METRICS` of one turn (None where they do not apply)."""
    latency = record.timeline.latency_ms()
    source = record.result.source
    llm = source == "llm"
    tpot = latency["tpot"] if llm else None
    tts_first = latency["tts_first_chunk"] if llm else None
    rtf = None
    if tts_first is not None and record.first_audio_s:
        rtf = round(tts_first / 1000 / record.first_audio_s, 3)
    return {
        "heard_voice_to_voice": record.heard_ms if llm else None,
        "heard_cache_voice_to_voice": record.heard_ms if source == "cache" else None,
        "voice_to_voice": latency["voice_to_voice"] if llm else None,
        "endpoint_wait": latency["endpoint_wait"],
        "stt": latency["stt"],
        "ttft": latency["ttft"] if llm else None,
        "tpot": tpot,
        "tokens_per_s": round(1000 / tpot, 1) if tpot else None,
        "tts_first_chunk": tts_first,
        "tts_rtf": rtf,
        "cache_voice_to_voice": latency["voice_to_voice"] if source == "cache" else None,
    }


def overlapped_stages(timeline: Timeline) -> list[str]:
    """Stages that finished before the stage ahead of them did (work started early, at
    the first pause): :func:`stages_ms` counts them as 0, and the report says which."""
    marks = timeline.marks
    if Mark.SPEECH_END not in marks or Mark.AUDIO_OUT_START not in marks:
        return []
    early, reached = [], marks[Mark.SPEECH_END]
    for mark, name in STAGES.items():
        if mark in marks:
            if marks[mark] < reached:
                early.append(name)
            reached = max(reached, marks[mark])
    return early


def stages_ms(timeline: Timeline) -> dict[str, float]:
    """The wait each stage adds between speech end and the first reply sound (0 for a
    stage already done when the one before it ended: see :func:`overlapped_stages`)."""
    marks = timeline.marks
    if Mark.SPEECH_END not in marks or Mark.AUDIO_OUT_START not in marks:
        return {}
    stages: dict[str, float] = {}
    reached = marks[Mark.SPEECH_END]
    for mark, name in STAGES.items():
        if mark in marks:
            stages[name] = round(max(0.0, marks[mark] - reached) * 1000, 1)
            reached = max(reached, marks[mark])
    return stages


def summarize(values: Iterable[float | None]) -> dict[str, float | int | None]:
    """n, median, p95 and max of the values present."""
    present = np.array([v for v in values if v is not None], dtype=float)
    if present.size == 0:
        return {"n": 0, "median": None, "p95": None, "max": None}
    def rounded(value: float) -> float:  # ms to 0.1; ratios (TTS real-time factor) to 0.001
        return round(value, 1 if abs(value) >= 10 else 3)

    return {
        "n": int(present.size),
        "median": rounded(float(np.median(present))),
        "p95": rounded(float(np.percentile(present, 95))),
        "max": rounded(float(present.max())),
    }


def median_stages(records: Iterable[TurnRecord]) -> dict[str, float]:
    """Median of each stage over the LLM turns."""
    per_stage: dict[str, list[float]] = {}
    for record in records:
        if record.result.source == "llm":
            for name, ms in stages_ms(record.timeline).items():
                per_stage.setdefault(name, []).append(ms)
    return {name: round(float(np.median(per_stage[name])), 1) for name in STAGES.values() if name in per_stage}


# ------------------------------------------------------------------ word error rate

_NOT_WORD = re.compile(r"[^\w']+")


def words(text: str) -> list[str]:
    return [w.strip("'") for w in _NOT_WORD.split(text.lower()) if w.strip("'")]


def word_edits(reference: str, hypothesis: str) -> tuple[int, int]:
    """(substitutions + deletions + insertions, words in the reference)."""
    from rapidfuzz.distance import Levenshtein

    ref = words(reference)
    return Levenshtein.distance(ref, words(hypothesis)), len(ref)


def word_error_rate(records: Iterable[TurnRecord]) -> dict[str, float | int | None]:
    """Corpus WER: all edits over all reference words, for turns whose words are known."""
    edits = total = 0
    for record in records:
        if record.expected:
            e, n = word_edits(record.expected, record.result.transcript)
            edits, total = edits + e, total + n
    return {"wer": round(edits / total, 4) if total else None, "words": total}


# ------------------------------------------------------------------ memory


class MemorySampler:
    """Samples this process's resident memory; keeps the peak overall and per section."""

    def __init__(self, interval_s: float = 0.05):
        import psutil

        self._process = psutil.Process()
        self._interval = interval_s
        self._section: str | None = None
        self.peak_mb = 0.0
        self.section_peak_mb: dict[str, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="memory", daemon=True)

    def _sample(self) -> None:
        mb = self._process.memory_info().rss / 2**20
        self.peak_mb = max(self.peak_mb, mb)
        if self._section is not None:
            self.section_peak_mb[self._section] = max(self.section_peak_mb.get(self._section, 0.0), mb)

    def _run(self) -> None:
        while not self._stop.wait(self._interval):
            self._sample()

    def __enter__(self) -> "MemorySampler":
        self._sample()
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(timeout=1)
        self._sample()

    @contextmanager
    def section(self, name: str) -> Iterator[None]:
        self._section = name
        self._sample()
        try:
            yield
        finally:
            self._sample()
            self._section = None


def median(values: Iterable[float], digits: int = 1) -> float | None:
    """The median of ``values`` rounded to ``digits``, or None when there are none."""
    values = list(values)
    return round(float(np.median(values)), digits) if values else None


def slug(text: str, keep: str = "-.") -> str:
    """``text`` as a file name: letters and digits, ``keep``, and ``_`` for the rest."""
    return "".join(c if c.isalnum() or c in keep else "_" for c in text).strip("_")
