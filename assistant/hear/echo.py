"""Echo cancellation: what the speaker plays is taken back out of what the microphone hears.

:class:`PlayedAudio` keeps what the speaker played on the input's clock (sample 0 of the
output = sample 0 of the input); :class:`MonitoredOutput` fills it from any
:class:`~assistant.sound.AudioOut`. :class:`EchoFilter` cuts the microphone's frames into
the 10 ms blocks a canceller works on and hands it, block by block, the speaker's audio
of the same moment as the reference.

The cancellers themselves are in :mod:`assistant.hear.cancellers`; when a canceller has
learnt the room, and what is kept of it between runs, in :mod:`assistant.hear.echo_memory`.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from assistant.sound import AudioOut, resample
from assistant.config import EchoConfig
from assistant.hear import echo_memory
from assistant.hear.cancellers import (
    BLOCK_MS, CANCELLERS, Canceller, DuplexMode, EchoError, SpeexCanceller, WebRtcCanceller, choose_mode,
    load_canceller, to_float, to_int16,
)
from assistant.hear.echo_memory import Readiness, Recording, RoomRecord

log = logging.getLogger(__name__)

__all__ = [  # the cancellers are reached through this module too
    "BLOCK_MS", "CANCELLERS", "Canceller", "DuplexMode", "EchoError", "SpeexCanceller", "WebRtcCanceller",
    "choose_mode", "load_canceller", "to_float", "to_int16", "PlayedAudio", "MonitoredOutput", "Cleaned",
    "FLOOR_RMS", "EchoFilter", "SpeakerEcho",
]

# ---------------------------------------------------------------- the reference


class PlayedAudio:
    """What the speaker played, on the input's clock and at the input's rate.

    Sample ``i`` is what was heard while the microphone captured its sample ``i``
    (sample 0 of both is at perf_counter time ``t0``). Thread-safe: the output stage
    adds, the listener reads.
    """

    def __init__(self, rate: int, keep_s: float = 4.0):
        self.rate = rate
        self.keep_samples = round(keep_s * rate)
        self.t0 = 0.0
        self._chunks: list[tuple[int, np.ndarray]] = []
        self._lock = threading.Lock()

    def start(self, t0: float) -> None:
        with self._lock:
            self.t0 = t0
            self._chunks = []

    def index(self, at: float) -> int:
        return round((at - self.t0) * self.rate)

    def add(self, pcm: np.ndarray, rate: int, at: float) -> None:
        """``pcm`` (at ``rate``) is heard from perf_counter time ``at`` on."""
        pcm = resample(pcm, rate, self.rate)
        with self._lock:
            self._chunks.append((self.index(at), pcm))

    def cut(self, at: float) -> None:
        """Nothing is heard from ``at`` on (the output was flushed)."""
        with self._lock:
            end = self.index(at)
            self._chunks = [(start, pcm[: end - start]) for start, pcm in self._chunks if start < end]

    def read(self, start: int, n: int) -> np.ndarray:
        """Samples ``start`` to ``start + n`` (silence where nothing played)."""
        out = np.zeros(n, np.float32)
        with self._lock:
            for at, pcm in self._chunks:
                lo, hi = max(start, at), min(start + n, at + pcm.size)
                if lo < hi:
                    out[lo - start : hi - start] += pcm[lo - at : hi - at]
            self._chunks = [(at, pcm) for at, pcm in self._chunks if at + pcm.size > start - self.keep_samples]
        return out


class MonitoredOutput:
    """An :class:`~assistant.sound.AudioOut` that also records what it plays in ``played``."""

    def __init__(self, inner: AudioOut, played: PlayedAudio):
        self.inner = inner
        self.played = played
        self.rate = inner.rate

    def start(self, t0: float) -> None:
        self.played.start(t0)
        self.inner.start(t0)

    def play(self, pcm: np.ndarray) -> float:
        at = self.inner.play(pcm)
        self.played.add(pcm, self.rate, at)
        return at

    def flush(self) -> None:
        import time

        self.inner.flush()
        self.played.cut(time.perf_counter())

    def busy_until(self) -> float:
        return self.inner.busy_until()

    def close(self, *args, **kwargs) -> None:
        self.inner.close(*args, **kwargs)


@dataclass(frozen=True)
class Cleaned:
    """One microphone frame after the echo canceller."""

    pcm: np.ndarray
    captured: float
    """perf_counter time of its first sample."""
    reply_audible: bool
    """The speaker played something within the echo tail before this frame."""
    kept_db: float
    """Energy the canceller kept of the microphone's (dB; 0 without a canceller)."""
    converged: bool
    """The canceller has learnt the room (its echo reduction is over ``echo.ready_erle_db``)."""


