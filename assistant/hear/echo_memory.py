"""What an echo canceller learnt of a room, measured and kept across replies, restarts and runs.

:class:`Readiness` decides when the canceller has learnt the room from what it achieves:
the echo return loss enhancement (ERLE: how much quieter the microphone is after the
canceller) over the latest half second of blocks where the speaker played. speexdsp
cannot hand out its adaptive filter, so what is kept is a stretch of what the speaker
played and what the microphone heard (:class:`RoomRecord`, 4 s), with the delay measured
on it and how long the canceller took to learn it; a fresh canceller replays it
(:func:`warm`) and starts the first reply already converged. One record per pair of
output and input devices, written atomically; another pair does not use it.
"""

from __future__ import annotations

import hashlib
import io
import logging
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from assistant.hear.cancellers import Canceller, to_float, to_int16

log = logging.getLogger(__name__)

WINDOW_S = 0.5
"""ERLE is measured over this much of the latest blocks in which the speaker played."""
SETTLE_S = 0.2
"""After a replay, the live blocks of this long are not taken into the check of the room."""
CHECK_S = 2.0
"""A replayed room is dropped when no live window within this much reply confirms it."""
REPLAY_S = 2.0
"""A shorter record (the start-up sound's) is replayed again until the canceller has had this much."""
QUIET_ECHO = 1e-7
"""Mean energy per sample (-70 dBFS) under which the microphone hears no echo (headphones)."""


def erle_db(mic_energy: float, clean_energy: float) -> float:
    return float(10 * np.log10(max(mic_energy, 1e-12) / max(clean_energy, 1e-12)))


class Readiness:
    """Whether the canceller has learnt the room: ERLE over ``WINDOW_S`` of blocks in which
    the speaker played reaches ``threshold_db`` (0: ready at once), or the microphone hears
    no echo at all. Once ready it stays ready, except that readiness brought by a replayed
    record (:meth:`assume`) is checked on the first live window and dropped if the room
    no longer matches (no window reaches the threshold within ``CHECK_S`` of reply)."""

    def __init__(self, threshold_db: float, rate: int, block_samples: int):
        self.threshold_db = threshold_db
        self.block_samples = block_samples
        self.rate = rate
        self._size = max(1, round(WINDOW_S * rate / block_samples))
        self.reset()

    def reset(self) -> None:
        self._mic: list[float] = []
        self._clean: list[float] = []
        self.ready = self.threshold_db <= 0
        self.far_blocks = 0
        """Blocks with the speaker playing that the canceller has had."""
        self.ready_after_s: float | None = 0.0 if self.ready else None
        """Seconds of the speaker's audio it took to become ready."""
        self._assumed = False
        self._skip = 0
        self._checked = 0
        self.without_echo = False
        """Nothing the microphone hears can come from the speaker (:meth:`no_echo_path`)."""

    @property
    def erle_db(self) -> float | None:
        """ERLE over the latest full window (None before one is full)."""
        if len(self._mic) < self._size:
            return None
        return erle_db(sum(self._mic), sum(self._clean))

    def add(self, mic_energy: float, clean_energy: float) -> None:
        """One block in which the speaker played: the microphone's energy before and after."""
        self.far_blocks += 1
        if self._skip:  # the first blocks after a replay still carry its end
            self._skip -= 1
            return
        self._mic.append(mic_energy)
        self._clean.append(clean_energy)
        del self._mic[: -self._size], self._clean[: -self._size]
        erle = self.erle_db
        if erle is None:
            return
        good = erle >= self.threshold_db or sum(self._mic) / (self._size * self.block_samples) < QUIET_ECHO
        if self._assumed:
            self._checked += 1
            if good:
                self._assumed = False
            elif self._checked * self.block_samples >= CHECK_S * self.rate:
                # no window was good for CHECK_S (a person talking over it lowers one, not all)
                log.info("the room is not the one remembered (ERLE %.1f dB): learning it again", erle)
                self.ready, self.ready_after_s, self._assumed = False, None, False
                self.far_blocks = len(self._mic)
            return
        if good and not self.ready:
            self.ready = True
            self.ready_after_s = self.far_blocks * self.block_samples / self.rate
            log.info("echo canceller ready after %.2f s of sound from the speaker (ERLE %.1f dB)", self.ready_after_s, erle)

    def restart_window(self) -> None:
        """What plays next is another sound (a reply after the start-up sound): not yet ready,
        the echo reduction on what played before no longer counts."""
        if not self.ready:
            self._mic, self._clean = [], []

    def to_confirm(self) -> None:
        """Ready on what played before (the start-up sound), not on a reply: the reply's own
        windows confirm it, as they do a replayed room's (a canceller taught on one sound may
        not cancel another as well)."""
        if self.ready and self.threshold_db > 0:
            self._mic, self._clean = [], []
            self._assumed, self._checked = True, 0

    @property
    def confirmed(self) -> bool:
        """Ready, and no longer waiting for a reply's window to confirm it."""
        return self.ready and not self._assumed

    def no_echo_path(self) -> None:
        """The microphone cannot hear the speaker (a WAV file in or out, nothing played): no
        room to learn, ready at once, as with headphones; a person talking over the first
        reply is heard as over any other."""
        self.reset()
        self.ready, self.ready_after_s, self.without_echo = True, 0.0, True

    def assume(self) -> None:
        """Ready from a replayed record; the next full live window confirms it."""
        self._mic, self._clean = [], []
        self.ready, self._assumed, self._checked = True, True, 0
        self.ready_after_s = 0.0
        self._skip = round(SETTLE_S * self.rate / self.block_samples)


