"""Check, once per llama.cpp build and CPU, that the build survives a real prompt.

Some llama.cpp builds crash in native code on some CPUs: built with GCC 12 on a CPU with
AMX, the AMX matrix kernel faults on ``ldtilecfg`` at the first batch of more than one
token (llama.cpp issue 20824), which kills the whole process. A one-token smoke test
passes, so the only safe check is a real multi-token evaluation in a child process.

The result (a :class:`BuildCheck`) is cached, keyed by the library file, the llama_cpp
version, the CPU's feature flags and the model's tensor types (the repacked kernels are
chosen per type), so the probe costs one child process on the first start and nothing
after. A probe that timed out proves nothing about the build (a machine busy at start
up): it is used for this run and tried again at the next start. When the child dies,
models are loaded without llama.cpp's extra buffer types (the repacked-weight kernels,
AMX among them), which avoids the crash at a small speed cost.
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
import threading
import time
from dataclasses import dataclass
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
"""When set, a probe child that loaded the model with extra buffer types kills itself
with SIGSEGV where a miscompiled kernel would, at the first multi-token batch (to show the
fallback on a CPU that has no AMX)."""
EXTRA_BUFTS_FIELD = "use_extra_bufts"
"""The field of llama.cpp's ``llama_model_params`` that turns the extra buffer types off."""

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
class BuildCheck:
    """Whether this llama.cpp build survives a multi-token prompt on this CPU, and so
    whether models load with its extra buffer types."""

    extra_bufts: bool
    """Load models with llama.cpp's extra buffer types (weight repacking, AMX)."""
    reason: str
    """What the probe saw, in words."""
    probe_s: float
    """Seconds the probe took when it ran (0 when it came from the cache)."""
    cached: bool = False
    """The check came from the cache file, no child was started."""
    lasting: bool = True
    """Says something lasting about the build, so it is cached; False for a probe that
    timed out (tried again at the next start)."""

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


def tensor_types(model: Path) -> list[str]:
    """The ggml types of ``model``'s tensors (Q4_1, Q6_K, F32...): which kernels, repacked
    or not, a prompt runs through. Empty when the header cannot be read (the load says why)."""
    from assistant.machine.gguf_info import GGML_TYPES, read_gguf

    try:
        info = read_gguf(model)
    except (OSError, ValueError):
        return []
    return sorted({GGML_TYPES.get(t.type, (f"type {t.type}",))[0] for t in info.tensors})


