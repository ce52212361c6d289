"""Offline voice assistant engine (no Qt here)."""

__version__ = "0.1.0"

import os as _os

# llama.cpp's and CTranslate2's OpenMP threads spin at every barrier for milliseconds by
# default; on a machine whose cores are shared with the speech engines, a spinning thread
# that loses its core stalls all the others (2 cores: 1.5-3.5 s per token instead of 15
# ms). Sleeping at once (OMP_WAIT_POLICY=PASSIVE) avoids that but doubles a prompt's time:
# a 135M model's prompt has ~450 barriers (13 tokens: 82 ms). A short spin before sleeping
# (~300 iterations, a few microseconds) keeps both: 45 ms, and ~105 ms beside a busy core
# like sleeping at once. PASSIVE is not set: with it libgomp stops spinning altogether
# whenever it manages more threads than there are cores (TTFT 57 -> 88 ms after another
# thread had used the model). Set before the OpenMP runtimes load; an explicit setting wins.
_os.environ.setdefault("GOMP_SPINCOUNT", "300")
