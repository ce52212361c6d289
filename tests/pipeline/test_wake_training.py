"""What the phrase's model is trained on: negatives that never say the phrase (for any phrase), and
nothing of the wake bench's test half (its voices, their accents and variants, its sentences), nor
the tuning half's voices, so both halves measure voices the model never heard."""

from __future__ import annotations

import pytest

from assistant.commands.bench.turn_split import FIRST_VOICES, VOICES as TURN_VOICES
from assistant.commands.bench.wake import QUESTIONS as BENCH_QUESTIONS
from assistant.commands.bench.wake import _sentences
from assistant.hear.wake import plain_letters
from assistant.pipeline import wake_training


def test_the_made_negatives_never_say_the_phrase():
    for phrase in ("hey assistant", "computer", "okay house"):
        made = wake_training.phrase_like(phrase) + wake_training.near_misses(phrase) + wake_training.phrase_amid(phrase)
        assert made and not [text for text in made if plain_letters(phrase) in plain_letters(text)]
    assert "Hey, assist again." in wake_training.near_misses("hey assistant")
    assert wake_training.near_misses("hi bob") == []  # no word long enough to cut


def test_nothing_of_the_bench_s_test_half_is_trained_on():
    trained = {v.name for v in wake_training.VOICES}
    accents = {name.split("+")[0] for name in trained}
    variants = {name.split("+")[1] for name in trained if "+" in name}
    bench = FIRST_VOICES["tune"] + FIRST_VOICES["test"] + TURN_VOICES["test"]
    assert not trained & {v.name for v in bench}  # the tuning half's voices are held out too
    test_accents = {v.name.split("+")[0] for v in FIRST_VOICES["test"]} - {v.name.split("+")[0] for v in FIRST_VOICES["tune"]}
    assert not accents & test_accents  # en-us (in both halves) is the only test-half accent trained on
    assert not variants & {v.name.split("+")[1] for v in bench if "+" in v.name}
    assert len(trained) == len(wake_training.VOICES) > 100
    heard = {plain_letters(s) for s in _sentences("test") + BENCH_QUESTIONS["test"]}
    said = (wake_training.SENTENCES + wake_training.QUESTIONS + tuple(wake_training.phrase_like("hey assistant"))
            + tuple(wake_training.phrase_amid("hey assistant")))
    assert not heard & {plain_letters(s) for s in said}


def test_a_model_is_kept_per_phrase_and_recipe():
    a, b = wake_training.model_path("hey assistant"), wake_training.model_path("Hey  Assistant")
    assert a == b and a != wake_training.model_path("computer")
    assert a.name.startswith(f"v{wake_training.VERSION}-")


def test_a_voice_this_espeak_ng_does_not_have_is_left_out_of_training():
    """Training goes on with the voices at hand (eSpeak NG's data differs between installs)."""
    voices = (wake_training.TrainingVoice("en-us", 165, 50), wake_training.TrainingVoice("zz-no-such-voice", 165, 50),
              wake_training.TrainingVoice("en-gb+m4", 170, 40))  # "en-gb" is "en" in older data: still found
    says = wake_training.espeak_voices(voices)
    assert len(says) == 2
    assert all(say("hey").size > 0 for say in says)


def test_a_training_stops_at_its_next_clip_once_the_process_exits():
    import numpy as np

    said: list[str] = []

    def say(text: str) -> np.ndarray:
        said.append(text)
        return np.zeros(8000, np.float32)

    wake_training.STOP.set()
    try:
        with pytest.raises(wake_training.TrainingStopped):
            wake_training.training_looks("hey orange lamp", [say], [], embedder=None)
    finally:
        wake_training.STOP.clear()
    assert said == []  # nothing said (nor looked at) once the exit began


def test_a_training_waits_while_someone_is_heard_or_answered_and_goes_on_after():
    import threading

    import numpy as np

    busy, said, done = threading.Event(), [], threading.Event()
    busy.set()

    def say(text: str) -> np.ndarray:
        said.append(text)
        raise wake_training.TrainingStopped  # one step is enough to see that it went on

    def train() -> None:
        try:
            wake_training.training_looks("hey orange lamp", [say], [], embedder=None)
        except wake_training.TrainingStopped:
            done.set()

    give_back = wake_training.wait_while(busy.is_set)
    try:
        thread = threading.Thread(target=train, daemon=True)
        thread.start()
        assert not done.wait(0.3) and said == []  # nothing said while a turn is on
        busy.clear()
        assert done.wait(10) and said  # then the training goes on
    finally:
        give_back()
    assert busy.is_set not in wake_training._WAIT_WHILE


def test_the_training_thread_runs_at_the_lowest_priority():
    import os
    import threading

    from assistant.pipeline.wake_start import lowest_priority

    seen = []

    def probe() -> None:
        lowest_priority()
        seen.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))

    own = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    thread = threading.Thread(target=probe)
    thread.start()
    thread.join()
    assert seen == [19]
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == own  # the caller's own is left alone


@pytest.mark.slow
def test_a_run_that_ends_while_the_phrase_trains_exits_cleanly(tmp_path, jfk_wav):
    """A short run with a phrase not trained yet ends before its model is done: the process exits
    with status 0 (native code still running on the training thread at exit aborted it, 134), and
    nothing unfinished is kept."""
    from fakes import run_assistant

    phrase = "hey orange lamp"
    run = run_assistant("chat", "--wake", phrase, "--input", jfk_wav, "--output", tmp_path / "a.wav", timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "terminate called" not in run.stderr
    assert not wake_training.model_path(phrase).exists()
