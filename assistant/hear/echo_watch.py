"""What the echo canceller made of each stretch of reply, for the log. Pure, no clock.

Frame by frame while the reply (or its echo) sounds: how much of the microphone's energy the
canceller kept, what the VAD made of what it kept, whether the canceller counted as ready,
and how many frames passed the barge-in gate (speech probability and kept energy both over
``barge_in.threshold`` and ``barge_in.kept_db``: frames that count as the user's). When the
reply falls silent, one line sums it up: a first reply that pauses on its own echo shows
there which frames did it and what the canceller had learnt by then.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from assistant.config import BargeInConfig


@dataclass
class ReplyEcho:
    """One stretch of reply: its audible frames and what the canceller and the VAD made of them."""

    config: BargeInConfig
    frames: int = 0
    ready_frames: int = 0
    """Frames in which the canceller counted as ready (full duplex)."""
    gate_frames: int = 0
    """Ready frames that passed the barge-in gate: the user's speech, or echo taken for it."""
    kept_db: list[float] = field(default_factory=list)
    max_probability: float = 0.0
    first_erle_db: float | None = None
    last_erle_db: float | None = None
    ready_at_start: bool | None = None

    def frame(self, probability: float, kept_db: float, ready: bool, erle_db: float | None) -> None:
        """One frame in which the reply is audible."""
        if self.ready_at_start is None:
            self.ready_at_start = ready
        self.frames += 1
        self.kept_db.append(kept_db)
        self.max_probability = max(self.max_probability, probability)
        if ready:
            self.ready_frames += 1
            if probability >= self.config.threshold and kept_db >= self.config.kept_db:
                self.gate_frames += 1
        if erle_db is not None:
            self.first_erle_db = erle_db if self.first_erle_db is None else self.first_erle_db
            self.last_erle_db = erle_db

    def describe(self) -> str:
        kept = sorted(self.kept_db)
        median = kept[len(kept) // 2] if kept else 0.0

        def db(value: float | None) -> str:
            return "–" if value is None else f"{value:.1f} dB"

        return (f"{self.frames} frames, ready from the start: {'yes' if self.ready_at_start else 'no'}, "
                f"ready in {self.ready_frames}; ERLE {db(self.first_erle_db)} -> {db(self.last_erle_db)}; "
                f"kept median {median:.1f} dB, highest {kept[-1] if kept else 0.0:.1f} dB; "
                f"VAD highest {self.max_probability:.2f}; frames taken for speech {self.gate_frames}")


class EchoWatch:
    """Feeds :class:`ReplyEcho` frame by frame; hands back the finished one when the reply falls silent."""

    def __init__(self, config: BargeInConfig):
        self.config = config
        self.current: ReplyEcho | None = None

    def frame(self, reply_audible: bool, probability: float, kept_db: float, ready: bool,
              erle_db: float | None) -> ReplyEcho | None:
        if reply_audible:
            if self.current is None:
                self.current = ReplyEcho(self.config)
            self.current.frame(probability, kept_db, ready, erle_db)
            return None
        done, self.current = self.current, None
        return done
