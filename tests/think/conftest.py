"""Shared by the skills' tests: the skills as the desktop loads them, in an English locale."""

from __future__ import annotations

from datetime import datetime

import pytest

from assistant.config import SkillsConfig
from assistant.think.skills import SkillContext, Skills

ASKED_AT = SkillContext(now=datetime(2024, 3, 5, 15, 7).astimezone())
"""The moment ``tell`` asks at: a Tuesday afternoon in a leap year."""


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


@pytest.fixture
def tell(skills):
    """Says words to ``skills`` at :data:`ASKED_AT` and carries out what the reply does; the reply's text, or None."""

    def say(text: str) -> str | None:
        reply = skills.match(text, ASKED_AT)
        if reply is not None and reply.effect is not None:
            reply.effect()
        return None if reply is None else reply.text

    say.now = ASKED_AT.now
    return say
