"""The wake bench's looks: every take replayed once, each look at an utterance's start kept whole
(its transcript, the phrase's token probabilities, what each part cost), so that every way of
deciding (:mod:`assistant.commands.bench.wake_ways`) is measured on the same looks.

A look is what the transcription stage does while waiting: the first ``speech_s`` of the
utterance through Whisper's encoder once, then the greedy decoding (the transcript) and the
phrase forced after the start of transcript (its probability) on that same encoding. An
utterance is looked at until it ends, ``spot_s`` is reached, or no way could still find the
phrase in it (too many letters not beginning with it, and its probability below
:data:`FLOOR` after :data:`FLOOR_AFTER_S` of speech).
"""

from __future__ import annotations

import math
import time
from typing import Iterator

import numpy as np

from assistant.config import Config, VadConfig
from assistant.hear.stt import TOKENS_PER_S
from assistant.hear.transcript_guard import guarded
from assistant.hear.vad import VadEventType
from assistant.hear.wake import FIRST_SPOT_S, FLOOR, FLOOR_AFTER_S, WakePhrase
from assistant.hear.wake_score import PhraseProbability, geometric_mean
from assistant.pipeline.listen import Segmenter
from assistant.sound import load_wav

RATE = 16000


def _decode(scorer: PhraseProbability, encoded, pcm: np.ndarray) -> tuple[str, float]:
    """The greedy transcript of the encoded audio (as :class:`WhisperStt` makes it) and its
    mean token log-probability."""
    stt, seconds = scorer.stt, pcm.size / RATE
    window = max(stt.config.window_s, math.ceil(seconds + 1.0))
    result = stt._model.model.generate(
        encoded, [scorer._prompt], beam_size=1, max_length=min(224, 12 * window, 16 + math.ceil(TOKENS_PER_S * seconds)),
        return_no_speech_prob=True, return_scores=True, suppress_blank=True, suppress_tokens=[-1])[0]
    tokens = [t for t in result.sequences_ids[0] if t < stt._tokenizer.eot]
    return guarded(stt._tokenizer.decode(tokens), seconds, result.no_speech_prob), float(result.scores[0])


def look(scorer: PhraseProbability, audio: np.ndarray, prompted: PhraseProbability | None = None) -> dict:
    clock = time.process_time()
    encoded = scorer.encode(audio)
    encode_ms = (time.process_time() - clock) * 1000
    clock = time.process_time()
    probs = scorer.token_probs(encoded, audio.size)
    align_ms = (time.process_time() - clock) * 1000
    clock = time.process_time()
    text, logprob = _decode(scorer, encoded, audio)
    decode_ms = (time.process_time() - clock) * 1000
    row = {"text": text, "logprob": round(logprob, 3), "probs": [[round(p, 5) for p in row] for row in probs],
           "ms": {"encode": round(encode_ms, 1), "align": round(align_ms, 1), "decode": round(decode_ms, 1)}}
    if prompted is not None:
        row["probs_prompted"] = [[round(p, 5) for p in row] for row in prompted.token_probs(encoded, audio.size)]
    return row


class LookPoint:
    """A point where the engine looks at an utterance's start: the audio so far. Set ``stop``
    to let the utterance go (no more looks at it)."""

    def __init__(self, heard: np.ndarray, speech_s: float, paused: bool, final: bool):
        self.heard, self.speech_s, self.paused, self.final = heard, speech_s, paused, final
        self.stop = final


def look_points(pcm: np.ndarray, vad, config: Config, utterances: list[dict]) -> Iterator[LookPoint]:
    """The take cut into utterances as the engine cuts them (each appended to ``utterances``
    with its start), and the points where each one's start is looked at: first after
    :data:`FIRST_SPOT_S` of speech, then every ``spot_every_ms`` and at each pause, up to its end
    or ``spot_s``."""
    frame = config.audio.frame_samples
    segmenter = Segmenter(vad, VadConfig(), frame / RATE)
    step = config.wake.spot_every_ms / 1000
    audio: list[np.ndarray] | None = None
    preroll = next_s = 0.0
    for i in range(0, pcm.size - frame + 1, frame):
        for detected in segmenter.push(pcm[i : i + frame], i / RATE):
            if detected.event is VadEventType.SPEECH_START:
                audio, preroll, next_s = [detected.pcm], detected.pcm.size / RATE, max(FIRST_SPOT_S, step)
                utterances.append({"start_s": round(detected.at, 3), "looks": []})
                continue
            if audio is None:
                continue
            if detected.event is None:
                audio.append(detected.pcm)
            final = detected.event is VadEventType.ENDPOINT
            paused = final or detected.event is VadEventType.EARLY_SILENCE
            heard = np.concatenate(audio)
            speech_s = heard.size / RATE - preroll
            if not (paused or speech_s >= next_s):
                continue
            next_s = speech_s + step - 1e-6
            point = LookPoint(heard, speech_s, paused, final or speech_s >= config.wake.spot_s)
            yield point
            if point.stop:
                audio = None


def take_looks(take, vad, scorer: PhraseProbability, config: Config, prompted: PhraseProbability | None = None) -> dict:
    """The take's utterances as the engine cuts them, and the looks at each one's start."""
    pcm = load_wav(take.path, RATE)
    phrase = WakePhrase(config.wake.phrase, config.wake.score)
    utterances: list[dict] = []
    cpu = time.process_time()
    for point in look_points(pcm, vad, config, utterances):
        row = look(scorer, point.heard, prompted)
        row.update(speech_s=round(point.speech_s, 3), paused=point.paused, final=point.final)
        utterances[-1]["looks"].append(row)
        best = max(100 * geometric_mean(p) for p in row["probs"])
        hopeless = phrase.too_long(row["text"]) and best < FLOOR and point.speech_s >= FLOOR_AFTER_S
        point.stop = point.final or hopeless
    return {"take": take.name, "half": take.half, "positive": take.positive, "voice": take.voice,
            "phrase_end_s": take.phrase_end_s, "seconds": round(pcm.size / RATE, 2), "utterances": utterances,
            "cpu_s": round(time.process_time() - cpu, 3)}


def model_looks(take, vad, embedder, config: Config) -> tuple[dict, list[np.ndarray]]:
    """The take replayed as :func:`take_looks` does, each utterance looked at by openWakeWord's
    embeddings (:mod:`assistant.hear.wake_model`) at the same points, up to its end or ``spot_s`` (a
    model look is too cheap to let an utterance go early), as the engine looks (what it looked at of
    the utterance before is kept: :class:`~assistant.hear.wake_model.UtteranceLooks`): each look's
    place and CPU cost, and its (16, 96) embeddings (any phrase model scores them later)."""
    from assistant.hear.wake_model import UtteranceLooks

    pcm = load_wav(take.path, RATE)
    looker = UtteranceLooks(embedder)
    utterances: list[dict] = []
    embeddings: list[np.ndarray] = []
    for point in look_points(pcm, vad, config, utterances):
        clock = time.process_time()
        embeddings.append(looker.look(point.heard))
        utterances[-1]["looks"].append({"speech_s": round(point.speech_s, 3), "paused": point.paused,
                                        "final": point.final, "ms": round((time.process_time() - clock) * 1000, 1)})
    return {"take": take.name, "utterances": utterances}, embeddings
