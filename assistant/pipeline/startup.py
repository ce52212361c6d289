"""The start-up sound: where nothing of the room is kept yet, hands-free listening begins with
a soft sound (:mod:`assistant.speak.startup_sound`) that the echo canceller learns the room
from, as it would from a reply, so that the first reply starts with a canceller that has
learnt it (docs/echo.md).

It plays through the reply's output (the monitored one: the canceller has it as its
reference) from the first frame heard, only when the canceller is not ready for these
devices (nothing kept, or what was kept no longer fits) and once per engine and devices.
It never holds up an answer: speech over it stops it (the speech is a turn as any other),
and a reply's first sound cuts it. What the canceller learnt on it is kept for the devices
as soon as it and its echo are over, and the first reply's own echo reduction confirms it
(as a remembered room's); if it did not learn the room on it, the recording goes on into the
first reply as without it, and readiness is measured on the reply alone (the echo reduction
on noise said "ready" 0.2 s into a reply at 100 ms, 0.8, and the reply paused on its own
echo 0.9 s in).
"""

from __future__ import annotations

import logging
from enum import Enum
from typing import TYPE_CHECKING

from assistant.config import EchoConfig
from assistant.hear.echo import Cleaned, SpeakerEcho
from assistant.speak.startup_sound import startup_sound

if TYPE_CHECKING:
    from assistant.pipeline.output import PlaybackStage

log = logging.getLogger(__name__)


class Phase(str, Enum):
    OFF = "off"
    """Not wanted (or over)."""
    ARMED = "armed"
    """To play on the first frame heard."""
    PLAYING = "playing"
    """Played; its echo not over yet."""


class StartupSound:
    """Plays the start-up sound when listening starts on devices whose room is not learnt yet."""

    def __init__(self, config: EchoConfig, echo: SpeakerEcho, playback: "PlaybackStage"):
        self.config = config
        self.echo = echo
        self.playback = playback
        self.phase = Phase.OFF
        self._played_for: set[str] = set()
        self._heard = False
        """The canceller has had a frame of the sound (the reply was audible)."""

    def wanted(self, key: str | None) -> bool:
        """For these devices (``key``, None: no echo to learn): the canceller runs and has not
        learnt their room, and the sound has not played for them in this engine."""
        echo = self.echo
        return (self.config.learn_sound and key is not None and echo.mode.full and echo.filter.canceller is not None
                and not echo.filter.readiness.ready and key not in self._played_for)

    def arm(self, key: str | None) -> None:
        """Listening starts on ``key`` (after the canceller recalled what it kept of it)."""
        self.phase = Phase.ARMED if self.wanted(key) else Phase.OFF
        if self.phase is Phase.ARMED:
            self._played_for.add(key)

    def start(self) -> None:
        """The first frame is heard (the output's clock runs): play it, if armed."""
        if self.phase is not Phase.ARMED:
            return
        self.phase, self._heard = Phase.OFF, False
        try:
            played = self.playback.play_startup(startup_sound(self.playback.rate))
        except Exception as exc:  # noqa: BLE001 - no speaker: the room is learnt from the first reply
            log.warning("could not play the start-up sound: %s", exc)
            return
        if played:
            self.phase = Phase.PLAYING
            log.info("playing the start-up sound: the echo canceller learns the room from it")

    @property
    def sounding(self) -> bool:
        """The sound is playing now."""
        return self.phase is Phase.PLAYING and self.playback.startup_sounding

    def speech(self) -> bool:
        """Someone speaks: True when it is over the sound or its echo (no reply's), the sound
        then stopped."""
        if self.phase is not Phase.PLAYING:
            return False
        if self.playback.stop_startup():
            log.info("speech over the start-up sound: it stops")
        return True

    def heard(self, cleaned: Cleaned) -> None:
        """A frame out of the canceller: once the sound and its echo are over, keep the room
        if the canceller learnt it on them."""
        if self.phase is not Phase.PLAYING:
            return
        if cleaned.reply_audible:
            self._heard = True
        elif self._heard and not self.playback.startup_sounding:
            self.phase = Phase.OFF
            learnt = self.echo.filter.sound_over()
            log.info("the start-up sound is over: the canceller %s", "learnt the room on it" if learnt
                     else "learns the room on the first reply")
