"""The streaming engine: listen → STT → respond (cache or LLM) → TTS → audio out.

Each stage is a small class with one ``process()`` method, its own inbox and thread.
Messages carry a ``turn_id``; :meth:`Engine.interrupt` makes the current turn stale and
flushes the inboxes, and every stage drops stale messages, so nothing waits for
abandoned work to finish.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Callable

import numpy as np

from .audio import AudioIn, AudioOut, resample
from .chunker import Chunker
from .config import Config
from .events import (
    EarlySilence, EndOfReply, EndOfSpeech, Event, EventType, Inbox, Message, PlayAudio,
    Prefill, SpeakText, SpeechAudio, SpeechResumed, SpeechStarted, State, Stop, TurnResult,
    UserText,
)
from .llm import GenerationStats, Llm
from .replies import InstantReply, Replies
from .stt import Stt, Utterance
from .timeline import Mark, Timeline
from .tts import Tts
from .vad import Endpointer, Vad, VadEventType

log = logging.getLogger(__name__)


class Stage:
    """A worker thread with an inbox; subclasses implement :meth:`process`."""

    name = "stage"

    def __init__(self, engine: "Engine"):
        self.engine = engine
        self.inbox = Inbox()
        self.heartbeat = time.perf_counter()
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self.inbox.put(Stop(0), urgent=True)
        self._thread.join(timeout=5)

    def send(self, message: Message) -> None:
        self.inbox.put(message)

    def _run(self) -> None:
        while True:
            message = self.inbox.get(timeout=0.5)
            self.heartbeat = time.perf_counter()
            if message is None:
                continue
            if isinstance(message, Stop):
                return
            if not self.engine.is_current(message.turn_id):
                continue
            try:
                self.process(message)
            except Exception as exc:  # a stage must survive any engine failure
                log.exception("%s failed on turn %d", self.name, message.turn_id)
                self.engine.fail(message.turn_id, f"{self.name} failed: {exc}")

    def process(self, message: Message) -> None:
        raise NotImplementedError


class SttStage(Stage):
    name = "stt"

    def __init__(self, engine: "Engine", stt: Stt):
        super().__init__(engine)
        self.stt = stt
        self._utterance: Utterance | None = None
        self._speculative: str | None = None

    def process(self, message: Message) -> None:
        engine = self.engine
        if isinstance(message, SpeechStarted):
            self._utterance = self.stt.utterance()
            self._speculative = None
            self._feed(message.turn_id, message.preroll)
        elif self._utterance is None:
            return
        elif isinstance(message, SpeechAudio):
            self._feed(message.turn_id, message.pcm)
        elif isinstance(message, EarlySilence) and not self.stt.streaming:
            # The user paused: transcribe now, while the endpoint is still awaited.
            self._speculative = self._utterance.transcribe()
            if self._speculative:
                engine.responder.send(Prefill(message.turn_id, self._speculative))
        elif isinstance(message, SpeechResumed):
            self._speculative = None
        elif isinstance(message, EndOfSpeech):
            text = self._speculative if self._speculative is not None else self._utterance.transcribe()
            engine.timeline(message.turn_id).set("stt_speculative", self._speculative is not None)
            self._utterance = None
            engine.timeline(message.turn_id).mark(Mark.STT_FINAL)
            engine.on_transcript(message.turn_id, text)

    def _feed(self, turn_id: int, pcm: np.ndarray) -> None:
        partial = self._utterance.feed(pcm) if self._utterance else None
        if partial:
            self.engine.emit(EventType.PARTIAL_TRANSCRIPT, turn_id, partial)


class ResponderStage(Stage):
    """Answers a transcript from the instant-reply table or the LLM token stream."""

    name = "responder"

    def __init__(self, engine: "Engine", llm: Llm, replies: Replies | None):
        super().__init__(engine)
        self.llm = llm
        self.replies = replies
        self.last_reply = ""

    def process(self, message: Message) -> None:
        if isinstance(message, Prefill):
            prefill = getattr(self.llm, "prefill", None)
            if prefill and not (self.replies and self.replies.lookup(message.text)):
                prefill(message.text)
            return
        if not isinstance(message, UserText):
            return
        hit = self.replies.lookup(message.text) if self.replies else None
        if hit is not None:
            self._instant(message, hit)
        else:
            self._generate(message)

    def _instant(self, message: UserText, hit: InstantReply) -> None:
        engine, turn = self.engine, message.turn_id
        timeline = engine.timeline(turn)
        engine.result(turn).source = "cache"
        timeline.set("cache_hit", True)
        if hit.action == "stop":
            engine.finish(turn)
            return
        if hit.action in ("louder", "quieter"):
            engine.change_volume(+1 if hit.action == "louder" else -1)
        text = self.last_reply if hit.action == "repeat" and self.last_reply else hit.text
        engine.result(turn).reply = text
        engine.emit(EventType.REPLY_TEXT, turn, text)
        timeline.mark(Mark.FIRST_CHUNK)
        if hit.audio is not None and hit.action != "repeat":
            timeline.mark(Mark.TTS_FIRST_AUDIO)
            engine.output.send(PlayAudio(turn, hit.audio))
        elif text:
            engine.tts.send(SpeakText(turn, text))
        engine.tts.send(EndOfReply(turn))

    def _generate(self, message: UserText) -> None:
        engine, turn = self.engine, message.turn_id
        timeline = engine.timeline(turn)
        result = engine.result(turn)
        result.source = "llm"
        chunker = Chunker(engine.config.chunker)
        stats = GenerationStats()
        reply: list[str] = []
        engine.set_state(State.THINKING)
        self._mask_latency(turn, message.text)
        timeline.mark(Mark.LLM_START)
        stream = self.llm.stream(message.text, stats)
        try:
            for piece in stream:
                timeline.mark(Mark.LLM_FIRST_TOKEN)
                if not engine.is_current(turn):
                    break
                reply.append(piece)
                engine.emit(EventType.REPLY_TEXT, turn, piece)
                for chunk in chunker.push(piece):
                    self._speak(turn, chunk)
        finally:
            stream.close()
            timeline.mark(Mark.LLM_END)
            timeline.set("tokens", stats.tokens)
            timeline.set("prompt_tokens", stats.prompt_tokens)
            timeline.set("prompt_reused", stats.reused_tokens)
        text = "".join(reply).strip()
        result.reply = text
        if text:
            self.llm.remember(message.text, text)
            self.last_reply = text
        if not engine.is_current(turn):
            return
        for chunk in chunker.flush():
            self._speak(turn, chunk)
        engine.tts.send(EndOfReply(turn))

    def _mask_latency(self, turn: int, text: str) -> None:
        """Play a short cached filler first when the LLM answer is predicted to be slow."""
        filler = self.replies.filler(text, getattr(self.llm, "path", None)) if self.replies else None
        if filler is not None and filler.audio is not None:
            self.engine.timeline(turn).set("filler", filler.text)
            self.engine.output.send(PlayAudio(turn, filler.audio))

    def _speak(self, turn: int, chunk: str) -> None:
        self.engine.timeline(turn).mark(Mark.FIRST_CHUNK)
        self.engine.emit(EventType.REPLY_CHUNK, turn, chunk)
        self.engine.tts.send(SpeakText(turn, chunk))


class TtsStage(Stage):
    name = "tts"

    def __init__(self, engine: "Engine", tts: Tts):
        super().__init__(engine)
        self.engine_tts = tts

    def process(self, message: Message) -> None:
        engine, turn = self.engine, message.turn_id
        if isinstance(message, EndOfReply):
            engine.output.send(message)
            return
        if not isinstance(message, SpeakText):
            return
        try:
            for pcm in self.engine_tts.synthesize(message.text):
                if not engine.is_current(turn):
                    return
                engine.timeline(turn).mark(Mark.TTS_FIRST_AUDIO)
                engine.timeline(turn).add("tts_audio_s", pcm.size / self.engine_tts.rate)
                engine.output.send(PlayAudio(turn, resample(pcm, self.engine_tts.rate, engine.output_rate)))
        except Exception as exc:  # the text is still shown; later chunks may still speak
            log.exception("TTS failed")
            engine.error(turn, f"could not speak part of the reply ({exc}); the text is shown")


class OutputStage(Stage):
    name = "output"

    def __init__(self, engine: "Engine", out: AudioOut):
        super().__init__(engine)
        self.out = out
        self.volume = 1.0

    def process(self, message: Message) -> None:
        engine, turn = self.engine, message.turn_id
        if isinstance(message, PlayAudio):
            heard_at = self.out.play(message.pcm * self.volume)
            if engine.timeline(turn).get(Mark.AUDIO_OUT_START) is None:
                engine.timeline(turn).mark(Mark.AUDIO_OUT_START, heard_at)
                engine.emit(EventType.AUDIO_START, turn)
                engine.set_state(State.SPEAKING)
        elif isinstance(message, EndOfReply):
            # Wait until the reply has been heard, unless the turn is interrupted.
            while engine.is_current(turn) and time.perf_counter() < self.out.busy_until():
                time.sleep(min(0.02, max(0.0, self.out.busy_until() - time.perf_counter())))
            heard = engine.timeline(turn).get(Mark.AUDIO_OUT_START) is not None
            engine.finish(turn, at=self.out.busy_until() if heard else None)


class Engine:
    """Owns the stages, the current turn and the event callback."""

    def __init__(
        self,
        config: Config,
        *,
        stt: Stt,
        llm: Llm,
        tts: Tts,
        vad: Vad,
        output: AudioOut,
        replies: Replies | None = None,
        on_event: Callable[[Event], None] | None = None,
    ):
        self.config = config
        self.vad = vad
        self.audio_out = output
        self.output_rate = output.rate
        self._listeners: list[Callable[[Event], None]] = [on_event] if on_event else []
        self._lock = threading.RLock()
        self._next_id = 0
        self._current: int | None = None
        self._results: dict[int, TurnResult] = {}
        self.stt_stage = SttStage(self, stt)
        self.responder = ResponderStage(self, llm, replies)
        self.tts = TtsStage(self, tts)
        self.output = OutputStage(self, output)
        self.stages: list[Stage] = [self.stt_stage, self.responder, self.tts, self.output]
        self._listen_thread: threading.Thread | None = None
        self._source: AudioIn | None = None
        self.endpointer = Endpointer(config.vad)
        self.state = State.IDLE
        for stage in self.stages:
            stage.start()

    # ------------------------------------------------------------ events

    def add_listener(self, listener: Callable[[Event], None]) -> None:
        self._listeners.append(listener)

    def emit(self, type_: EventType, turn_id: int = 0, data=None) -> None:
        event = Event(type_, turn_id, data)
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:  # a broken listener must not break a turn
                log.exception("event listener failed")

    def set_state(self, state: State) -> None:
        if state != self.state:
            self.state = state
            self.emit(EventType.STATE, self._current or 0, state)

    def error(self, turn_id: int, text: str) -> None:
        with self._lock:
            if turn_id in self._results:
                self._results[turn_id].errors.append(text)
        self.emit(EventType.ERROR, turn_id, text)

    # ------------------------------------------------------------ turns

    def is_current(self, turn_id: int) -> bool:
        return turn_id == self._current

    @property
    def busy(self) -> bool:
        return self._current is not None or self.endpointer.in_speech

    def timeline(self, turn_id: int) -> Timeline:
        return self._results[turn_id].timeline

    def result(self, turn_id: int) -> TurnResult:
        return self._results[turn_id]

    def begin_turn(self) -> int:
        """Start a turn; a reply still in progress is interrupted (barge-in)."""
        with self._lock:
            if self._current is not None:
                self.interrupt()
            self._next_id += 1
            turn = self._next_id
            self._results[turn] = TurnResult(turn, Timeline(turn))
            self._current = turn
            for old in [t for t in self._results if t < turn - 16]:
                del self._results[old]
            return turn

    def interrupt(self) -> None:
        """Stop the current turn at once: generation, synthesis and playback."""
        with self._lock:
            turn = self._current
            if turn is None:
                return
            self._current = None
            for stage in self.stages:
                stage.inbox.flush()
            self.audio_out.flush()
            self._results[turn].interrupted = True
        self._close(turn)

    def finish(self, turn_id: int, at: float | None = None) -> None:
        with self._lock:
            if self._current != turn_id:
                return
            self._current = None
        self._close(turn_id, at)

    def fail(self, turn_id: int, text: str) -> None:
        self.error(turn_id, text)
        self.finish(turn_id)

    def _close(self, turn_id: int, at: float | None = None) -> None:
        result = self._results[turn_id]
        result.timeline.mark(Mark.TURN_END, at)
        self.emit(EventType.TURN_END, turn_id, result)
        self.set_state(State.LISTENING if self._listen_thread else State.IDLE)

    def on_transcript(self, turn_id: int, text: str) -> None:
        result = self.result(turn_id)
        result.transcript = text
        self.emit(EventType.TRANSCRIPT, turn_id, text)
        if not text:
            self.error(turn_id, "nothing was understood; no reply")
            self.finish(turn_id)
            return
        self.responder.send(UserText(turn_id, text))

    # ------------------------------------------------------------ inputs

    def submit_text(self, text: str) -> int:
        """A typed question: the turn starts with its transcript."""
        turn = self.begin_turn()
        self.timeline(turn).mark(Mark.STT_FINAL)
        self.on_transcript(turn, text.strip())
        return turn

    def change_volume(self, direction: int) -> None:
        self.output.volume = float(np.clip(self.output.volume * (1.25 if direction > 0 else 0.8), 0.1, 2.0))

    def listen(self, source: AudioIn) -> None:
        """Start hands-free listening on ``source`` (microphone or paced WAV)."""
        self._source = source
        self._listen_thread = threading.Thread(target=self._listen, args=(source,), name="listen", daemon=True)
        self._listen_thread.start()
        self.set_state(State.LISTENING)

    def stop_listening(self) -> None:
        if self._source:
            self._source.stop()
        if self._listen_thread:
            self._listen_thread.join(timeout=2)
        self._listen_thread = None
        self._source = None
        self.set_state(State.IDLE)

    def _listen(self, source: AudioIn) -> None:
        cfg = self.config.vad
        frame_s = source.frame_samples / source.rate
        pad_frames = max(1, round(cfg.speech_pad_ms / 1000 / frame_s))
        history: list[np.ndarray] = []
        turn: int | None = None
        self.endpointer.reset()
        self.vad.reset()
        first = True
        try:
            for frame, captured in source.frames():
                if first:
                    self.audio_out.start(captured)
                    first = False
                frame_start = self.endpointer.position
                events = self.endpointer.process(frame_s, self.vad.probability(frame))

                def clock(at: float) -> float:
                    return captured + (at - frame_start)

                history.append(frame)
                del history[: -(pad_frames + round(cfg.min_speech_ms / 1000 / frame_s) + 2)]
                for event in events:
                    if event.type is VadEventType.SPEECH_START:
                        turn = self.begin_turn()
                        self.timeline(turn).mark(Mark.SPEECH_START, clock(event.at))
                        self.emit(EventType.SPEECH_START, turn)
                        self.set_state(State.HEARING)
                        self.stt_stage.send(SpeechStarted(turn, np.concatenate(history)))
                    elif turn is None:
                        continue
                    elif event.type is VadEventType.EARLY_SILENCE:
                        self.stt_stage.send(EarlySilence(turn))
                    elif event.type is VadEventType.SPEECH_RESUMED:
                        self.stt_stage.send(SpeechResumed(turn))
                    elif event.type is VadEventType.ENDPOINT:
                        if self.is_current(turn):
                            self.timeline(turn).mark(Mark.SPEECH_END, clock(event.at))
                            self.timeline(turn).mark(Mark.ENDPOINT)
                            self.set_state(State.THINKING)
                        self.stt_stage.send(EndOfSpeech(turn))
                        turn = None
                if self.endpointer.in_speech and turn is not None and not any(
                    e.type is VadEventType.SPEECH_START for e in events
                ):
                    self.stt_stage.send(SpeechAudio(turn, frame))
        except Exception as exc:  # a dead microphone must not take the engine down
            log.exception("audio input failed")
            self.emit(EventType.ERROR, 0, f"audio input stopped: {exc}")

    def close(self) -> None:
        self.stop_listening()
        self.interrupt()
        for stage in self.stages:
            stage.stop()
