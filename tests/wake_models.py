"""A small model of the wake phrase for the tests: trained here from two espeak-ng voices at two
rates (as the app trains one, with fewer voices), and kept where the app looks for it (the tests'
own cache folder), so an engine or a ``chat --wake`` started by a test uses it at once and never
trains in the background."""

from __future__ import annotations

from assistant.hear.wake_model import PhraseModel, shared_embedder
from assistant.pipeline import wake_training
from assistant.writing import has_hangul

PHRASE = "hey assistant"
VOICES = (wake_training.TrainingVoice("en-us", 165, 50), wake_training.TrainingVoice("en-gb-scotland+m3", 180, 40))
KOREAN_PHRASE = "안녕 비서"
KOREAN_VOICES = (wake_training.TrainingVoice("ko", 150, 50), wake_training.TrainingVoice("ko+m3", 170, 40))


def small_model(phrase: str = PHRASE) -> PhraseModel:
    """The phrase's small model, trained on first use (a minute or two on 2 cores)."""
    path = wake_training.model_path(phrase)
    if path.is_file():
        return PhraseModel.load(path)
    voices = KOREAN_VOICES if has_hangul(phrase) else VOICES
    espeak = wake_training.espeak_voices(voices, rates=(-20, 20), pitches=(0,))
    model, counts = wake_training.train(phrase, espeak, [], shared_embedder())
    model.save(path, counts)
    return model