FLOOR_RMS = 1e-4
"""Reference blocks quieter than this (-80 dBFS) count as silence."""
ALIGN_MARGIN_MS = 20.0
"""Of the measured speaker-to-microphone delay, this much is left in the reference (the
delay's estimate can be late by a reflection stronger than the direct sound)."""


def aligned_shift(delay_ms: float, rate: int, block: int) -> int:
    """Samples to read the reference earlier for a measured delay: whole blocks, none under the margin."""
    blocks = int(max(0.0, delay_ms - ALIGN_MARGIN_MS) * rate / 1000) // block
    return blocks * block


class EchoFilter:
    """Takes the echo out of the microphone's frames, whatever their size.

    The canceller works on 10 ms blocks and a frame is rarely a whole number of them,
    so the output lags the input by up to a block, and the canceller adds its own
    delay: a frame comes out with its capture time moved back by ``lag_samples``, both
    together, so the clock stays exact. The canceller runs only while the reply (or its
    echo tail) is audible; otherwise, and without a canceller (half duplex), frames pass
    unchanged, and the filter still says when the reply is audible.

    While nothing plays, a frame comes out as it went in, at once: the lag would be
    waiting added to every turn's end (18 ms with speexdsp). The filter goes over to the
    lagged stream when the reply sounds (``lag_samples`` of the input come out twice:
    the room just before the reply) and back once it and its echo are over, when the
    caller says no speech is in progress (``hold_lag``; ``lag_samples`` of the input are
    left out then, so they must not be the user's words).
    """

    def __init__(self, canceller: Canceller | None, played: PlayedAudio, frame_samples: int, config: EchoConfig):
        self.canceller = canceller
        self.played = played
        self.frame_samples = frame_samples
        self.block = canceller.block_samples if canceller else frame_samples
        framing = max((k * frame_samples) % self.block for k in range(1, self.block + 1))
        self.lag_samples = framing + (canceller.delay_samples if canceller else 0)
        """Input samples between a sound going in and coming out."""
        self.tail_samples = round(config.echo_tail_ms * played.rate / 1000)
        self.readiness = Readiness(config.ready_erle_db, played.rate, self.block)
        self._framing = framing
        self._memory_s = config.memory_s
        self.recording: Recording | None = None
        """What the speaker played and the microphone heard while the canceller learns the room."""
        self.on_learnt = None
        """Called with a :class:`RoomRecord` once the canceller has learnt the room on a recording."""
        self.room_key: str | None = None
        self.shift = 0
        """The canceller's reference is what the speaker played this many samples earlier: the
        bulk of the speaker-to-microphone delay, measured on a recording, taken out, so that
        the canceller's tail covers the room rather than the way to it."""
        self.restart()

    def restart(self) -> None:
        """A new input stream starts (at the reference's sample 0). The canceller keeps what
        it learnt of the room."""
        self._pending = np.zeros(0, np.float32)
        self._clean = np.zeros(self._framing, np.float32)
        self._position = 0
        """Input samples handed to the canceller so far (the reference's index)."""
        self._last_loud = -(10**9)
        self._raw = np.zeros(self.canceller.delay_samples if self.canceller else 0, np.float32)
        self._lagged = False
        """Frames come out of the canceller's (lagged) stream, not as they went in."""

    def _delayed(self, mic: np.ndarray) -> np.ndarray:
        """The block as it is, delayed like the canceller's output."""
        if not self._raw.size:
            return mic
        both = np.concatenate([self._raw, mic])
        self._raw = both[mic.size :]
        return both[: mic.size]

    def process(self, frame: np.ndarray, captured: float, hold_lag: bool | None = None) -> Cleaned:
        """The frame with the echo taken out. ``hold_lag``: stay on the lagged stream even
        if the reply is over (speech is in progress); None: always lagged (a constant lag,
        for measurements)."""
        frame = frame.astype(np.float32, copy=False)
        self._pending = np.concatenate([self._pending, frame])
        cleaned, mic_energy, clean_energy = [self._clean], 0.0, 0.0
        ran = False
        while self._pending.size >= self.block:
            mic = self._pending[: self.block]
            far = self.played.read(self._position, self.block)
            reference = self.played.read(self._position - self.shift, self.block) if self.shift else far
            if float(np.sqrt(np.mean(far * far))) > FLOOR_RMS:
                self._last_loud = self._position + self.block
            loud = self._last_loud == self._position + self.block
            raw = self._delayed(mic)
            cancel = self.canceller is not None and self._position + self.block - self._last_loud <= self.tail_samples
            cancel = cancel and not self.readiness.without_echo  # no echo path: it takes a voice for echo
            ran = ran or cancel
            clean = self.canceller.cancel(mic, reference) if cancel else raw
            # what the canceller kept, of the same samples: its output lags the input as ``raw`` does
            block_mic, block_clean = float(np.dot(raw, raw)), float(np.dot(clean, clean))
            mic_energy += block_mic
            clean_energy += block_clean
            if cancel:
                self._learn(mic, far, loud, block_mic, block_clean)
            cleaned.append(clean)
            self._pending = self._pending[self.block :]
            self._position += self.block
        clean = np.concatenate(cleaned)
        out, self._clean = clean[: self.frame_samples], clean[self.frame_samples :]
        kept_db = 10 * float(np.log10(max(clean_energy, 1e-12) / max(mic_energy, 1e-12))) if mic_energy > 0 else 0.0
        reply_audible = self._position - self._last_loud <= self.tail_samples
        if ran or hold_lag is None:
            self._lagged = True
        elif self._lagged and not reply_audible and not hold_lag:
            self._lagged = False
        if not self._lagged and self.lag_samples:
            return Cleaned(frame, captured, reply_audible=reply_audible, kept_db=0.0, converged=self._converged())
        return Cleaned(
            out, captured - self.lag_samples / self.played.rate,
            reply_audible=reply_audible,
            kept_db=kept_db,
            converged=self._converged(),
        )

    def _converged(self) -> bool:
        return self.canceller is not None and self.readiness.ready

    def _learn(self, mic: np.ndarray, far: np.ndarray, loud: bool, mic_energy: float, clean_energy: float) -> None:
        """One block the canceller ran on: its echo reduction, and the recording of the room."""
        if loud:
            was_ready = self.readiness.ready
            self.readiness.add(mic_energy, clean_energy)
            if was_ready and not self.readiness.ready:
                self.shift = 0  # the room is not the one measured: its delay may be shorter
        if self.recording is None:
            if self.readiness.ready:
                return
            self.recording = Recording(self._memory_s, self.played.rate)
        self.recording.add(mic, far)
        if not self.recording.full:
            return
        recording, self.recording = self.recording, None
        if self.readiness.ready and self.on_learnt is not None and self.room_key is not None:
            self.on_learnt(recording.record(self.room_key, self.canceller.name, self.readiness))

    def keep_recording(self, unless_learning: bool = False) -> RoomRecord | None:
        """The stream ends (or the start-up sound does): a recording shorter than ``memory_s``
        on which the canceller learnt the room is kept all the same, if it holds a second.
        ``unless_learning``: one it has not learnt the room on goes on. The record of it, when
        the canceller learnt the room on it (kept for the devices when they are named)."""
        recording = self.recording
        learnt = recording is not None and recording.samples >= self.played.rate and self.readiness.ready
        if learnt or not unless_learning:
            self.recording = None
        if not learnt:
            return None
        record = recording.record(self.room_key or "", self.canceller.name, self.readiness)
        if self.on_learnt is not None and self.room_key is not None:
            self.on_learnt(record)
        return record

    def sound_over(self) -> bool:
        """The start-up sound and its echo are over. If the canceller learnt the room on it, the
        bulk of the delay measured on it comes out of the reference (:meth:`align`) and the
        first reply's windows confirm the readiness; if not, the reply's own echo reduction
        decides. True when it learnt the room on the sound."""
        record = self.keep_recording(unless_learning=True)
        if record is not None:
            self.align(record)
            self.readiness.to_confirm()
            return True
        # not learnt on it: the recording goes on into the first reply, and the reply's own echo
        # reduction decides (the ERLE of a replay flatters), whether the delay came out or not
        recording = self.recording
        if recording is not None and recording.samples >= self.played.rate and self.canceller is not None:
            self.align(recording.record(self.room_key or "", self.canceller.name, self.readiness))
        self.readiness.restart_window()
        return False

    def align(self, record: RoomRecord) -> bool:
        """Read the reference ``record.delay_ms`` (less ``ALIGN_MARGIN_MS``) earlier: a fresh
        canceller learns the room on the record so (its tail then holds the room's echo, not
        the way to it), and replaces this one if that made it ready. True when it did."""
        shift = aligned_shift(record.delay_ms, self.played.rate, self.block)
        if shift == self.shift or self.canceller is None:
            return False
        fresh = self.canceller.renew()
        probe = Readiness(self.readiness.threshold_db, self.played.rate, self.block)
        erle = echo_memory.warm(fresh, record, probe, shift)
        if not probe.ready:  # it did not learn the room on the record: keep the one that learnt on the sound
            fresh.close()
            return False
        self.canceller.close()
        self.canceller, self.shift = fresh, shift
        log.info("echo reference read %.0f ms earlier (delay measured %.0f ms): ERLE %.1f dB on the sound again",
                 shift * 1000 / self.played.rate, record.delay_ms, erle)
        return True

    def warm(self, record: RoomRecord) -> float:
        """Start converged: the canceller replays what it heard of this room before, the
        reference moved by the delay measured on it."""
        shift = aligned_shift(record.delay_ms, self.played.rate, self.block)
        erle = echo_memory.warm(self.canceller, record, self.readiness, shift)
        self.shift = shift if self.readiness.ready else 0  # a record that does not fit brings no delay
        return erle


