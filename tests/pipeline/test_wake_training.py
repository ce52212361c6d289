"""What the phrase's model is trained on: negatives that never say the phrase (for any phrase), and
nothing of the wake bench's test half (its voices and its sentences), so the bench's test half
measures voices and sentences the model never heard."""

from __future__ import annotations

from assistant.commands.bench.turn_split import VOICES as BENCH_VOICES
from assistant.commands.bench.wake import QUESTIONS as BENCH_QUESTIONS
from assistant.commands.bench.wake import _sentences
from assistant.hear.wake import plain_letters
from assistant.pipeline import wake_training


def test_the_made_negatives_never_say_the_phrase():
    for phrase in ("hey assistant", "computer", "okay house"):
        made = wake_training.phrase_like(phrase) + wake_training.near_misses(phrase)
        assert made and not [text for text in made if plain_letters(phrase) in plain_letters(text)]
    assert "Hey, assist again." in wake_training.near_misses("hey assistant")
    assert wake_training.near_misses("hi bob") == []  # no word long enough to cut


def test_nothing_of_the_bench_s_test_half_is_trained_on():
    test_voices = {v.name for v in BENCH_VOICES["test"]}
    assert not test_voices & {v.name for v in wake_training.VOICES}
    assert {v.name for v in wake_training.VOICES} <= {v.name for v in BENCH_VOICES["tune"]}
    heard = {plain_letters(s) for s in _sentences("test") + BENCH_QUESTIONS["test"]}
    trained = wake_training.SENTENCES + wake_training.QUESTIONS + tuple(wake_training.phrase_like("hey assistant"))
    assert not heard & {plain_letters(s) for s in trained}


def test_a_model_is_kept_per_phrase_and_recipe():
    a, b = wake_training.model_path("hey assistant"), wake_training.model_path("Hey  Assistant")
    assert a == b and a != wake_training.model_path("computer")
    assert a.name.startswith(f"v{wake_training.VERSION}-")
