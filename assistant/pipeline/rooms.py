"""Which room the echo canceller is in: the pair of output and input devices that its
memory of the room belongs to (:mod:`assistant.hear.echo_memory`)."""

from __future__ import annotations

from pathlib import Path

from assistant.config import AudioConfig, EchoConfig
from assistant.hear.room import EchoRoom
from assistant.hear.sources import PacedWavSource
from assistant.sound import AudioIn, AudioOut
from assistant.speak.sinks import NullSink, SameClockWavSink


def echo_memory_folder(config: EchoConfig) -> Path | None:
    """Where the rooms learnt are kept (None: ``echo.remember_room`` is off)."""
    if not config.remember_room:
        return None
    from assistant import resources

    return resources.cache_dir() / "echo"


def room_key(source: AudioIn, output: AudioOut, audio: AudioConfig) -> str | None:
    """The devices the echo goes through: the simulated room, or the configured speaker and
    microphone (None: no echo to learn, a WAV in or out, or nothing played). A source under
    a watch (the kiosk's) is the source it watches: a visitor reset keeps the room."""
    source = getattr(source, "watches", source)
    if isinstance(source, EchoRoom):
        return f"simulated {source.path} at {source.rate} Hz"
    if isinstance(source, PacedWavSource) or isinstance(output, (SameClockWavSink, NullSink)):
        return None
    speaker = audio.output_device if audio.output_device is not None else "default"
    microphone = audio.input_device if audio.input_device is not None else "default"
    return f"speaker {speaker} -> microphone {microphone}"
