"""Serial mode: the naive chain, on the same engines and the same paced input.

Wait for the whole utterance and its endpoint (same Silero VAD, same endpointer), then
transcribe it whole, then generate the whole reply, then synthesize all of it, then
play. The same :class:`~assistant.timeline.Mark` marks are set as in the pipeline, so
both modes report the same figures.
"""

from __future__ import annotations

import logging

import numpy as np

from assistant.speak.sinks import wait_until_heard
from assistant.speak.chunker import speakable
from assistant.config import Config
from assistant.events import TurnResult
from assistant.think.conversation import GenerationStats
from assistant.think.replies import InstantReply, Replies
from assistant.pipeline.session import LoadedModels
from assistant.timeline import Mark, Timeline
from assistant.pipeline.listen import Segmenter
from assistant.pipeline.output import speech
from assistant.hear.vad import VadEventType
from assistant.commands.bench.takes import Take

log = logging.getLogger(__name__)


class SerialChain:
    def __init__(self, engines: LoadedModels, config: Config, replies: Replies | None):
        self.engines = engines
        self.config = config
        self.replies = replies
        self.last_reply = ""

    def run(self, take: Take) -> TurnResult | None:
        """Answer the first utterance of the take; None when no speech was heard.

        The take runs on a thread of its own that ends with it: OpenMP keeps worker
        threads for every thread that used the model, and libgomp spins less once it
        manages more threads than there are cores, which would slow the streaming takes
        that come after (docs/tuning.md)."""
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="serial-take") as pool:
            return pool.submit(self._run, take).result()

    def _run(self, take: Take) -> TurnResult | None:
        try:
            heard = self._listen(take)
            if heard is None:
                return None
            timeline, speech = heard
            result = TurnResult(timeline.turn_id, timeline)
            try:
                self._answer(result, speech, take)
            except Exception as exc:  # an engine failure is a result, not a crash of the bench
                log.exception("serial chain failed")
                result.errors.append(f"serial chain failed: {exc}")
                timeline.mark(Mark.TURN_END)
            return result
        finally:
            take.close()

    # ------------------------------------------------------------ hearing

    def _listen(self, take: Take) -> tuple[Timeline, np.ndarray] | None:
        """Feed the take through the pipeline's segmenter (VAD, endpointer, pre-roll)
        until the endpoint; the turn's timeline and all its audio (with pre-roll)."""
        source = take.source
        segmenter = Segmenter(self.engines.vad, self.config.vad, source.frame_samples / source.rate)
        grace_s = (self.config.vad.endpoint_ms + 200) / 1000
        speech: list[np.ndarray] = []
        timeline: Timeline | None = None
        frames = source.frames()
        try:
            for index, (frame, captured) in enumerate(frames):
                if index == 0:
                    take.sink.start(captured)
                for heard in segmenter.push(frame, captured):
                    if heard.event is VadEventType.SPEECH_START and timeline is None:
                        timeline = Timeline(1)
                        timeline.mark(Mark.SPEECH_START, heard.at)
                        speech = [heard.pcm]
                    elif heard.event is None and timeline is not None:
                        speech.append(heard.pcm)
                    elif heard.event is VadEventType.ENDPOINT and timeline is not None:
                        timeline.mark(Mark.SPEECH_END, heard.at)
                        timeline.mark(Mark.ENDPOINT)
                        return timeline, np.concatenate(speech)
                if timeline is None and take.input_over(grace_s):
                    return None
        finally:
            frames.close()
        return None

    # ------------------------------------------------------------ answering

    def _answer(self, result: TurnResult, speech: np.ndarray, take: Take) -> None:
        timeline = result.timeline
        timeline.mark(Mark.STT_START)
        utterance = self.engines.stt.utterance()
        utterance.feed(speech)
        result.transcript = utterance.transcribe()
        timeline.mark(Mark.STT_FINAL)
        if not result.transcript:
            result.errors.append("nothing was understood; no reply")
            timeline.mark(Mark.TURN_END)
            return
        hit = self.replies.lookup(result.transcript) if self.replies else None
        audio = self._instant(result, hit) if hit is not None else self._generate(result)
        self._play(timeline, audio, take)

    def _instant(self, result: TurnResult, hit: InstantReply) -> list[np.ndarray]:
        result.source = "cache"
        result.timeline.set("cache_hit", True)
        if hit.action == "stop":
            return []
        text = hit.words(self.last_reply)
        result.reply = text
        result.timeline.mark(Mark.FIRST_CHUNK)
        if hit.prerecorded is not None:
            result.timeline.mark(Mark.TTS_FIRST_AUDIO)
            return [hit.prerecorded]
        return self._synthesize(result.timeline, text) if text else []

    def _generate(self, result: TurnResult) -> list[np.ndarray]:
        timeline, llm = result.timeline, self.engines.llm
        result.source = "llm"
        stats = GenerationStats()
        pieces: list[str] = []
        timeline.mark(Mark.LLM_START)
        # Nothing else runs while a serial chain generates: it decodes on every core.
        llm.all_cores(True)
        stream = llm.stream(result.transcript, stats)
        try:
            for piece in stream:
                timeline.mark(Mark.LLM_FIRST_TOKEN)
                pieces.append(piece)
        finally:
            stream.close()
            llm.all_cores(False)
            timeline.mark(Mark.LLM_END)
            stats.record(timeline)
        result.reply = "".join(pieces).strip()
        if result.reply:
            llm.remember(result.transcript, result.reply)
            self.last_reply = result.reply
        spoken = speakable(result.reply)
        if not spoken:
            return []
        timeline.mark(Mark.FIRST_CHUNK)
        return self._synthesize(timeline, spoken)

    def _synthesize(self, timeline: Timeline, text: str) -> list[np.ndarray]:
        return list(speech(self.engines.tts, text, timeline, self.config.audio.output_rate))

    def _play(self, timeline: Timeline, audio: list[np.ndarray], take: Take) -> None:
        """Play everything, then wait until it has been heard."""
        for pcm in audio:
            timeline.mark(Mark.AUDIO_OUT_START, take.sink.play(pcm))
        end = wait_until_heard(take.sink)
        timeline.mark(Mark.TURN_END, end if audio else None)
