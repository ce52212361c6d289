"""Training the wake phrase's own model (``wake.by = model`` or ``model+probability``), offline, when
the phrase is first chosen; the model is kept per phrase in the cache folder.

Positives are the phrase said by the voices at hand: 126 espeak-ng voices (three English accents with
many of espeak-ng's variants, and other languages' voices reading the English, for accents no English
voice has), each at its own rate and pitch, and the Piper voice (steady, and with its random
variation): alone, with a question in one breath, and with a pause before the question. Negatives are
speech that never says the phrase, by the same voices: everyday sentences, and sentences made from the
phrase's own words (each word alone, the first word before other words, the last words after others:
"Hey, where is my phone?", "The assistant is here."), near misses, and the phrase cut before its end
(a look that has not heard it all is not the phrase), and near misses made from the phrase's sounds
(:mod:`.wake_sounds`, by the English voices). Every clip is also heard under noise, quieter,
faster or slower, and with another sentence over it.

Each clip is looked at as the engine looks at an utterance's start (its first 0.5-2.3 s, every
96 ms), and each look labelled: the phrase just heard (its end within the look, up to 0.7 s
before the look's end), or not the phrase (the negatives, and looks ending before the phrase
does). None of the wake bench's voices (docs/wake.md) is trained on, of either half, nor the test
half's accents or sentences: its tuning half measures voices the model never heard, as its test half
does.

A phrase in Hangul is trained the same way by eSpeak NG's Korean voice with the same variants, on Korean
texts (:mod:`.wake_korean`), for the wake sets' tool: the app tells a Korean phrase by Whisper's
probability (docs/wake.md).
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from assistant.hear.wake_model import Embedder, PhraseModel, fit, looks_at, shared_embedder
from assistant.pipeline.wake_texts import (  # noqa: F401 - the English texts, read here by the tests too
    AMID_PER_VOICE, QUESTIONS, SENTENCES, SOUNDS_PER_VOICE, Recipe, english_recipe, near_misses, phrase_amid, phrase_like)
from assistant.pipeline.wake_korean import korean_recipe
from assistant.resources import cache_dir
from assistant.sound import first_audible_s, last_audible_s, resample
from assistant.writing import has_hangul

log = logging.getLogger(__name__)

RATE = 16000
VERSION = 4
"""Of the training recipe: a model trained by another is trained again."""


@dataclass(frozen=True)
class TrainingVoice:
    name: str
    rate: int
    pitch: int


ACCENTS = ("en-us", "en-gb", "en-gb-scotland")
"""The English espeak-ng accents trained on: none that only the wake bench's test half has (en-gb-x-rp,
en-029, en-us-nyc, en-gb-x-gbcwmd, en-gb-x-gbclan); en-us is in both halves (not their voices)."""
VARIANTS = ("", "m1", "m4", "m8", "f5", "klatt", "klatt3", "adam", "Alex", "Alicia", "Denis", "Hugo", "Jacky",
            "Michael", "Mike", "anika", "aunty", "benjamin", "boris", "caleb", "ed", "edward", "grandma", "grandpa",
            "ian", "john", "linda", "max", "norbert", "paul", "quincy", "rob", "robert", "shelby", "steph", "travis",
            "victor", "zac")
"""espeak-ng's voice variants trained on: none that a bench half uses (the wake bench's f1-f4, m2, m3, m5-m7,
the turn corpus's Andy, Annie, Gene, Lee, belinda, david)."""
LANGUAGES = ("de", "fr", "es", "it", "nl", "pt", "pl", "sv", "hi", "cy", "af", "ru", "ro", "cs", "hu", "fi", "da",
             "nb", "tr", "el", "id", "sw", "ga", "is")
"""Other languages' espeak-ng voices reading the English text (each twice: plain and with a variant):
English said with the sounds and rhythm of another language, accents no English voice has."""
MORE_LANGUAGES = ("es-419", "pt-br", "hr", "sk", "sl", "lv", "lt", "et", "eu", "ca", "mt", "sq", "bg", "uk", "ta",
                  "bn", "ur", "ms", "fr-be", "gd", "lb", "eo", "ia", "haw", "mi", "kn", "ml", "mr", "ne", "pa", "gu",
                  "te", "vi", "az", "ka", "hy", "kk", "uz", "tn", "om")
"""... and once each (with a variant every other language)."""


def _spread(index: int) -> tuple[int, int]:
    """A voice's rate (130-204 words a minute) and pitch (30-74), spread over the voices by fixed steps."""
    return 130 + (index * 37) % 75, 30 + (index * 23) % 45


def _voice(name: str, variant: str, index: int) -> TrainingVoice:
    return TrainingVoice(name + (f"+{variant}" if variant else ""), *_spread(index))


