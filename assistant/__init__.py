"""Offline voice assistant engine (no Qt here)."""

__version__ = "0.1.0"

import os as _os

# llama.cpp's and CTranslate2's OpenMP threads spin at every barrier for milliseconds by
# default; on a machine whose cores are shared with the speech engines, a spinning thread
# that loses its core stalls all the others. Sleeping at once (OMP_WAIT_POLICY=PASSIVE)
# avoids that but slows every prompt, and with it libgomp stops spinning altogether once
# it manages more threads than there are cores. A short spin before sleeping keeps both
# (docs/tuning.md). Set before the OpenMP runtimes load; an explicit setting wins.
_os.environ.setdefault("GOMP_SPINCOUNT", "300")
