"""Sound as numbers, shared by every part: PCM conversion, WAV files read and written, the
``AudioIn`` / ``AudioOut`` protocols the stages meet on, and what a listener hears as sound.

All PCM inside the engine is mono float32 in [-1, 1]. Input runs at
``AudioConfig.sample_rate`` (16 kHz); rate conversion uses soxr. Sources are in
:mod:`assistant.hear.sources` and :mod:`assistant.hear.microphone`, sinks in
:mod:`assistant.speak.sinks`.

Audible: What a listener hears as sound: short windows whose RMS is above a level.

The level is absolute (``AUDIBLE_DBFS``), raised above a steady noise floor when a
recording has one; where a question ends (the heard wait), it is lowered under a quiet
recording's loudest windows (a speaker far from the microphone). A constant offset (DC) is not
sound: files are read without it, and the microphone's frames lose it on the way in
(:class:`~assistant.hear.microphone.DcBlocker`). The bench reads the heard latency off whole WAV files with it; the
pipeline marks the last audible sample of the user's words and the first of the reply
with the same rule, live.
"""

from __future__ import annotations

import logging
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Protocol, runtime_checkable

import numpy as np

log = logging.getLogger(__name__)


class AudioError(RuntimeError):
    """Unreadable audio, or an audio device that is missing or unusable."""


# ---------------------------------------------------------------- conversion


def resample(pcm: np.ndarray, src_rate: int, dst_rate: int) -> np.ndarray:
    if src_rate == dst_rate or pcm.size == 0:
        return pcm.astype(np.float32, copy=False)
    import soxr

    return soxr.resample(pcm.astype(np.float32, copy=False), src_rate, dst_rate).astype(np.float32)


def chime(rate: int, level: float = 0.25) -> np.ndarray:
    """The wake chime: two soft rising tones (660 then 990 Hz, 70 ms each), made, not loaded."""
    t = np.arange(round(0.07 * rate)) / rate
    fade = np.minimum(1.0, np.minimum(t, t[::-1]) / 0.01)
    tones = [np.sin(2 * np.pi * f * t) * fade for f in (660.0, 990.0)]
    return (np.concatenate(tones) * level).astype(np.float32)


DC_TAKEN_OUT = 0.003
"""A file whose samples average this far from zero (-50 dBFS) or more is read without the
offset; a smaller one cannot make silence audible, and is left as recorded (a voice's own
files average 1e-5)."""
DC_NOTICE = 0.05
"""A file whose samples average this far from zero is said to be offset (a question clipped by
30 dB of gain averages 0.012: its mean is taken out too, without a word)."""


def to_mono(pcm: np.ndarray) -> np.ndarray:
    return pcm.mean(axis=1) if pcm.ndim == 2 else pcm


MIN_FILE_RATE, MAX_FILE_RATE = 4000, 384000
"""Sample rates of audio files taken in (Hz); a header outside them is corrupt."""
MAX_FILE_S = 3600.0
"""The longest audio file taken in (an hour); longer ones are refused before reading."""


def load_wav(path: str | Path, rate: int) -> np.ndarray:
    """Read any common WAV/FLAC/OGG (rate, width, channels) as mono float32 at ``rate``,
    within [-1, 1] (samples that are not numbers become silence)."""
    import soundfile as sf

    path = Path(path)
    if not path.is_file():
        raise AudioError(f"audio file {path} does not exist")
    try:
        info = sf.info(str(path))
        if not MIN_FILE_RATE <= info.samplerate <= MAX_FILE_RATE:
            raise AudioError(f"{path} says its sample rate is {info.samplerate} Hz; audio files run at "
                             f"{MIN_FILE_RATE // 1000} to {MAX_FILE_RATE // 1000} kHz, so the file is corrupt")
        if info.frames > MAX_FILE_S * info.samplerate:
            raise AudioError(f"{path} lasts {info.frames / info.samplerate / 60:.0f} minutes; "
                             f"the longest input taken is {MAX_FILE_S / 60:.0f} minutes")
        pcm, src_rate = sf.read(str(path), dtype="float32", always_2d=False)
    except (sf.LibsndfileError, RuntimeError, ValueError, OverflowError, MemoryError) as exc:
        if isinstance(exc, AudioError):
            raise
        raise AudioError(f"cannot read {path} as audio: {' '.join(str(exc).split())}") from exc
    pcm = to_mono(np.asarray(pcm))
    if pcm.size == 0:
        raise AudioError(f"{path} has no audio samples")
    if not np.isfinite(pcm).all():
        log.warning("%s has samples that are not numbers; they are read as silence", path.name)
        pcm = np.where(np.isfinite(pcm), pcm, 0.0).astype(np.float32)
    offset = float(np.mean(pcm, dtype=np.float64))
    if abs(offset) >= DC_NOTICE:
        log.warning("%s is offset by %+.3f (DC): read without it", path.name, offset)
    if abs(offset) >= DC_TAKEN_OUT:
        pcm = (pcm - offset).astype(np.float32)
    if src_rate != rate:
        log.info("converting %s from %d Hz to %d Hz", path.name, src_rate, rate)
    pcm = np.clip(resample(pcm, src_rate, rate), -1.0, 1.0)
    if pcm.size == 0:
        raise AudioError(f"{path} is too short to hear ({info.frames} samples at {src_rate} Hz)")
    return pcm


