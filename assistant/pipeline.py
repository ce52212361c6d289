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
    Commit, EarlySilence, EndOfReply, EndOfSpeech, Event, EventType, Inbox, Message, PartialText,
    PlayAudio, ReplyMessage, SpeakText, SpeechAudio, SpeechResumed, SpeechStarted, State, Stop, TurnResult,
    UserText,
)
from .llm import GenerationStats, Llm
from .replies import InstantReply, Replies
from .skills import SkillReply, Skills
from .stt import Stt, Utterance
from .timeline import Mark, Timeline
from .tts import Tts
from .vad import Endpointer, Vad, VadEventType

log = logging.getLogger(__name__)

PREFILL_MAX_QUEUED = 2
"""The LLM evaluates partial transcripts only while the recognizer has at most this
many audio frames waiting (it is keeping up with the speech)."""

FIRST_CHUNK_WAIT_S = 1.0
"""Longest the LLM pauses for the first chunk's synthesis (a slow system voice)."""


class Stage:
    """A worker thread with an inbox; subclasses implement :meth:`process`."""

    name = "stage"

    def __init__(self, engine: "Engine"):
        self.engine = engine
        self.inbox = Inbox()
        self.heartbeat = time.perf_counter()
        self.busy_since: float | None = None
        """When the message being processed was taken (perf_counter); None while waiting."""
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)

    def start(self) -> None:
        self._thread.start()

    @property
    def alive(self) -> bool:
        """The stage's thread is running (False once stopped, or if it died)."""
        return self._thread.is_alive()

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
            if not self.engine.is_live(message):
                continue
            self.busy_since = self.heartbeat
            try:
                self.process(message)
            except Exception as exc:  # a stage must survive any engine failure
                log.exception("%s failed on turn %d", self.name, message.turn_id)
                self.engine.fail(message.turn_id, f"{self.name} failed: {exc}")
            finally:
                self.busy_since = None

    def process(self, message: Message) -> None:
        raise NotImplementedError


class SttStage(Stage):
    """Feeds the utterance to STT as it is spoken; transcribes at the first pause
    (speculatively) or at the endpoint."""

    name = "stt"

    def __init__(self, engine: "Engine", stt: Stt):
        super().__init__(engine)
        self.stt = stt
        self._utterance: Utterance | None = None
        self._speculative: str | None = None

    def process(self, message: Message) -> None:
        engine, turn = self.engine, message.turn_id
        if isinstance(message, SpeechStarted):
            self._utterance = self.stt.utterance()
            self._speculative = None
            self._feed(turn, message.preroll)
        elif self._utterance is None:
            return
        elif isinstance(message, SpeechAudio):
            self._feed(turn, message.pcm)
        elif isinstance(message, EarlySilence) and engine.config.vad.speculative:
            self._speculative = self._transcribe(turn)
            engine.speculate(turn, self._speculative)
        elif isinstance(message, SpeechResumed):
            if self._speculative is not None:
                self._speculative = None
                engine.cancel_speculation(turn)
        elif isinstance(message, EndOfSpeech):
            speculated = self._speculative is not None
            text = self._speculative if speculated else self._transcribe(turn)
            engine.timeline(turn).set("speculative", bool(speculated and text))
            self._utterance = None
            if speculated and text:
                engine.commit(turn)
            else:
                engine.on_transcript(turn, text)

    def _transcribe(self, turn: int) -> str:
        timeline = self.engine.timeline(turn)
        timeline.mark(Mark.STT_START)
        text = self._utterance.transcribe()
        timeline.mark(Mark.STT_FINAL)
        return text

    def _feed(self, turn: int, pcm: np.ndarray) -> None:
        partial = self._utterance.feed(pcm) if self._utterance else None
        if partial:
            self.engine.emit(EventType.PARTIAL_TRANSCRIPT, turn, partial)
            self.engine.prefill(turn, partial)