def training_voices() -> tuple[TrainingVoice, ...]:
    """The espeak-ng voices trained on (126): every third of the English accents × variants, and the
    other languages' voices."""
    english = [_voice(accent, variant, a * 41 + v) for a, accent in enumerate(ACCENTS)
               for v, variant in enumerate(VARIANTS) if accent != "en-us" or variant]
    others = [_voice(language, VARIANTS[1 + (i * 7) % (len(VARIANTS) - 1)] if k else "", 200 + i * 5 + k)
              for i, language in enumerate(LANGUAGES) for k in (0, 1)]
    more = [_voice(language, VARIANTS[1 + (i * 11) % (len(VARIANTS) - 1)] if i % 2 else "", 400 + i * 3)
            for i, language in enumerate(MORE_LANGUAGES)]
    return tuple(english[::3] + others + more)


def korean_voices() -> tuple[TrainingVoice, ...]:
    """eSpeak NG's Korean voice with each variant of the English training, each at its own rate and pitch
    (a phrase in Hangul: :mod:`.wake_korean`)."""
    return tuple(_voice("ko", variant, 300 + i) for i, variant in enumerate(VARIANTS))


def recipe_for(phrase: str) -> Recipe:
    """The training's texts: Korean for a phrase in Hangul, else English."""
    return korean_recipe(phrase) if has_hangul(phrase) else english_recipe(phrase)


VOICES = training_voices()
"""Not the wake bench's voices, of either half: its tuning half measures voices the model never heard too."""
PIPER_DRAWS = 5
"""Piper says each positive this many times with its random variation (and once steady)."""
LOOK_FROM_S, LOOK_TO_S, LOOK_EVERY_S = 0.5, 2.3, 0.096
LEADS_S = (0.1, 0.2, 0.3)
"""Audio before the first sound, as the endpointer's pre-roll keeps it."""
HEARD_UP_TO_S = 0.7
"""A look that ends this long after the phrase still counts as the phrase heard."""
EARLY_S = 0.25
"""A look ending this much before the phrase does is a negative (the phrase not heard yet)."""

Say = Callable[[str], np.ndarray]


def model_path(phrase: str) -> Path:
    words = " ".join(phrase.casefold().split())
    return cache_dir() / "wake-models" / f"v{VERSION}-{hashlib.sha1(words.encode()).hexdigest()[:12]}.npz"


_TRAINING = threading.Lock()
"""One training at a time in a process (two engines that want the same phrase train it once)."""

STOP = threading.Event()
"""Set as the process exits: a training still under way stops at its next clip (:mod:`.wake_start`)."""


class TrainingStopped(Exception):
    """The process is exiting: the phrase's model is not finished (nothing is kept)."""


WAIT_POLL_S = 0.05
"""How often a waiting training looks again whether it may go on."""
_WAIT_WHILE: list[Callable[[], bool]] = []
"""While any of these says so (an engine is hearing or answering someone), a training waits at its next step."""


def wait_while(busy: Callable[[], bool]) -> Callable[[], None]:
    """A training waits at its next step (a clip said or looked at: well under a second) while ``busy()``
    is true: a turn's latency is the product's point, the training has minutes (on two cores, a training
    beside a turn made it heard about 120 ms later). Returns what takes ``busy`` back."""
    _WAIT_WHILE.append(busy)

    def done() -> None:
        if busy in _WAIT_WHILE:
            _WAIT_WHILE.remove(busy)
    return done


def _go_on() -> None:
    while True:
        if STOP.is_set():
            raise TrainingStopped
        if not any(busy() for busy in list(_WAIT_WHILE)):
            return
        STOP.wait(WAIT_POLL_S)


def phrase_model(phrase: str, piper=None, embedder: Embedder | None = None) -> PhraseModel:
    """The phrase's model: read from the cache folder, else trained now (and kept there)."""
    with _TRAINING:
        return _phrase_model(phrase, piper, embedder)


def _phrase_model(phrase: str, piper, embedder: Embedder | None) -> PhraseModel:
    path = model_path(phrase)
    if path.is_file():
        try:
            return PhraseModel.load(path)
        except (OSError, ValueError, KeyError) as exc:
            log.warning("the wake phrase model %s cannot be read (%s): training it again", path, exc)
    clock, cpu = time.perf_counter(), time.process_time()
    korean = has_hangul(phrase)  # Korean: eSpeak NG's Korean voices (Piper's is English)
    espeak = espeak_voices(korean_voices() if korean else VOICES)
    model, counts = train(phrase, espeak, [] if korean else piper_voice(piper), embedder or shared_embedder())
    seconds, cpu = round(time.perf_counter() - clock, 1), round(time.process_time() - cpu, 1)
    model.save(path, {**counts, "seconds": seconds, "cpu_seconds": cpu, "version": VERSION})
    log.info("wake phrase model for %r trained in %.1f s (%s)", phrase, seconds, counts)
    return model


