"""Files written whole or not at all: each writer's process is killed between writing the
new content and renaming it over the old file, and the old file must be intact."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from assistant import config, resources
from assistant.think import kvfile
from assistant.sound import load_wav, save_wav
from assistant.speak.ready import AudioCache
from assistant.think.skills.timer_store import Timers

REPO = Path(__file__).resolve().parent.parent

STALLED = textwrap.dedent('''
    import os, sys, time
    from pathlib import Path

    def stall(src, dst):
        print("renaming", src, flush=True)
        time.sleep(120)

    os.replace = stall  # the write is done and synced; the process dies before the rename
    target = Path(sys.argv[2])
    exec(sys.argv[1])
''')

WRITERS = {
    "config": (
        lambda path: config.save(config.Config(), path),
        "from assistant import config; config.save(config.with_overrides(config.Config(), llm={'max_tokens': 7}), target)",
        lambda path: config.load(path).llm.max_tokens == config.Config().llm.max_tokens,
    ),
    "prompt cache": (
        lambda path: kvfile.write(path, "key", b"old KV"),
        "from assistant.think import kvfile; kvfile.write(target, 'key', b'new KV' * 1000)",
        lambda path: kvfile.read(path, "key") == b"old KV",
    ),
    "reply audio cache": (
        lambda path: AudioCache(path.parent, "voice", 22050).save("hello", np.full(100, 0.1, np.float32)),
        "import numpy as np; from assistant.speak.ready import AudioCache; "
        "AudioCache(target.parent, 'voice', 22050).save('hello', np.full(5000, 0.5, np.float32))",
        lambda path: np.allclose(AudioCache(path.parent, "voice", 22050).load("hello"), 0.1),
    ),
    "WAV": (
        lambda path: save_wav(path, np.full(1600, 0.25, np.float32), 16000),
        "import numpy as np; from assistant.sound import save_wav; save_wav(target, np.zeros(32000, np.float32), 16000)",
        lambda path: load_wav(path, 16000).size == 1600,
    ),
    "timers": (
        lambda path: Timers(path, print).add("egg", "timer", 2e9, 300),
        "from assistant.think.skills.timer_store import Timers; Timers(target, print).add('pasta', 'timer', 2e9, 600)",
        lambda path: [t.name for t in Timers(path, print).active()] == ["egg"],
    ),
    "joined Whisper model": (
        lambda path: (path.unlink(missing_ok=True), join_whisper(path, b"old")),
        "from tests.test_atomic import join_whisper; join_whisper(target, b'new' * 1000)",
        lambda path: path.read_bytes() == b"old" * 2,
    ),
}


def join_whisper(path: Path, content: bytes) -> None:
    """Join two parts of ``content`` into ``path`` (a folder's model.bin) as the Korean Whisper is joined."""
    from assistant.machine import whisper_parts

    parts = path.parent / "parts"
    parts.mkdir(exist_ok=True)
    for name in whisper_parts.SIDE_FILES:
        (parts / name).write_text("{}")
    halves = [parts / "model.bin.part1", parts / "model.bin.part2"]
    for half in halves:
        half.write_bytes(content)
    whisper_parts.join(halves, parts, path.parent)


def target_path(kind: str, folder: Path) -> Path:
    if kind == "reply audio cache":
        return AudioCache(folder / "replies", "voice", 22050).path("hello")
    return folder / {"config": "assistant.toml", "prompt cache": "model.kv", "WAV": "answer.wav",
                     "timers": "timers.json", "joined Whisper model": "model.bin"}[kind]


@pytest.mark.parametrize("kind", list(WRITERS))
def test_a_crash_between_write_and_rename_leaves_the_old_file(kind, tmp_path):
    write_old, write_new, is_old = WRITERS[kind]
    path = target_path(kind, tmp_path)
    write_old(path)
    child = subprocess.Popen([sys.executable, "-c", STALLED, write_new, str(path)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, cwd=REPO)
    try:
        line = child.stdout.readline()
        assert line.startswith("renaming"), child.stderr.read()
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait(timeout=10)
    assert child.returncode == -signal.SIGKILL
    assert is_old(path), f"the {kind} was damaged by a crash mid-write"
    leftovers = list(path.parent.glob(f".{path.name}.*.tmp"))
    assert len(leftovers) == 1 and leftovers[0].stat().st_size > 0  # the new content was written, not renamed

    old = time.time() - resources.STALE_S - 1
    os.utime(leftovers[0], (old, old))
    write_old(path)  # the next write tidies up after the crashed one
    assert not list(path.parent.glob(f".{path.name}.*.tmp"))


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "settings.toml"
    resources.write_text(path, "old = 1\n")

    def full_disk(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(OSError, match="No space"):
        resources.write_text(path, "new = 2\n")
    assert path.read_text() == "old = 1\n"
    assert [p.name for p in tmp_path.iterdir()] == ["settings.toml"]
