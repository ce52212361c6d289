"""Shared fixtures: real embedded models loaded once per session, isolated user dirs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"

# Qt tests run without a screen.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

try:  # the fuzz tests try the same examples in every run (a failure found once is found again), and keep none on disk
    from hypothesis import settings

    settings.register_profile("deterministic", derandomize=True, database=None)
    settings.load_profile("deterministic")
except ImportError:  # hypothesis comes with the test extra
    pass


@pytest.fixture(scope="session", autouse=True)
def scratch_folders():
    """The fuzz tests' scratch folders go when the session ends."""
    yield
    import shutil

    from fakes import Scratch

    for folder in Scratch.made:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session", autouse=True)
def isolated_user_dirs(tmp_path_factory):
    """Config, cache and data dirs of the tests never touch the user's."""
    root = tmp_path_factory.mktemp("home")
    for var, name in (("XDG_CONFIG_HOME", "config"), ("XDG_CACHE_HOME", "cache"), ("XDG_DATA_HOME", "data")):
        os.environ[var] = str(root / name)
    yield root


@pytest.fixture(autouse=True)
def no_exit_for_restart(monkeypatch):
    """A watchdog that gives up in a test reports it instead of ending the test process;
    the test then fails on what it expected to happen."""
    import logging

    from assistant.pipeline import watchdog

    monkeypatch.setattr(watchdog, "exit_for_restart",
                        lambda reason: logging.getLogger("tests").error("the app would restart: %s", reason))


@pytest.fixture(scope="session")
def default_config():
    from assistant.config import Config

    return Config()


@pytest.fixture(scope="session")
def engines(default_config):
    """The embedded default models, loaded and warmed once (Whisper tiny.en, SmolLM2, Piper joe)."""
    from assistant.pipeline.session import load_models

    return load_models(default_config)


@pytest.fixture(autouse=True)
def fresh_conversation(request):
    """Tests share the loaded models, not the conversation: each starts with no history."""
    if "engines" in request.fixturenames:
        request.getfixturevalue("engines").llm.reset()
    yield


@pytest.fixture(scope="session")
def question_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("questions")


@pytest.fixture(scope="session")
def speak(engines, question_dir):
    """speak("text") -> Path of a 16 kHz WAV of the text said by Piper, with silence around it."""
    from assistant.commands.spoken import question_wav

    def make(text: str) -> Path:
        return question_wav(engines.tts, text, question_dir)

    return make


@pytest.fixture
def jfk_wav() -> Path:
    return DATA / "jfk.wav"


@pytest.fixture
def make_kiosk_session():
    """make_kiosk_session(config, llm=..., open_source=..., vad=...) -> a started :class:`fakes.Kiosk`."""
    from fakes import Kiosk

    made = []

    def make(config, **kwargs):
        kiosk = Kiosk(config, **kwargs)
        made.append(kiosk)
        kiosk.session.start()
        return kiosk

    yield make
    for kiosk in made:
        if kiosk.llm.block is not None:
            kiosk.llm.block.set()
        kiosk.session.close()
