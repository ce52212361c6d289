"""Offline voice assistant engine (no Qt here)."""

__version__ = "0.1.0"

import os as _os

# llama.cpp's and CTranslate2's OpenMP threads spin at every barrier for milliseconds by
# default; on a machine whose cores are shared with the speech engines, a spinning thread
# that loses its core stalls all the others (2 cores: 1.5-3.5 s per token instead of 15
# ms). So threads sleep at barriers, but only after a short spin (~300 iterations, a few
# microseconds): a 135M model's prompt has ~450 barriers, and waking each from sleep
# doubled the prompt time (13 tokens: 82 ms sleeping at once, 45 ms with the short spin;
# beside a busy core both ~105 ms). Set before the OpenMP runtimes load; an explicit
# setting wins.
_os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
_os.environ.setdefault("GOMP_SPINCOUNT", "300")
