"""The wake phrase scored by the recognizer itself: Whisper's probability of the phrase given the audio.

The phrase's tokens are forced after Whisper's usual start (start of transcript, language, no
timestamps) on the start of an utterance, and the probability Whisper gives each is read off
(CTranslate2's ``align``, the pass faster-whisper runs for word timestamps). A voice Whisper
mishears still makes the phrase likely ("Can you see it's done?" written for "Hey assistant"
leaves the phrase at 0.05-0.15 a token), while speech that is not the phrase leaves it near 0.001:
a far wider gap than between the letters of a misheard transcript and the phrase's.

The score is the geometric mean of the phrase's token probabilities, the best of a few spellings
(" Hey assistant", " Hey, assistant", ...), as 0-100. One look costs an encoder pass and one
decoder pass over the phrase (no decoding loop); the words are decoded only once it is heard.
"""

from __future__ import annotations

import math

import numpy as np

RATE = 16000


def spellings(phrase: str) -> list[str]:
    """The ways Whisper may write the phrase at the start of a transcript (a space first, as
    its first token has one): as given, capitalised, title case, a comma after the first word."""
    words = phrase.split()
    if not words:
        return []
    first, rest = words[0], words[1:]
    forms = [" ".join(words), " ".join([first.capitalize(), *rest]), " ".join(w.capitalize() for w in words)]
    if rest:
        forms += [f"{first.capitalize()}, {' '.join(rest)}", f"{first.capitalize()}, {' '.join(w.capitalize() for w in rest)}"]
    return list(dict.fromkeys(f" {form}" for form in forms))


def geometric_mean(probs) -> float:
    probs = [max(float(p), 1e-12) for p in probs]
    return math.exp(sum(math.log(p) for p in probs) / len(probs)) if probs else 0.0


class PhraseProbability:
    """Whisper's probability of ``phrase`` at the start of some audio (``stt``: a loaded
    :class:`~assistant.hear.stt.WhisperStt`)."""

    by = "probability"
    """How this scorer tells the phrase (``wake.by``)."""

    def __init__(self, stt, phrase: str, prompted: bool = False):
        self.stt = stt
        model = stt._model
        self._model = model
        self._prompt = list(stt._prompt)
        if prompted:  # the phrase as the text before, as faster-whisper's initial_prompt puts it
            words = " ".join(phrase.split())
            self._prompt = [stt._tokenizer.sot_prev, *stt._tokenizer.encode(f" {words[:1].upper()}{words[1:]}."), *self._prompt]
        self.spellings = spellings(phrase)
        self.tokens = [stt._tokenizer.encode(text) for text in self.spellings]
        self.likeliest = 0
        """The spelling that scored best at the latest look."""
        self._encoded: tuple[int, np.ndarray] | None = None
        """(samples, the encoder's output) of the latest look: its words are decoded from it."""
        self.least_word_p: float | None = None
        """Whisper's probability of the least sure word :meth:`after_phrase` last decoded (None: unknown)."""

    def encode(self, pcm: np.ndarray):
        """The encoder's output for ``pcm`` in the short window :class:`WhisperStt` uses."""
        import ctranslate2

        window = max(self.stt.config.window_s, math.ceil(pcm.size / RATE + 1.0))
        frames = window * 100
        features = self._model.feature_extractor(pcm.astype(np.float32, copy=False),
                                                 padding=window * RATE - pcm.size)[:, :frames]
        if features.shape[1] < frames:
            features = np.pad(features, ((0, 0), (0, frames - features.shape[1])))
        return self._model.model.encode(
            ctranslate2.StorageView.from_array(np.ascontiguousarray(features[None], dtype=np.float32)), to_cpu=True)

    def token_probs(self, encoded, samples: int) -> list[list[float]]:
        """Each spelling's token probabilities, forced after the start of transcript."""
        import ctranslate2

        batch = ctranslate2.StorageView.from_array(np.ascontiguousarray(np.repeat(np.asarray(encoded), len(self.tokens), axis=0)))
        results = self._model.model.align(batch, self._prompt, self.tokens, [max(1, samples // 160)] * len(self.tokens))
        return [list(result.text_token_probs) for result in results]

    def score(self, pcm: np.ndarray) -> float:
        """0-100: the phrase's probability (geometric mean over its tokens, best spelling)."""
        if pcm.size < RATE // 10:
            return 0.0
        encoded = self.encode(pcm)
        self._encoded = (pcm.size, np.array(encoded))  # a copy: no CTranslate2 storage outlives the look
        means = [geometric_mean(p) for p in self.token_probs(encoded, pcm.size)]
        self.likeliest = int(np.argmax(means))
        return round(100 * means[self.likeliest], 2)

    def __call__(self, pcm: np.ndarray) -> float:
        return self.score(pcm)

    def after_phrase(self, pcm: np.ndarray) -> str:
        """What was said after the phrase: the phrase forced at the start, Whisper decodes on from
        it (the words of a voice it mishears: "Can you see it's done? What is the weather like?"
        becomes "what is the weather like?"); the latest look's encoding is used again where this is
        its audio. '' for audio too long for one window."""
        from assistant.hear.stt import TOKENS_PER_S
        from assistant.hear.transcript_guard import guarded
        from assistant.hear.word_odds import least_word_probability, token_probabilities

        seconds = pcm.size / RATE
        self.least_word_p = None
        if seconds + 1.0 >= 30:
            return ""
        window = max(self.stt.config.window_s, math.ceil(seconds + 1.0))
        forced = self.tokens[self.likeliest]
        if self._encoded and self._encoded[0] == pcm.size:
            import ctranslate2

            encoded = ctranslate2.StorageView.from_array(self._encoded[1])
        else:
            encoded = self.encode(pcm)
        result = self._model.model.generate(
            encoded, [self._prompt + forced], beam_size=1,
            max_length=min(224, 12 * window, 16 + len(forced) + math.ceil(TOKENS_PER_S * seconds)),
            return_no_speech_prob=True, return_logits_vocab=True, suppress_blank=True, suppress_tokens=[-1])[0]
        chosen = result.sequences_ids[0]
        odds = token_probabilities(chosen, result.logits[0])
        words = [step for step, token in enumerate(chosen) if token < self.stt._tokenizer.eot]
        if [chosen[step] for step in words[: len(forced)]] == forced:  # the result may hold the forced prefix
            words = words[len(forced):]
        tokens = [chosen[step] for step in words]
        pieces = [self.stt._tokenizer.decode([token]) for token in tokens]
        self.least_word_p = least_word_probability(pieces, [odds[step] for step in words if step < len(odds)])
        text = guarded(self.stt._tokenizer.decode(tokens), seconds)
        return text.lstrip(" ,.!?;:-")


def phrase_scorer(stt, config) -> PhraseProbability | None:
    """The scorer for ``wake.by = probability`` where it can work (and the words after the phrase for
    the model ways): a Whisper recognizer that can write the phrase (an English-only Whisper cannot
    write a Korean phrase: letters it is)."""
    from assistant.hear.stt import WhisperStt

    if config.by == "letters" or not config.phrase.strip() or not isinstance(stt, WhisperStt):
        return None
    if not stt._multilingual and not config.phrase.isascii():
        return None
    return PhraseProbability(stt, config.phrase, prompted=config.prompted)
