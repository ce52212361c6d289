"""The rooms of docs/echo.md, frame by frame: a canceller that heard the start-up sound first,
then a reply with a person over it, or a sound that is not a person.

Exact, whatever the load (the listener's own barge-in logic run on the canceller's output,
frame by frame, as :func:`assistant.commands.bench.echo.listen` runs it); only the time per
block depends on the machine. For each room of :func:`~assistant.commands.bench.room_noises.rooms`:
pauses where only the echo sounded ("false"), interruptions paused within 300 ms of the
user's first speech frame, 0.5, 1, 2 and 4 s into the reply, the seconds each took, the replies
that paused with nobody speaking (each at four alignments to the frames: "alone"), and in how
many scenes (1 and 3 s into each reply) each sound of ``room_noises.NOISES`` paused it.

The held-out scenes are those of docs/echo.md's table (the moon reply; en-gb-x-rp+m5,
en-029+f1 at eSpeak NG's default rate, and the first 4 s of the JFK clip); ``--scenes tuning``
uses three other replies, other voices and sentences, and the JFK clip's next 4 s (what a
setting may be chosen on).

    python -m tools.echo_rooms --tail 192 [--echo-tail 150] [--scenes held-out|tuning] [--no-noises] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import zlib
from dataclasses import replace
from pathlib import Path

import numpy as np

from assistant.commands.bench.echo import _active, listen, speech_onset
from assistant.commands.bench.room_noises import NOISES, RATE, noise, rooms
from assistant.config import Config, TtsConfig
from assistant.hear.cancellers import SpeexCanceller, to_int16
from assistant.hear.echo import aligned_shift
from assistant.hear.echo_memory import RoomRecord, measure_delay
from assistant.sound import load_wav, resample
from assistant.speak.startup_sound import startup_sound

AT_S = (0.5, 1.0, 2.0, 4.0)
DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
SCENES = {
    "held-out": {
        "replies": ("The moon is about three hundred eighty four thousand kilometers away from the earth. "
                    "Light takes a little more than one second.",),
        "voices": (("en-gb-x-rp+m5", "Wait, what is the tallest mountain in the world?"),
                   ("en-029+f1", "How far away is the sun?")),
        "jfk_s": (0.0, 4.0),
    },
    "tuning": {
        "replies": ("Paris is the capital of France. It is known for the Eiffel Tower, its museums "
                    "and its cafes, and millions of people visit it every year.",
                    "Water boils at one hundred degrees Celsius at sea level. On a high mountain the air "
                    "is thinner, so it boils at a lower temperature.",
                    "Sure, here is a short story. A lighthouse keeper lived alone on a small island, "
                    "and every night she climbed the stairs to light the lamp."),
        "voices": (("en-us+m3", "Actually, what time is it in Tokyo?"),
                   ("en-gb+f3", "No, tell me about the weather tomorrow.")),
        "jfk_s": (4.0, 8.0),
    },
}


def steady_voice(tts, text: str) -> np.ndarray:
    return resample(np.concatenate(list(tts.steady(text))), tts.rate, RATE).astype(np.float32)


def users(scenes: dict, out: Path) -> list[tuple[str, np.ndarray]]:
    from tools.echo_demo import second_voice

    found = []
    for voice, text in scenes["voices"]:
        folder = out / voice
        folder.mkdir(parents=True, exist_ok=True)
        said = folder / f"{zlib.crc32(text.encode())}.wav"  # rendered once, for runs side by side
        if not said.exists():
            second_voice(text, folder, voice)
            (folder / "second-speaker.wav").rename(said)
        found.append((voice, load_wav(said, RATE)))
    lo, hi = scenes["jfk_s"]
    found.append(("JFK", load_wav(DATA / "jfk.wav", RATE)[round(lo * RATE) : round(hi * RATE)]))
    return found


REMEMBERED = ("The weather tomorrow will be sunny in the morning, with clouds and a little rain "
              "later in the afternoon.")
"""Another reply, played backwards, is what a remembered room was learnt on (``--start remembered``)."""


def remembered(room, tts) -> RoomRecord:
    """4 s of another sound through ``room``, as a canceller keeps it after a reply (a restart)."""
    far = np.ascontiguousarray(steady_voice(tts, REMEMBERED)[::-1][: 4 * RATE])
    mic = room.echo(far, RATE)[: far.size]
    return RoomRecord(room.name, "speex", RATE, to_int16(far), to_int16(mic), measure_delay(far, mic, RATE), 0.0, 0.0)


def echo_beyond_tail_db(room, sound: np.ndarray, tail_ms: int) -> float:
    """Energy of the room's response (deconvolved from the start-up sound's echo) that a
    canceller of ``tail_ms`` cannot reach once the delay is out of its reference (dB of all)."""
    scene = room.scene(sound, np.zeros(0, np.float32), RATE, 0.0)
    n = 1 << int(np.ceil(np.log2(scene.far.size + RATE)))
    far, mic = np.fft.rfft(scene.far, n), np.fft.rfft(scene.mic, n)
    response = np.fft.irfft(mic * np.conj(far) / (np.abs(far) ** 2 + 1e-3 * np.mean(np.abs(far) ** 2)), n)[: RATE]
    shift = aligned_shift(measure_delay(scene.far, scene.mic, RATE), RATE, RATE // 100)
    energy = response**2
    outside = energy[:shift].sum() + energy[shift + tail_ms * RATE // 1000 :].sum()
    return round(float(10 * np.log10(max(outside, 1e-12) / energy.sum())), 1)


def heard(factory, room, scene, vad, config, sound, record):
    """The scene through a fresh canceller that heard the start-up sound first (``record``:
    that replayed a remembered room instead): as :func:`listen` returns it."""
    if record is not None:
        return listen(factory(), scene, vad, config, record=record)
    return listen(factory(), scene, vad, config, prelude=room.scene(sound, np.zeros(0, np.float32), RATE, 0.0))


def scene_figures(factory, room, reply, near, at, vad, config, sound, record=None) -> tuple[int, float | None, float]:
    """False pauses, seconds from the user's first speech frame to the pause, ms per block."""
    scene = room.scene(reply, near, RATE, at)
    _, pauses, ms, _ = heard(factory, room, scene, vad, config, sound, record)
    onset = speech_onset(scene.near, vad, RATE)
    span = np.flatnonzero(_active(scene.near, RATE // 100))
    lo, hi = (onset - 0.05, span[-1] / RATE + 0.5) if onset is not None else (np.inf, np.inf)
    false = [p for p in pauses if not lo <= p <= hi]
    hits = [p - onset for p in pauses if lo <= p <= hi]
    return len(false), (hits[0] if hits else None), ms


def run(tail_ms: int, which: str, noises: bool, room_names: list[str] | None, out: Path, start: str = "sound",
        echo_tail_ms: int | None = None) -> dict:
    from assistant.hear.vad import SileroVad
    from assistant.machine.models import find_silero_vad
    from assistant.speak.tts import load_tts

    config = Config()
    echo_tail_ms = config.echo.echo_tail_ms if echo_tail_ms is None else echo_tail_ms
    config = replace(config, echo=replace(config.echo, tail_ms=tail_ms, echo_tail_ms=echo_tail_ms))
    factory = lambda: SpeexCanceller(RATE, tail_ms=tail_ms)  # noqa: E731
    vad = SileroVad(find_silero_vad())
    scenes = SCENES[which]
    tts = load_tts(TtsConfig())
    replies = [steady_voice(tts, text) for text in scenes["replies"]]
    people = users(scenes, out)
    sound = startup_sound(RATE)
    report: dict = {"tail_ms": tail_ms, "echo_tail_ms": echo_tail_ms, "scenes": which, "start": start, "rooms": {}}
    for room in rooms(RATE):
        if room_names and room.name not in room_names:
            continue
        record = remembered(room, tts) if start == "remembered" else None
        false, after, spent = 0, [], []
        for reply, (_, near), at in ((r, p, a) for r in replies for p in people for a in AT_S):
            f, a, ms = scene_figures(factory, room, reply, near, at, vad, config, sound, record)
            false += f
            after.append(None if a is None else round(a, 2))
            spent.append(ms)
        alone = 0  # each reply with no one speaking, at four alignments to the frames
        for reply, offset in ((r, o) for r in replies for o in (0, 128, 256, 384)):
            far = np.concatenate([np.zeros(offset, np.float32), reply])
            _, pauses, _, _ = heard(factory, room, room.scene(far, np.zeros(0, np.float32), RATE, 0.0), vad, config,
                                    sound, record)
            alone += bool(pauses)
        row = {"false": false, "within_300ms": sum(a is not None and a <= 0.3 for a in after),
               "scenes": len(after), "pause_after_s": after, "ms_per_block": round(float(np.median(spent)), 3),
               "alone_paused": alone, "alone_scenes": 4 * len(replies),
               "echo_beyond_tail_db": echo_beyond_tail_db(room, sound, tail_ms)}
        if noises:
            row["noises"] = {}
            for name in NOISES:
                pcm = noise(name, RATE)
                paused = 0
                for reply, at in ((r, a) for r in replies for a in (1.0, 3.0)):
                    _, pauses, _, _ = heard(factory, room, room.scene(reply, pcm, RATE, at), vad, config, sound, record)
                    paused += any(at <= p <= at + pcm.size / RATE + 0.5 for p in pauses)
                row["noises"][name] = paused
        report["rooms"][room.name] = row
        print(json.dumps({room.name: row}), flush=True)
    return report


def block_cost(tail_ms: int, seconds: float = 5.0) -> float:
    """ms per 10 ms block of speexdsp alone on noise (no Python framing)."""
    rng = np.random.default_rng(3)
    far = (rng.standard_normal(round(seconds * RATE)) * 0.1).astype(np.float32)
    mic = np.roll(far, 640) * 0.5
    canceller = SpeexCanceller(RATE, tail_ms=tail_ms)
    n = canceller.block_samples
    started = time.process_time()
    for i in range(0, far.size - n + 1, n):
        canceller.cancel(mic[i : i + n], far[i : i + n])
    return (time.process_time() - started) / (far.size // n) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tail", type=int, default=Config().echo.tail_ms, help="echo.tail_ms")
    parser.add_argument("--echo-tail", type=int, default=Config().echo.echo_tail_ms, help="echo.echo_tail_ms")
    parser.add_argument("--scenes", choices=sorted(SCENES), default="held-out")
    parser.add_argument("--no-noises", action="store_true")
    parser.add_argument("--start", choices=("sound", "remembered"), default="sound",
                        help="the canceller heard the start-up sound first, or replayed a remembered room")
    parser.add_argument("--room", action="append", help="only this room (by its name; repeatable)")
    parser.add_argument("--voices", type=Path, default=Path("bench-out/echo-rooms"), help="folder for the rendered voices")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    report = run(args.tail, args.scenes, not args.no_noises, args.room, args.voices, args.start, args.echo_tail)
    report["speex_cpu_ms_per_block"] = round(block_cost(args.tail), 3)
    text = json.dumps(report, indent=1)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
