"""Audio devices: whether PortAudio is there, which microphone and speaker it finds, and
the devices open now (the watchdog looks at each of them)."""

from __future__ import annotations

import logging
import threading

from assistant.sound import AudioDevice, AudioError, DeviceStatus

log = logging.getLogger(__name__)


def import_sounddevice():
    """Import sounddevice lazily with a message that says what is missing."""
    try:
        import sounddevice as sd
    except OSError as exc:
        raise AudioError(
            "PortAudio is not installed, so there is no microphone or speaker access "
            "(Debian/Ubuntu: apt install libportaudio2). Use --input/--output WAV files or --text."
        ) from exc
    except ImportError as exc:
        raise AudioError("the sounddevice package is missing: pip install sounddevice") from exc
    return sd


def check_device(kind: str, device: str | int | None = None) -> str:
    """Return the device's name, or raise AudioError saying why there is none.

    ``kind`` is ``input`` or ``output``.
    """
    sd = import_sounddevice()
    try:
        info = sd.query_devices(device, kind=kind)
    except (ValueError, sd.PortAudioError) as exc:
        what = "microphone" if kind == "input" else "speaker"
        raise AudioError(f"no {what} found ({exc}). Use --input/--output WAV files or --text.") from exc
    return str(info["name"])


# ---------------------------------------------------------------- the devices open now

_open: list[AudioDevice] = []
_lock = threading.Lock()


def opened(device: AudioDevice) -> None:
    """``device`` is in use: the watchdog looks at it until :func:`closed`."""
    with _lock:
        if device not in _open:
            _open.append(device)


def closed(device: AudioDevice) -> None:
    with _lock:
        if device in _open:
            _open.remove(device)


def open_devices() -> list[AudioDevice]:
    """The speakers and microphones in use, oldest first."""
    with _lock:
        return list(_open)


def rescan(sd, asking: AudioDevice) -> bool:
    """Have PortAudio list the devices again, so one plugged in (or a new default) is
    found: only while no other device of ours streams, since re-listing ends every stream.
    Returns whether it re-listed."""
    with _lock:
        others = [d for d in _open if d is not asking and getattr(d, "streaming", False)]
    if others or not (hasattr(sd, "_terminate") and hasattr(sd, "_initialize")):
        return False
    try:
        sd._terminate()
        sd._initialize()
    except Exception as exc:  # noqa: BLE001 - PortAudio may fail any way while devices come and go
        log.debug("PortAudio could not list the devices again: %s", exc)
        return False
    return True


def close_stream(stream, what: str) -> threading.Thread:
    """Abort and close a PortAudio stream on a thread of its own (returned): a stalled
    driver can block the call."""

    def close() -> None:
        try:
            stream.abort()
            stream.close()
        except Exception as exc:  # noqa: BLE001 - a broken stream may fail any way
            log.debug("closing the %s: %s", what, exc)

    thread = threading.Thread(target=close, name=f"{what}-close", daemon=True)
    thread.start()
    return thread


class WatchedDevice:
    """What a speaker or microphone with a thread of its own tells the watchdog
    (:class:`~assistant.sound.AudioDevice`) from its own state: whether a stream is open,
    how long its current call into the driver has blocked, and its status."""

    _stream = None
    _calling_since: float | None = None
    _status: DeviceStatus

    @property
    def streaming(self) -> bool:
        """A stream is open on the device (re-listing the devices would end it)."""
        return self._stream is not None

    def stuck_for(self, now: float) -> float:
        since = self._calling_since
        return 0.0 if since is None else max(0.0, now - since)

    def status(self) -> DeviceStatus:
        return self._status
