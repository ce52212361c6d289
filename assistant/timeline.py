"""The timeline: the one source of truth for latency.

Every turn records monotonic marks (``time.perf_counter()``) named in :class:`Mark`.
The GUI meter, the CLI JSON, the benchmark and the log all read a :class:`Timeline`;
nothing else keeps a stopwatch.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class Mark(str, Enum):
    SPEECH_START = "speech_start"
    """The first speech sample of the utterance (audio clock)."""
    WAKE = "wake"
    """The wake phrase was heard at the start of the utterance (docs/wake.md)."""
    VOICE_END = "voice_end"
    """The last audible sample of the user's words (amplitude, audio clock): where a
    listener hears them stop, before the VAD's speech end."""
    SPEECH_END = "speech_end"
    """The last speech sample before the endpoint silence (audio clock)."""
    ENDPOINT = "endpoint"
    """The endpointer decided the user finished."""
    STT_START = "stt_start"
    """Transcription of the utterance began (at the first pause when speculative)."""
    STT_FINAL = "stt_final"
    """The transcript that was answered is known."""
    LLM_START = "llm_start"
    """Generation was requested."""
    LLM_FIRST_TOKEN = "llm_first_token"
    """The first token came back."""
    LLM_END = "llm_end"
    """Generation finished (or was cut)."""
    FIRST_CHUNK = "first_chunk"
    """The chunker released the first text chunk to TTS."""
    TTS_FIRST_AUDIO = "tts_first_audio"
    """The first synthesized audio of the reply is ready."""
    AUDIO_OUT_START = "audio_out_start"
    """The first reply sample reaches the output (speaker or same-clock WAV)."""
    REPLY_SOUND = "reply_sound"
    """The first audible sample of the reply (amplitude, output clock)."""
    TURN_END = "turn_end"
    """The last reply sample was played, or the turn was dropped."""


# Order of the marks for display.
MARK_ORDER = list(Mark)

# What must precede what in every turn. A speculative reply starts at the first pause,
# so STT and the LLM may run before the endpoint; nothing is heard before it.
CAUSAL_CHAINS = (
    (Mark.SPEECH_START, Mark.SPEECH_END, Mark.ENDPOINT, Mark.AUDIO_OUT_START, Mark.TURN_END),
    (Mark.SPEECH_END, Mark.STT_START, Mark.STT_FINAL, Mark.LLM_START, Mark.LLM_FIRST_TOKEN,
     Mark.FIRST_CHUNK, Mark.TTS_FIRST_AUDIO, Mark.AUDIO_OUT_START),
    (Mark.LLM_FIRST_TOKEN, Mark.LLM_END),
    (Mark.VOICE_END, Mark.REPLY_SOUND),
    (Mark.AUDIO_OUT_START, Mark.REPLY_SOUND),
)


