"""Near misses made from a phrase's sounds (eSpeak NG's phonemes), for any English phrase: each
changes a vowel, an onset or an ending, never only re-splits the phrase, and none is the phrase."""

from __future__ import annotations

import numpy as np

from assistant.pipeline import wake_sounds


def test_the_phrase_s_phonemes_come_from_espeak_ng():
    assert wake_sounds.phonemes("hey assistant") == ("h'eI", "a#s'Ist@nt")
    assert wake_sounds.split("a#s'Ist@nt") == ["a#", "s", "'I", "s", "t", "@", "n", "t"]


def test_near_misses_change_the_sounds_for_any_phrase():
    for phrase in ("hey assistant", "computer", "okay house", "hi bob"):
        made = wake_sounds.sound_misses(phrase)
        own = "[[" + " ".join(wake_sounds.phonemes(phrase)) + "]]"
        assert len(made) >= 8 and len(set(made)) == len(made)
        assert own not in {text.split("]]")[0] + "]]" for text in made}
        assert all(text.startswith("[[") for text in made)
    made = wake_sounds.sound_misses("hey assistant")
    for near in ("[[D'eI a#s'Ist@nt]]", "[[h'eI a#s'Ist3]]", "[[h'eI a#s'Isth3:]]", "[[h'eI a#s'IstI2d]]"):
        assert any(text.startswith(near) for text in made)  # "they assistant", "hey, a sister", "assist her", "assisted"
    assert wake_sounds.sound_misses("hey assistant") == made  # the same every time


def test_an_english_voice_speaks_the_phonemes():
    from assistant.speak.espeak import EspeakTts

    tts = EspeakTts("en-us", 170, 50)
    said = np.concatenate(list(tts.synthesize(wake_sounds.sound_misses("hey assistant")[0])))
    assert said.size > 0.5 * tts.rate


def test_nothing_of_the_bench_s_test_half_goes_on_after_a_near_miss():
    from assistant.commands.bench.wake import _sentences
    from assistant.hear.wake import plain_letters

    heard = " ".join(plain_letters(s) for s in _sentences("test"))
    assert not [words for words in wake_sounds.GOING_ON if plain_letters(words) in heard]
