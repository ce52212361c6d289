"""Listening: input frames through the VAD and the endpointer, into turns.

:class:`Segmenter` is the thread-free part (VAD, endpointer, pre-roll, mapping stream
positions onto the capture clock) that the serial bench chain also uses;
:class:`ListenStage` is the stage that turns what it hears into turns and messages for
the transcription stage.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, replace
from typing import Callable

import numpy as np

from assistant.sound import VoiceEnd
from assistant.sound import AudioIn
from assistant.hear.bargein import Action, Overlap, UserSpeech
from assistant.config import BargeInConfig, TurnConfig, VadConfig
from assistant.hear.echo import Cleaned, SpeakerEcho
from assistant.hear.echo_watch import EchoWatch
from assistant.hear.end_of_turn import Decision, TurnCall, TurnDetector, pause_reading
from assistant.events import TurnSignals
from assistant.events import (
    AudioFrame,
    EarlySilence,
    EndOfSpeech,
    EventType,
    Message,
    SpeechAudio,
    SpeechResumed,
    SpeechStarted,
    State,
    WordsAtPause,
)
from assistant.timeline import Mark
from assistant.hear.vad import Endpointer, Vad, VadEventType
from assistant.pipeline.bus import EventBus
from assistant.pipeline.answering import Answering
from assistant.pipeline.overlaps import Overlaps
from assistant.pipeline.stage import Stage
from assistant.pipeline.startup import StartupSound
from assistant.pipeline.turn_book import TurnBook
from assistant.pipeline.wake_gate import WakeListening

log = logging.getLogger(__name__)

QUEUED_FRAMES = 4
"""A source faster than real time waits while this many frames are queued (a
microphone never has to)."""


@dataclass(frozen=True)
class Detected:
    """What the segmenter found in one input frame."""

    event: VadEventType | None
    """None for a frame of speech (between a start and its endpoint)."""
    pcm: np.ndarray | None = None
    """The speech start's audio with the pre-roll, or the frame of speech."""
    at: float | None = None
    """perf_counter time of a speech start or speech end, on the capture clock."""
    pause: int = 0
    """The pause an early silence starts."""
    decision: Decision | None = None
    """How the end of the turn was decided (an endpoint the turn detector gave)."""
    voice_end: float | None = None
    """At an endpoint: the last audible sample of the words, on the capture clock."""


