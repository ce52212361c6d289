"""The system voice renders through a scratch folder; it goes away with the voice.

Each check runs in a process of its own: pyttsx3's eSpeak NG and the one Piper brings do
not share a process well once the other is loaded (the test process loads Piper)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

SPEAK = """
import sys
from assistant.config import TtsConfig
from assistant.speak.tts import SystemTts, TtsError

try:
    tts = SystemTts(TtsConfig(engine="system"))
except TtsError as exc:
    print("no system voice:", exc)
    sys.exit(3)
assert sum(pcm.size for pcm in tts.synthesize("Hello there.")) > 0
folder = tts._tmp
print(folder)
if sys.argv[1] == "close":
    assert folder.is_dir()
    tts.close()
    assert not folder.exists(), "close left the scratch folder"
    tts.close()  # a second close does nothing
"""


def speak(tmp_path: Path, how: str) -> tuple[Path, Path]:
    """Run the system voice in a child with its own temporary folder: (that folder, the scratch folder used)."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    # eSpeak NG opens PulseAudio, whose client keeps a runtime folder of its own (in the
    # temporary folder when XDG_RUNTIME_DIR is unset): give it one outside ``scratch``.
    env = dict(os.environ, TMPDIR=str(scratch), PULSE_RUNTIME_PATH=str(tmp_path / "pulse"))
    run = subprocess.run([sys.executable, "-c", SPEAK, how], env=env, capture_output=True, text=True, timeout=120,
                         cwd=REPO)
    if run.returncode == 3:
        pytest.skip(run.stdout.strip())
    assert run.returncode == 0, run.stderr[-2000:]
    return scratch, Path(run.stdout.strip().splitlines()[-1])


def test_closing_the_system_voice_removes_its_scratch_folder(tmp_path):
    scratch, used = speak(tmp_path, "close")
    assert used.parent == scratch and used.name.startswith("assistant-tts-")
    assert list(scratch.iterdir()) == []


def test_an_app_that_exits_leaves_no_scratch_folder(tmp_path):
    scratch, used = speak(tmp_path, "exit")
    assert used.parent == scratch
    assert list(scratch.iterdir()) == [], "the voice's scratch folder outlived the app"
