"""The wake phrase told by its own model, on the real models: a small phrase model trained here from
two espeak-ng voices (as the app trains one, fewer voices) takes a phrase take by a rate it was not
trained on and refuses a question without the phrase; in the wired engine (Whisper tiny.en, Silero,
openWakeWord's embeddings, the model kept in the cache folder) the phrase and the question in one
breath are one turn without the phrase, and the question alone is no turn."""

from __future__ import annotations

import numpy as np
import pytest

from assistant.config import with_overrides
from assistant.events import EventType
from assistant.hear.sources import PacedWavSource
from assistant.hear.wake_model import PhraseModel, UtteranceLooks, shared_embedder
from assistant.pipeline import Engine, wake_training
from assistant.pipeline.waiting import wait_until

from fakes import Recorder, RecordingSink
from wake_models import PHRASE, small_model as trained_small_model

pytestmark = pytest.mark.slow
RATE = 16000


@pytest.fixture(scope="module")
def small_model() -> PhraseModel:
    """The phrase's model from two voices at two rates, kept where the engine looks for it."""
    return trained_small_model()


def _say(text: str, rate: int = 165) -> np.ndarray:
    (say,) = wake_training.espeak_voices((wake_training.TrainingVoice("en-us", rate, 50),), rates=(0,), pitches=(0,))
    lead, tail = np.zeros(int(0.5 * RATE), np.float32), np.zeros(2 * RATE, np.float32)
    return np.concatenate([lead, say(text), tail])


def _best_look(model: PhraseModel, pcm: np.ndarray) -> float:
    """The model's best score over looks at the speech's start every 96 ms up to 2 s."""
    looks, start = UtteranceLooks(shared_embedder()), int(0.3 * RATE)
    ends = range(start + int(0.5 * RATE), start + int(2.3 * RATE), int(0.096 * RATE))
    return max(100 * float(model.probability(looks.look(pcm[start:end])[None])[0]) for end in ends)


def test_a_model_from_a_few_takes_takes_the_phrase_and_refuses_other_words(small_model):
    model = small_model
    assert _best_look(model, _say("Hey assistant.", rate=150)) >= 80
    assert _best_look(model, _say("What time is it?", rate=150)) < 80


def test_the_engine_wakes_on_the_model_and_strips_the_phrase(small_model, engines, default_config):
    config = with_overrides(default_config, wake={"phrase": PHRASE, "by": "model", "model": 80.0, "chime": False},
                            turn={"mode": "fixed"})
    recorder = Recorder()
    engine = Engine(config, stt=engines.stt, llm=engines.llm, tts=engines.tts, vad=engines.vad, output=RecordingSink(),
                    on_event=recorder)
    try:
        assert engine.wake_training is None and engine.wake.by == "model"  # kept: no training, the model at once
        audio = np.concatenate([_say("What time is it?"), _say("Hey assistant, what time is it?")])
        source = PacedWavSource(audio, RATE, 512, realtime=False)
        engine.listen(source, await_phrase=True)
        recorder.wait_turns(1, timeout=120)
        assert wait_until(lambda: source.input_over(0.5), 60)
        engine.stop_listening()
    finally:
        engine.close()
    answered = [r for r in recorder.results if r.transcript]
    assert len(answered) == 1  # the question alone was no turn (fed faster than real time, its look may end it late)
    result = answered[0]
    assert result.transcript.lower().startswith("what time is it")
    wake = recorder.of(EventType.WAKE)
    assert len(wake) == 1 and wake[0].turn_id == result.turn_id
    assert wake[0].data.score >= 80 and result.timeline.counts["wake_score"] == wake[0].data.score