class ResponderStage(Stage):
    """Answers a transcript from the instant-reply table or the LLM token stream."""

    name = "responder"

    def __init__(self, engine: "Engine", llm: Llm, replies: Replies | None, skills: Skills | None = None):
        super().__init__(engine)
        self.llm = llm
        self.replies = replies
        self.skills = skills
        self.last_reply = ""
        self._parked: tuple[UserText, InstantReply | SkillReply] | None = None
        self._answered: tuple[int, int] | None = None

    def process(self, message: Message) -> None:
        if isinstance(message, PartialText):
            self._prefill(message)
            return
        if isinstance(message, Commit):
            parked, self._parked = self._parked, None
            if parked and parked[0].turn_id == message.turn_id and parked[0].attempt == message.attempt:
                self._instant(*parked)
            return
        if not isinstance(message, UserText):
            return
        self._answered = (message.turn_id, message.attempt)
        hit = self.skills.match(message.text) if self.skills else None
        if hit is None and self.replies:
            hit = self.replies.lookup(message.text)
        if hit is None:
            self._generate(message)
        elif self.engine.is_committed(message.turn_id):
            self._instant(message, hit)
        else:
            # Cached audio is instant anyway; actions (stop, louder) must wait for the endpoint.
            self._parked = (message, hit)

    def _prefill(self, message: PartialText) -> None:
        """Evaluate the user's words so far (the turn is not answered yet)."""
        prefill = getattr(self.llm, "prefill", None)
        if prefill is None or self._answered == (message.turn_id, message.attempt):
            return
        if self.inbox.holds(PartialText, UserText):
            return  # newer words are queued: evaluate those instead
        if len(self.engine.stt_stage.inbox) > PREFILL_MAX_QUEUED:
            log.debug("prefill skipped: the recognizer is %d frames behind", len(self.engine.stt_stage.inbox))
            return  # leave it the CPU
        tokens = prefill(message.text)
        log.debug("prefilled %d tokens of %r", tokens, message.text)
        if tokens:
            self.engine.timeline(message.turn_id).add("prefill_tokens", tokens)

    def _instant(self, message: UserText, hit: InstantReply | SkillReply) -> None:
        engine, turn = self.engine, message.turn_id
        timeline = engine.timeline(turn)
        engine.result(turn).source = hit.source
        if isinstance(hit, SkillReply):
            engine.result(turn).skill = hit.skill
            if hit.effect is not None:
                hit.effect()
        else:
            timeline.set("cache_hit", True)
        if hit.action == "stop":
            engine.finish(turn)
            return
        if hit.action in ("louder", "quieter"):
            engine.change_volume(+1 if hit.action == "louder" else -1)
        text = hit.words(self.last_reply)
        if isinstance(hit, SkillReply) and not hit.action and text:
            self.last_reply = text  # "repeat" after a skill's answer says that answer again
        engine.result(turn).reply = text
        engine.emit_reply(turn, EventType.REPLY_TEXT, text)
        timeline.mark(Mark.FIRST_CHUNK)
        if hit.prerecorded is not None:
            timeline.mark(Mark.TTS_FIRST_AUDIO)
            engine.output.send(PlayAudio(turn, hit.prerecorded, attempt=message.attempt))
        else:
            engine.speak(turn, text, message.attempt)
        engine.tts.send(EndOfReply(turn, attempt=message.attempt))

    def _generate(self, message: UserText) -> None:
        engine, turn, attempt = self.engine, message.turn_id, message.attempt
        timeline = engine.timeline(turn)
        result = engine.result(turn)
        result.source = "llm"
        chunker = Chunker(engine.config.chunker)
        stats = GenerationStats()
        reply: list[str] = []
        spoken = 0
        self._mask_latency(message)
        timeline.mark(Mark.LLM_START)
        burst = self._all_cores(True)
        stream = self.llm.stream(message.text, stats)
        try:
            for piece in stream:
                if not engine.is_live(message):
                    break  # (a dropped attempt must not leave its marks)
                timeline.mark(Mark.LLM_FIRST_TOKEN)
                reply.append(piece)
                engine.emit_reply(turn, EventType.REPLY_TEXT, piece)
                for chunk in chunker.push(piece):
                    if burst:
                        burst = self._all_cores(False)
                    self._speak(message, chunk, first=not spoken)
                    spoken += 1
        finally:
            stream.close()
            if burst:
                self._all_cores(False)
            if engine.is_live(message):
                timeline.mark(Mark.LLM_END)
                timeline.set("tokens", stats.tokens)
                timeline.set("prompt_tokens", stats.prompt_tokens)
                timeline.set("prompt_reused", stats.reused_tokens)
        text = "".join(reply).strip()
        if not engine.is_live(message):
            if text and engine.is_committed(turn):  # interrupted: what was said is history
                self._remember(message.text, text)
            return
        result.reply = text
        if text:
            engine.when_committed(turn, attempt, lambda: self._remember(message.text, text))
        for chunk in chunker.flush():
            self._speak(message, chunk)
        engine.tts.send(EndOfReply(turn, attempt=attempt))

    def _all_cores(self, on: bool) -> bool:
        """Let the LLM decode on every core while nothing else needs one (the first
        chunk is the critical path); returns whether it now does."""
        engine = self.engine
        all_cores = getattr(self.llm, "all_cores", None)
        if all_cores is None or not engine.config.llm.first_chunk_all_cores:
            return False
        if on and (len(engine.stt_stage.inbox) or engine.tts.busy_since is not None or len(engine.tts.inbox)):
            return False  # the recognizer or the synthesizer is working
        all_cores(on)
        return on

    def _remember(self, user: str, reply: str) -> None:
        self.llm.remember(user, reply)
        self.last_reply = reply

    def _mask_latency(self, message: UserText) -> None:
        """Play a short cached filler first when the LLM answer is predicted to be slow."""
        filler = self.replies.filler(message.text, getattr(self.llm, "path", None)) if self.replies else None
        if filler is not None and filler.audio is not None:
            self.engine.timeline(message.turn_id).set("filler", filler.text)
            self.engine.output.send(PlayAudio(message.turn_id, filler.audio, attempt=message.attempt))

    def _speak(self, message: UserText, chunk: str, first: bool = False) -> None:
        """Send a chunk to TTS. The first one is synthesized alone: the LLM (this thread,
        still inside the token stream) waits for it instead of competing for the cores."""
        engine = self.engine
        engine.timeline(message.turn_id).mark(Mark.FIRST_CHUNK)
        engine.emit_reply(message.turn_id, EventType.REPLY_CHUNK, chunk)
        alone = first and engine.config.tts.first_chunk_alone and getattr(self.llm, "on_cpu", True)
        done = threading.Event() if alone else None
        engine.tts.send(SpeakText(message.turn_id, chunk, attempt=message.attempt, done=done))
        if done is None:
            return
        start = time.perf_counter()
        while not done.wait(0.02):
            if not engine.is_live(message) or time.perf_counter() - start > FIRST_CHUNK_WAIT_S:
                break
        if engine.is_live(message):
            engine.timeline(message.turn_id).set("llm_paused_s", time.perf_counter() - start)


