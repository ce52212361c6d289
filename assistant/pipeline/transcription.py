"""The transcription stage: speech audio in, transcripts (partial, speculative, final) out."""

from __future__ import annotations

import numpy as np

from ..events import EarlySilence, EndOfSpeech, EventType, Message, SpeechAudio, SpeechResumed, SpeechStarted
from ..stt import Stt, Utterance
from ..timeline import Mark
from .bus import EventBus
from .conductor import Conductor
from .stage import Stage


class TranscriptionStage(Stage):
    """Feeds the utterance to STT as it is spoken; transcribes at the first pause
    (speculatively) or at the endpoint."""

    name = "stt"

    def __init__(self, turns: Conductor, bus: EventBus, stt: Stt, speculative: bool):
        super().__init__(turns)
        self.bus = bus
        self.stt = stt
        self.speculative = speculative
        self._utterance: Utterance | None = None
        self._speculated: str | None = None

    def process(self, message: Message) -> None:
        turns, turn = self.turns, message.turn_id
        if isinstance(message, SpeechStarted):
            self._utterance = self.stt.utterance()
            self._speculated = None
            self._feed(turn, message.preroll)
        elif self._utterance is None:
            return
        elif isinstance(message, SpeechAudio):
            self._feed(turn, message.pcm)
        elif isinstance(message, EarlySilence) and self.speculative:
            self._speculated = self._transcribe(turn)
            turns.speculate(turn, self._speculated)
        elif isinstance(message, SpeechResumed):
            if self._speculated is not None:
                self._speculated = None
                turns.speak_on(turn)
        elif isinstance(message, EndOfSpeech):
            speculated = self._speculated is not None
            text = self._speculated if speculated else self._transcribe(turn)
            turns.timeline(turn).set("speculative", bool(speculated and text))
            self._utterance = None
            if speculated and text:
                turns.commit(turn)
            else:
                turns.transcript(turn, text)

    def _transcribe(self, turn: int) -> str:
        timeline = self.turns.timeline(turn)
        timeline.mark(Mark.STT_START)
        text = self._utterance.transcribe()
        timeline.mark(Mark.STT_FINAL)
        return text

    def _feed(self, turn: int, pcm: np.ndarray) -> None:
        partial = self._utterance.feed(pcm) if self._utterance else None
        if partial:
            self.bus.emit(EventType.PARTIAL_TRANSCRIPT, turn, partial)
            self.turns.prefill(turn, partial)