def save_wav(path: str | Path, pcm: np.ndarray, rate: int) -> None:
    """Write a 16-bit WAV whole or not at all (a crash leaves no half file)."""
    import io

    import soundfile as sf

    from assistant import resources

    data = io.BytesIO()
    sf.write(data, np.clip(pcm, -1.0, 1.0), rate, subtype="PCM_16", format="WAV")
    resources.write_bytes(path, data.getvalue())


# ---------------------------------------------------------------- input


class AudioIn(Protocol):
    rate: int
    frame_samples: int

    def frames(self) -> Iterator[tuple[np.ndarray, float]]:
        """Yield (frame, capture time of the frame's first sample on perf_counter)."""

    def stop(self) -> None: ...



# ---------------------------------------------------------------- output


class AudioOut(Protocol):
    rate: int

    def start(self, t0: float) -> None:
        """Sample 0 of the output is at perf_counter time ``t0``."""

    def play(self, pcm: np.ndarray) -> float:
        """Queue ``pcm`` (mono float32 at ``rate``); return when its first sample is heard."""

    def flush(self) -> None:
        """Drop everything not yet heard (interruption)."""

    def busy_until(self) -> float:
        """perf_counter time when the audio queued so far ends."""

    def close(self) -> None: ...



# ---------------------------------------------------------------- devices


@dataclass(frozen=True)
class DeviceStatus:
    """What an audio device is doing, for the status line: working, or lost and why.
    The data of an :attr:`~assistant.events.EventType.DEVICE` event."""

    device: str
    """``speaker`` or ``microphone``."""
    working: bool
    text: str
    """One line for the user: "the speaker stopped (...); replies are shown until it is back"."""


@runtime_checkable
class AudioDevice(Protocol):
    """A speaker or microphone with a thread of its own, as the watchdog sees it
    (:class:`~assistant.pipeline.watchdog.AudioWatch`). It reopens a lost device itself;
    the watchdog reports what it says and restarts a thread that died or hangs."""

    kind: str
    """``speaker`` or ``microphone``."""
    losses: int
    """Times it was lost so far (a loss and its return between two looks still counts)."""
    last_loss: DeviceStatus | None
    """What it said the last time it was lost."""

    @property
    def alive(self) -> bool:
        """Its audio thread runs."""

    def stuck_for(self, now: float) -> float:
        """Seconds one call into the device (a block written, a stream opened) has blocked; 0 outside one."""

    def status(self) -> DeviceStatus: ...

    def restart(self, reason: str) -> None:
        """A fresh thread and stream: the old thread died or hangs in the driver."""

    def take_dropped(self) -> int:
        """Frames dropped since last asked (the engine fell behind the microphone)."""


@runtime_checkable
class LiveMicrophone(AudioDevice, Protocol):
    """A microphone that looks after its device (:class:`~assistant.hear.microphone.MicSource`)."""

    heartbeat: float
    """perf_counter time of its latest look at the device (a frame, or a try to open it)."""


# ---------------------------------------------------------------- audible





AUDIBLE_DBFS = -40.0
"""A 5 ms window at or above this RMS level is audible (Piper's lead-in sits below -50)."""
WINDOW_MS = 5.0
FLOOR_MARGIN_DB = 12.0
"""Over a noise floor (the quietest tenth of the windows), audible starts this much above it
(when the loudest tenth stands out of the floor by more than that: a recording that is all
sound has no floor)."""


