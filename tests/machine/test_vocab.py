"""Whether a GGUF answers in Korean, from its vocabulary: the embedded SmolLM2-135M does
not (about three tokens a syllable, as llama.cpp's own tokenizer counts), a vocabulary with
Korean in it does, byte-level and SentencePiece alike; the result is kept per file."""

from __future__ import annotations

import json

import pytest

from assistant.machine import vocab
from assistant.machine.models import ModelError, find_llm

from gguf_vocab import BYTES, KOREAN_WORDS, byte_level, korean_gguf, write_gguf


@pytest.fixture(autouse=True)
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    vocab._fit.cache_clear()
    yield
    vocab._fit.cache_clear()


def test_the_embedded_model_cannot_write_korean_compactly():
    fit = vocab.korean_fit(find_llm(None).path)
    assert not fit.speaks_korean and fit.hangul_tokens <= 2
    assert 2.5 < fit.tokens_per_syllable < 3.5


def test_the_estimate_agrees_with_llama_cpp():
    import llama_cpp

    path = find_llm(None).path
    model = llama_cpp.Llama(model_path=str(path), vocab_only=True, verbose=False)
    tokens = len(model.tokenize(vocab.SAMPLE.encode("utf-8"), add_bos=False))
    syllables = sum("\uac00" <= c <= "\ud7a3" for c in vocab.SAMPLE)
    assert vocab.korean_fit(path).tokens_per_syllable == pytest.approx(tokens / syllables, rel=0.1)


def test_a_byte_level_vocabulary_with_korean_speaks_it(tmp_path):
    korean = korean_gguf(tmp_path / "korean.gguf")
    english = write_gguf(tmp_path / "english.gguf", "gpt2", BYTES + [byte_level(w) for w in ("the", " and", "ing")])
    assert vocab.korean_fit(korean).speaks_korean and vocab.korean_fit(korean).tokens_per_syllable < 1
    assert not vocab.korean_fit(english).speaks_korean
    assert vocab.korean_fit(english).tokens_per_syllable > 3  # three bytes a syllable, and the spaces


def test_a_sentencepiece_vocabulary_with_korean_speaks_it(tmp_path):
    pieces = [f"<0x{b:02X}>" for b in range(256)] + ["\u2581" + w for w in KOREAN_WORDS] + KOREAN_WORDS
    korean = write_gguf(tmp_path / "sp.gguf", "llama", pieces)
    assert vocab.korean_fit(korean).speaks_korean
    assert vocab.korean_fit(korean).hangul_tokens > 50


def test_the_fit_is_read_once_per_file(tmp_path, monkeypatch):
    path = korean_gguf(tmp_path / "korean.gguf")
    first = vocab.korean_fit(path)
    cache = json.loads((tmp_path / "cache" / "offline-voice-assistant" / "korean-fit.json").read_text())
    assert list(cache.values()) == [{"tokens_per_syllable": first.tokens_per_syllable,
                                     "hangul_tokens": first.hangul_tokens}]
    vocab._fit.cache_clear()  # a new process: the cache file answers
    monkeypatch.setattr(vocab, "vocabulary", lambda path: pytest.fail("read again"))
    assert vocab.korean_fit(path) == first


def test_a_file_that_is_no_gguf_is_a_model_error(tmp_path):
    (tmp_path / "no.gguf").write_bytes(b"not a model at all, just some bytes")
    with pytest.raises(ModelError):
        vocab.korean_fit(tmp_path / "no.gguf")