def _trimmed(pcm: np.ndarray) -> np.ndarray:
    start, end = first_audible_s(pcm, RATE), last_audible_s(pcm, RATE)
    if start is None or end is None:
        return pcm[:0]
    return pcm[int(start * RATE) : int(end * RATE) + 1]


def espeak_voices(voices=VOICES, rates=(0,), pitches=(0,)) -> list[Say]:
    """Every training voice at every rate and pitch step about its own (espeak-ng's library, in memory)."""
    from assistant.speak.espeak import EspeakError, EspeakTts

    says = []
    for voice in voices:
        for rate in rates:
            for pitch in pitches:
                tts = _espeak(EspeakTts, EspeakError, voice.name, voice.rate + rate, voice.pitch + pitch)
                if tts is not None:
                    says.append(_say(tts.synthesize, tts.rate, 0.7))
                    says[-1].phonemes = voice.name.startswith("en")  # it speaks English phonemes
    return says


def _espeak(make, error, name: str, rate: int, pitch: int):
    """An eSpeak NG voice, or None where this eSpeak NG's data has no such voice (it is left out)."""
    for candidate in dict.fromkeys((name, name.replace("en-gb", "en", 1))):  # older data: British English is "en"
        try:
            return make(candidate, rate, pitch)
        except error:
            continue
    log.info("eSpeak NG has no voice %s here: the phrase model is trained without it", name)
    return None


def piper_voice(tts) -> list[Say]:
    """The Piper voice, steady and ``PIPER_DRAWS`` draws of its random variation (none without one)."""
    if tts is None or not hasattr(tts, "steady"):
        return []
    return [_say(tts.steady, tts.rate, 0.8)] + [_say(tts.synthesize, tts.rate, 0.8) for _ in range(PIPER_DRAWS)]


def _say(speak, rate: int, peak: float) -> Say:
    def say(text: str) -> np.ndarray:
        pcm = resample(np.concatenate(list(speak(text)) or [np.zeros(0, np.float32)]), rate, RATE)
        pcm = _trimmed(pcm)
        return pcm * (peak / (float(np.abs(pcm).max()) or 1.0))
    return say


