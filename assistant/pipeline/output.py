"""The output stages: reply text into speech, speech into the speaker (or a WAV file)."""

from __future__ import annotations

import logging
from typing import Callable, Iterator

import numpy as np

from ..audio import AudioOut, resample, wait_until_heard
from ..events import Commit, EndOfReply, EventType, Message, PlayAudio, ReplyMessage, SpeakText, State
from ..audible import first_audible_s
from ..timeline import Mark, Timeline
from ..tts import Tts
from ..voices import voices_for
from .bus import EventBus
from .conductor import Conductor
from .stage import Stage

log = logging.getLogger(__name__)


def speech(tts: Tts, text: str, timeline: Timeline, rate: int,
           still_wanted: Callable[[], bool] = lambda: True) -> Iterator[np.ndarray]:
    """The spoken ``text`` at ``rate``, piece by piece as it is synthesized; marks the
    first audio and counts its seconds in ``timeline`` (not once ``still_wanted`` fails)."""
    for pcm in tts.synthesize(text):
        if not still_wanted():
            return
        timeline.mark(Mark.TTS_FIRST_AUDIO)
        timeline.add("tts_audio_s", pcm.size / tts.rate)
        yield resample(pcm, tts.rate, rate)


class PlaybackStage(Stage):
    """Plays reply audio; audio of a speculative reply is held until its commit."""

    name = "output"

    def __init__(self, turns: Conductor, bus: EventBus, out: AudioOut):
        super().__init__(turns)
        self.bus = bus
        self.out = out
        self.volume = 1.0
        self._released: tuple[int, int] | None = None
        self._held: list[ReplyMessage] = []

    @property
    def rate(self) -> int:
        return self.out.rate

    def start_clock(self, t0: float) -> None:
        """Sample 0 of the output plays at ``t0`` (perf_counter): the input's first sample."""
        self.out.start(t0)

    def hush(self) -> None:
        """Stop what is playing now."""
        self.out.flush()

    def change_volume(self, direction: int) -> None:
        self.volume = float(np.clip(self.volume * (1.25 if direction > 0 else 0.8), 0.1, 2.0))

    def process(self, message: Message) -> None:
        if not isinstance(message, ReplyMessage):
            return
        key = (message.turn_id, message.attempt)
        self._held = [m for m in self._held if (m.turn_id, m.attempt) == key]
        if isinstance(message, Commit):
            self._released = key
            held, self._held = self._held, []
            for item in held:
                self._handle(item)
        elif self._released == key:
            self._handle(message)
        else:
            self._held.append(message)

    def _handle(self, message: ReplyMessage) -> None:
        turns, turn = self.turns, message.turn_id
        if isinstance(message, PlayAudio):
            heard_at = self.out.play(message.pcm * self.volume)
            timeline = turns.timeline(turn)
            if timeline.get(Mark.REPLY_SOUND) is None:
                sound_s = first_audible_s(message.pcm * self.volume, self.out.rate)
                if sound_s is not None:
                    timeline.mark(Mark.REPLY_SOUND, heard_at + sound_s)
            if timeline.get(Mark.AUDIO_OUT_START) is None:
                timeline.mark(Mark.AUDIO_OUT_START, heard_at)
                self.bus.emit(EventType.AUDIO_START, turn)
                self.bus.set_state(State.SPEAKING, turn)
        elif isinstance(message, EndOfReply):
            # Wait until the reply has been heard, unless the turn is interrupted.
            self.progress(until=self.out.busy_until())  # waiting for the speaker is not a hang
            ends = wait_until_heard(self.out, lambda: turns.is_live(message))
            heard = turns.timeline(turn).get(Mark.AUDIO_OUT_START) is not None
            turns.finish(turn, at=ends if heard else None)


class SynthesisStage(Stage):
    """Speaks reply chunks with the TTS engine, one chunk at a time."""

    name = "tts"

    def __init__(self, turns: Conductor, tts: Tts, playback: PlaybackStage):
        super().__init__(turns)
        self.tts = tts
        self.playback = playback

    def process(self, message: Message) -> None:
        if isinstance(message, EndOfReply):
            self.playback.send(message)
        elif isinstance(message, SpeakText):
            try:
                self._synthesize(message)
            finally:
                if message.done is not None:
                    message.done.set()

    def _synthesize(self, message: SpeakText) -> None:
        turns, turn = self.turns, message.turn_id
        try:
            timeline = turns.timeline(turn)
            pieces = speech(self.tts, message.text, timeline, self.playback.rate, lambda: turns.is_live(message))
            for pcm in self.watched(pieces):
                turns.result(turn).add_voices(voices_for(self.tts, message.text))
                self.playback.send(PlayAudio(turn, pcm, attempt=message.attempt))
        except Exception as exc:  # the text is still shown; later chunks may still speak
            log.exception("TTS failed")
            turns.error(turn, f"could not speak part of the reply ({exc}); the text is shown")
