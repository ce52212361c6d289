"""Listening: input frames through the VAD and the endpointer, into turns.

:class:`Segmenter` is the thread-free part (VAD, endpointer, pre-roll, mapping stream
positions onto the capture clock) that the serial bench chain also uses;
:class:`ListenStage` is the stage that turns what it hears into turns and messages for
the transcription stage.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..audio import AudioIn
from ..config import VadConfig
from ..events import (
    AudioFrame, EarlySilence, EndOfSpeech, EventType, Message, SpeechAudio, SpeechResumed, SpeechStarted, State,
)
from ..timeline import Mark
from ..vad import Endpointer, Vad, VadEventType
from .bus import EventBus
from .conductor import Conductor
from .stage import Stage

log = logging.getLogger(__name__)

QUEUED_FRAMES = 4
"""A source faster than real time waits while this many frames are queued (a
microphone never has to)."""


@dataclass(frozen=True)
class Heard:
    """What one input frame brought."""

    event: VadEventType | None
    """None for a frame of speech (between a start and its endpoint)."""
    pcm: np.ndarray | None = None
    """The speech start's audio with the pre-roll, or the frame of speech."""
    at: float | None = None
    """perf_counter time of a speech start or speech end, on the capture clock."""


class Segmenter:
    """Frames in, speech segments out: VAD probabilities into the endpointer, a pre-roll
    kept for the speech start, stream positions mapped onto the capture clock."""

    def __init__(self, vad: Vad, config: VadConfig, frame_s: float):
        self.vad = vad
        self.frame_s = frame_s
        self.endpointer = Endpointer(config)
        pad_frames = max(1, round(config.speech_pad_ms / 1000 / frame_s))
        self._keep = pad_frames + round(config.min_speech_ms / 1000 / frame_s) + 2
        self._recent: list[np.ndarray] = []
        self.reset()

    @property
    def in_speech(self) -> bool:
        return self.endpointer.in_speech

    def reset(self) -> None:
        self.endpointer.reset()
        self.vad.reset()
        self._recent = []

    def push(self, frame: np.ndarray, captured: float) -> list[Heard]:
        """One frame, captured at ``captured`` (perf_counter)."""
        frame_start = self.endpointer.position
        events = self.endpointer.process(self.frame_s, self.vad.probability(frame))
        self._recent.append(frame)
        del self._recent[: -self._keep]
        heard: list[Heard] = []
        for event in events:
            at = captured + (event.at - frame_start)
            if event.type is VadEventType.SPEECH_START:
                heard.append(Heard(event.type, np.concatenate(self._recent), at))
            else:
                heard.append(Heard(event.type, at=at))
        if self.in_speech and not any(e.type is VadEventType.SPEECH_START for e in events):
            heard.append(Heard(None, frame))
        return heard


class ListenStage(Stage):
    """Starts a turn at each speech start and sends its audio, pauses and endpoint on."""

    name = "listen"

    def __init__(self, turns: Conductor, bus: EventBus, vad: Vad, config: VadConfig, *,
                 transcription: Stage, start_output_clock: Callable[[float], None]):
        super().__init__(turns)
        self.bus = bus
        self.vad = vad
        self.config = config
        self.transcription = transcription
        self.start_output_clock = start_output_clock
        self.segmenter: Segmenter | None = None
        self._listening = 0
        self._source: AudioIn | None = None
        self._pump: threading.Thread | None = None
        self._turn: int | None = None
        self._first = False

    @property
    def listening(self) -> bool:
        return self._source is not None

    @property
    def in_speech(self) -> bool:
        segmenter = self.segmenter
        return segmenter is not None and segmenter.in_speech

    def listen(self, source: AudioIn) -> None:
        """Start taking frames from ``source`` (microphone or paced WAV)."""
        self._listening += 1
        self.segmenter = Segmenter(self.vad, self.config, source.frame_samples / source.rate)
        self._turn = None
        self._first = True
        self._source = source
        self._pump = threading.Thread(target=self._take, args=(source, self._listening), name="audio-in", daemon=True)
        self._pump.start()

    def stop_listening(self) -> None:
        self._listening += 1  # frames still queued are dropped
        source, pump = self._source, self._pump
        if source:
            source.stop()
        if pump:
            pump.join(timeout=2)
        self._source = self._pump = None
        self.flush()

    def accepts(self, message: Message) -> bool:
        return isinstance(message, AudioFrame) and message.listening == self._listening

    def _take(self, source: AudioIn, listening: int) -> None:
        try:
            for pcm, captured in source.frames():
                self.send(AudioFrame(0, pcm, captured, listening=listening))
                while not self.inbox.wait_below(QUEUED_FRAMES, 0.5) and listening == self._listening:
                    pass
        except Exception as exc:  # a dead microphone must not take the engine down
            log.exception("audio input failed")
            self.bus.emit(EventType.ERROR, 0, f"audio input stopped: {exc}")

    def process(self, message: AudioFrame) -> None:
        if self._first:
            self.start_output_clock(message.captured)  # sample 0 of the output = sample 0 of the input
            self._first = False
        for heard in self.segmenter.push(message.pcm, message.captured):
            self._act(heard)

    def _act(self, heard: Heard) -> None:
        turns, event = self.turns, heard.event
        if event is VadEventType.SPEECH_START:
            turn = self._turn = turns.begin()
            turns.timeline(turn).mark(Mark.SPEECH_START, heard.at)
            self.bus.emit(EventType.SPEECH_START, turn)
            self.bus.set_state(State.HEARING, turn)
            self.transcription.send(SpeechStarted(turn, heard.pcm))
            return
        turn = self._turn
        if turn is None:
            return
        if event is None:
            self.transcription.send(SpeechAudio(turn, heard.pcm))
        elif event is VadEventType.EARLY_SILENCE:
            self.transcription.send(EarlySilence(turn))
        elif event is VadEventType.SPEECH_RESUMED:
            self.transcription.send(SpeechResumed(turn))
        elif event is VadEventType.ENDPOINT:
            if turns.is_current(turn):
                turns.timeline(turn).mark(Mark.SPEECH_END, heard.at)
                turns.timeline(turn).mark(Mark.ENDPOINT)
            self.transcription.send(EndOfSpeech(turn))
            self._turn = None
