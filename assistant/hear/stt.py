"""Speech to text: faster-whisper on the segment, vosk streaming partials.

An engine is loaded once; each utterance gets an :class:`Utterance` that is fed audio
as the user speaks and asked for the transcript at the endpoint.
"""

from __future__ import annotations

import logging
import math
import re
from pathlib import Path
from typing import Protocol

import numpy as np

from assistant.config import SttConfig, chosen
from assistant.errors import SttError, installed
from assistant.languages import MISHEARD_LANGUAGES, likely_misheard
from assistant.hear.transcript_guard import carries_on, guarded, stopped_early
from assistant.hear.second_look import Decoding, Look, hint_words, mean_log_probability
from assistant.hear.word_odds import last_word_probability, least_word_probability, token_probabilities
from assistant.hear.vosk_stt import VoskStt
from assistant.machine.models import ModelError, find_whisper
from assistant.sound import audible_s

log = logging.getLogger(__name__)

RATE = 16000
TOKENS_PER_S = 8
"""Whisper decodes at most this many tokens per second of audio (plus 16), so a loop
ends soon instead of running to the window's limit."""


class Utterance(Protocol):
    def feed(self, pcm: np.ndarray) -> str | None:
        """Add audio; return a new partial transcript if the engine has one."""

    def transcribe(self) -> str:
        """The transcript of all audio fed so far."""

    last_word_p: float | None
    """The recognizer's probability of the last word of the latest transcript (None: unknown)."""
    least_word_p: float | None
    """...and of its least sure word (None: unknown)."""


class Stt(Protocol):
    name: str
    streaming: bool
    punctuates: bool
    """The transcripts end sentences with . ? ! (Whisper does, vosk does not)."""
    """True when partials arrive while the user speaks."""

    def utterance(self) -> Utterance: ...


BEAM_SIZES = {"ko": 5}
"""Whisper's beam per language when ``stt.beam_size`` is unset (else greedy): docs/korean-stt.md."""


def whisper_devices() -> list[tuple[str, str]]:
    """(device, compute type) to try in order: the GPU first when CTranslate2 sees CUDA."""
    from assistant.machine.hardware import whisper_cuda_devices

    cpu = [("cpu", "int8")]
    return [("auto", "int8_float16"), *cpu] if whisper_cuda_devices() > 0 else cpu


