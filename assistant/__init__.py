"""Offline voice assistant engine (no Qt here)."""

__version__ = "0.1.0"

import os as _os

# llama.cpp's OpenMP threads spin at every barrier by default; on a machine whose cores
# are shared with the speech engines, a spinning thread that loses its core stalls all
# the others. Sleeping at barriers costs little and avoids that (set before llama.cpp
# loads its OpenMP runtime; an explicit setting wins).
_os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
