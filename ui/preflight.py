"""Before the QApplication: is there a display, and can Qt's xcb platform load on it?

Qt 6.5+'s xcb plugin needs system libraries a fresh Debian or Ubuntu lacks
(``libxcb-cursor0``, ``libxcb-icccm4``, ...). Without them Qt prints "Could not load the Qt
platform plugin" and aborts. Here the plugin's dependencies are read with ``ldd`` (the
dynamic loader's own answer) and each missing library is named with the Debian package
that provides it, so the user gets one command to run instead of Qt's generic abort.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

DEBIAN_PACKAGES = {
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xinput.so.0": "libxcb-xinput0",
    "libxcb.so.1": "libxcb1",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libX11.so.6": "libx11-6",
    "libSM.so.6": "libsm6",
    "libICE.so.6": "libice6",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libOpenGL.so.0": "libopengl0",
    "libGLX.so.0": "libglx0",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libdbus-1.so.3": "libdbus-1-3",
}
"""Shared libraries Qt's xcb platform and the Qt libraries it loads depend on, and the
Debian/Ubuntu package of each (the same names on both)."""


def qt_xcb_files() -> list[Path]:
    """The xcb platform plugin and its Qt library inside the installed PySide6."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return []
    qt = Path(next(iter(spec.submodule_search_locations))) / "Qt"
    files = [qt / "plugins" / "platforms" / "libqxcb.so", qt / "lib" / "libQt6XcbQpa.so.6"]
    return [f for f in files if f.exists()]


def missing_libraries(files: list[Path] | None = None) -> list[str]:
    """Sonames the xcb platform needs that the dynamic loader cannot find."""
    files = qt_xcb_files() if files is None else files
    ldd = shutil.which("ldd")
    if ldd and files:
        missing = []
        for file in files:
            result = subprocess.run([ldd, str(file)], capture_output=True, text=True, timeout=30)
            for line in result.stdout.splitlines():
                name, _, where = line.strip().partition(" => ")
                if where.strip() == "not found" and name not in missing:
                    missing.append(name)
        return missing
    missing = []
    for name in DEBIAN_PACKAGES:  # no ldd: try to load each library the plugin is known to need
        try:
            ctypes.CDLL(name)
        except OSError:
            missing.append(name)
    return missing


def install_command(missing: list[str]) -> str:
    packages = sorted({DEBIAN_PACKAGES.get(name, name) for name in missing})
    return f"apt-get update && apt-get install -y {' '.join(packages)}"


def display_problem() -> str | None:
    """Why a window cannot open on this machine, in words with the fix; None when it can
    (or when another Qt platform than xcb was chosen, such as offscreen in the tests)."""
    if not sys.platform.startswith("linux"):
        return None
    platform = os.environ.get("QT_QPA_PLATFORM", "")
    if platform and not platform.startswith("xcb"):
        return None
    if not platform and os.environ.get("WAYLAND_DISPLAY"):
        return None
    if not os.environ.get("DISPLAY"):
        return ("no display: DISPLAY is not set. Run the app in a desktop session, or talk from the terminal "
                "with `assistant chat` (microphone, --text or --input WAV files)")
    missing = missing_libraries()
    if not missing:
        return None
    named = ", ".join(missing)
    return (f"the window cannot open: Qt's xcb platform needs system libraries this machine lacks ({named}). "
            f"On Debian/Ubuntu: {install_command(missing)}")
