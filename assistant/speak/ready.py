"""Replies with audio ready: the instant replies' fixed texts synthesized once, kept on disk
per voice, and handed out at the output rate (the phrase table itself is
:mod:`assistant.think.replies`); and the answers of the passing minute (the time, the date),
synthesized ahead and kept in memory while they are true."""

from __future__ import annotations

import hashlib
import io
import logging
import threading
from pathlib import Path
from typing import Callable

import numpy as np

from assistant.exiting import stop_at_exit
from assistant.resources import cache_dir, write_bytes
from assistant.sound import resample
from assistant.speak.tts import Tts

log = logging.getLogger(__name__)


class AudioCache:
    """Reply audio on disk: one ``.npy`` (mono float32 at the voice's rate) per voice and text.

    The file name hashes the voice id, its rate and the text, so another voice never
    reads this one's audio. A file that cannot be read back is deleted and rebuilt.
    """

    def __init__(self, folder: Path, voice_id: str, rate: int):
        self.folder = folder
        self.voice_id = voice_id
        self.rate = rate

    def path(self, text: str) -> Path:
        key = hashlib.sha256(f"{self.voice_id}\n{self.rate}\n{text}".encode("utf-8")).hexdigest()[:32]
        return self.folder / f"{key}.npy"

    def load(self, text: str) -> np.ndarray | None:
        path = self.path(text)
        if not path.exists():
            return None
        try:
            pcm = np.load(path, allow_pickle=False)
            valid = pcm.dtype == np.float32 and pcm.ndim == 1 and pcm.size > 0 and bool(np.isfinite(pcm).all())
        except (OSError, ValueError, EOFError) as exc:
            log.debug("cannot read %s: %s", path, exc)
            valid = False
        if not valid:
            log.warning("reply audio %s is corrupt; it is synthesized again", path.name)
            path.unlink(missing_ok=True)
            return None
        return pcm

    def save(self, text: str, pcm: np.ndarray) -> None:
        data = io.BytesIO()
        np.save(data, pcm.astype(np.float32, copy=False))
        try:
            write_bytes(self.path(text), data.getvalue())  # a reader never sees half a file
        except OSError as exc:  # a read-only cache only costs synthesis at the next start
            log.warning("cannot write reply audio to %s: %s", self.folder, exc)


STOP_WAIT_S = 10.0
"""The longest the process's end waits for the text being prerendered (a sentence takes Piper well under a second)."""


class ReadyAudio:
    """The fixed replies' audio at the output rate: read from the disk cache, or synthesized
    (on a background thread or at once) and cached."""

    def __init__(self, tts: Tts, output_rate: int, cache: AudioCache):
        self._tts = tts
        self._output_rate = output_rate
        self._cache = cache
        self._audio: dict[str, np.ndarray] = {}
        self._passing: dict[str, np.ndarray] = {}
        """The passing minute's answers (:meth:`render_passing`), at the output rate."""
        self._lock = threading.Lock()
        self._ready = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self.synthesized: list[str] = []
        """Texts synthesized (not read from the disk cache) by :meth:`prerender`."""

    def audio(self, text: str) -> np.ndarray | None:
        """Audio of ``text`` at the output rate, once it is ready."""
        with self._lock:
            found = self._audio.get(text)
            return found if found is not None else self._passing.get(text)

    def render_passing(self, texts: list[str], before_each: Callable[[], bool] = lambda: True) -> int:
        """Synthesize the texts that are true for a while only (the time said to the minute), here,
        in memory; the passing texts no longer among ``texts`` are forgotten. ``before_each`` is
        called before each synthesis (it may wait); False stops. Returns how many were synthesized
        (the others were ready). A text the voice cannot say is left to live speech."""
        with self._lock:
            self._passing = {text: pcm for text, pcm in self._passing.items() if text in texts}
            missing = [text for text in dict.fromkeys(texts) if text not in self._passing and text not in self._audio]
        made = 0
        for text in missing:
            if not before_each():
                break
            pcm = self._said(text, "synthesize ahead")  # None or silent: the answer is still spoken live
            if pcm is not None and pcm.size:
                self._publish(text, pcm, passing=True)
                made += 1
        return made

    def prerender(self, texts: list[str], background: bool) -> None:
        missing = []
        for text in texts:
            pcm = self._cache.load(text)
            if pcm is None:
                missing.append(text)
            else:
                self._publish(text, pcm)
        if not missing:
            self._ready.set()
        elif background:
            self._thread = threading.Thread(target=self._synthesize, args=(missing,), name="replies-prerender", daemon=True)
            stop_at_exit(self)  # a voice's native threads must not be running when the process ends
            self._thread.start()
        else:
            self._synthesize(missing)

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Block until :meth:`prerender` is done; False on timeout."""
        return self._ready.wait(timeout)

    def stop(self, timeout: float = STOP_WAIT_S) -> None:
        """End a background :meth:`prerender` after the text it is synthesizing (what is left is synthesized at
        the next start), and wait for it: a voice's native threads must not be running when the process ends."""
        self._stopping.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def _synthesize(self, texts: list[str]) -> None:
        try:
            for text in texts:
                if self._stopping.is_set():
                    break
                pcm = self._said(text, "prerender the reply")  # None: the reply is still spoken live, or shown
                if pcm is None:
                    continue
                self.synthesized.append(text)
                if pcm.size == 0:
                    log.info("the voice has no audio for the reply %r", text)
                    continue
                self._cache.save(text, pcm)
                self._publish(text, pcm)
        finally:
            self._ready.set()

    def _said(self, text: str, doing: str) -> np.ndarray | None:
        """The voice's audio of ``text`` (mono float32 at its rate; empty where it has none), or None
        where the voice failed (logged: it could not ``doing``)."""
        try:
            pieces = list(self._tts.synthesize(text))
        except Exception as exc:  # noqa: BLE001 - the caller leaves the text to live speech
            log.warning("cannot %s %r: %s", doing, text, exc)
            return None
        return np.concatenate(pieces).astype(np.float32) if pieces else np.zeros(0, np.float32)

    def _publish(self, text: str, pcm: np.ndarray, passing: bool = False) -> None:
        """``pcm`` at the output rate, read-only, among the fixed replies' audio or (``passing``) the
        passing minute's."""
        audio = resample(pcm, self._tts.rate, self._output_rate)
        audio.flags.writeable = False
        with self._lock:
            (self._passing if passing else self._audio)[text] = audio



def ready_audio(tts: Tts, output_rate: int) -> ReadyAudio:
    """The reply audio of ``tts``, cached under the user's cache folder."""
    return ReadyAudio(tts, output_rate, AudioCache(cache_dir() / "replies", tts.voice_id, tts.rate))