class WhisperStt:
    """faster-whisper (CTranslate2, int8 on CPU). Greedy decoding, no timestamps:
    the fastest settings that keep tiny.en accurate on short commands (Korean: a beam of
    :data:`BEAM_SIZES`, and a second look with the skills' words)."""

    streaming = False
    punctuates = True

    def __init__(self, config: SttConfig, model_dir: Path | None = None):
        WhisperModel = installed("faster_whisper", "faster-whisper", SttError).WhisperModel
        self.config = config
        self.beam_size = config.beam_size or BEAM_SIZES.get(config.language, 1)
        path = model_dir or find_whisper(config.whisper_model, config.language).path
        self.name = f"whisper ({path.name if path.name != 'model' else 'tiny.en'})"
        failures = []
        for device, compute_type in whisper_devices():
            try:
                self._model = WhisperModel(
                    str(path), device=device, compute_type=compute_type, cpu_threads=config.threads, num_workers=1
                )
                self._multilingual = bool(getattr(self._model.model, "is_multilingual", False))
                self._short_window_setup()
                self.transcribe_array(np.zeros(RATE // 2, np.float32))  # warm-up: first call allocates
                break
            except (RuntimeError, ValueError, OSError) as exc:  # e.g. CUDA present but cuBLAS/cuDNN missing
                log.warning("Whisper on %s failed: %s", device, exc)
                failures.append(f"{device}: {exc}")
        else:
            raise ModelError(f"cannot load the Whisper model at {path}: {'; '.join(failures)}")

    def _short_window_setup(self) -> None:
        from faster_whisper.tokenizer import Tokenizer

        self._tokenizer = Tokenizer(
            self._model.hf_tokenizer, self._multilingual, task="transcribe",
            language=self.config.language if self._multilingual else None,
        )
        self._prompt = [*self._tokenizer.sot_sequence, self._tokenizer.no_timestamps]
        self._timestamped = list(self._tokenizer.sot_sequence)
        """The prompt with timestamps: read only where the plain reading stopped early (:func:`stopped_early`)."""
        hints = hint_words(self.config.hint_words, self.config.language if self._multilingual else "en")
        # a second look's prompt: the hint words as text said before (none: no second look)
        self._hinted_prompt = [self._tokenizer.sot_prev, *self._tokenizer.encode(" " + hints), *self._prompt] if hints else []
        self.looks_again = bool(self._hinted_prompt)
        """Whether an utterance no skill took is read again with the hint words."""

    def transcribe_array(self, pcm: np.ndarray) -> str:
        return self.transcribe_scored(pcm)[0]

    def transcribe_scored(self, pcm: np.ndarray) -> tuple[str, float | None]:
        """The transcript and Whisper's probability of its last word (None when unknown:
        no words, or audio long enough to be decoded in 30 s windows)."""
        return self.transcribe_decoding(pcm)[:2]

    def transcribe_decoding(self, pcm: np.ndarray, beam: int | None = None) -> tuple[str, float | None, Decoding | None]:
        """:meth:`transcribe_scored` (with ``beam``, else :attr:`beam_size`), and what a
        second look needs (None for no words or audio decoded in 30 s windows)."""
        if pcm.size < RATE // 10:
            return "", None, None
        pcm = pcm.astype(np.float32, copy=False)
        seconds = pcm.size / RATE
        window = max(self.config.window_s, math.ceil(seconds + 1.0))
        if window >= 30:
            return self._transcribe_long(pcm), None, None
        return self._transcribe_window(pcm, window, beam or self.beam_size)

    def _encode(self, pcm: np.ndarray, window: int):
        import ctranslate2

        frames = window * 100
        features = self._model.feature_extractor(pcm, padding=window * RATE - pcm.size)[:, :frames]
        if features.shape[1] < frames:
            features = np.pad(features, ((0, 0), (0, frames - features.shape[1])))
        features = ctranslate2.StorageView.from_array(np.ascontiguousarray(features[None], dtype=np.float32))
        return self._model.model.encode(features, to_cpu=False)

    def _generate(self, encoded, prompt: list[int], beam_size: int, window: int, seconds: float):
        """CTranslate2's result; ``prompt`` beyond the plain one, and timestamps, are not counted in the decoding limit."""
        return self._model.model.generate(
            encoded, [prompt], beam_size=beam_size,
            max_length=max(0, len(prompt) - len(self._prompt)) + min(224, 12 * window, 16 + math.ceil(TOKENS_PER_S * seconds))
            + (2 * math.ceil(seconds) if prompt is self._timestamped else 0),  # a segment's two timestamps a second at most
            return_no_speech_prob=True, return_logits_vocab=beam_size == 1, suppress_blank=True, suppress_tokens=[-1],
        )[0]

    def _transcribe_window(self, pcm: np.ndarray, window: int, beam: int) -> tuple[str, float | None, Decoding | None]:
        """One utterance in a short encoder window.

        Whisper always encodes 30 s (speech + silence padding); the encoder's cost
        grows with the window, and a short command in a window of a few seconds with
        at least a second of padded silence transcribes the same words 4-5x faster.
        """
        encoded = self._encode(pcm, window)
        seconds = pcm.size / RATE
        tokens, text, odds = self._read(encoded, self._prompt, beam, window, seconds)
        if stopped_early(text, audible_s(pcm, RATE)):  # read on with timestamps, which go past a pause
            more = self._read(encoded, self._timestamped, beam, window, seconds)
            if carries_on(text, more[1]):
                log.info("the words went on after %r: %r", text, more[1])
                tokens, text, odds = more
        if not text:
            return "", None, None
        pieces = [self._tokenizer.decode([t]) for t in tokens]
        if odds is None:  # a beam search returns no scores per step: the decoder's pass over the words it chose
            odds = probabilities = self._token_probabilities(encoded, tokens, seconds)
        else:  # the decoder's scores at each step (kept as the odds; a second look aligns its own)
            probabilities = None
        return (text, last_word_probability(pieces, odds),
                Decoding(encoded, tokens, text, window, seconds, probabilities, pieces, list(odds)))

    def _read(self, encoded, prompt: list[int], beam: int, window: int, seconds: float
              ) -> tuple[list[int], str, list[float] | None]:
        """The words' tokens, their text (guarded) and, greedy, each token's probability from the
        decoder's scores (timestamps, where the prompt asks for them, left out)."""
        result = self._generate(encoded, prompt, beam, window, seconds)
        chosen = result.sequences_ids[0]
        words = [step for step, token in enumerate(chosen) if token < self._tokenizer.eot]
        tokens = [chosen[step] for step in words]
        odds = None
        if beam == 1:
            every = token_probabilities(chosen, result.logits[0])
            odds = [every[step] for step in words if step < len(every)]
        return tokens, guarded(self._tokenizer.decode(tokens), seconds, result.no_speech_prob), odds

    def _token_probabilities(self, encoded, tokens: list[int], seconds: float) -> list[float]:
        """Each token's probability under the plain prompt (the decoder run over ``tokens``, not empty)."""
        result = self._model.model.align(encoded, self._prompt, [tokens], max(1, int(seconds * 100)))[0]
        return list(result.text_token_probs)

    def second_look(self, decoding: Decoding | None) -> Look | None:
        """The audio of ``decoding`` read again with the hint words before it (greedy, on its encoder
        output), with its support (:class:`~assistant.hear.second_look.Look`); None: nothing read, or, where words
        are taken as misheard (English), a reading that would not be: the model answers it as heard. (Whisper tiny.en
        hears most English sure of its words, and a look (50-80 ms) made beside the model's reading of the first
        words still slowed that reading by 50-100 ms on two cores: docs/skills.md, "A second look in English".)"""
        if decoding is None or not self._hinted_prompt:
            return None
        language, below = self.config.language, self.config.misheard_below
        if language in MISHEARD_LANGUAGES and not likely_misheard(decoding.least_word_p, below, language):
            return None
        result = self._generate(decoding.encoded, self._hinted_prompt, 1, decoding.window, decoding.seconds)
        tokens = [t for t in result.sequences_ids[0] if t < self._tokenizer.eot]
        text = guarded(self._tokenizer.decode(tokens), decoding.seconds, result.no_speech_prob)
        if not text:
            return None
        if tokens == decoding.tokens:
            return Look(text, 0.0)
        plain = decoding.encoded, decoding.tokens, decoding.seconds
        first = mean_log_probability(decoding.probabilities or self._token_probabilities(*plain))
        second = mean_log_probability(self._token_probabilities(decoding.encoded, tokens, decoding.seconds))
        return Look(text, round(second - first, 3))

    def _transcribe_long(self, pcm: np.ndarray) -> str:
        segments, _info = self._model.transcribe(
            pcm,
            language=self.config.language if self._multilingual else None,
            beam_size=self.beam_size,
            temperature=0.0,
            without_timestamps=True,
            condition_on_previous_text=False,
            vad_filter=False,
        )
        # Whisper's own rule: a segment is silence when it is likely no speech and decoded unsurely.
        kept = [
            guarded(segment.text.strip(), segment.end - segment.start,
                    segment.no_speech_prob if segment.avg_logprob < -1.0 else 0.0)
            for segment in segments
        ]
        return " ".join(text for text in kept if text)

    def utterance(self) -> "WhisperUtterance":
        return WhisperUtterance(self)


SETTLE_AFTER_S = 8.0
"""An utterance longer than this is transcribed from its last settled sentence on."""
SETTLED_TAIL_S = 2.0
"""...and a sentence settles only with at least this much speech after it."""
_SENTENCE_END = re.compile(r"[.?!]$")


class WhisperUtterance:
    """Whisper has no streaming mode: each transcription decodes the utterance again.

    A long one (a story, a dictated note) would cost seconds at its end, when the user
    waits. Its sentences settle instead, as whisper_streaming's local agreement does: a
    transcription at a pause that ends a sentence is kept once the next one (of more audio)
    begins with the same words, and later transcriptions decode only the audio after it.
    """

    def __init__(self, stt: WhisperStt):
        self._stt = stt
        self._chunks: list[np.ndarray] = []
        self.last_word_p: float | None = None
        """Whisper's probability of the last word of the latest transcript."""
        self._settled_samples = 0
        self._settled_text = ""
        """The audio before ``_settled_samples`` is transcribed for good: these words."""
        self._checkpoints: list[tuple[int, str]] = []
        """(samples, the words of the audio from the settled point to there) of earlier calls."""
        self._decoding: Decoding | None = None
        """The latest transcription's encoder output and tokens, for a second look."""
        self._hurried = False

    def feed(self, pcm: np.ndarray) -> None:
        self._chunks.append(pcm)
        return None

    def audio(self) -> np.ndarray:
        return np.concatenate(self._chunks) if self._chunks else np.zeros(0, np.float32)

    @property
    def least_word_p(self) -> float | None:
        """Whisper's probability of the least sure word of the latest transcription (of the
        words after the settled sentences of a long utterance; None: unknown)."""
        return self._decoding.least_word_p if self._decoding is not None else None

    def least_word_p_after(self, chars: int) -> float | None:
        """:attr:`least_word_p` of the words from character ``chars`` of the latest transcription
        on (those after a wake phrase it began with; None: unknown, or none)."""
        decoding = self._decoding
        if decoding is None or self._settled_text:
            return self.least_word_p
        decode = self._stt._tokenizer.decode
        start = next((k for k in range(len(decoding.tokens)) if len(decode(decoding.tokens[: k + 1]).strip()) > chars),
                     len(decoding.tokens))
        return least_word_probability(decoding.pieces[start:], decoding.odds[start:])

    def hurry(self) -> None:
        """The user waits for what comes next (the endpoint came): greedy, no second look."""
        self._hurried = True

    def transcribe(self) -> str:
        pcm = self.audio()
        start = self._settled_samples
        tail, self.last_word_p, self._decoding = self._stt.transcribe_decoding(pcm[start:], 1 if self._hurried else None)
        text = f"{self._settled_text} {tail}".strip()
        self._settle(start, pcm.size, tail)
        return text

    def second_look(self) -> Look | None:
        """The latest reading's audio read again with the hint words (None: none, settled, or hurried)."""
        if self._settled_text or self._decoding is None or self._hurried:
            return None
        return self._stt.second_look(self._decoding)

    def _settle(self, start: int, end: int, words: str) -> None:
        """Keep for good the latest earlier transcription that ended a sentence and that
        this one (``words`` of the audio from ``start`` to ``end``) begins with."""
        if end - start >= SETTLE_AFTER_S * RATE:
            for samples, earlier in reversed(self._checkpoints):
                if end - samples >= SETTLED_TAIL_S * RATE and _SENTENCE_END.search(earlier) and words.startswith(earlier):
                    self._settled_samples = samples
                    self._settled_text = f"{self._settled_text} {earlier}".strip()
                    self._checkpoints = [(s, w[len(earlier) :].strip()) for s, w in self._checkpoints
                                         if s > samples and w.startswith(earlier)]
                    words = words[len(earlier) :].strip()
                    break
        self._checkpoints.append((end, words))


def load_stt(config: SttConfig) -> Stt:
    return chosen(config, "engine", {"whisper": WhisperStt, "vosk": VoskStt}, SttError)