@dataclass(frozen=True)
class RoomRecord:
    """What the speaker played and the microphone heard (int16, same clock), and what the
    canceller made of it."""

    key: str
    """The output and input devices (another pair does not use this record)."""
    canceller: str
    rate: int
    far: np.ndarray
    mic: np.ndarray
    delay_ms: float
    """Speaker-to-microphone delay measured on it (cross-correlation)."""
    ready_after_s: float
    """Seconds of the speaker's audio the canceller took to learn the room."""
    erle_db: float
    """ERLE the canceller reached at the end of it."""

    def to_bytes(self) -> bytes:
        data = io.BytesIO()
        np.savez_compressed(data, key=self.key, canceller=self.canceller, rate=self.rate, far=self.far, mic=self.mic,
                            delay_ms=self.delay_ms, ready_after_s=self.ready_after_s, erle_db=self.erle_db)
        return data.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes) -> "RoomRecord":
        with np.load(io.BytesIO(data), allow_pickle=False) as z:
            return cls(str(z["key"]), str(z["canceller"]), int(z["rate"]), z["far"].astype(np.int16),
                       z["mic"].astype(np.int16), float(z["delay_ms"]), float(z["ready_after_s"]), float(z["erle_db"]))


def record_path(folder: Path, key: str, canceller: str) -> Path:
    digest = hashlib.sha1(f"{canceller}\n{key}".encode()).hexdigest()[:16]
    return Path(folder) / f"room-{digest}.npz"


def save(folder: Path, record: RoomRecord) -> None:
    from assistant import resources

    resources.write_bytes(record_path(folder, record.key, record.canceller), record.to_bytes())
    log.info("remembered the room for %s (delay %.0f ms, ready after %.2f s, ERLE %.1f dB)",
             record.key, record.delay_ms, record.ready_after_s, record.erle_db)


def load(folder: Path, key: str, canceller: str, rate: int) -> RoomRecord | None:
    """The record for these devices and this canceller (None: none, or not for them)."""
    path = record_path(folder, key, canceller)
    if not path.is_file():
        return None
    try:
        record = RoomRecord.from_bytes(path.read_bytes())
    except Exception as exc:  # noqa: BLE001 - a damaged file is only a lost memory
        log.warning("ignoring the remembered room %s: %s", path.name, exc)
        return None
    if record.key != key or record.canceller != canceller or record.rate != rate:
        return None
    return record


def measure_delay(far: np.ndarray, mic: np.ndarray, rate: int, max_ms: float = 500.0) -> float:
    """The delay (ms) at which ``mic`` best matches ``far`` (the echo's direct path)."""
    far, mic = far.astype(np.float64), mic.astype(np.float64)
    n = 1 << int(np.ceil(np.log2(far.size + mic.size)))
    xcorr = np.fft.irfft(np.fft.rfft(mic, n) * np.conj(np.fft.rfft(far, n)), n)
    lags = xcorr[: max(1, round(max_ms * rate / 1000))]
    return float(np.argmax(np.abs(lags)) * 1000 / rate)


class Recording:
    """Blocks of what the speaker played and the microphone heard, while the canceller ran,
    up to ``seconds`` of them."""

    def __init__(self, seconds: float, rate: int):
        self.limit = round(seconds * rate)
        self.rate = rate
        self._far: list[np.ndarray] = []
        self._mic: list[np.ndarray] = []
        self.samples = 0

    @property
    def full(self) -> bool:
        return self.samples >= self.limit

    def add(self, mic: np.ndarray, far: np.ndarray) -> None:
        if not self.full:
            self._mic.append(to_int16(mic))
            self._far.append(to_int16(far))
            self.samples += mic.size

    def record(self, key: str, canceller: str, readiness: Readiness) -> RoomRecord:
        far, mic = np.concatenate(self._far), np.concatenate(self._mic)
        return RoomRecord(key, canceller, self.rate, far, mic, measure_delay(to_float(far), to_float(mic), self.rate),
                          readiness.ready_after_s or 0.0, readiness.erle_db or 0.0)


def warm(canceller: Canceller, record: RoomRecord, readiness: Readiness, shift: int = 0) -> float:
    """Replay ``record`` through ``canceller`` (it learns the room again; a short one, again
    until ``REPLAY_S``), its reference read ``shift`` samples earlier; the ERLE it reached on
    the last half second. Readiness is assumed when that is enough."""
    n = canceller.block_samples
    far, mic = to_float(record.far), to_float(record.mic)
    if shift:
        far = np.concatenate([np.zeros(shift, np.float32), far[:-shift]])
    probe = Readiness(readiness.threshold_db, record.rate, n)
    for _ in range(max(1, int(np.ceil(REPLAY_S * record.rate / max(1, mic.size))))):
        for i in range(0, mic.size - n + 1, n):
            out = canceller.cancel(mic[i : i + n], far[i : i + n])
            if float(np.sqrt(np.mean(far[i : i + n] ** 2))) > 1e-4:
                probe.add(float(np.dot(mic[i : i + n], mic[i : i + n])), float(np.dot(out, out)))
    silence = np.zeros(n, np.float32)
    for _ in range(round(SETTLE_S * record.rate / n)):  # let its buffers run out before the live stream
        canceller.cancel(silence, silence)
    erle = probe.erle_db or 0.0
    if probe.ready and erle >= readiness.threshold_db:
        readiness.assume()
    log.info("echo canceller warmed on the remembered room (%s): ERLE %.1f dB", record.key, erle)
    return erle