def build_key(model: Path) -> str:
    """What the check depends on: the llama.cpp library, the CPU and the model's tensor types."""
    import llama_cpp

    library = library_file()
    stat = library.stat() if library and library.exists() else None
    key = {
        "library": str(library), "size": stat.st_size if stat else None,
        "mtime": stat.st_mtime_ns if stat else None, "version": llama_cpp.__version__,
        "cpu": hashlib.sha256(" ".join(cpu_flags()).encode()).hexdigest()[:16],
        "tensor_types": tensor_types(model),
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


def _write_cache(key: str, result: BuildCheck) -> None:
    data = _read_cache()
    data[key] = {"extra_bufts": result.extra_bufts, "reason": result.reason, "probe_s": result.probe_s}
    try:
        resources.write_text(_cache_path(), json.dumps(data, indent=1))
    except OSError as exc:
        log.warning("could not save the native build check: %s", exc)


def cached_check(model: Path) -> BuildCheck | None:
    """The check for this build, CPU and model's tensor types if the probe ran before,
    without running it."""
    try:
        entry = _read_cache().get(build_key(model))
    except (ImportError, OSError):
        return None
    if not isinstance(entry, dict):
        return None
    return BuildCheck(bool(entry.get("extra_bufts", True)), str(entry.get("reason", "")),
                      float(entry.get("probe_s", 0.0)), cached=True)


# ------------------------------------------------------------------ the probe

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
    """This program again (the child sees :data:`PROBE_ENV` and runs :func:`run_child`)."""
    env = resources.child_env({PROBE_ENV: str(model), EXTRA_ENV: "1" if extra_bufts else "0"})
    return subprocess.run(command or resources.own_command(), env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=PROBE_TIMEOUT_S)


def probe(model: Path, command: list[str] | None = None) -> BuildCheck | None:
    """Evaluate a multi-token prompt on ``model`` in a child process.

    Returns the check, or None when the probe says nothing about the build (the child
    failed with an ordinary error, a broken model file say: the real load reports it).
    Raises :class:`NativeBuildError` when the build crashes even without extra buffer types.
    """
    start = time.perf_counter()
    try:
        result = _run_child(model, True, command)
    except subprocess.TimeoutExpired:
        return BuildCheck(False, f"a {len(PROBE_TEXT)}-byte prompt did not finish in {PROBE_TIMEOUT_S:.0f} s "
                                 "(checked again at the next start)", time.perf_counter() - start, lasting=False)
    if result.returncode == 0:
        return BuildCheck(True, "a multi-token prompt ran in a child process", time.perf_counter() - start)
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
    return BuildCheck(False, f"a multi-token prompt with them {first} in a child process",
                      time.perf_counter() - start)


_lock = threading.Lock()
_checked: dict[str, BuildCheck] = {}
"""Checks made in this process, by :func:`build_key`."""


def check(model: Path) -> BuildCheck:
    """The check for this build, CPU and model: from memory, the cache file, or a probe on
    ``model`` (cached unless it timed out). Says once in the log when a fallback is in force."""
    with _lock:
        key = build_key(model)
        if key in _checked:
            return _checked[key]
        result = cached_check(model)
        if result is None:
            result = probe(model)
            if result is None:
                return BuildCheck(True, "not checked (the probe could not load the model)", 0.0, lasting=False)
            if result.lasting:
                _write_cache(key, result)
            log.info("native build check took %.2f s: %s", result.probe_s, result.reason)
        if result.note:
            (log.info if result.cached else log.warning)("%s", result.note)
        _checked[key] = result
        return result


def forget() -> None:
    """Forget the checks made in this process (the cache file stays): as a restart would."""
    with _lock:
        _checked.clear()


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

    require_extra_bufts_field(lib.llama_model_params)
    with _params_lock:
        original = lib.llama_model_default_params

        def without_extra_bufts():
            params = original()
            setattr(params, EXTRA_BUFTS_FIELD, False)
            return params

        lib.llama_model_default_params = without_extra_bufts
        try:
            yield
        finally:
            lib.llama_model_default_params = original


def require_extra_bufts_field(params_type: type) -> None:
    """Raise :class:`NativeBuildError` unless the ctypes structure ``params_type`` has the
    field that turns the extra buffer types off: setting a field a ctypes structure lacks
    only adds a Python attribute, and the build would crash as if nothing had been done."""
    names = [name for name, *_ in getattr(params_type, "_fields_", ())]
    if EXTRA_BUFTS_FIELD not in names:
        raise NativeBuildError(
            f"this llama-cpp-python ({_version()}) has no {EXTRA_BUFTS_FIELD} in llama_model_params, so its "
            f"extra buffer types cannot be turned off; install a tested version (see pyproject.toml) or "
            f"rebuild it: {REBUILD_COMMAND}")


def _version() -> str:
    return resources.distribution_version("llama_cpp_python") or "unknown version"


def load(model: Path, **options):
    """``llama_cpp.Llama(model_path=model, **options)`` as this build and CPU allow it:
    checked first, and without extra buffer types where they crash."""
    import llama_cpp

    with model_params(check(model).extra_bufts):
        return llama_cpp.Llama(model_path=str(model), **options)


def run_child(model: str) -> int:
    """The probe child: load ``model`` and evaluate a multi-token prompt (with the forced
    crash, die where a miscompiled kernel would: loaded, at the first batch)."""
    extra = os.environ.get(EXTRA_ENV, "1") == "1"
    import llama_cpp

    with model_params(extra):
        llama = llama_cpp.Llama(model_path=model, n_ctx=256, n_batch=64, verbose=False)
    if extra and os.environ.get(FORCE_CRASH_ENV):
        os.kill(os.getpid(), signal.SIGSEGV)
    llama.eval(llama.tokenize(PROBE_TEXT))
    return 0

