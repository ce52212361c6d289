"""Shared by the skills' tests: the skills as the desktop loads them, in an English locale."""

from __future__ import annotations

import pytest

from assistant.config import SkillsConfig
from assistant.think.skills import Skills


@pytest.fixture(scope="module")
def english_skills():
    """The skills (timers in memory), ``en_US``; modules that need a timers file make their own."""
    loaded = Skills(SkillsConfig(locale="en_US"))
    yield loaded
    loaded.close()


@pytest.fixture
def skills(tmp_path):
    """The skills, ``en_US``, with a timers file of their own (a test's timers are its own)."""
    loaded = Skills(SkillsConfig(locale="en_US", timers_file=str(tmp_path / "timers.json")))
    yield loaded
    loaded.close()


@pytest.fixture
def rings(skills):
    """What ``skills`` announce once ``start()`` has set something to ring within a few seconds."""
    from assistant.pipeline.waiting import wait_until

    def after(start) -> list:
        heard = []
        skills.subscribe(heard.append)
        start()
        wait_until(lambda: heard, 5.0)
        return heard

    return after
