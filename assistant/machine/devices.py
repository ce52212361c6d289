"""Audio devices: whether PortAudio is there and which microphone and speaker it finds."""

from __future__ import annotations


from assistant.sound import AudioError



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


def check_device(kind: str, device: str | None = None) -> str:
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
