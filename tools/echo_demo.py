"""Barge-in on a loudspeaker, shown from the WAV files alone.

Builds two spoken inputs, runs each through ``assistant chat --input … --output …
--echo-path …`` as a user would, and measures on the same-clock WAVs:

- plain: a question answered to the end through the echo: one turn, not interrupted,
  the whole reply audible;
- over: the same question, then a second speaker (another voice) talking over the
  reply where the plain run's reply was sounding: how long after their first sound the
  reply falls silent, that their question is answered, and the first reply cut short
  (its turn's reply is what went into the history).

    python -m tools.echo_demo --out echo-demo [--echo-path 40,0.5]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from assistant.audio import load_wav, resample, save_wav
from assistant.bench.echo import sound_spans
from assistant.config import TtsConfig
from assistant.tts import load_tts

RATE = 16000
QUESTION = "Tell me a short story about a lighthouse keeper."
SECOND = "What is the tallest mountain in the world?"
SOUNDED_S = 2.8
"""The second speaker starts once the reply has sounded this long (in the plain run)."""


def spoken(tts, text: str) -> np.ndarray:
    pcm = resample(np.concatenate(list(tts.synthesize(text))), tts.rate, RATE)
    return (pcm / max(1e-6, float(np.abs(pcm).max())) * 0.7).astype(np.float32)


def silence(seconds: float) -> np.ndarray:
    return np.zeros(round(seconds * RATE), np.float32)


def make_plain(out: Path) -> Path:
    """plain.wav: the question alone."""
    question = spoken(load_tts(TtsConfig()), QUESTION)
    save_wav(out / "plain.wav", np.concatenate([silence(0.5), question, silence(1.0)]), RATE)
    return out / "plain.wav"


def over_at(out: Path) -> float:
    """When the second speaker starts: once the plain run's reply has sounded for
    ``SOUNDED_S`` (the canceller has learnt the room), inside a stretch of it that goes
    on for at least another second."""
    sounded = 0.0
    for start, end in sound_spans(load_wav(out / "plain-reply.wav", 22050), 22050):
        if sounded + (end - start) >= SOUNDED_S and end - (start + SOUNDED_S - sounded) >= 1.0:
            return start + SOUNDED_S - sounded
        sounded += end - start
    raise SystemExit("the plain reply was too short to talk over; try another question")


def make_over(out: Path, at_s: float) -> Path:
    """over.wav: the question, then the second speaker from ``at_s`` on."""
    plain = load_wav(out / "plain.wav", RATE)
    second = spoken(load_tts(TtsConfig(engine="system")), SECOND)
    over = np.concatenate([plain, silence(max(0.0, at_s - plain.size / RATE))])[: round(at_s * RATE)]
    save_wav(out / "over.wav", np.concatenate([over, second, silence(1.0)]), RATE)
    return out / "over.wav"


def chat(wav: Path, out: Path, echo_path: str) -> list[dict]:
    stem = wav.stem
    command = [sys.executable, "-m", "assistant", "chat", "--input", str(wav), "--output", str(out / f"{stem}-reply.wav"),
               "--mic-output", str(out / f"{stem}-mic.wav"), "--echo-path", echo_path, "--json"]
    done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "PYTHONFAULTHANDLER": "1"})
    (out / f"{stem}-chat.log").write_text(done.stderr, encoding="utf-8")
    if done.returncode != 0:
        raise SystemExit(f"assistant chat failed ({done.returncode}); see {out / f'{stem}-chat.log'}")
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def first_sound(pcm: np.ndarray, rate: int, after_s: float, threshold: float = 0.02) -> float:
    start = round(after_s * rate)
    return (start + int(np.flatnonzero(np.abs(pcm[start:]) > threshold)[0])) / rate


def measure_plain(out: Path, turns: list[dict]) -> dict:
    reply = load_wav(out / "plain-reply.wav", 22050)
    spans = sound_spans(reply, 22050)
    heard = sum(end - start for start, end in spans)
    turn = turns[0] if turns else {}
    return {
        "turns": len(turns), "interrupted": [t["interrupted"] for t in turns],
        "paused_by_echo": turn.get("counts", {}).get("barge_in_pauses", 0),
        "reply_audible_s": round(heard, 2), "reply_synthesized_s": round(turn.get("counts", {}).get("tts_audio_s", 0), 2),
        "reply_spans_s": [(round(a, 2), round(b, 2)) for a, b in spans], "transcript": turn.get("transcript"),
        "reply": turn.get("reply"),
    }


def measure_over(out: Path, turns: list[dict], over_at: float) -> dict:
    user = load_wav(out / "over.wav", RATE)
    reply = load_wav(out / "over-reply.wav", 22050)
    speaks_at = first_sound(user, RATE, over_at - 0.05)
    spans = sound_spans(reply, 22050)
    playing = [s for s in spans if s[0] <= speaks_at < s[1] + 0.05]
    stops_at = playing[0][1] if playing else None
    answer = [t for t in turns if not t["interrupted"] and t["counts"].get("barge_in")]
    return {
        "second_speaker_first_sound_s": round(speaks_at, 3),
        "first_reply_silent_at_s": round(stops_at, 3) if stops_at is not None else None,
        "stopped_after_ms": round((stops_at - speaks_at) * 1000) if stops_at is not None else None,
        "turns": [{"transcript": t["transcript"], "reply": t["reply"], "interrupted": t["interrupted"],
                   "reply_cut": t["counts"].get("reply_cut", False)} for t in turns],
        "second_question_answered": bool(answer and answer[0]["reply"]),
        "reply_spans_s": [(round(a, 2), round(b, 2)) for a, b in spans],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("echo-demo"))
    parser.add_argument("--echo-path", default="40,0.5")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    plain = make_plain(args.out)
    report = {"echo_path": args.echo_path, "plain": measure_plain(args.out, chat(plain, args.out, args.echo_path))}
    at_s = over_at(args.out)
    report["over"] = measure_over(args.out, chat(make_over(args.out, at_s), args.out, args.echo_path), at_s)
    text = json.dumps(report, indent=1, ensure_ascii=False)
    (args.out / "echo-demo.json").write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