class SpeakerEcho:
    """What the engine needs to hear over its own voice: what the speaker played, the
    canceller this machine can run (None: half duplex) and the filter that uses both."""

    def __init__(self, config: EchoConfig, rate: int, frame_samples: int, canceller: Canceller | None = None,
                 mode: DuplexMode | None = None, memory: Path | None = None):
        if mode is None:
            mode, canceller = choose_mode(config, rate)
        self.mode = mode
        self.played = PlayedAudio(rate)
        self.filter = EchoFilter(canceller, self.played, frame_samples, config)
        self.memory = memory
        """Folder of the rooms learnt (None: nothing is kept between runs)."""
        self.filter.on_learnt = self._remember
        self._saving: threading.Thread | None = None

    def recall(self, key: str | None) -> None:
        """The output and input devices are ``key`` (None: the microphone cannot hear the
        speaker, a WAV file in or out): a canceller not yet ready replays what it learnt of them
        before."""
        canceller, echo = self.filter.canceller, self.filter
        if key is None:  # no echo path: nothing to learn (nor to keep)
            echo.readiness.no_echo_path()
            echo.room_key = None
            return
        if echo.readiness.without_echo:
            echo.readiness.reset()
        if key == echo.room_key or canceller is None:
            echo.room_key = key
            return
        if echo.room_key is not None:  # other devices: what was learnt is not theirs
            echo.readiness.reset()
            echo.recording = None
            echo.shift = 0
        echo.room_key = key
        if key is None or self.memory is None or echo.readiness.ready:
            return
        record = echo_memory.load(self.memory, key, canceller.name, self.played.rate)
        if record is not None:
            echo.warm(record)

    def _remember(self, record: RoomRecord) -> None:
        if self.memory is None:
            return
        self._saving = threading.Thread(target=_save, args=(self.memory, record), name="echo-save", daemon=True)
        self._saving.start()

    def monitor(self, out: AudioOut) -> MonitoredOutput:
        """``out``, recording what it plays as the canceller's reference."""
        return MonitoredOutput(out, self.played)

    def close(self) -> None:
        self.filter.keep_recording()
        if self._saving is not None:
            self._saving.join(timeout=5)
        if self.filter.canceller is not None:
            self.filter.canceller.close()


def _save(folder: Path, record: RoomRecord) -> None:
    try:
        echo_memory.save(folder, record)
    except OSError as exc:
        log.warning("could not keep what the echo canceller learnt of the room: %s", exc)
