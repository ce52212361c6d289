"""A long utterance's sentences settle: its end is not transcribed from its start again."""

import numpy as np
import pytest

from assistant.hear.stt import RATE, SETTLE_AFTER_S, WhisperUtterance

SENTENCE_S = 3.0


class SentenceStt:
    """Transcribes sentence ``i`` from the ``i``th 3 s of the audio it is given (counted from the
    audio's start, which a settled point moves): the words follow the audio decoded."""

    def __init__(self, agree: bool = True):
        self.decoded: list[float] = []
        self.agree = agree

    def transcribe_decoding(self, pcm: np.ndarray, beam: int | None = None) -> tuple[str, float | None, None]:
        self.decoded.append(pcm.size / RATE)
        first = int(round(pcm[0])) if pcm.size else 0  # each sentence's samples hold its number
        count = int(round(pcm.size / RATE / SENTENCE_S))
        words = [f"Sentence {first + i}." for i in range(count)]
        if not self.agree and words:
            words[0] = f"Sentence {first} (take {len(self.decoded)})."  # never the same twice
        return " ".join(words), 0.9, None


def story(utterance: WhisperUtterance, sentences: int) -> list[str]:
    said = []
    for i in range(sentences):
        utterance.feed(np.full(int(SENTENCE_S * RATE), float(i), np.float32))
        said.append(utterance.transcribe())
    return said


def test_sentences_settle_and_the_end_is_decoded_alone():
    stt = SentenceStt()
    said = story(WhisperUtterance(stt), 20)  # a minute
    assert said[-1] == " ".join(f"Sentence {i}." for i in range(20))
    assert stt.decoded[:3] == [3.0, 6.0, 9.0]  # short: decoded whole
    assert max(stt.decoded) <= SETTLE_AFTER_S + 2 * SENTENCE_S  # never the whole minute again
    assert stt.decoded[-1] < 20 * SENTENCE_S / 4


def test_words_that_change_between_transcriptions_never_settle():
    stt = SentenceStt(agree=False)
    story(WhisperUtterance(stt), 6)
    assert stt.decoded == [3.0 * (i + 1) for i in range(6)]  # each call decodes everything


@pytest.mark.slow
def test_a_spoken_story_is_transcribed_whole_with_its_end_decoded_alone(engines, monkeypatch):
    from assistant.commands.spoken import speak_question

    sentences = ["Yesterday I went to the market with my sister.", "We wanted to buy vegetables for the week.",
                 "The baker gave us a loaf of fresh bread.", "On the way home it started to rain.",
                 "We waited under a bridge for a while.", "What else could I cook with them?"]
    utterance = engines.stt.utterance()
    decoded: list[float] = []
    transcribe = engines.stt.transcribe_decoding

    def counting(pcm, beam=None):
        decoded.append(pcm.size / RATE)
        return transcribe(pcm, beam)

    monkeypatch.setattr(engines.stt, "transcribe_decoding", counting)
    text = ""
    for sentence in sentences:  # a pause after each sentence: the pipeline transcribes there
        utterance.feed(speak_question(engines.tts, sentence, lead_s=0.0, tail_s=0.4))
        text = utterance.transcribe()
    total = utterance.audio().size / RATE
    assert total > 12
    assert decoded[-1] < total / 2, decoded  # the settled sentences were not decoded again
    said = " ".join(sentences).lower().replace(".", "").replace("?", "").split()
    transcribed = text.lower().replace(".", "").replace("?", "").replace(",", "").split()
    assert said[-7:] == transcribed[-7:] and abs(len(said) - len(transcribed)) <= 2, text
