"""PyInstaller runtime hook: PyAV (FFmpeg, about 100 MB) is left out of the bundle.

faster-whisper imports ``av`` at import time only to decode audio files; the assistant
always hands it decoded arrays. This stand-in satisfies the import and names the cause if
anything ever tries to decode a file through it.
"""

import sys
import types


class _NoPyAv(types.ModuleType):
    def __getattr__(self, name: str):
        raise AttributeError(f"av.{name}: PyAV (FFmpeg) is not included in this bundle")


sys.modules.setdefault("av", _NoPyAv("av"))
