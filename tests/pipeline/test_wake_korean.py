"""The Korean wake phrase's training texts (:mod:`assistant.pipeline.wake_korean`): none says the phrase,
near misses from its sounds change one letter of one syllable for a neighbour in sound, and a phrase in
Hangul is trained by Korean voices on Korean texts (an English one as before)."""

from __future__ import annotations

import numpy as np
import pytest

from assistant.hear.wake_model import UtteranceLooks, shared_embedder
from assistant.pipeline import wake_korean, wake_training
from assistant.think.hangul import distance, jamo

from wake_models import small_model

PHRASE = "안녕 비서"


def test_no_negative_says_the_phrase():
    recipe = wake_korean.korean_recipe(PHRASE)
    for text in recipe.sentences + recipe.phrase_like + recipe.near + recipe.amid + recipe.sounds:
        assert jamo(PHRASE) not in jamo(text), text
    assert "안녕하세요, 처음 뵙겠습니다." in recipe.phrase_like  # the greeting that begins like the phrase
    assert "안녕 비 그리고." in recipe.near and "안 다시." in recipe.near


def test_sound_misses_change_one_letter_for_a_neighbour():
    misses = wake_korean.sound_misses(PHRASE)
    assert 10 <= len(misses) <= wake_korean.SOUND_MISSES
    for text in misses:
        changed = text.split(" 그리고")[0].split(" 다시")[0].split(" 뭐야")[0].rstrip(".")
        assert len(changed) == len(PHRASE) and distance(jamo(changed), jamo(PHRASE)) <= 2, text
    assert "안녕 피서." in misses  # ㅂ for its aspirated kin
    said_alike = wake_korean.sound_misses("내 비서")  # ㅐ for ㅔ is the phrase as most say it: never made
    assert not any(m.startswith("네 비서") for m in said_alike)


def test_particles_follow_the_last_syllable():
    assert "비서가 여기 있어요." in wake_korean.phrase_like(PHRASE)
    assert "선생님이 여기 있어요." in wake_korean.phrase_like("안녕 선생님")
    assert "새 선생님을 뽑았어요." in wake_korean.phrase_like("안녕 선생님")
    assert wake_korean.phrase_like("비서") == () and wake_korean.phrase_amid("비서") == ()


def test_the_recipe_and_voices_follow_the_phrase_s_script():
    assert wake_training.recipe_for(PHRASE).sentences == wake_korean.SENTENCES
    assert wake_training.recipe_for("hey assistant").sentences == wake_training.SENTENCES
    assert not wake_training.recipe_for(PHRASE).sounds_need_phonemes  # Korean near misses are text
    voices = wake_training.korean_voices()
    assert len(voices) == len(wake_training.VARIANTS) and all(v.name.startswith("ko") for v in voices)
    assert len({(v.rate, v.pitch) for v in voices}) == len(voices)


@pytest.mark.slow
def test_a_small_korean_model_takes_the_phrase_by_another_voice():
    """Trained from two Korean voices at two rates (as the wake sets' tool trains the full one): the phrase by
    a third voice is taken, a question without it is not."""
    model = small_model(PHRASE)
    (say,) = wake_training.espeak_voices((wake_training.TrainingVoice("ko+f2", 130, 60),), rates=(0,), pitches=(0,))
    looks, pcm_of = UtteranceLooks(shared_embedder()), lambda text: np.concatenate([np.zeros(4800, np.float32), say(text),
                                                                                     np.zeros(32000, np.float32)])

    def best(text: str) -> float:
        pcm = pcm_of(text)
        ends = range(4800 + 8000, 4800 + 36800, 1536)
        return max(100 * float(model.probability(looks.look(pcm[:end])[None])[0]) for end in ends)

    assert best("안녕 비서.") >= 80 > best("지금 몇 시야?")
