"""The engine: the stages wired together, and the few calls the front ends make."""

from __future__ import annotations

import threading
from typing import Callable

from assistant.sound import AudioIn, AudioOut
from assistant.hear.bargein import Action, Overlap, decide, starts_with_stop
from assistant.config import Config
from assistant.hear.echo import DuplexMode, SpeakerEcho
from assistant.pipeline.rooms import echo_memory_folder, room_key
from assistant.events import Announcement, Event, State
from assistant.think.conversation import Llm
from assistant.think.hangul import jamo
from assistant.think.korean_guard import KoreanGuard
from assistant.think.misheard import MisheardGuard
from assistant.think.replies import Replies
from assistant.think.skills import SkillReply, Skills
from assistant.hear.stt import Stt
from assistant.timeline import Mark, Timeline
from assistant.speak.tts import Tts
from assistant.hear.vad import Vad
from assistant.pipeline.bus import EventBus
from assistant.pipeline.clock_ahead import start_clock_ahead
from assistant.pipeline.conductor import Conductor
from assistant.pipeline.links import Links
from assistant.pipeline.listen import ListenStage
from assistant.pipeline.output import PlaybackStage, SynthesisStage
from assistant.pipeline.responder import ResponderStage
from assistant.pipeline.stage import Stage
from assistant.pipeline.startup import StartupSound
from assistant.pipeline.transcription import TranscriptionStage
from assistant.hear.wake_score import phrase_scorer
from assistant.pipeline.wake_gate import WakeListening
from assistant.pipeline.wake_start import start_phrase_model


