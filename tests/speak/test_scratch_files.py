"""The system voice renders through a scratch folder; it goes away with the voice."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

SPEAK_AND_EXIT = """
from assistant.config import TtsConfig
from assistant.speak.tts import SystemTts

tts = SystemTts(TtsConfig(engine="system"))
assert sum(pcm.size for pcm in tts.synthesize("Hello there.")) > 0
print(tts._tmp)
"""


@pytest.fixture
def system_voice():
    from assistant.config import TtsConfig
    from assistant.speak.tts import SystemTts, TtsError

    try:
        return SystemTts(TtsConfig(engine="system"))
    except TtsError as exc:
        pytest.skip(f"no system voice here: {exc}")


def test_closing_the_system_voice_removes_its_scratch_folder(system_voice):
    folder = system_voice._tmp
    assert folder.is_dir() and folder.name.startswith("assistant-tts-")
    system_voice.close()
    assert not folder.exists()
    system_voice.close()  # a second close does nothing


def test_an_app_that_exits_leaves_no_scratch_folder(system_voice, tmp_path):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    run = subprocess.run([sys.executable, "-c", SPEAK_AND_EXIT], env=dict(os.environ, TMPDIR=str(scratch)),
                         capture_output=True, text=True, timeout=120, cwd=REPO)
    assert run.returncode == 0, run.stderr[-2000:]
    used = Path(run.stdout.strip().splitlines()[-1])
    assert used.parent == scratch
    assert list(scratch.iterdir()) == [], "the voice's scratch folder outlived the app"
