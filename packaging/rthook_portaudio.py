"""PyInstaller runtime hook: shared libraries shipped in the bundle come before the system's.

sounddevice finds PortAudio with ``ctypes.util.find_library("portaudio")``, which on Linux
only asks the system (ldconfig). The bundle carries its own ``libportaudio.so.2``, so a
machine without PortAudio installed still gets a microphone and a speaker.
"""

import ctypes.util
import sys
from pathlib import Path

if sys.platform.startswith("linux"):
    _system_find_library = ctypes.util.find_library

    def _find_library(name: str) -> str | None:
        bundled = sorted(Path(sys._MEIPASS).glob(f"lib{name}.so*"))  # type: ignore[attr-defined]
        return str(bundled[0]) if bundled else _system_find_library(name)

    ctypes.util.find_library = _find_library
