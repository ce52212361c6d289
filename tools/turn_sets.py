"""Held-out turn sets in real time (``assistant/commands/bench/turn_sets.toml``): each take said by
eSpeak NG (0.5 s of silence before it, 2.5 s after), fed to ``assistant chat --input ... --output ...
--json`` in a fresh process, as a microphone would, and heard from the two WAVs: from the last
audible sample of the whole question to the first of the answer. A pause take whose answer starts
before its second part does (50 ms of grace) is cut off; so is a finished take answered before its end.

    python -m tools.turn_sets [--set NAME] [--out DIR] [--make-only] [-- CHAT OPTIONS]

Prints, per set: finished takes heard (median, p90, within 1 s, answered) and pause takes cut off, and
writes every take's turns and figures to ``DIR/NAME.json``. The WAVs are the same every time they are
made on the same machine; the figures are the machine's.
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np

from assistant.commands.bench.heard import heard_latency_files
from assistant.resources import cache_dir

SETS = tomllib.loads((Path(__file__).resolve().parents[1] / "assistant" / "commands" / "bench" / "turn_sets.toml")
                     .read_text(encoding="utf-8"))["set"]
RATE = 16000
BEFORE_S, AFTER_S = 0.5, 2.5
FOUR_GAPS = (0.6, 0.8, 1.0, 0.7)
EACH_VOICE_GAPS = (0.6, 0.8, 0.9)
GRACE_S = 0.05


def say(voice: str, rate: int, pitch: int, text: str) -> np.ndarray:
    """eSpeak NG's words at 16 kHz, trimmed where they are under 0.005: at eSpeak NG's own level, as the
    sets were made and run (the bench's ``espeak_said`` scales each to one peak, which would change them)."""
    import soundfile
    import soxr

    raw = subprocess.run(["espeak-ng", "-v", voice, "-s", str(rate), "-p", str(pitch), "--stdout", text],
                         capture_output=True, check=True).stdout
    audio, got = soundfile.read(io.BytesIO(raw), dtype="float32")
    audio = soxr.resample(audio if audio.ndim == 1 else audio.mean(1), got, RATE)
    loud = np.flatnonzero(np.abs(audio) > 0.005)
    return audio[loud[0]:loud[-1] + 1]


def _pad(*parts: np.ndarray) -> np.ndarray:
    return np.concatenate([_silence(BEFORE_S), *parts, _silence(AFTER_S)])


def _silence(seconds: float) -> np.ndarray:
    return np.zeros(int(seconds * RATE), np.float32)


def make(spec: dict, folder: Path) -> list[dict]:
    """The set's takes into ``folder`` (and its index)."""
    import soundfile

    folder.mkdir(parents=True, exist_ok=True)
    takes, voices, pauses = [], spec["voices"], range(len(spec["pauses"]))
    pause_takes = []  # (pause, voice, gap, name)
    if spec["pause_takes"] == "four":
        pause_takes = [(p, (p * 2 + k) % len(voices), FOUR_GAPS[k], f"p{p}-{k}") for p in pauses for k in range(4)]
    for v, (voice, rate, pitch) in enumerate(voices):
        for q, text in enumerate(spec["finished"]):
            path = folder / f"q{q}-{v}.wav"
            soundfile.write(path, _pad(say(voice, rate, pitch, text)), RATE)
            takes.append({"file": path.name, "kind": "finished", "text": text, "voice": voice})
        if spec["pause_takes"] == "each voice":
            pause_takes += [(p, v, EACH_VOICE_GAPS[(p + v) % 3], f"p{p}-{v}") for p in pauses]
    for p, v, gap, name in pause_takes:
        voice, rate, pitch = voices[v]
        first, rest = spec["pauses"][p]
        said = say(voice, rate, pitch, first)
        path = folder / f"{name}.wav"
        soundfile.write(path, _pad(said, _silence(gap), say(voice, rate, pitch, rest)), RATE)
        takes.append({"file": path.name, "kind": "pause", "text": f"{first} ... {rest}", "voice": voice, "gap": gap,
                      "first_end": BEFORE_S + said.size / RATE})
    (folder / "index.json").write_text(json.dumps(takes, indent=1, ensure_ascii=False), encoding="utf-8")
    return takes


def run(spec: dict, folder: Path, takes: list[dict], chat: list[str]) -> list[dict]:
    """Each take through ``assistant chat`` in a fresh process; its turns and heard figure."""
    out, results = folder / "answers", []
    out.mkdir(exist_ok=True)
    language = ["--language", spec["language"]] if spec["language"] != "en" else []
    for take in takes:
        question, answer = folder / take["file"], out / take["file"]
        answer.unlink(missing_ok=True)
        done = subprocess.run([sys.executable, "-m", "assistant", "chat", "--input", str(question), "--output",
                               str(answer), "--json", *language, *chat], capture_output=True, text=True)
        turns = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
        heard = heard_latency_files(question, answer) if answer.is_file() else None
        row = {**take, "rc": done.returncode, "heard_ms": float(heard.ms) if heard else None,
               "turns": [{"transcript": t.get("transcript"), "reply": t.get("reply"), "source": t.get("source"),
                          "reason": (t.get("counts") or {}).get("turn_reason"), "latency_ms": t.get("latency_ms")}
                         for t in turns]}
        if heard and take["kind"] == "pause":
            row["cut_off"] = bool(heard.answer_start_s < take["first_end"] + take["gap"] + GRACE_S)
        elif heard:
            row["cut_off"] = bool(heard.ms < 0)
        results.append(row)
        print(json.dumps(row, ensure_ascii=False), file=sys.stderr, flush=True)
    return results


def summary(name: str, results: list[dict]) -> str:
    finished = [r for r in results if r["kind"] == "finished"]
    heard = sorted(r["heard_ms"] for r in finished if r["heard_ms"] is not None and not r["cut_off"])
    pauses = [r for r in results if r["kind"] == "pause"]
    p90 = float(np.percentile(heard, 90)) if heard else None
    return (f"{name}: finished takes heard at a median {statistics.median(heard) if heard else None} ms, p90 {p90} ms, "
            f"{sum(h <= 1000 for h in heard)} of {len(finished)} within 1 s ({len(heard)} answered, "
            f"{sum(bool(r.get('cut_off')) for r in finished)} before their end); pause takes cut off "
            f"{sum(bool(r.get('cut_off')) for r in pauses)} of {len(pauses)}")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    chat = argv[argv.index("--") + 1:] if "--" in argv else []
    argv = argv[:argv.index("--")] if "--" in argv else argv
    parser = argparse.ArgumentParser(prog="python -m tools.turn_sets", description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", choices=[s["name"] for s in SETS], action="append")
    parser.add_argument("--out", type=Path, default=cache_dir() / "turn-sets")
    parser.add_argument("--make-only", action="store_true")
    args = parser.parse_args(argv)
    for spec in (s for s in SETS if not args.set or s["name"] in args.set):
        folder = args.out / spec["name"]
        takes = make(spec, folder)
        if args.make_only:
            print(f"{spec['name']}: {len(takes)} takes in {folder}")
            continue
        results = run(spec, folder, takes, chat)
        (args.out / f"{spec['name']}.json").write_text(json.dumps(results, indent=1, ensure_ascii=False), encoding="utf-8")
        print(summary(spec["name"], results), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
