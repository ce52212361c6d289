"""Check, once per llama.cpp build and CPU, that the build survives a real prompt.

Some llama.cpp builds crash in native code on some CPUs: built with GCC 12 on a CPU with
AMX, the AMX matrix kernel faults on ``ldtilecfg`` at the first batch of more than one
token (llama.cpp issue 20824), which kills the whole process. A one-token smoke test
passes, so the only safe check is a real multi-token evaluation in a child process.

The verdict is cached, keyed by the library file, the llama_cpp version and the CPU's
feature flags, so the probe costs one child process on the first start and nothing after.
When the child dies, models are loaded without llama.cpp's extra buffer types (the
repacked-weight kernels, AMX among them), which avoids the crash at a small speed cost.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import platform
import signal
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Iterator

from assistant import resources
from assistant.resources import cache_dir

log = logging.getLogger(__name__)

PROBE_ENV = "ASSISTANT_NATIVE_PROBE"
"""Set in the child's environment: the GGUF file to evaluate a prompt with."""
EXTRA_ENV = "ASSISTANT_NATIVE_PROBE_EXTRA"
"""Set in the child's environment: "1" to load with extra buffer types, "0" without."""
FORCE_CRASH_ENV = "ASSISTANT_PROBE_FORCE_CRASH"
"""When set, a probe child that loads with extra buffer types kills itself with SIGSEGV,
as a miscompiled kernel would (to show the fallback on a CPU that has no AMX)."""

PROBE_TIMEOUT_S = 120.0
PROBE_TEXT = b"The quick brown fox jumps over the lazy dog, and then it runs back home."
AMX_FLAGS = ("-mno-amx-tile", "-mno-amx-int8", "-mno-amx-bf16")
REBUILD_COMMAND = (
    "CMAKE_ARGS=\"-DCMAKE_C_FLAGS='{0}' -DCMAKE_CXX_FLAGS='{0}'\" "
    "pip install --force-reinstall --no-cache-dir llama-cpp-python"
).format(" ".join(AMX_FLAGS))


class NativeBuildError(RuntimeError):
    """This llama.cpp build crashes on this CPU even without extra buffer types."""


@dataclass(frozen=True)
class Verdict:
    extra_bufts: bool
    """Load models with llama.cpp's extra buffer types (weight repacking, AMX)."""
    reason: str
    """What the probe saw, in words."""
    probe_s: float
    """Seconds the probe took when it ran (0 when it came from the cache)."""
    cached: bool = False
    """The verdict came from the cache file, no child was started."""

    @property
    def note(self) -> str | None:
        """One line for the log, the status line and doctor when a fallback is in force."""
        if self.extra_bufts:
            return None
        return (f"llama.cpp's extra buffer types are off: {self.reason}. "
                f"Rebuild to get them back: {REBUILD_COMMAND}")


# ------------------------------------------------------------------ key and cache

def cpu_flags() -> list[str]:
    """The CPU's feature flags (Linux: /proc/cpuinfo), or what platform knows elsewhere."""
    try:
        for line in Path("/proc/cpuinfo").read_text(errors="replace").splitlines():
            if line.startswith(("flags", "Features")):
                return sorted(set(line.split(":", 1)[1].split()))
    except OSError:
        pass
    return [platform.machine(), platform.processor()]


def has_amx() -> bool:
    return "amx_tile" in cpu_flags()


def library_file() -> Path | None:
    """The llama.cpp shared library that llama_cpp loaded."""
    try:
        import llama_cpp.llama_cpp as lib
    except (ImportError, OSError):
        return None
    name = getattr(getattr(lib, "_lib", None), "_name", None)
    return Path(name) if name else None


def build_key() -> str:
    import llama_cpp

    library = library_file()
    stat = library.stat() if library and library.exists() else None
    key = {
        "library": str(library), "size": stat.st_size if stat else None,
        "mtime": stat.st_mtime_ns if stat else None, "version": llama_cpp.__version__,
        "cpu": hashlib.sha256(" ".join(cpu_flags()).encode()).hexdigest()[:16],
        "force_crash": bool(os.environ.get(FORCE_CRASH_ENV)),
    }
    return hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:24]


def _cache_path() -> Path:
    return cache_dir() / "native-probe.json"


def _read_cache() -> dict:
    try:
        data = json.loads(_cache_path().read_text())
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def _write_cache(key: str, verdict: Verdict) -> None:
    data = _read_cache()
    data[key] = {"extra_bufts": verdict.extra_bufts, "reason": verdict.reason, "probe_s": verdict.probe_s}
    try:
        resources.write_text(_cache_path(), json.dumps(data, indent=1))
    except OSError as exc:
        log.warning("could not save the native build check: %s", exc)


def cached_verdict() -> Verdict | None:
    """The verdict for this build and CPU if the probe ran before, without running it."""
    try:
        entry = _read_cache().get(build_key())
    except (ImportError, OSError):
        return None
    if not isinstance(entry, dict):
        return None
    return Verdict(bool(entry.get("extra_bufts", True)), str(entry.get("reason", "")),
                   float(entry.get("probe_s", 0.0)), cached=True)


# ------------------------------------------------------------------ the probe

