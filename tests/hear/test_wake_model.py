"""The wake phrase's own model: openWakeWord's embeddings of an utterance's start (the same numbers
whether the start is looked at alone, as part of the whole, or look after look), the logistic
regression on them (fitted, kept and read back), and the scorer the wake gate uses (the model
alone, or the model letting a look through to Whisper's probability)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from assistant.hear.wake import Spotting, Verdict, WakePhrase, wake_threshold
from assistant.config import WakeConfig
from assistant.hear.wake_model import EMBEDDINGS, ModelScorer, PhraseModel, fit

RATE = 16000


def _separable(count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Looks whose first embeddings' first numbers tell the class (plus noise everywhere)."""
    rng = np.random.default_rng(seed)
    looks = rng.standard_normal((count, EMBEDDINGS, 96)).astype(np.float32)
    labels = np.arange(count) % 2
    looks[:, :4, :8] += np.where(labels == 1, 1.0, -1.0)[:, None, None]
    return looks, labels


def test_the_regression_learns_what_tells_the_phrase_and_is_read_back_the_same(tmp_path):
    looks, labels = _separable(400, 1)
    model = fit("hey  assistant", looks, labels)
    assert model.phrase == "hey assistant"
    held, truth = _separable(40, 2)
    p = model.probability(held)
    assert (p[truth == 1] > 0.5).all() and (p[truth == 0] < 0.5).all()
    model.save(tmp_path / "m.npz", {"looks": 400})
    again = PhraseModel.load(tmp_path / "m.npz")
    assert again.phrase == "hey assistant" and np.allclose(again.probability(held), p)


def test_fitting_is_deterministic():
    looks, labels = _separable(60, 3)
    assert np.array_equal(fit("x", looks, labels).weights, fit("x", looks, labels).weights)


def test_the_model_ways_wake_on_their_own_score():
    assert wake_threshold(WakeConfig(by="model", model=40.0, probability=7.0)) == 40.0
    assert wake_threshold(WakeConfig(by="model+probability", model=40.0, probability=7.0)) == 7.0
    assert wake_threshold(WakeConfig(by="model", model=40.0), by="probability") == WakeConfig().probability
    korean = WakeConfig(phrase="안녕 비서", by="probability", probability=7.0, korean_probability=4.0)
    assert wake_threshold(korean) == 4.0 and wake_threshold(replace(korean, phrase="hey assistant")) == 7.0
    # a Korean phrase's model only gates Whisper's looks, whichever model way is chosen; an English one's decides
    assert replace(korean, by="model", korean_gate=30.0).phrase_gate() == 30.0
    assert replace(korean, by="model+probability", korean_gate=30.0).phrase_gate() == 30.0
    english = WakeConfig(phrase="hey assistant", model=40.0)
    assert english.phrase_gate() is None and replace(english, by="model+probability").phrase_gate() == 40.0
    phrase = WakePhrase("hey assistant")
    spotting = Spotting(phrase, WakeConfig(phrase="hey assistant", by="model", model=40.0))
    # a low model score after a second does not end the search (a look is cheap): only spot_s does
    assert spotting.hear("", 1.2, probability=0.1)[0] is Verdict.WAIT
    assert spotting.hear("", 1.4, probability=41.0)[0] is Verdict.WOKE
    spotting = Spotting(phrase, WakeConfig(phrase="hey assistant", by="model", model=40.0), by="probability")
    assert spotting.hear("", 1.2, probability=0.1)[0] is Verdict.MISS  # by probability: let go


class _Whisper:
    def __init__(self):
        self.looks = 0

    def score(self, pcm):
        self.looks += 1
        return 12.5

    def after_phrase(self, pcm):
        return "what time is it?"


class _Constant:
    """An embedder whose looks are all the same (the model then scores every look alike)."""

    def mel(self, pcm):
        return np.ones((max(0, (pcm.size - 512) // 160 + 1) // 8 * 8, 32), np.float32)

    def embed(self, windows):
        return np.ones((windows.shape[0], 96), np.float32)


def _model(bias: float) -> PhraseModel:
    return PhraseModel("hey assistant", np.zeros(EMBEDDINGS * 96, np.float32), np.ones(EMBEDDINGS * 96, np.float32),
                       np.zeros(EMBEDDINGS * 96, np.float32), bias)


def test_the_model_lets_a_look_through_to_whisper_only_above_its_gate():
    whisper = _Whisper()
    audio = np.zeros(RATE, np.float32)
    assert ModelScorer(_model(0.0), _Constant(), whisper).score(audio) == pytest.approx(50.0)
    assert whisper.looks == 0  # the model alone
    low = ModelScorer(_model(-3.0), _Constant(), whisper, gate=20.0)
    assert low.by == "model+probability" and low.score(audio) == 0.0 and whisper.looks == 0
    high = ModelScorer(_model(3.0), _Constant(), whisper, gate=20.0)
    assert high.score(audio) == 12.5 and whisper.looks == 1 and high.model_score > 90
    assert high.after_phrase(audio) == "what time is it?"


def test_an_utterance_s_start_has_the_same_embeddings_alone_in_the_whole_and_look_after_look():
    from assistant.hear.wake_model import Embedder, UtteranceLooks, looks_at

    embedder = Embedder()
    t = np.arange(3 * RATE) / RATE
    pcm = (0.3 * np.sin(2 * np.pi * 220 * t * (1 + t)) * (t % 0.5 < 0.3)).astype(np.float32)  # a gliding, gated tone
    whole = embedder.windows(pcm)
    looks = UtteranceLooks(embedder)
    for end in (int(0.5 * RATE), int(0.692 * RATE), int(1.3 * RATE), int(2.9 * RATE)):
        alone = embedder.look(pcm[:end])
        assert alone.shape == (EMBEDDINGS, 96)
        assert np.array_equal(alone, looks_at(whole, [end])[0])
        assert np.array_equal(alone, looks.look(pcm[:end]))
    assert np.array_equal(looks.look(pcm[100:9000]), embedder.look(pcm[100:9000]))  # another utterance: begun anew


def test_the_silence_before_an_utterance_is_worked_out_once_and_gives_what_the_models_give():
    from assistant.hear.wake_model import Embedder

    t = np.arange(2 * RATE) / RATE
    pcm = (0.3 * np.sin(2 * np.pi * 220 * t * (1 + t)) * (t % 0.5 < 0.3)).astype(np.float32)  # gaps of true silence
    kept = Embedder()
    got = kept.windows(pcm)
    assert kept._silent_mel is not None and kept._silent_embedding is not None
    plain = Embedder()  # every block and window through the models

    def mel_block(block):
        out = plain._mel.run(None, {"input": block[None]})[0]
        return out.reshape(-1, out.shape[-1])

    plain._mel_block, plain.embed = mel_block, plain._run_embedding
    assert np.array_equal(got, plain.windows(pcm))
    assert np.array_equal(kept.windows(pcm[:9000]), plain.windows(pcm[:9000]))