class Segmenter:
    """Frames in, speech segments out: VAD probabilities into the endpointer, a pre-roll
    kept for the speech start, stream positions mapped onto the capture clock.

    With a :class:`~assistant.hear.end_of_turn.TurnDetector` the detector ends each turn (fed
    the silence frame by frame and the words at each pause through :meth:`note_words`); without
    one the endpointer's fixed silence does.
    """

    NO_ENDPOINT_MS = 10**9

    def __init__(self, vad: Vad, config: VadConfig, frame_s: float, detector: TurnDetector | None = None):
        self.vad = vad
        self.frame_s = frame_s
        self.detector = detector
        self.endpointer = Endpointer(config if detector is None else replace(config, endpoint_ms=self.NO_ENDPOINT_MS))
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
        self._voice: VoiceEnd | None = None
        self._clock = (0.0, 0.0)
        self.pause = 0
        self.last_probability = 0.0
        """The VAD's own probability for the latest frame (before the barge-in rule judged it)."""
        self.last_was_speech = False
        """The last frame was speech (at the threshold in force for it)."""
        if self.detector:
            self.detector.reset()

    def abandon(self) -> None:
        """Forget the speech in progress without an endpoint (its audio was not the user's):
        the turn detector's pause goes with it."""
        self.endpointer.abandon()
        if self.detector:
            self.detector.reset()

    def _at(self, position: float) -> float:
        """A stream position on the capture clock (of the latest frame)."""
        captured, frame_start = self._clock
        return captured + (position - frame_start)

    def push(self, frame: np.ndarray, captured: float,
             judge: Callable[[float], tuple[float, float | None]] | None = None,
             reply_audible: bool = False) -> list[Detected]:
        """One frame, captured at ``captured`` (perf_counter). ``judge`` turns the VAD's
        probability into the one the endpointer gets and its threshold (while the reply
        plays, see :class:`~assistant.hear.bargein.UserSpeech`); ``reply_audible``: the reply or
        its echo may sound in the frame (its loudness then says nothing of the user's)."""
        frame_start = self.endpointer.position
        self._clock = (captured, frame_start)
        if self._voice is None:
            self._voice = VoiceEnd(round(frame.size / self.frame_s))
        self._voice.push(frame, frame_start, self.endpointer.in_speech)
        probability, threshold = self.vad.probability(frame), None
        self.last_probability = probability
        if judge is not None:
            probability, threshold = judge(probability)
        last_sound = self._voice.last_s
        quiet = not reply_audible and last_sound is not None and last_sound <= frame_start
        events = self.endpointer.process(self.frame_s, probability, threshold, quiet=quiet)
        self.last_was_speech = probability >= (self.endpointer.config.threshold if threshold is None else threshold)
        self._recent.append(frame)
        del self._recent[: -self._keep]
        detected: list[Detected] = []
        for event in events:
            at = self._at(event.at)
            if event.type is VadEventType.SPEECH_START:
                detected.append(Detected(event.type, np.concatenate(self._recent), at))
            elif event.type is VadEventType.EARLY_SILENCE:
                self.pause += 1
                if self.detector:
                    self.detector.pause()
                detected.append(Detected(event.type, at=at, pause=self.pause))
            elif event.type is VadEventType.SPEECH_RESUMED:
                if self.detector:
                    self.detector.resume()
                detected.append(Detected(event.type, at=at))
            else:
                detected.append(self._endpoint(event.at))
        if self.in_speech and not any(e.type is VadEventType.SPEECH_START for e in events):
            detected.append(Detected(None, frame))
        return detected + self._decide()

    def note_words(self, pause: int, signals: TurnSignals) -> list[Detected]:
        """What is known of the words at ``pause``; the endpoint if that ends the turn now."""
        if self.detector is None or pause != self.pause:
            return []
        self.detector.note_words(signals)
        return self._decide()

    def _decide(self) -> list[Detected]:
        if self.detector is None or not self.in_speech:
            return []
        decision = self.detector.update(self.endpointer.silence_s)
        if decision is None:
            return []
        event = self.endpointer.end_turn()
        return [self._endpoint(event.at, decision)] if event else []

    def _endpoint(self, speech_end: float, decision: Decision | None = None) -> Detected:
        voice = self._voice.heard_end_s() if self._voice else None
        return Detected(VadEventType.ENDPOINT, at=self._at(speech_end), decision=decision,
                     voice_end=None if voice is None else float(self._at(voice)))