class TtsStage(Stage):
    name = "tts"

    def __init__(self, engine: "Engine", tts: Tts):
        super().__init__(engine)
        self.engine_tts = tts

    def process(self, message: Message) -> None:
        if isinstance(message, EndOfReply):
            self.engine.output.send(message)
        elif isinstance(message, SpeakText):
            try:
                self._synthesize(message)
            finally:
                if message.done is not None:
                    message.done.set()

    def _synthesize(self, message: SpeakText) -> None:
        engine, turn = self.engine, message.turn_id
        try:
            for pcm in self.engine_tts.synthesize(message.text):
                if not engine.is_live(message):
                    return
                engine.timeline(turn).mark(Mark.TTS_FIRST_AUDIO)
                engine.timeline(turn).add("tts_audio_s", pcm.size / self.engine_tts.rate)
                pcm = resample(pcm, self.engine_tts.rate, engine.output_rate)
                engine.output.send(PlayAudio(turn, pcm, attempt=message.attempt))
        except Exception as exc:  # the text is still shown; later chunks may still speak
            log.exception("TTS failed")
            engine.error(turn, f"could not speak part of the reply ({exc}); the text is shown")


class OutputStage(Stage):
    """Plays reply audio; audio of a speculative reply is held until its commit."""

    name = "output"

    def __init__(self, engine: "Engine", out: AudioOut):
        super().__init__(engine)
        self.out = out
        self.volume = 1.0
        self._released: tuple[int, int] | None = None
        self._held: list[ReplyMessage] = []

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
        engine, turn = self.engine, message.turn_id
        if isinstance(message, PlayAudio):
            heard_at = self.out.play(message.pcm * self.volume)
            if engine.timeline(turn).get(Mark.AUDIO_OUT_START) is None:
                engine.timeline(turn).mark(Mark.AUDIO_OUT_START, heard_at)
                engine.emit(EventType.AUDIO_START, turn)
                engine.set_state(State.SPEAKING)
        elif isinstance(message, EndOfReply):
            # Wait until the reply has been heard, unless the turn is interrupted.
            while engine.is_live(message) and time.perf_counter() < self.out.busy_until():
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
        skills: Skills | None = None,
        on_event: Callable[[Event], None] | None = None,
    ):
        self.config = config
        self.skills = skills
        self.vad = vad
        self.audio_out = output
        self.output_rate = output.rate
        self._listeners: list[Callable[[Event], None]] = [on_event] if on_event else []
        self._lock = threading.RLock()
        self._next_id = 0
        self._current: int | None = None
        self._results: dict[int, TurnResult] = {}
        self._attempt = 0
        """Attempt at answering the current turn; bumped when a speculative reply is dropped."""
        self._committed = False
        """Whether the current turn's transcript is final (its reply may be heard)."""
        self._pending_events: list[Event] = []
        self._on_commit: list[Callable[[], None]] = []
        self._announcements: list[SkillReply] = []
        self._announce_retry: threading.Timer | None = None
        self.stt_stage = SttStage(self, stt)
        self.responder = ResponderStage(self, llm, replies, skills)
        self.tts = TtsStage(self, tts)
        self.output = OutputStage(self, output)
        self.stages: list[Stage] = [self.stt_stage, self.responder, self.tts, self.output]
        self._listen_thread: threading.Thread | None = None
        self._source: AudioIn | None = None
        self.endpointer = Endpointer(config.vad)
        self.state = State.IDLE
        for stage in self.stages:
            stage.start()
        if skills is not None:
            skills.subscribe(self.announce)

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

    def emit_reply(self, turn_id: int, type_: EventType, data) -> None:
        """Reply events of a speculative reply are held until its commit (or dropped)."""
        with self._lock:
            if not self.is_current(turn_id):
                return  # a piece that lost the race with an interrupt
            if not self._committed:
                self._pending_events.append(Event(type_, turn_id, data))
                return
            self.emit(type_, turn_id, data)

    def error(self, turn_id: int, text: str) -> None:
        with self._lock:
            if turn_id in self._results:
                self._results[turn_id].errors.append(text)
        self.emit(EventType.ERROR, turn_id, text)

    # ------------------------------------------------------------ turns

    def is_current(self, turn_id: int) -> bool:
        return turn_id == self._current

    def is_live(self, message: Message) -> bool:
        """The message belongs to the current turn (and, for replies, its current attempt)."""
        if message.turn_id != self._current:
            return False
        return not isinstance(message, ReplyMessage) or message.attempt == self._attempt

    def is_committed(self, turn_id: int) -> bool:
        return turn_id == self._current and self._committed

    def when_committed(self, turn_id: int, attempt: int, action: Callable[[], None]) -> None:
        """Run ``action`` now if the reply is committed, else at the commit (never if dropped)."""
        with self._lock:
            if turn_id != self._current or attempt != self._attempt:
                return
            if not self._committed:
                self._on_commit.append(action)
                return
        action()

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
            self._attempt = 0
            self._committed = False
            self._pending_events.clear()
            self._on_commit.clear()
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
        """The final transcript, known at the endpoint (or typed): answer it."""
        if not self.is_current(turn_id):
            return
        self.result(turn_id).transcript = text
        if not text:
            self.emit(EventType.TRANSCRIPT, turn_id, text)
            self.error(turn_id, "nothing was understood; no reply")
            self.finish(turn_id)
            return
        self.commit(turn_id)
        self.responder.send(UserText(turn_id, text, attempt=self._attempt))

    def speculate(self, turn_id: int, text: str) -> None:
        """A transcript at the first pause: start answering it before the endpoint."""
        if not text or not self.is_current(turn_id):
            return
        self.result(turn_id).transcript = text
        self.responder.send(UserText(turn_id, text, attempt=self._attempt))

    def prefill(self, turn_id: int, partial: str) -> None:
        """The user's words so far: let the LLM evaluate them while the user speaks."""
        if self.config.llm.prefill_partials and self.is_current(turn_id):
            self.responder.send(PartialText(turn_id, partial, attempt=self._attempt))

    def cancel_speculation(self, turn_id: int) -> None:
        """The user spoke on: drop the speculative reply and everything it produced."""
        with self._lock:
            if not self.is_current(turn_id) or self._committed:
                return
            self._attempt += 1
            self._pending_events.clear()
            self._on_commit.clear()
            for stage in (self.responder, self.tts, self.output):
                stage.inbox.flush()
            timeline = self.timeline(turn_id)
            timeline.unmark(Mark.STT_START, Mark.STT_FINAL, Mark.LLM_START, Mark.LLM_FIRST_TOKEN,
                            Mark.LLM_END, Mark.FIRST_CHUNK, Mark.TTS_FIRST_AUDIO)
            timeline.add("speculation_dropped")
            timeline.set("llm_paused_s", 0.0)
            self.result(turn_id).reply = ""

    def commit(self, turn_id: int) -> None:
        """The endpoint confirmed the transcript: the reply may now be heard."""
        with self._lock:
            if not self.is_current(turn_id) or self._committed:
                return
            self._committed = True
            attempt = self._attempt
            events, self._pending_events = self._pending_events, []
            actions, self._on_commit = self._on_commit, []
            self.emit(EventType.TRANSCRIPT, turn_id, self.result(turn_id).transcript)
            self.set_state(State.THINKING)
            for event in events:
                self.emit(event.type, event.turn_id, event.data)
        for action in actions:
            action()
        self.responder.send(Commit(turn_id, attempt=attempt))
        self.output.send(Commit(turn_id, attempt=attempt))

    # ------------------------------------------------------------ inputs

    def submit_text(self, text: str) -> int:
        """A typed question: the turn starts with its transcript."""
        turn = self.begin_turn()
        self.timeline(turn).mark(Mark.STT_START)
        self.timeline(turn).mark(Mark.STT_FINAL)
        self.on_transcript(turn, text.strip())
        return turn

    def announce(self, reply: SkillReply) -> None:
        """Say what a skill announces (a timer ran out) in a turn of its own: its sound,
        then its words. While someone speaks or a reply plays, it waits its turn."""
        with self._lock:
            if self.busy:
                self._announcements.append(reply)
                if self._announce_retry is None:
                    self._announce_retry = threading.Timer(0.5, self._announce_waiting)
                    self._announce_retry.daemon = True
                    self._announce_retry.start()
                return
            turn = self.begin_turn()
            result = self.result(turn)
            result.source, result.skill, result.reply = reply.source, reply.skill, reply.text
            self.responder.last_reply = reply.text
            self._committed = True
            self.emit(EventType.REPLY_TEXT, turn, reply.text)
            self.timeline(turn).mark(Mark.FIRST_CHUNK)
            self.output.send(Commit(turn, attempt=0))
            if reply.sound is not None:
                self.output.send(PlayAudio(turn, reply.sound, attempt=0))
            self.speak(turn, reply.text, attempt=0)
            self.tts.send(EndOfReply(turn, attempt=0))

    def speak(self, turn_id: int, text: str, attempt: int) -> None:
        """Synthesize a whole known text in chunks, as a generated reply is, so its first
        words are heard before the rest is synthesized."""
        chunker = Chunker(self.config.chunker)
        for chunk in [*chunker.push(text), *chunker.flush()]:
            self.tts.send(SpeakText(turn_id, chunk, attempt=attempt))

    def _announce_waiting(self) -> None:
        with self._lock:
            waiting, self._announcements = self._announcements, []
            self._announce_retry = None
        for reply in waiting:
            self.announce(reply)

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
        if self.skills is not None:
            self.skills.unsubscribe(self.announce)
        if self._announce_retry is not None:
            self._announce_retry.cancel()
        self.stop_listening()
        self.interrupt()
        for stage in self.stages:
            stage.stop()