def window_rms_db(pcm: np.ndarray, rate: int) -> tuple[np.ndarray, int]:
    """The RMS level (dBFS) of each ``WINDOW_MS`` window of ``pcm``, and the window size."""
    size = max(1, round(rate * WINDOW_MS / 1000))
    count = pcm.size // size
    if count == 0:
        return np.zeros(0), size
    windows = pcm[: count * size].astype(np.float64).reshape(count, size)
    rms = np.sqrt(np.mean(windows**2, axis=1))
    return 20 * np.log10(np.maximum(rms, 1e-9)), size


def audible_windows(pcm: np.ndarray, rate: int, quiet_speaker: bool = False) -> tuple[np.ndarray, int]:
    """Which ``WINDOW_MS`` windows are audible, and the window size in samples (``quiet_speaker``:
    see :func:`audible_levels`)."""
    levels, size = window_rms_db(pcm, rate)
    return audible_levels(levels, quiet_speaker), size


QUIET_RANGE_DB = 30.0
"""A recording whose loudest window is under ``AUDIBLE_DBFS`` plus this (-10 dBFS: a quiet speaker,
far from the microphone) is audible from this much under that window, as speech at an ordinary
level is (eSpeak NG's and Piper's loudest 5 ms windows: -12 to -8 dBFS). A question peaking at
-36 dBFS then ends 10 ms from where the same question said at an ordinary level does; with 20 dB, 110 ms
sooner (its last sound cut off: a flattering wait)."""
QUIETEST_AUDIBLE_DBFS = -70.0
"""However quiet the recording, softer than this is not heard (16-bit dither sits near -100)."""


def audible_threshold(floor_db: float | None, peak_db: float | None) -> float:
    """The level (dBFS) from which a window is audible, given the quietest windows outside
    speech (``floor_db``, None: not known) and the loudest window of the speech (``peak_db``).

    A quiet recording (its peak under ``AUDIBLE_DBFS + QUIET_RANGE_DB``, and standing out of the
    floor) is heard from ``QUIET_RANGE_DB`` under its peak, never under the floor's margin."""
    threshold = AUDIBLE_DBFS
    if peak_db is not None and peak_db - QUIET_RANGE_DB < threshold:
        if floor_db is None or peak_db - floor_db > FLOOR_MARGIN_DB + 6:
            threshold = max(peak_db - QUIET_RANGE_DB, QUIETEST_AUDIBLE_DBFS,
                            -np.inf if floor_db is None else floor_db + FLOOR_MARGIN_DB)
    return threshold


def audible_levels(levels: np.ndarray, quiet_speaker: bool = False) -> np.ndarray:
    """Which windows of these levels (dBFS) are audible, over their own noise floor;
    ``quiet_speaker``: a quiet recording's under its own loudest window (:func:`audible_threshold`:
    the end of a question, where the wait a person hears begins; the corpora are cut at the
    absolute level, so a take is the same whatever this rule says)."""
    if levels.size == 0:
        return np.zeros(0, bool)
    floor, loud = (float(v) for v in np.percentile(levels, [10, 90]))
    threshold = audible_threshold(floor, float(np.max(levels))) if quiet_speaker else AUDIBLE_DBFS
    if loud - floor > FLOOR_MARGIN_DB + 6:
        threshold = max(threshold, floor + FLOOR_MARGIN_DB)
    return levels >= threshold


def audible_s(pcm: np.ndarray, rate: int) -> float:
    """How many seconds of ``pcm`` are audible (its pauses left out; a quiet speaker's own level)."""
    loud, size = audible_windows(pcm, rate, quiet_speaker=True)
    return float(loud.sum()) * size / rate


class Levels:
    """The window levels of a stream fed piece by piece: where it was last audible."""

    def __init__(self, rate: int):
        self.rate = rate
        self._levels: list[np.ndarray] = []
        self._rest = np.zeros(0, np.float32)
        self._size = max(1, round(rate * WINDOW_MS / 1000))

    def feed(self, pcm: np.ndarray) -> None:
        pcm = np.concatenate([self._rest, pcm]) if self._rest.size else pcm
        levels, size = window_rms_db(pcm, self.rate)
        self._rest = pcm[levels.size * size :]
        self._levels.append(levels)

    def last_audible_s(self) -> float | None:
        """End of the last audible window from the start of the stream, or None."""
        hits = np.flatnonzero(audible_levels(np.concatenate(self._levels) if self._levels else np.zeros(0)))
        return None if hits.size == 0 else (hits[-1] + 1) * self._size / self.rate