class ListenStage(Stage):
    """Starts a turn at each speech start and sends its audio, pauses and endpoint on.

    Frames go through the echo canceller first, with what the speaker played as the
    reference. Speech that starts while a reply plays begins an *overlap* turn: it is
    transcribed beside the reply, pauses it once it holds enough speech (full duplex),
    and its transcript decides whether it interrupts the reply (:meth:`Overlaps.settle`).
    """

    name = "listen"

    def __init__(self, turns: TurnBook, answering: Answering, overlaps: Overlaps, bus: EventBus, vad: Vad,
                 config: VadConfig, *,
                 transcription: Stage, start_output_clock: Callable[[float], None], echo: SpeakerEcho,
                 barge_in: BargeInConfig, replying: Callable[[], bool], pause_reply: Callable[[], bool],
                 wake: WakeListening, turn: TurnConfig | None = None, startup: StartupSound | None = None,
                 silence_alone: bool = False, language: str = "en"):
        super().__init__(turns)
        self.answering = answering
        self.overlaps = overlaps
        self.bus = bus
        self.vad = vad
        self.config = config
        self.turn_config = turn or TurnConfig()
        self.silence_alone = silence_alone
        """The model cannot read the language spoken: the silence and the words' ending end a turn."""
        self.language = language
        """The language spoken (its grammar's sentence-final endings where the silence decides)."""
        self.transcription = transcription
        self.start_output_clock = start_output_clock
        self.echo = echo
        self.barge_in = barge_in
        self.replying = replying
        """A reply is sounding or paused."""
        self.pause_reply = pause_reply
        self.wake = wake
        self.startup = startup
        """The start-up sound the canceller learns the room from (played on the first frame)."""
        self.segmenter: Segmenter | None = None
        self._listening = 0
        self._source: AudioIn | None = None
        self._pump: threading.Thread | None = None
        self._turn: int | None = None
        self._first = False
        self._audible_until = float("-inf")
        """End (capture clock) of the last frame in which the reply could be heard."""

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
        detector = TurnDetector(self.turn_config, fixed_ms=self.config.endpoint_ms, silence_alone=self.silence_alone,
                                language=self.language)
        self.segmenter = Segmenter(self.vad, pause_reading(self.config, self.silence_alone, self.language),
                                   source.frame_samples / source.rate, detector)
        self._user = UserSpeech(self.barge_in)
        self._watch = EchoWatch(self.barge_in)
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
        if isinstance(message, WordsAtPause):
            return self.turns.is_live(message) and message.turn_id == self._turn
        return isinstance(message, AudioFrame) and message.listening == self._listening

    def note_words(self, message: WordsAtPause) -> None:
        """The words at a pause: taken ahead of the queued frames (they decide the endpoint)."""
        self.inbox.put(message, urgent=True)

    def _take(self, source: AudioIn, listening: int) -> None:
        try:
            for pcm, captured in source.frames():
                self.send(AudioFrame(0, pcm, captured, listening=listening))
                while not self.inbox.wait_below(QUEUED_FRAMES, 0.5) and listening == self._listening:
                    pass
        except Exception as exc:  # a dead microphone must not take the engine down
            log.exception("audio input failed")
            self.bus.emit(EventType.ERROR, 0, f"audio input stopped: {exc}")

    def process(self, message: AudioFrame | WordsAtPause) -> None:
        if isinstance(message, WordsAtPause):
            for detected in self.segmenter.note_words(message.pause, message.signals):
                self._act(detected)
            return
        if self._first:
            self.start_output_clock(message.captured)  # sample 0 of the output = sample 0 of the input
            self.echo.filter.restart()  # ... and of the canceller's reference
            self._first = False
            if self.startup is not None:
                self.startup.start()
        self.wake.tick(message.captured)
        with self.model_call():
            cleaned = self.echo.filter.process(message.pcm, message.captured, hold_lag=self.segmenter.endpointer.busy)
            if cleaned.reply_audible:
                self._audible_until = cleaned.captured + self.segmenter.frame_s
            if self.startup is not None:
                self.startup.heard(cleaned)
            detected_now = self.segmenter.push(cleaned.pcm, cleaned.captured, lambda p: self._user.judge(p, cleaned),
                                            reply_audible=cleaned.reply_audible)
        for detected in detected_now:
            self._act(detected, cleaned)
        self._barge_in(cleaned)
        self._watch_echo(cleaned)

    def _watch_echo(self, cleaned: Cleaned) -> None:
        """One line per stretch of reply: what the canceller and the VAD made of its echo."""
        echo = self.echo.filter
        done = self._watch.frame(cleaned.reply_audible, self.segmenter.last_probability, cleaned.kept_db,
                                 cleaned.converged, echo.readiness.erle_db)
        if done is not None and echo.canceller is not None:
            log.info("the reply's echo: %s", done.describe())

    def _barge_in(self, cleaned: Cleaned) -> None:
        """Speech over the reply: pause it once it holds enough speech."""
        overlap = self.overlaps.get(self._turn) if self._turn is not None else None
        if overlap is None:
            return
        if not overlap.full_duplex and cleaned.converged:
            if overlap.learning:  # the canceller has learnt the room while the speech goes on
                overlap.learnt()
            elif not overlap.paused:
                self._abandon_speech(self._turn)  # half duplex heard the echo too: listen afresh
                return
        frame_end = cleaned.captured + self.segmenter.frame_s
        kept = cleaned.kept_db >= self.barge_in.learning_kept_db
        if overlap.frame(frame_end, self.segmenter.last_was_speech, cleaned.reply_audible, kept) is Action.PAUSE:
            log.info("speech over the reply for %.0f ms: pausing it", overlap.speech_s * 1000)
            self.overlaps.pause_reply(self._turn, self.pause_reply)
        elif overlap.unconfirmed_silence:
            log.info("nobody spoke on for %d ms once the reply fell silent: it resumes", overlap.resume_after_ms)
            self._abandon_speech(self._turn)

    def _act(self, detected: Detected, cleaned: Cleaned | None = None) -> None:
        turns, event = self.turns, detected.event
        if event is VadEventType.SPEECH_START:
            sounding = detected.at <= self._audible_until
            if sounding and not self.replying() and self.startup is not None and self.startup.speech():
                sounding = False  # over the start-up sound (now stopped): a turn as any other
            if sounding or self.replying():  # over a reply, sounding or between two of its chunks
                # Speech that began in a silence of the reply holds no echo: it may pause it.
                full_duplex = not sounding or (cleaned is not None and cleaned.converged and self.echo.mode.full)
                learning = not full_duplex and self.echo.mode.full and self.echo.filter.canceller is not None
                turn = self._turn = self.overlaps.begin(Overlap(self.barge_in, full_duplex, detected.at,
                                                                learning=learning))
                log.info("speech began over the reply (%s)",
                         "full duplex" if full_duplex else "the canceller learning" if learning else "half duplex")
            else:
                turn = self._turn = self.answering.begin()
                if not self.wake.speech_start(turn, detected.at):  # else it shows once the phrase is heard
                    self.bus.emit(EventType.SPEECH_START, turn)
                    self.bus.set_state(State.HEARING, turn)
            turns.timeline(turn).mark(Mark.SPEECH_START, detected.at)
            self.transcription.send(SpeechStarted(turn, detected.pcm))
            return
        turn = self._turn
        if turn is None:
            return
        if event is None:
            self.transcription.send(SpeechAudio(turn, detected.pcm))
        elif event is VadEventType.EARLY_SILENCE:
            self.transcription.send(EarlySilence(turn, pause=detected.pause))
        elif event is VadEventType.SPEECH_RESUMED:
            self.transcription.send(SpeechResumed(turn))
        elif event is VadEventType.ENDPOINT:
            if turns.is_listened_to(turn):
                self._mark_endpoint(turns.timeline(turn), detected)
            settled = detected.decision is not None and detected.decision.call is TurnCall.COMPLETE
            self.transcription.send(EndOfSpeech(turn, settled=settled))
            self._turn = None

    @staticmethod
    def _mark_endpoint(timeline, detected: Detected) -> None:
        if detected.voice_end is not None:
            timeline.mark(Mark.VOICE_END, detected.voice_end)
        timeline.mark(Mark.SPEECH_END, detected.at)
        timeline.mark(Mark.ENDPOINT)
        decision = detected.decision
        if decision is not None:
            timeline.set("turn_decision", decision.call.value)
            timeline.set("turn_silence_ms", round(decision.silence_ms, 1))
            timeline.set("turn_reason", decision.reason)
            log.debug("turn %d: %s (%s)", timeline.turn_id, decision.describe(), decision.reason)

    def _abandon_speech(self, turn: int) -> None:
        """End the speech in progress at once (it held the echo the canceller had not
        learnt to take out, or nobody spoke on); its transcript still settles the overlap."""
        self.segmenter.abandon()
        self.transcription.send(EndOfSpeech(turn))
        self._turn = None
