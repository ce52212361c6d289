"""The wake phrase's held-out sets (``wake_sets.toml``): eight eSpeak NG voices each that no bench half
and no training voice uses, their own sentences and near homophones, made as the bench's halves are
(:mod:`assistant.commands.bench.wake`): 72 phrase takes (alone, in one breath with a question, and
after a 0.6 s pause; each voice at three rates), and at least 32 minutes of negatives, three sentences a
take, a third TV-like, a third under steady noise, a near homophone said twice as often as any other
sentence. A set's reverberant copy is the same takes through sox's reverberator (30-70% reverberance,
room scale 50-100%: not the rooms the training hears). Deterministic: a set made again is the same,
sample for sample (sox's dither too: ``-R``).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tomllib
from pathlib import Path

from assistant.commands.bench.turn_corpus import espeak_speaker, join_parts
from assistant.commands.bench.wake import KINDS, PHRASE, RATE, RATE_STEPS, WakeTake, _heard, _save

SETS = tomllib.loads((Path(__file__).with_name("wake_sets.toml")).read_text(encoding="utf-8"))["set"]
NEGATIVE_MINUTES = 32.0
SEED = 40_000
"""Set n's negatives are heard with noise seeds from ``SEED + 10_000 * n``."""


def near_homophone_takes(number: int, index: int) -> bool:
    """Whether negative take ``index`` of set ``number`` (from 1) says one of its near homophones."""
    said = _sentences(SETS[number - 1])
    picked = [said[(index * 3 + k) % len(said)] for k in range(3)]
    if KINDS[index % 3] == "tv":
        picked.append(said[(index * 7 + 1) % len(said)])
    return any(s in SETS[number - 1]["near_homophones"] for s in picked)


def _sentences(spec: dict) -> list[str]:
    return spec["plain"] + spec["near_homophones"] * 2


def make_set(number: int, folder: Path) -> list[WakeTake]:
    """Set ``number`` (from 1), made into ``folder`` on first use, then read from it."""
    manifest = folder / "manifest.json"
    if manifest.is_file():
        return [WakeTake(**{**row, "path": folder / row["path"]}) for row in json.loads(manifest.read_text())]
    spec, tag = SETS[number - 1], f"set{number}"
    folder.mkdir(parents=True, exist_ok=True)
    takes = []
    said = PHRASE[:1].upper() + PHRASE[1:]
    for v, (name, rate, pitch) in enumerate(spec["voices"]):
        for step in RATE_STEPS:
            say = espeak_speaker(name, rate + step, pitch)
            phrase = say(said)
            question = spec["questions"][v % len(spec["questions"])]
            forms = {"alone": ([phrase], []), "breath": ([say(f"{said}, {question}")], []),
                     "pause": ([phrase, say(question.capitalize())], [0.6])}
            for form, (parts, gaps) in forms.items():
                audio, _, _ = join_parts(parts, gaps)
                take = f"{tag}-pos-{form}-{name}-{rate + step}"
                takes.append(WakeTake(take, _save(folder, take, audio), tag, True, name, round(0.5 + phrase.size / RATE, 3)))
    sentences = _sentences(spec)
    speakers = [espeak_speaker(name, rate + d, pitch) for name, rate, pitch in spec["voices"] for d in (0, 25)]
    seconds, index = 0.0, 0
    while seconds < NEGATIVE_MINUTES * 60:
        say = speakers[index % len(speakers)]
        audio, _, _ = join_parts([say(sentences[(index * 3 + k) % len(sentences)]) for k in range(3)], [0.35, 0.5])
        kind = KINDS[index % 3]
        other = speakers[(index + 5) % len(speakers)](sentences[(index * 7 + 1) % len(sentences)]) if kind == "tv" else None
        audio = _heard(audio, kind, SEED + 10_000 * number + index, other)
        take = f"{tag}-neg-{index:03d}-{kind}"
        takes.append(WakeTake(take, _save(folder, take, audio), tag, False, spec["voices"][index % len(spec["voices"])][0]))
        seconds += audio.size / RATE
        index += 1
    _write(manifest, takes)
    return takes


def reverberant(takes: list[WakeTake], folder: Path) -> list[WakeTake]:
    """The takes through sox's reverberator into ``folder`` (made on first use, then read from it)."""
    manifest = folder / "manifest.json"
    if manifest.is_file():
        return [WakeTake(**{**row, "path": folder / row["path"]}) for row in json.loads(manifest.read_text())]
    sox = shutil.which("sox")
    if sox is None:
        raise RuntimeError("the reverberant copies need sox (apt-get install sox)")
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for i, take in enumerate(takes):
        path = folder / take.path.name
        reverberance, room = 30 + (i * 17) % 41, 50 + (i * 29) % 51
        subprocess.run([sox, "-R", str(take.path), str(path), "reverb", str(reverberance), "50", str(room), "100", "0", "0",
                        "norm", "-3"], check=True, capture_output=True)
        out.append(WakeTake(**{**take.__dict__, "path": path, "half": f"{take.half}-room"}))
    _write(manifest, out)
    return out


def _write(manifest: Path, takes: list[WakeTake]) -> None:
    rows = [{**t.__dict__, "path": t.path.name} for t in takes]
    manifest.write_text(json.dumps(rows, indent=1), encoding="utf-8")
