"""The responder: a transcript in, a reply out (instant reply, or the LLM's token stream
cut into speakable chunks)."""

from __future__ import annotations

import logging
import threading
import time

from assistant.speak.chunker import Chunker, first_sentence_end
from assistant.config import Config
from assistant.events import TurnSignals
from assistant.hear.end_of_turn import words_for_model
from assistant.events import (
    Announcement,
    Commit,
    EndOfReply,
    EventType,
    Message,
    PartialText,
    PlayAudio,
    Remember,
    ReplyMessage,
    SpeakText,
    UserText,
)
from assistant.think import calibration
from assistant.think.conversation import GenerationStats, Llm
from assistant.think.hedge import Hedging, hedge_words, model_words, names_bigger
from assistant.think.korean_guard import KoreanGuard, Notice
from assistant.think.misheard import MisheardGuard
from assistant.think.replies import InstantReply, Replies
from assistant.think.skills import SkillReply, Skills
from assistant.timeline import Mark
from assistant.writing import has_hangul
from assistant.speak.voices import voices_for
from assistant.pipeline.answering import Answering
from assistant.pipeline.at_once import AtOnce, ends_at_once, opens_a_turn
from assistant.pipeline.output import PlaybackStage
from assistant.pipeline.stage import Stage
from assistant.pipeline.turn_book import TurnBook

log = logging.getLogger(__name__)

PREFILL_MAX_QUEUED = 2
"""The LLM evaluates partial transcripts only while the recognizer has at most this
many audio frames waiting (it is keeping up with the speech)."""

FIRST_CHUNK_WAIT_S = 1.0
"""Longest the LLM pauses for the first chunk's synthesis (a slow system voice)."""

HEARD_KEPT = 4
"""Turns whose words are kept for "What did I just say?"."""
PACE_STEP = 1.25
"""Each "speak faster" makes the voice this much faster; each "speak slower" this much slower."""
PACE_STEPS = 3
"""Steps each way from the voice's own pace (about half as fast or twice as fast at most)."""


def says_ahead(hit: InstantReply | SkillReply | Notice) -> bool:
    """Words to synthesize and nothing to do (the clock's, a sum's): made at the pause, as the model's
    reply is, and heard at the commit like it (a speculative reply's audio waits for the endpoint);
    not synthesized only once the turn is over, where they would keep the user waiting for them."""
    return bool(hit.text) and hit.action is None and getattr(hit, "effect", None) is None and hit.prerecorded is None


