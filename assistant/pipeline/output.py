"""The output stages: reply text into speech, speech into the speaker (or a WAV file)."""

from __future__ import annotations

import logging
import threading
import time
from typing import Callable, Iterator

import numpy as np

from assistant.sound import AudioOut, chime, first_audible_s, resample, without_lead_in
from assistant.speak.sinks import wait_until_heard
from assistant.hear.bargein import PlayedReply
from assistant.events import Commit, EndOfReply, EventType, Message, PlayAudio, ReplyMessage, SpeakText, State
from assistant.timeline import Mark, Timeline
from assistant.speak.tts import Tts
from assistant.speak.voices import paced, voices_for
from assistant.pipeline.bus import EventBus
from assistant.pipeline.stage import Stage
from assistant.pipeline.turn_book import TurnBook

log = logging.getLogger(__name__)


def speech(tts: Tts, text: str, timeline: Timeline, rate: int,
           still_wanted: Callable[[], bool] = lambda: True, pace: float = 1.0) -> Iterator[np.ndarray]:
    """The spoken ``text`` at ``rate``, piece by piece as it is synthesized (``pace`` times as fast as the voice's
    settings); marks the first audio and counts its seconds in ``timeline`` (not once ``still_wanted`` fails)."""
    for pcm in paced(tts, text, pace):
        if not still_wanted():
            return
        timeline.mark(Mark.TTS_FIRST_AUDIO)
        timeline.add("tts_audio_s", pcm.size / tts.rate)
        yield resample(pcm, tts.rate, rate)