def child_command() -> list[str]:
    """This program again: the frozen app, or ``python -m assistant``. The child sees
    :data:`PROBE_ENV` and runs :func:`run_child` instead of the app."""
    if getattr(sys, "frozen", False):
        return [sys.executable]
    return [sys.executable, "-m", "assistant"]


def describe_exit(returncode: int) -> str:
    if returncode < 0:
        with contextlib.suppress(ValueError):
            return f"killed by {signal.Signals(-returncode).name}"
        return f"killed by signal {-returncode}"
    if returncode >= 0xC0000000:  # a Windows exception code (0xC0000005: access violation)
        return f"crashed with exception 0x{returncode:08X}"
    return f"exited with status {returncode}"


def crashed(returncode: int) -> bool:
    """The child died in native code (a signal, or a Windows exception code)."""
    return returncode < 0 or returncode >= 0xC0000000


def _run_child(model: Path, extra_bufts: bool, command: list[str] | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, **{PROBE_ENV: str(model), EXTRA_ENV: "1" if extra_bufts else "0"})
    package_root = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    return subprocess.run(command or child_command(), env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=PROBE_TIMEOUT_S)


def probe(model: Path, command: list[str] | None = None) -> Verdict | None:
    """Evaluate a multi-token prompt on ``model`` in a child process.

    Returns the verdict, or None when the probe says nothing about the build (the child
    failed with an ordinary error, a broken model file say: the real load reports it).
    Raises :class:`NativeBuildError` when the build crashes even without extra buffer types.
    """
    start = time.perf_counter()
    try:
        result = _run_child(model, True, command)
    except subprocess.TimeoutExpired:
        return Verdict(False, f"a {len(PROBE_TEXT)}-byte prompt did not finish in {PROBE_TIMEOUT_S:.0f} s",
                       time.perf_counter() - start)
    if result.returncode == 0:
        return Verdict(True, "a multi-token prompt ran in a child process", time.perf_counter() - start)
    if not crashed(result.returncode):
        log.info("native build check inconclusive (%s): %s", describe_exit(result.returncode),
                 result.stderr.strip()[-300:])
        return None
    first = describe_exit(result.returncode)
    try:
        second = _run_child(model, False, command)
    except subprocess.TimeoutExpired:
        second = None
    if second is None or crashed(second.returncode):
        raise NativeBuildError(
            f"this llama.cpp build crashes on this CPU ({first}, also without extra buffer types). "
            f"Rebuild it: {REBUILD_COMMAND}")
    return Verdict(False, f"a multi-token prompt with them {first} in a child process",
                   time.perf_counter() - start)


_lock = threading.Lock()
_verdict: Verdict | None = None


def check(model: Path) -> Verdict:
    """The verdict for this build and CPU: from memory, the cache file, or a probe on
    ``model`` (which then is cached). Says once in the log when a fallback is in force."""
    global _verdict
    with _lock:
        if _verdict is not None:
            return _verdict
        verdict = cached_verdict()
        if verdict is None:
            verdict = probe(model)
            if verdict is None:
                return Verdict(True, "not checked (the probe could not load the model)", 0.0)
            _write_cache(build_key(), verdict)
            log.info("native build check took %.2f s: %s", verdict.probe_s, verdict.reason)
        if verdict.note:
            (log.info if verdict.cached else log.warning)("%s", verdict.note)
        _verdict = verdict
        return verdict


_params_lock = threading.RLock()


@contextlib.contextmanager
def model_params(extra_bufts: bool) -> Iterator[None]:
    """Construct ``llama_cpp.Llama`` inside this to load without extra buffer types.

    ``Llama(...)`` does not expose ``use_extra_bufts``; it takes its model parameters from
    ``llama_model_default_params()``, which is wrapped here for the duration of the load.
    """
    if extra_bufts:
        yield
        return
    import llama_cpp.llama_cpp as lib

    with _params_lock:
        original = lib.llama_model_default_params

        def without_extra_bufts():
            params = original()
            params.use_extra_bufts = False
            return params

        lib.llama_model_default_params = without_extra_bufts
        try:
            yield
        finally:
            lib.llama_model_default_params = original


def load(model: Path, **options):
    """``llama_cpp.Llama(model_path=model, **options)`` as this build and CPU allow it:
    checked first, and without extra buffer types where they crash."""
    import llama_cpp

    with model_params(check(model).extra_bufts):
        return llama_cpp.Llama(model_path=str(model), **options)


def run_child(model: str) -> int:
    """The probe child: load ``model`` and evaluate a multi-token prompt."""
    extra = os.environ.get(EXTRA_ENV, "1") == "1"
    if extra and os.environ.get(FORCE_CRASH_ENV):
        os.kill(os.getpid(), signal.SIGSEGV)
    import llama_cpp

    with model_params(extra):
        llama = llama_cpp.Llama(model_path=model, n_ctx=256, n_batch=64, verbose=False)
    llama.eval(llama.tokenize(PROBE_TEXT))
    return 0


def status() -> dict:
    """For doctor: the cached verdict (the probe is not run here)."""
    verdict = cached_verdict()
    return {"amx": has_amx(), "checked": verdict is not None,
            **(asdict(verdict) if verdict else {}), "rebuild": REBUILD_COMMAND}
