"""Barge-in on a loudspeaker, shown from the WAV files alone.

Two conversations through the room simulation, on the embedded models, in real time
(as ``assistant chat --input … --output … --echo-path …`` runs them):

- plain: a question, answered through the echo: one turn, not interrupted, the whole
  reply audible;
- over: the same question, then a second speaker (another voice) who starts talking
  once the reply has sounded for ``--after`` seconds (as a person would: they hear it
  first): how long after their first sound the reply falls silent, that their question
  is answered, and the first reply cut short (what its turn kept for the history).

Every figure is read from the WAVs written next to the report, all on one clock: what
was said (``*-input.wav``), what the microphone heard with the echo (``*-mic.wav``) and
what the speaker played (``*-reply.wav``).

    python -m tools.echo_demo --out echo-demo [--echo-path 40,0.5] [--after 2.8] [--second TEXT]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Iterator

import numpy as np

from assistant.hear.sources import PacedWavSource
from assistant.speak.sinks import SameClockWavSink
from assistant.sound import load_wav, resample, save_wav
from assistant.commands.bench.echo import sound_spans
from assistant.config import Config
from assistant.hear.echo import FLOOR_RMS, PlayedAudio
from assistant.events import Event, EventType, TurnResult
from assistant.hear.room import EchoPath, EchoRoom
from assistant.pipeline.session import build_engine, load_models, make_replies
from assistant.pipeline.waiting import wait_until

RATE = 16000
OUT_RATE = 22050
QUESTION = "Tell me a short story about a lighthouse keeper."
SECOND = "What is the tallest mountain in the world?"


def spoken(tts, text: str) -> np.ndarray:
    pcm = resample(np.concatenate(list(tts.synthesize(text))), tts.rate, RATE)
    return (pcm / max(1e-6, float(np.abs(pcm).max())) * 0.7).astype(np.float32)


SYSTEM_VOICE = """
import sys
import numpy as np
from assistant.sound import resample, save_wav
from assistant.config import TtsConfig
from assistant.speak.tts import load_tts
tts = load_tts(TtsConfig(engine="system", voice=sys.argv[3]) if sys.argv[3] else TtsConfig(engine="system"))
pcm = resample(np.concatenate(list(tts.synthesize(sys.argv[1]))), tts.rate, 16000)
save_wav(sys.argv[2], pcm / max(1e-6, float(np.abs(pcm).max())) * 0.7, 16000)
"""


def second_voice(text: str, out: Path, voice: str = "") -> np.ndarray:
    """``text`` in the system voice (eSpeak NG; ``voice``: one of its voices), rendered in a
    child process: this one has the Piper voice's eSpeak NG library loaded, and two cannot
    share a process."""
    path = out / "second-speaker.wav"
    subprocess.run([sys.executable, "-c", SYSTEM_VOICE, text, str(path), voice], check=True, capture_output=True)
    return load_wav(path, RATE)


class Interjector:
    """The first speaker's words, then silence; the second speaker's words start at the
    frame where the reply has sounded for ``after_s`` (what played before the first speaker
    had finished, the start-up sound, does not count). Keeps what it said."""

    def __init__(self, first: np.ndarray, second: np.ndarray | None, played: PlayedAudio, after_s: float):
        self.rate, self.frame_samples = RATE, 512
        self.source = PacedWavSource(first, RATE, 512, realtime=True)
        self.reply_from = first.size
        self.second, self.played, self.after_s = second, played, after_s
        self.said: list[np.ndarray] = []
        self.second_at: float | None = None
        """Where the second speaker started (s on the input's clock)."""
        self._sounded = 0
        self._second_left: np.ndarray | None = None

    @property
    def done(self) -> bool:
        return self.second is None or (self.second_at is not None and self._second_left is not None
                                       and self._second_left.size == 0)

    def frames(self) -> Iterator[tuple[np.ndarray, float]]:
        position = 0
        for frame, captured in self.source.frames():
            frame = frame.copy()
            reply = self.played.read(position, frame.size)
            if position >= self.reply_from and float(np.sqrt(np.mean(reply * reply))) > FLOOR_RMS:
                self._sounded += frame.size
            if self.second is not None and self.second_at is None and self._sounded >= self.after_s * RATE:
                self.second_at, self._second_left = position / RATE, self.second
            if self._second_left is not None and self._second_left.size:
                part, self._second_left = self._second_left[: frame.size], self._second_left[frame.size :]
                frame[: part.size] += part
            self.said.append(frame)
            position += frame.size
            yield frame, captured

    def stop(self) -> None:
        self.source.stop()


def converse(models, config: Config, replies, path: EchoPath, first: np.ndarray, second: np.ndarray | None,
             after_s: float, out: Path, name: str) -> tuple[list[TurnResult], Interjector]:
    turns: list[TurnResult] = []

    def collect(event: Event) -> None:
        if event.type is EventType.TURN_END:
            turns.append(event.data)

    sink = SameClockWavSink(out / f"{name}-reply.wav", OUT_RATE)
    engine = build_engine(config, models, sink, replies=replies, on_event=collect)
    speaker = Interjector(first, second, engine.echo.played, after_s)
    room = EchoRoom(speaker, engine.echo.played, path, keep=True)
    try:
        engine.listen(room)
        wanted = 2 if second is not None else 1  # the first reply, cut or not, and the second's
        wait_until(lambda: len(turns) >= wanted and not turns[-1].interrupted and speaker.done, 180)
        time.sleep(1.0)  # the room's echo of the last words, and any turn it would start
        wait_until(lambda: not engine.busy, 60)
    finally:
        engine.close()
        seconds = len(speaker.said) * 512 / RATE
        sink.close(min_seconds=seconds)
        room.save(out / f"{name}-mic.wav", seconds)
        save_wav(out / f"{name}-input.wav", np.concatenate(speaker.said), RATE)
    return turns, speaker


def _turn(t: TurnResult) -> dict:
    counts = t.timeline.counts
    return {"transcript": t.transcript, "reply": t.reply, "interrupted": t.interrupted,
            "reply_cut": counts.get("reply_cut", False), "paused_by_speech": counts.get("barge_in_pauses", 0)}


def measure_plain(out: Path, turns: list[TurnResult]) -> dict:
    spans = sound_spans(load_wav(out / "plain-reply.wav", OUT_RATE), OUT_RATE)
    return {
        "turns": [_turn(t) for t in turns],
        "reply_audible_s": round(sum(b - a for a, b in spans), 2),
        "reply_synthesized_s": round(turns[0].timeline.counts.get("tts_audio_s", 0.0), 2) if turns else None,
        "reply_spans_s": [(round(a, 2), round(b, 2)) for a, b in spans],
    }


def measure_over(out: Path, turns: list[TurnResult], second_at: float | None) -> dict:
    said = load_wav(out / "over-input.wav", RATE)
    spans = sound_spans(load_wav(out / "over-reply.wav", OUT_RATE), OUT_RATE)
    report: dict = {"turns": [_turn(t) for t in turns], "reply_spans_s": [(round(a, 2), round(b, 2)) for a, b in spans]}
    if second_at is None:
        report["problem"] = "the reply never sounded long enough for the second speaker to start"
        return report
    start = round(second_at * RATE)
    speaks_at = (start + int(np.flatnonzero(np.abs(said[start:]) > 0.02)[0])) / RATE
    playing = [s for s in spans if s[0] <= speaks_at < s[1] + 0.05]
    stops_at = playing[0][1] if playing else None
    answered = [t for t in turns if not t.interrupted and t.timeline.counts.get("barge_in")]
    report.update({
        "second_speaker_first_sound_s": round(speaks_at, 3),
        "first_reply_silent_at_s": round(stops_at, 3) if stops_at is not None else None,
        "stopped_after_ms": round((stops_at - speaks_at) * 1000) if stops_at is not None else None,
        "second_question_answered": bool(answered and answered[0].reply),
    })
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("echo-demo"))
    parser.add_argument("--echo-path", type=EchoPath.parse, default=EchoPath(40, 0.5))
    parser.add_argument("--after", type=float, default=2.8, help="seconds of reply heard before the second speaker talks")
    parser.add_argument("--second", default=SECOND, help="what the second speaker says (\"Wait.\" should hush the reply)")
    parser.add_argument("--voice", default="", help="the second speaker's eSpeak NG voice (e.g. en-gb-x-rp+m5)")
    parser.add_argument("--lead", type=float, default=0.5, help="seconds of silence before the first question")
    parser.add_argument("--no-learn-sound", action="store_true", help="no start-up sound (echo.learn_sound = false)")
    parser.add_argument("--over-only", action="store_true",
                        help="only the conversation with the second speaker: its reply is this process's first")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    config = Config()
    if args.no_learn_sound:
        config = replace(config, echo=replace(config.echo, learn_sound=False))
    models = load_models(config)
    replies = make_replies(config, models.tts, OUT_RATE)
    lead = np.zeros(round(args.lead * RATE), np.float32)
    question = np.concatenate([lead, spoken(models.tts, QUESTION)])
    second = second_voice(args.second, args.out, args.voice)
    remembered: list[tuple[str, str]] = []
    remember = models.llm.remember

    def recorded(user: str, reply: str) -> None:  # what goes into the conversation history
        remembered.append((user, reply))
        remember(user, reply)

    models.llm.remember = recorded
    report: dict = {"echo_path": str(args.echo_path)}
    if not args.over_only:
        plain, _ = converse(models, config, replies, args.echo_path, question, None, args.after, args.out, "plain")
        report["plain"] = measure_plain(args.out, plain)
        models.llm.reset()
        remembered.clear()
    over, speaker = converse(models, config, replies, args.echo_path, question, second, args.after, args.out, "over")
    report.update({
        "over": measure_over(args.out, over, speaker.second_at),
        "history_of_over": [{"user": u, "assistant": r} for u, r in remembered],
    })
    text = json.dumps(report, indent=1, ensure_ascii=False)
    (args.out / "echo-demo.json").write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