class PlaybackStage(Stage):
    """Plays reply audio; audio of a speculative reply is held until its commit.

    Speech over the reply can pause it (:meth:`pause`): what was not heard yet is kept,
    and later audio of the reply is kept too, until it resumes (:meth:`resume`) or ends
    where it paused (:meth:`end_paused`). The text of what sounded is kept for the history.
    """

    name = "output"

    def __init__(self, turns: TurnBook, bus: EventBus, out: AudioOut):
        super().__init__(turns)
        self.bus = bus
        self.out = out
        self.volume = 1.0
        self._released: tuple[int, int] | None = None
        self._held: list[ReplyMessage] = []
        self._lock = threading.RLock()
        self._reply = PlayedReply()
        self._reply_turn: int | None = None
        self._cut = False
        """The reply did not sound to its end (paused and not resumed, or silenced)."""
        self._paused_at: float | None = None
        self._rest: list[tuple[np.ndarray, str]] = []
        self._held_end: EndOfReply | None = None
        self._startup_until = 0.0
        """When the start-up sound ends (perf_counter; :mod:`assistant.pipeline.startup`)."""

    @property
    def rate(self) -> int:
        return self.out.rate

    @property
    def replying(self) -> bool:
        """The current turn's reply has begun to sound and has not ended (paused or not)."""
        turn = self._reply_turn
        return turn is not None and self.turns.is_current(turn)

    def paused_for(self) -> float | None:
        """Seconds the reply has been paused; None when it is not paused."""
        paused_at = self._paused_at
        return None if paused_at is None else time.perf_counter() - paused_at

    def start_clock(self, t0: float) -> None:
        """Sample 0 of the output plays at ``t0`` (perf_counter): the input's first sample."""
        self.out.start(t0)

    def hush(self) -> None:
        """Stop what is playing now (the turn is dropped)."""
        with self._lock:
            now = time.perf_counter()
            self._cut = True  # the turn is dropped: its reply, if it began, was cut short
            self._reply.cut(now)
            self._paused_at, self._rest, self._held_end = None, [], None
            self.out.flush()

    def pause(self) -> bool:
        """Silence the reply now, keeping what is left of it; False when no reply plays."""
        with self._lock:
            if self._paused_at is not None or not self.replying:
                return False
            now = self._paused_at = time.perf_counter()
            self._rest = self._reply.unheard(now)
            self._reply.cut(now)
            self._cut = True
            self.out.flush()
        self.turns.timeline(self._reply_turn).add("barge_in_pauses")
        return True

    def resume(self) -> None:
        """Play on from where the reply paused."""
        with self._lock:
            if self._paused_at is None:
                return
            rest, self._rest, self._paused_at, self._cut = self._rest, [], None, False
            for pcm, text in rest:
                self._play(pcm, text)
            end, self._held_end = self._held_end, None
        if end is not None:
            self.send(end)

    def end_paused(self, turn: int) -> None:
        """The reply ends where it paused (the words over it were not for it)."""
        with self._lock:
            at, self._paused_at, self._rest, self._held_end = self._paused_at, None, [], None
        self.turns.finish(turn, at=at)

    def heard_reply(self, turn: int) -> str | None:
        """The text of ``turn``'s reply the user heard when it was cut short; None when
        it sounded to its end (or never began)."""
        with self._lock:
            if turn != self._reply_turn or not self._cut:
                return None
            return self._reply.heard_text()

    def recent_text(self, seconds: float = 4.0) -> str:
        """What the reply said in the last ``seconds`` (its echo may still be heard)."""
        with self._lock:
            return self._reply.recent_text(time.perf_counter(), seconds)

    def chime(self) -> None:
        """The wake chime, unless a reply is sounding (it goes through the monitored output: the
        echo canceller knows it)."""
        with self._lock:
            if self.out.busy_until() <= time.perf_counter():
                self.out.play(chime(self.out.rate) * self.volume)

    def play_startup(self, pcm: np.ndarray) -> bool:
        """The start-up sound, when nothing plays (through the monitored output: the echo
        canceller learns the room from it). False when something was playing."""
        with self._lock:
            if self.out.busy_until() > time.perf_counter() or self.replying:
                return False
            at = self.out.play(pcm * self.volume)
            self._startup_until = at + pcm.size / self.out.rate
            return True

    @property
    def startup_sounding(self) -> bool:
        return self._startup_until > time.perf_counter()

    def stop_startup(self) -> bool:
        """Silence the start-up sound now (someone speaks, or a reply begins). False when it
        was not sounding."""
        with self._lock:
            if not self.startup_sounding:
                return False
            self._startup_until = 0.0
            self.out.flush()
            return True

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

    def _play(self, pcm: np.ndarray, text: str) -> float:
        heard_at = self.out.play(pcm)
        self._reply.add(heard_at, pcm, self.out.rate, text)
        return heard_at

    def _handle(self, message: ReplyMessage) -> None:
        turns, turn = self.turns, message.turn_id
        if isinstance(message, PlayAudio):
            timeline = turns.timeline(turn)
            with self._lock:
                if self._reply_turn != turn:
                    self._reply, self._reply_turn, self._cut = PlayedReply(), turn, False
                pcm = message.pcm * self.volume
                if timeline.get(Mark.AUDIO_OUT_START) is None:
                    pcm = without_lead_in(pcm, self.out.rate)  # the reply's first sound plays at once
                if self._paused_at is not None:
                    self._rest.append((pcm, message.text))
                    return
                if self.stop_startup():
                    log.info("the reply cuts the start-up sound")
                heard_at = self._play(pcm, message.text)
            if timeline.get(Mark.REPLY_SOUND) is None:
                sound_s = first_audible_s(pcm, self.out.rate)
                if sound_s is not None:
                    timeline.mark(Mark.REPLY_SOUND, heard_at + sound_s)
            if timeline.get(Mark.AUDIO_OUT_START) is None:
                timeline.mark(Mark.AUDIO_OUT_START, heard_at)
                self.bus.emit(EventType.AUDIO_START, turn)
                self.bus.set_state(State.SPEAKING, turn)
        elif isinstance(message, EndOfReply):
            # Wait until the reply has been heard, unless the turn is interrupted or paused.
            self.progress(until=self.out.busy_until())  # waiting for the speaker is not a hang
            ends = wait_until_heard(self.out, lambda: turns.is_live(message) and self._paused_at is None)
            with self._lock:
                if self._paused_at is not None and turns.is_live(message):
                    self._held_end = message  # finished by resume() or end_paused()
                    return
            heard = turns.timeline(turn).get(Mark.AUDIO_OUT_START) is not None
            turns.finish(turn, at=ends if heard else None)


class SynthesisStage(Stage):
    """Speaks reply chunks with the TTS engine, one chunk at a time."""

    name = "tts"

    def __init__(self, turns: TurnBook, tts: Tts, playback: PlaybackStage):
        super().__init__(turns)
        self.tts = tts
        self.playback = playback
        self.pace = 1.0
        """How fast replies are spoken, against the voice's settings ("speak slower": :meth:`Responder.change_pace`);
        only here: audio made ahead elsewhere (the clock's answers) keeps the voice's own pace."""

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
            text = message.text  # on the chunk's first piece: its sound begins the chunk
            pieces = speech(self.tts, message.text, timeline, self.playback.rate, lambda: turns.is_live(message),
                            self.pace)
            for pcm in self.watched(pieces):
                turns.result(turn).add_voices(voices_for(self.tts, message.text))
                self.playback.send(PlayAudio(turn, pcm, attempt=message.attempt, text=text))
                text = ""
        except Exception as exc:  # the text is still shown; later chunks may still speak
            log.exception("TTS failed")
            turns.error(turn, f"could not speak part of the reply ({exc}); the text is shown")