class ResponderStage(Stage):
    """Answers a transcript from the instant-reply table or the LLM token stream."""

    name = "responder"

    def __init__(self, turns: TurnBook, answering: Answering, config: Config, llm: Llm, replies: Replies | None, *,
                 transcription: Stage, synthesis: Stage, playback: PlaybackStage, korean: KoreanGuard,
                 misheard: MisheardGuard | None = None, skills: Skills | None = None):
        super().__init__(turns)
        self.answering = answering
        self.config = config
        self.llm = llm
        self.replies = replies
        self.skills = skills
        self.korean = korean
        """Korean the model cannot answer gets a notice, never the model's noise."""
        self.misheard = misheard
        """Words the recognizer was unsure of get "Sorry, I didn't catch that.", not an answer to them."""
        self.hedge_below = config.llm.hedge_below
        if self.hedge_below is None:
            self.hedge_below = calibration.threshold_for(llm.path)
        """Replies the model is less sure of end with a hedge (0 or None: never)."""
        self.transcription = transcription
        self.synthesis = synthesis
        self.playback = playback
        self.last_reply = ""
        self.unheard = ""
        """The rest of the last reply cut short, said on "go on" ('' when the last reply was heard to its end)."""
        self._pace_steps = 0
        self._heard: dict[int, str] = {}
        """What the user said in each of the last turns ("What did I just say?")."""
        self.answers_at_once = AtOnce(skills, replies, config.wake.phrase)
        self._parked: tuple[UserText, InstantReply | SkillReply] | None = None
        self._answered: tuple[int, int] | None = None

    def accepts(self, message: Message) -> bool:
        """The history of a finished turn is taken whatever turn is current now."""
        return isinstance(message, Remember) or super().accepts(message)

    def process(self, message: Message) -> None:
        if isinstance(message, Remember):
            self.unheard = message.rest
            self.korean.heard(message.reply, message.rest)
            if message.user:
                self.remember(message.user, message.reply)
            return
        if isinstance(message, PartialText):
            self._prefill(message)
            return
        if isinstance(message, Announcement):
            self._instant(message, message.reply)
            return
        if isinstance(message, Commit):
            parked, self._parked = self._parked, None
            if parked and parked[0].turn_id == message.turn_id and parked[0].attempt == message.attempt:
                self._instant(*parked)
            return
        if not isinstance(message, UserText):
            return
        self._answered = (message.turn_id, message.attempt)
        if not message.text:
            self._nothing_heard(message)
            return
        self._heard[message.turn_id] = message.text  # (a later reading of the turn replaces the pause's)
        for old in sorted(self._heard)[:-HEARD_KEPT]:
            del self._heard[old]
        if message.least_word_p is not None:
            self.turns.timeline(message.turn_id).set("least_word_p", round(message.least_word_p, 3))
        hit = self.at_once(message.text, message.turn_id)
        if message.pause is not None:
            self._weigh(message, hit)
        if hit is None:
            hit = self.korean.notice(message.text)
        if hit is None and self.misheard is not None:
            hit = self.misheard.notice(message.text, message.least_word_p)
        if hit is None:
            self._generate(message)
        elif self.turns.is_committed(message.turn_id) or says_ahead(hit):
            self._instant(message, hit)
        else:
            # Cached audio is instant anyway; actions (stop, louder) and effects (a timer set) must
            # wait for the endpoint.
            self._parked = (message, hit)

    def _nothing_heard(self, message: UserText) -> None:
        """Speech the recognizer read as nothing: the notice that it was not caught where the speech
        lasted long enough to be a question (:meth:`MisheardGuard.not_heard`), else no reply."""
        turns, turn, guard = self.turns, message.turn_id, self.misheard
        heard_ms = turns.timeline(turn).span_ms(Mark.SPEECH_START, Mark.SPEECH_END)
        hit = guard.not_heard(None if heard_ms is None else heard_ms / 1000.0) if guard else None
        if hit is None:
            if guard:
                guard.replied("")  # no reply either: the next turn's may be the notice
            turns.error(turn, "nothing was understood; no reply")
            turns.finish(turn)
            return
        self._instant(message, hit)

    def at_once(self, text: str, turn: int | None = None) -> InstantReply | SkillReply | None:
        """The skill or the instant reply that answers ``text`` without the model (:class:`AtOnce`)."""
        return self.answers_at_once.find(text, turn)

    def _weigh(self, message: UserText, hit: InstantReply | SkillReply | None) -> None:
        """Tell the turn detector what is known of the words at a pause: an instant-reply
        phrase, or the model's end-of-turn probability (its evaluation of the words is the
        start of the reply's prompt evaluation, which reuses it)."""
        probability, instant = None, ends_at_once(hit)
        if not instant and self.config.turn.mode == "semantic":
            started = time.perf_counter()
            probability = self.llm.end_of_turn(words_for_model(message.text), reply_to=message.text)
            if probability is not None and self.turns.is_live(message):  # (not words read again meanwhile)
                timeline = self.turns.timeline(message.turn_id)
                timeline.set("end_of_turn_p", probability)
                timeline.set("prompt_eval_ms", (time.perf_counter() - started) * 1000.0)  # counted in the TTFT
        misheard = self.misheard is not None and self.misheard.unsure(message.least_word_p)
        replying = self.playback.replying
        social = opens_a_turn(hit, replying)
        stops_reply = replying and hit is not None and hit.action == "stop"
        self.answering.more_about_words(message, TurnSignals(message.text, end_of_turn=probability, instant=instant,
                                                             social=social, stops_reply=stops_reply,
                                                             last_word_p=message.last_word_p, misheard=misheard))

    def _prefill(self, message: PartialText) -> None:
        """Evaluate the user's words so far (the turn is not answered yet)."""
        if self._answered == (message.turn_id, message.attempt):
            return
        if self.inbox.holds(PartialText, UserText):
            return  # newer words are queued: evaluate those instead
        if self.transcription.backlog > PREFILL_MAX_QUEUED:
            log.debug("prefill skipped: the recognizer is %d frames behind", self.transcription.backlog)
            return  # leave it the CPU
        with self.model_call():
            tokens = self.llm.prefill(message.text)
        log.debug("prefilled %d tokens of %r", tokens, message.text)
        if tokens:
            self.turns.timeline(message.turn_id).add("prefill_tokens", tokens)

    def _instant(self, message: ReplyMessage, hit: InstantReply | SkillReply) -> None:
        turns, turn = self.turns, message.turn_id
        timeline = turns.timeline(turn)
        turns.result(turn).source = hit.source
        if self.misheard is not None:
            self.misheard.replied(hit.source)
        if isinstance(hit, SkillReply):
            turns.result(turn).skill = hit.skill
            if hit.effect is not None:
                hit.effect()
        elif hit.source == "cache":
            timeline.set("cache_hit", True)
        if hit.action == "stop":
            turns.finish(turn)
            return
        if hit.action in ("louder", "quieter"):
            self.playback.change_volume(+1 if hit.action == "louder" else -1)
        if hit.action in ("slower", "faster"):
            self.change_pace(+1 if hit.action == "faster" else -1)
        if hit.action == "start_over":  # the model's history, and what "what did I just say" reads, start anew
            with self.model_call():
                self.llm.reset()
            for old in [t for t in self._heard if t < turn]:
                del self._heard[old]
        text = hit.words(self.last_reply, self.unheard) if hit.action != "recall" else self._recall(turn, hit.text)
        if isinstance(hit, SkillReply) and hit.action in ("", None, "recall", "continue") and text:
            self.last_reply = text  # "repeat" after a skill's answer (a timer's ring, "You said: ...") says it again
        turns.result(turn).reply = text
        self.answering.emit_reply(message, EventType.REPLY_TEXT, text)
        timeline.mark(Mark.FIRST_CHUNK)
        if hit.prerecorded is not None and not self._pace_steps:  # (audio made ahead is at the voice's own pace)
            timeline.mark(Mark.TTS_FIRST_AUDIO)
            turns.result(turn).add_voices(voices_for(self.synthesis.tts, text))
            self.playback.send(PlayAudio(turn, hit.prerecorded, attempt=message.attempt, text=text))
        else:
            if isinstance(hit, SkillReply) and hit.sound is not None:
                self.playback.send(PlayAudio(turn, hit.sound, attempt=message.attempt))
            # In chunks, as a generated reply: the first words are heard before the rest is synthesized.
            chunker = Chunker(self.config.chunker)
            for chunk in [*chunker.push(text), *chunker.flush()]:
                self.synthesis.send(SpeakText(turn, chunk, attempt=message.attempt))
        self.synthesis.send(EndOfReply(turn, attempt=message.attempt))

    def _recall(self, turn: int, nothing_yet: str) -> str:
        """What the user said in the turn before ``turn``, said back; ``nothing_yet`` where there was none."""
        before = [t for t in self._heard if t < turn]
        if not before:
            return nothing_yet
        said = self._heard[max(before)]
        return f"{said.strip().rstrip('.?!')}라고 하셨어요." if has_hangul(nothing_yet) else f"You said: {said.strip()}"

    def change_pace(self, direction: int) -> None:
        """One step faster (+1) or slower (-1), :data:`PACE_STEPS` at most each way; the voice takes it up
        from its next text."""
        self._pace_steps = max(-PACE_STEPS, min(PACE_STEPS, self._pace_steps + direction))
        self.synthesis.pace = PACE_STEP**self._pace_steps

    def _generate(self, message: UserText) -> None:
        turns, turn, attempt = self.turns, message.turn_id, message.attempt
        timeline = turns.timeline(turn)
        result = turns.result(turn)
        result.source = "llm"
        chunker = Chunker(self.config.chunker)
        stats = GenerationStats()
        reply: list[str] = []
        spoken = 0
        self._mask_latency(message)
        if not turns.is_live(message):
            return  # dropped while it was being taken: it must not leave its start mark
        timeline.mark(Mark.LLM_START)
        burst = self._all_cores(True)
        with self.model_call():
            stream = self.llm.stream(message.text, stats)
        hedging = Hedging(self.hedge_below, stats, message.text)
        try:
            for piece in self.watched(stream):
                if not turns.is_live(message):
                    break  # (a dropped attempt must not leave its marks)
                timeline.mark(Mark.LLM_FIRST_TOKEN)
                reply.append(piece)
                if self._unsure(message, hedging, reply):
                    break
                self.answering.emit_reply(message, EventType.REPLY_TEXT, piece)
                for chunk in chunker.push(piece):
                    if burst:
                        burst = self._all_cores(False)
                    self._speak(message, chunk, first=not spoken)
                    spoken += 1
        finally:
            stream.close()
            if burst:
                self._all_cores(False)
            if turns.is_live(message):
                timeline.mark(Mark.LLM_END)
                stats.record(timeline)
        if not turns.is_live(message):
            return  # dropped or interrupted: the history gets what was heard when the turn closes
        if hedging.verdict is None:
            self._unsure(message, hedging, reply, finished=True)
        unsure = hedging.verdict is not None and hedging.verdict.unsure
        if unsure:
            # The first sentence is finished (its start may be playing), the rest is not said.
            said = "".join(reply)[: first_sentence_end("".join(reply))]
            chunks = chunker.end_with(said)
            named = self.llm.history.naming(self.llm.bigger_model)  # once a conversation
            reply = [said, " ", hedge_words(self.config.llm.reply_language, named)]
            self.answering.emit_reply(message, EventType.REPLY_TEXT, "".join(reply[1:]))
        else:
            chunks = chunker.flush()
        result.reply = "".join(reply).strip()
        for chunk in [*chunks, *([reply[-1]] if unsure else [])]:
            self._speak(message, chunk, first=not spoken)
            spoken += 1
        self.synthesis.send(EndOfReply(turn, attempt=attempt))

    def _unsure(self, message: UserText, hedging: Hedging, reply: list[str], finished: bool = False) -> bool:
        """Judge the reply's confidence once its first sentence is known; True when it
        is to be hedged (the token stream then stops)."""
        verdict = hedging.judge(finished)
        if verdict is None:
            return False
        result = self.turns.result(message.turn_id)
        result.confidence = verdict.confidence
        timeline = self.turns.timeline(message.turn_id)
        if verdict.confidence is not None:
            timeline.set("confidence", round(verdict.confidence, 3))
        if hedging.odds is not None and hedging.odds.us_per_token is not None:
            timeline.set("confidence_us_per_token", round(hedging.odds.us_per_token, 1))
        if verdict.unsure:
            result.hedged = verdict.reason
            timeline.set("hedged", verdict.reason)
            log.info("reply hedged (%s): %r", verdict.reason, "".join(reply)[:80])
        return verdict.unsure

    def _all_cores(self, on: bool) -> bool:
        """Let the LLM decode on every core while nothing else needs one (the first
        chunk is the critical path); returns whether it now does."""
        if not self.config.llm.first_chunk_all_cores:
            return False
        if on and (self.transcription.backlog or not self.synthesis.idle):
            return False  # the recognizer or the synthesizer is working
        self.llm.all_cores(on)
        return on

    def remember(self, user: str, reply: str) -> None:
        """A finished exchange, as the user heard it, goes into the conversation history: the model's
        words (:func:`~assistant.think.hedge.model_words`), where it said any."""
        language, bigger = self.config.llm.reply_language, self.llm.bigger_model
        if names_bigger(reply, language, bigger):
            self.llm.history.bigger_model_named = True  # heard once: the next hedges are the one sentence
        said = model_words(reply, language, bigger)
        if said:
            self.llm.remember(user, said)
        self.last_reply = reply
        if self.misheard is not None:
            self.misheard.replied("llm")

    def _mask_latency(self, message: UserText) -> None:
        """Play a short cached filler first when the LLM answer is predicted to be slow."""
        filler = self.replies.filler(message.text, self.llm.path) if self.replies else None
        if filler is not None and filler.audio is not None:
            self.turns.timeline(message.turn_id).set("filler", filler.text)
            self.playback.send(PlayAudio(message.turn_id, filler.audio, attempt=message.attempt))

    def _speak(self, message: UserText, chunk: str, first: bool = False) -> None:
        """Send a chunk to TTS. The first one is synthesized alone: the LLM (this thread,
        still inside the token stream) waits for it instead of competing for the cores."""
        turns = self.turns
        turns.timeline(message.turn_id).mark(Mark.FIRST_CHUNK)
        self.answering.emit_reply(message, EventType.REPLY_CHUNK, chunk)
        alone = first and self.config.tts.first_chunk_alone and self.llm.on_cpu
        done = threading.Event() if alone else None
        self.synthesis.send(SpeakText(message.turn_id, chunk, attempt=message.attempt, done=done))
        if done is None:
            return
        start = time.perf_counter()
        while not done.wait(0.02):
            if not turns.is_live(message) or time.perf_counter() - start > FIRST_CHUNK_WAIT_S:
                break
        if turns.is_live(message):
            turns.timeline(message.turn_id).set("llm_paused_s", time.perf_counter() - start)