def _noise(samples: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    white = rng.standard_normal(samples + RATE)
    pink = np.convolve(white, np.exp(-np.arange(64) / 12.0), mode="same")[RATE:]
    return (pink / np.sqrt(np.mean(pink**2))).astype(np.float32)


def variants(pcm: np.ndarray, seed: int, other: np.ndarray) -> list[tuple[np.ndarray, float]]:
    """The clip as heard (each with its speed factor): clean, and two of: under noise (10 or 20 dB
    down), quieter, faster or slower, a second voice (``other``) 6 dB down over it."""
    rng = np.random.default_rng(seed)
    level = float(np.sqrt(np.mean(pcm[np.abs(pcm) > 0.01] ** 2))) if np.any(np.abs(pcm) > 0.01) else 0.1
    out = [(pcm, 1.0)]
    for kind in rng.choice(5, size=2, replace=False):
        if kind == 0:
            out.append((pcm + _noise(pcm.size, seed) * level * rng.choice([0.1, 0.32]), 1.0))
        elif kind == 1:
            out.append((pcm * rng.uniform(0.15, 0.5), 1.0))
        elif kind in (2, 3):
            speed = 1.12 if kind == 2 else 0.88
            out.append((resample(pcm, RATE, int(RATE / speed)), speed))
        else:
            mixed = pcm.copy()
            end = min(mixed.size, other.size)
            mixed[:end] += 0.5 * other[:end]
            out.append((mixed, 1.0))
    return out


def _looks(embedder: Embedder, clip: np.ndarray, lead_s: float, phrase_end_s: float | None):
    """The looks at one clip (``lead_s`` of silence before it) and their labels (None: not used)."""
    _go_on()
    audio = np.concatenate([np.zeros(int(lead_s * RATE), np.float32), clip.astype(np.float32)])
    ends_s = np.arange(LOOK_FROM_S, min(LOOK_TO_S, audio.size / RATE) + 1e-9, LOOK_EVERY_S)
    labels = []
    for end in ends_s:
        if phrase_end_s is None:
            labels.append(0)
        else:
            heard = end - (lead_s + phrase_end_s)
            labels.append(1 if -0.04 <= heard <= HEARD_UP_TO_S else 0 if heard <= -EARLY_S else None)
    keep = [i for i, label in enumerate(labels) if label is not None]
    if not keep:
        return np.zeros((0, 16, 96), np.float32), []
    windows = embedder.windows(audio[: int(ends_s[keep[-1]] * RATE)])
    return looks_at(windows, [int(ends_s[i] * RATE) for i in keep]), [labels[i] for i in keep]


def train(phrase: str, espeak: list[Say], piper: list[Say], embedder: Embedder) -> tuple[PhraseModel, dict]:
    """A model for ``phrase`` from the given voices (each a text-to-16 kHz function)."""
    x, y, counts = training_looks(phrase, espeak, piper, embedder)
    return fit(phrase, x, y), counts


def training_looks(phrase: str, espeak: list[Say], piper: list[Say], embedder: Embedder):
    """(looks, labels, counts): the training set for ``phrase``, voice by voice (:func:`voice_looks`)."""
    phrase = " ".join(phrase.split())
    says, recipe = espeak + piper, recipe_for(phrase)
    looks, labels, positive_clips, negative_clips = [], [], 0, 0
    for index, say in enumerate(says):
        x, y, clips = voice_looks(phrase, _stoppable(say), index, embedder, recipe)
        looks += x
        labels += y
        positive_clips += clips[0]
        negative_clips += clips[1]
    x, y = np.concatenate(looks), np.array(labels)
    counts = {"looks": int(y.size), "positive_looks": int(y.sum()), "positive_clips": positive_clips,
              "negative_clips": negative_clips, "voices": len(says)}
    return x, y, counts


def _stoppable(say: Say) -> Say:
    """``say``, which first stops the training when the process is exiting (:data:`STOP`)."""
    def said(text: str) -> np.ndarray:
        _go_on()
        return say(text)

    said.phonemes = getattr(say, "phonemes", False)  # type: ignore[attr-defined]
    return said


def voice_looks(phrase: str, say: Say, index: int, embedder: Embedder, recipe: Recipe | None = None):
    """One voice's looks (a list of arrays), their labels and its (positive, negative) clip counts: the
    phrase alone, with a question in one breath and after a pause, each as heard three ways (and cut
    before its end); a third of the everyday and phrase-like sentences, half the near misses and
    :data:`AMID_PER_VOICE` more phrase-like ones, a voice that can say them :data:`SOUNDS_PER_VOICE` near
    misses from the phrase's sounds (which ones turns with ``index``), each heard one or two ways
    (``recipe``: the texts, :func:`recipe_for` the phrase by default)."""
    recipe = recipe or recipe_for(phrase)
    said = phrase[:1].upper() + phrase[1:]
    texts, near = list(recipe.sentences + recipe.phrase_like), recipe.near
    negatives = [say(texts[(index * 7 + k) % len(texts)]) for k in range(len(texts) // 3)]
    negatives += [say(near[(index * 5 + k) % len(near)]) for k in range((len(near) + 1) // 2)]
    amid = recipe.amid
    negatives += [say(amid[(index * 5 + k) % len(amid)]) for k in range(AMID_PER_VOICE if amid else 0)]
    sounds = recipe.sounds if getattr(say, "phonemes", False) or not recipe.sounds_need_phonemes else ()
    negatives += [say(sounds[(index * 7 + k) % len(sounds)]) for k in range(SOUNDS_PER_VOICE if sounds else 0)]
    question = recipe.questions[index % len(recipe.questions)]
    alone = say(said)
    gap = np.zeros(int(0.6 * RATE), np.float32)
    positives = [alone, say(f"{said}, {question}"), np.concatenate([alone, gap, say(question.capitalize())])]
    end_s = alone.size / RATE
    looks, labels = [], []
    for k, clip in enumerate(positives):
        lead = LEADS_S[(index + k) % len(LEADS_S)]
        for variant, speed in variants(clip, index * 10 + k, negatives[(k * 13) % len(negatives)]):
            x, y = _looks(embedder, variant, lead, end_s / speed)
            looks.append(x)
            labels += y
            partial = variant[: int(max(0.3, end_s / speed * 0.6) * RATE)]  # the phrase cut before its end
            x, y = _looks(embedder, partial, lead, None)
            looks.append(x)
            labels += y
    for k, clip in enumerate(negatives):
        heard = variants(clip, 10_000 + index * 100 + k, negatives[(k * 5 + 3) % len(negatives)])
        for variant, _ in heard[: 1 + k % 2]:
            x, y = _looks(embedder, variant, LEADS_S[k % len(LEADS_S)], None)
            looks.append(x)
            labels += y
    return looks, labels, (len(positives), len(negatives))