def last_audible_s(pcm: np.ndarray, rate: int, before_s: float | None = None,
                   quiet_speaker: bool = False) -> float | None:
    """End of the last audible window (before ``before_s`` when given), or None."""
    loud, size = audible_windows(pcm, rate, quiet_speaker)
    if before_s is not None:
        loud = loud[: max(0, int(before_s * rate) // size)]
    hits = np.flatnonzero(loud)
    return None if hits.size == 0 else (hits[-1] + 1) * size / rate


LEAD_IN_DBFS = -50.0
"""Softer than this (10 dB under audible), a reply's first windows are silence: not played."""
LEAD_IN_KEEP_MS = 10.0


def without_lead_in(pcm: np.ndarray, rate: int) -> np.ndarray:
    """``pcm`` from ``LEAD_IN_KEEP_MS`` before its first window at ``LEAD_IN_DBFS`` or louder (all of
    it when none is). eSpeak NG opens a text that begins on a stop or an affricate with 35-45 ms of
    silence (the closure), Piper any text with 0-10 ms."""
    levels, size = window_rms_db(pcm, rate)
    hits = np.flatnonzero(levels >= LEAD_IN_DBFS)
    if hits.size == 0:
        return pcm
    return pcm[max(0, int(hits[0]) * size - round(rate * LEAD_IN_KEEP_MS / 1000)):]


def first_audible_s(pcm: np.ndarray, rate: int, after_s: float = 0.0, quiet_speaker: bool = False) -> float | None:
    """Start of the first audible window at or after ``after_s``, or None."""
    loud, size = audible_windows(pcm, rate, quiet_speaker)
    start = int(np.ceil(after_s * rate / size))
    hits = np.flatnonzero(loud[start:])
    return None if hits.size == 0 else (hits[0] + start) * size / rate




class VoiceEnd:
    """Live: where the last audible sample of the input was, frame by frame.

    The noise floor is the quietest tenth of the recent windows heard outside speech.
    :attr:`last_s` is kept at the absolute level (over the floor): where a pause starts is
    found with it, the same for every speaker. :meth:`heard_end_s` is the figure a person
    hears, a quiet speaker's too (under the loudest of the recent windows heard in speech)."""

    def __init__(self, rate: int, floor_windows: int = 400, recent_windows: int = 2000):
        self.rate = rate
        self._quiet: deque[float] = deque(maxlen=floor_windows)
        self._recent: deque[tuple[float, float, bool]] = deque(maxlen=recent_windows)
        """(stream position just after the window, its level, heard in speech) of the latest 10 s."""
        self.last_s: float | None = None
        """Stream position (seconds) just after the last audible window."""

    def _floor_db(self) -> float | None:
        return float(np.percentile(self._quiet, 10)) if len(self._quiet) >= 20 else None

    def threshold_db(self) -> float:
        floor = self._floor_db()
        return AUDIBLE_DBFS if floor is None else max(AUDIBLE_DBFS, floor + FLOOR_MARGIN_DB)

    def push(self, frame: np.ndarray, start_s: float, in_speech: bool) -> None:
        """A frame starting at stream position ``start_s``."""
        levels, size = window_rms_db(frame, self.rate)
        if not in_speech:
            self._quiet.extend(float(v) for v in levels)
        step = size / self.rate
        self._recent.extend((start_s + (i + 1) * step, float(v), in_speech) for i, v in enumerate(levels))
        hits = np.flatnonzero(levels >= self.threshold_db())
        if hits.size:
            self.last_s = start_s + (hits[-1] + 1) * size / self.rate

    def heard_end_s(self) -> float | None:
        """Stream position just after the last audible window, heard as in a whole recording: a
        quiet speaker's (whose loudest window in speech is under ``AUDIBLE_DBFS + QUIET_RANGE_DB``)
        from ``QUIET_RANGE_DB`` under it, never under the floor's margin; :attr:`last_s` otherwise."""
        speech = [level for _, level, in_speech in self._recent if in_speech]
        floor = self._floor_db()
        threshold = audible_threshold(floor, max(speech) if speech else None)
        if floor is not None:
            threshold = max(threshold, floor + FLOOR_MARGIN_DB)
        if threshold >= self.threshold_db():
            return self.last_s
        return next((end for end, level, _ in reversed(self._recent) if level >= threshold), self.last_s)