class Engine:
    """listen → transcription → responder → synthesis → playback, each a stage on its own
    thread; the conductor's parts keep the turns (``turns`` is their book)."""

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
        echo: SpeakerEcho | None = None,
    ):
        self.config = config
        self.skills = skills
        self._unsaid: list[SkillReply] = []
        self._retry: threading.Timer | None = None
        self._announcing = threading.Lock()
        self.bus = EventBus(on_event)
        self.echo = echo or SpeakerEcho(config.echo, config.audio.sample_rate, config.audio.frame_samples,
                                        memory=echo_memory_folder(config.echo))
        """What the speaker played, and the echo canceller that takes it out of the microphone
        (one given here outlives the engine: it keeps what it learnt of the room)."""
        self._own_echo = echo is None
        self._output = output
        self.replies = replies
        conductor = self.conductor = Conductor(self.bus, prefill_partials=config.llm.prefill_partials,
                                               punctuated=stt.punctuates)
        turns = self.turns = conductor.book
        answering = conductor.answering
        self.playback = PlaybackStage(turns, self.bus, self.echo.monitor(output))
        self.wake = WakeListening(config.wake, turns, self.bus, letters=jamo, chime=self.playback.chime,
                                  scorer=phrase_scorer(stt, config.wake))
        """Hands-free answers only after the wake phrase, when one is set (docs/wake.md)."""
        self.startup = StartupSound(config.echo, self.echo, self.playback)
        """The sound the canceller learns the room from where nothing of it is kept yet."""
        self.synthesis = SynthesisStage(turns, tts, self.playback)
        korean = KoreanGuard(llm.path, config.stt.language, audio=replies.audio if replies else None)
        misheard = MisheardGuard(config.stt.misheard_below, config.stt.language,
                                 audio=replies.audio if replies else None)
        # Korean the model cannot read (the check that gives such turns the Korean notice): the end of a
        # turn is the silence's and the words' ending, and the utterance is read once, well into the pause.
        silence_alone = korean.ends_by_silence
        self.transcription = TranscriptionStage(turns, answering, self.bus, stt, speculative=config.vad.speculative,
                                                at_pauses=config.turn.mode == "semantic", wake=self.wake,
                                                wanted=self._answered_at_once, language=config.stt.language)
        self.responder = ResponderStage(turns, answering, config, llm, replies, transcription=self.transcription,
                                        synthesis=self.synthesis, playback=self.playback, korean=korean,
                                        misheard=misheard, skills=skills)
        self.hearing = ListenStage(turns, answering, conductor.overlaps, self.bus, vad, config.vad,
                                   transcription=self.transcription, start_output_clock=self.playback.start_clock,
                                   echo=self.echo, barge_in=config.barge_in, replying=lambda: self.playback.replying,
                                   pause_reply=self.playback.pause, wake=self.wake, turn=config.turn,
                                   startup=self.startup, silence_alone=silence_alone, language=config.stt.language)
        reply_stages = (self.responder, self.synthesis, self.playback)
        conductor.connect(Links(
            responder=self.responder, playback=self.playback, hush=self.playback.hush, reply_stages=reply_stages,
            turn_stages=(self.transcription, *reply_stages), idle_state=self._idle_state,
            note_words=self.hearing.note_words, heard_reply=self.playback.heard_reply,
            overlap_action=self._overlap_action, resume=self.playback.resume, end_paused=self.playback.end_paused,
        ))
        self.stages: list[Stage] = [self.hearing, self.transcription, *reply_stages]
        for stage in self.stages:
            stage.start()
        self.wake_training = start_phrase_model(self.wake, config.wake, tts, busy=lambda: self.busy)
        """The phrase's own model being trained (``wake.by = model``, the first time a phrase is chosen),
        waiting while someone is heard or answered."""
        self.clock_ahead = start_clock_ahead(skills, replies, tts, busy=lambda: self.busy,
                                             korean=config.stt.language == "ko")
        """The clock's answers at this minute and the next, their audio ready (None: spoken live)."""
        if skills is not None:
            skills.subscribe(self.announce)

    def _idle_state(self) -> State:
        if not self.hearing.listening:
            return State.IDLE
        return State.WAITING if self.wake.waiting else State.LISTENING

    def _overlap_action(self, overlap: Overlap, text: str) -> Action:
        """What the words spoken over the reply do to it."""
        paused_for = self.playback.paused_for() if overlap.paused else None
        # speech that paused the reply while the canceller was learning was the canceller's to keep: not echo
        return decide(self.config.barge_in, full_duplex=overlap.full_duplex or overlap.paused, transcript=text,
                      played_text=self.playback.recent_text(), is_stop=self._is_stop(text), paused_for_s=paused_for,
                      confirmed=overlap.confirmed, stop_first=starts_with_stop(text, self._is_stop))

    def _answered_at_once(self, text: str) -> bool:
        """A skill or an instant reply takes ``text`` (the model is not asked)."""
        return self.responder.at_once(text) is not None

    def _is_stop(self, text: str) -> bool:
        """``text`` is the instant "stop" phrase (:meth:`AtOnce.is_stop`)."""
        return self.responder.answers_at_once.is_stop(text)

    # ------------------------------------------------------------ for the front ends

    @property
    def state(self) -> State:
        return self.bus.state

    @property
    def duplex(self) -> DuplexMode:
        """How the engine listens while it speaks (full duplex with a canceller, or half)."""
        return self.echo.mode

    @property
    def busy(self) -> bool:
        return self.turns.current is not None or self.hearing.in_speech

    def add_listener(self, listener: Callable[[Event], None]) -> None:
        self.bus.add_listener(listener)

    def is_current(self, turn_id: int) -> bool:
        return self.turns.is_current(turn_id)

    def timeline(self, turn_id: int) -> Timeline:
        return self.turns.timeline(turn_id)

    def begin_turn(self) -> int:
        """Start a turn; a reply still in progress is interrupted (barge-in)."""
        return self.conductor.answering.begin()

    def interrupt(self) -> None:
        """Stop the current turn at once: generation, synthesis and playback."""
        self.conductor.interruptions.interrupt()

    def submit_text(self, text: str) -> int:
        """A typed question: the turn starts with its transcript."""
        turn = self.conductor.answering.begin()
        self.timeline(turn).mark(Mark.STT_START)
        self.timeline(turn).mark(Mark.STT_FINAL)
        self.conductor.answering.transcript(turn, text.strip())
        return turn

    def announce(self, reply: SkillReply) -> None:
        """Say what a skill announces (a timer ran out) in a turn of its own: its sound,
        then its words. While someone speaks or a reply plays, it waits its turn."""
        with self._announcing:
            begun = None if self.busy else self.conductor.answering.begin_unasked()
            if begun is None:
                self._unsaid.append(reply)
                if self._retry is None:
                    self._retry = threading.Timer(0.5, self._announce_unsaid)
                    self._retry.daemon = True
                    self._retry.start()
                return
        turn, attempt = begun
        self.responder.send(Announcement(turn, reply, attempt=attempt))

    def _announce_unsaid(self) -> None:
        with self._announcing:
            unsaid, self._unsaid, self._retry = self._unsaid, [], None
        for reply in unsaid:
            self.announce(reply)

    def listen(self, source: AudioIn, await_phrase: bool = True) -> None:
        """Start hands-free listening on ``source`` (microphone or paced WAV); the echo
        canceller starts from what it learnt of these devices before. With a wake phrase set,
        nothing is answered until it is said, unless ``await_phrase`` is False (push-to-talk).
        Where the canceller has not learnt these devices' room, the start-up sound plays first."""
        key = room_key(source, self._output, self.config.audio)
        self.echo.recall(key)
        self.startup.arm(key)
        self.wake.start(await_phrase)
        self.hearing.listen(source)
        self.bus.set_state(self._idle_state(), self.turns.current or 0)

    def wake_now(self) -> None:
        """Listen for a question without the wake phrase (a tap on the screen stands for it)."""
        self.wake.follow_up()

    def stop_listening(self) -> None:
        self.hearing.stop_listening()
        self.wake.stop()
        self.echo.filter.keep_recording()  # what the canceller learnt of the room, for the next run
        self.bus.set_state(State.IDLE, self.turns.current or 0)

    def close(self) -> None:
        if self.skills is not None:
            self.skills.unsubscribe(self.announce)
        with self._announcing:
            if self._retry is not None:
                self._retry.cancel()
        if self.clock_ahead is not None:
            self.clock_ahead.stop()
        self.stop_listening()
        self.interrupt()
        for stage in self.stages:
            stage.stop()
        if self._own_echo:
            self.echo.close()
