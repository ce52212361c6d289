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

from assistant.commands.bench.turn_split import Voice
from assistant.commands.bench.wake import PHRASE, WakeTake, negative_said, negative_takes, positive_takes

SETS = tomllib.loads((Path(__file__).with_name("wake_sets.toml")).read_text(encoding="utf-8"))["set"]
NEGATIVE_MINUTES = 32.0
SEED = 40_000
"""Set n's negatives are heard with noise seeds from ``SEED + 10_000 * n``."""


def near_homophone_takes(number: int, index: int) -> bool:
    """Whether negative take ``index`` of set ``number`` (from 1) says one of its near homophones."""
    picked, over = negative_said(_sentences(SETS[number - 1]), index)
    return any(s in SETS[number - 1]["near_homophones"] for s in [*picked, over])


def phrase_of(number: int) -> str:
    """The phrase set ``number`` (from 1) says: its own (a Korean set's), else the bench's."""
    return SETS[number - 1].get("phrase", PHRASE)


def _sentences(spec: dict) -> list[str]:
    return spec["plain"] + spec["near_homophones"] * 2


def make_set(number: int, folder: Path) -> list[WakeTake]:
    """Set ``number`` (from 1), made into ``folder`` on first use, then read from it."""
    manifest = folder / "manifest.json"
    if manifest.is_file():
        return [WakeTake(**{**row, "path": folder / row["path"]}) for row in json.loads(manifest.read_text())]
    spec, tag = SETS[number - 1], f"set{number}"
    voices = [Voice(name, rate, pitch) for name, rate, pitch in spec["voices"]]
    folder.mkdir(parents=True, exist_ok=True)
    takes = positive_takes(folder, tag, voices, spec["questions"], phrase_of(number))
    takes += negative_takes(folder, tag, voices, _sentences(spec), NEGATIVE_MINUTES, SEED + 10_000 * number)
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