@dataclass
class Timeline:
    """Marks and counts of one turn. Thread-safe; first write of a mark wins."""

    turn_id: int
    marks: dict[Mark, float] = field(default_factory=dict)
    counts: dict[str, Any] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def mark(self, name: Mark, at: float | None = None) -> float:
        at = time.perf_counter() if at is None else at
        with self._lock:
            return self.marks.setdefault(name, at)

    def set(self, key: str, value: Any) -> None:
        with self._lock:
            self.counts[key] = value

    def add(self, key: str, amount: float = 1) -> None:
        with self._lock:
            self.counts[key] = self.counts.get(key, 0) + amount

    def unmark(self, *names: Mark) -> None:
        """Forget marks of abandoned work (a speculative reply the user spoke over)."""
        with self._lock:
            for name in names:
                self.marks.pop(name, None)

    def get(self, name: Mark) -> float | None:
        return self.marks.get(name)

    def span_ms(self, start: Mark, end: Mark) -> float | None:
        a, b = self.marks.get(start), self.marks.get(end)
        if a is None or b is None:
            return None
        return (b - a) * 1000.0

    @property
    def origin(self) -> float | None:
        """``speech_end`` for spoken turns; the first mark for typed ones."""
        if Mark.SPEECH_END in self.marks:
            return self.marks[Mark.SPEECH_END]
        return min(self.marks.values()) if self.marks else None

    def marks_ms(self) -> dict[str, float]:
        """Marks in ms relative to :attr:`origin`, in turn order."""
        origin = self.origin
        if origin is None:
            return {}
        return {m.value: round((self.marks[m] - origin) * 1000.0, 1) for m in MARK_ORDER if m in self.marks}

    def latency_ms(self) -> dict[str, float | None]:
        """Derived figures: the names every consumer (meter, JSON, bench) shares.

        ``heard`` is what the user waits: the last audible sample of their words to the
        first of the reply (spoken turns). ``voice_to_voice`` starts at the VAD's speech
        end instead. The others are how long each stage took, which may overlap the
        endpoint wait when the reply started speculatively.
        """
        tokens = self.counts.get("tokens", 0)
        decode = self.span_ms(Mark.LLM_FIRST_TOKEN, Mark.LLM_END)
        if decode is not None:  # minus the pause while the first chunk was synthesized
            decode -= 1000.0 * self.counts.get("llm_paused_s", 0.0)
        # Typed turns have no speech: they start when the text is known.
        start = Mark.SPEECH_END if Mark.SPEECH_END in self.marks else Mark.STT_FINAL
        figures = {
            "heard": self.span_ms(Mark.VOICE_END, Mark.REPLY_SOUND),
            "voice_to_voice": self.span_ms(start, Mark.AUDIO_OUT_START),
            "endpoint_wait": self.span_ms(Mark.SPEECH_END, Mark.ENDPOINT),
            "stt": self.span_ms(Mark.STT_START, Mark.STT_FINAL),
            "ttft": self._ttft_ms(),
            "tpot": (decode / (tokens - 1)) if decode is not None and tokens > 1 else None,
            "tts_first_chunk": self.span_ms(Mark.FIRST_CHUNK, Mark.TTS_FIRST_AUDIO),
            "llm_total": self.span_ms(Mark.LLM_START, Mark.LLM_END),
            "wake": self.counts.get("wake_ms"),
        }
        return {k: (round(v, 1) if v is not None else None) for k, v in figures.items()}

    def _ttft_ms(self) -> float | None:
        """Generation's start to the first token, with the reply's prompt evaluation where it
        happened earlier (at the pause, as the end-of-turn model's reading of the words)."""
        span = self.span_ms(Mark.LLM_START, Mark.LLM_FIRST_TOKEN)
        return None if span is None else span + float(self.counts.get("prompt_eval_ms", 0.0))

    @property
    def spoken(self) -> bool:
        """The turn was spoken (not typed)."""
        return Mark.SPEECH_START in self.marks

    def decision(self) -> str | None:
        """The end-of-turn decision, e.g. "complete at 160 ms of silence"."""
        verdict, silence = self.counts.get("turn_decision"), self.counts.get("turn_silence_ms")
        if verdict is None or silence is None:
            return None
        return f"{verdict} at {silence:.0f} ms of silence"

    def wake(self) -> str | None:
        """How the wake phrase was heard, e.g. "wake phrase 92/100 in 140 ms"."""
        score, ms = self.counts.get("wake_score"), self.counts.get("wake_ms")
        if score is None or ms is None:
            return None
        return f"wake phrase {score:.0f}/100 in {ms:.0f} ms"

    def in_order(self) -> bool:
        """True when the marks present respect :data:`CAUSAL_CHAINS` (cache hits skip the LLM)."""
        for chain in CAUSAL_CHAINS:
            present = [self.marks[m] for m in chain if m in self.marks]
            if any(a > b + 1e-9 for a, b in zip(present, present[1:])):
                return False
        return True
