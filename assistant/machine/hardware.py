"""What this machine has: GPUs with their total and free memory, CPU cores, RAM, and
whether the installed llama.cpp build can offload to a GPU at all.

Every probe is optional and bounded: a missing tool, a driver that is not loaded, a
command that hangs or prints something unexpected yields no device and a note, never
an exception.
"""

from __future__ import annotations

import json
import logging
import os
import platform
import shutil
import subprocess
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

GB = 1024**3
MIB = 1024**2
TOOL_TIMEOUT_S = 5.0
APPLE_GPU_SHARE = 0.67
"""Share of RAM that Metal lets one process keep resident (its recommended working set)."""


@dataclass(frozen=True)
class Gpu:
    index: int
    name: str
    vendor: str
    """``nvidia``, ``amd`` or ``apple``."""
    total_bytes: int
    free_bytes: int
    unified: bool = False
    """Memory shared with the CPU (Apple Silicon): the figures are a share of RAM."""

    def describe(self) -> str:
        shared = ", shared with the CPU" if self.unified else ""
        return f"GPU {self.index}: {self.name}, {self.free_bytes / GB:.1f} of {self.total_bytes / GB:.1f} GB free{shared}"


@dataclass(frozen=True)
class Hardware:
    gpus: tuple[Gpu, ...] = ()
    cpu_cores: int = 1
    """Physical cores (logical ones when the count is unknown)."""
    cpu_threads: int = 1
    ram_total_bytes: int = 0
    ram_available_bytes: int = 0
    llama_offload: bool = False
    """The installed llama.cpp was built with a GPU backend (CUDA, ROCm, Metal, Vulkan...)."""
    notes: tuple[str, ...] = field(default=())
    """Why a probe found nothing (tool missing, driver not loaded, timeout...)."""

    @property
    def vram_total_bytes(self) -> int:
        return sum(g.total_bytes for g in self.gpus)

    @property
    def vram_free_bytes(self) -> int:
        return sum(g.free_bytes for g in self.gpus)

    def describe_cpu(self) -> str:
        return (
            f"CPU: {self.cpu_cores} cores ({self.cpu_threads} threads), RAM {self.ram_available_bytes / GB:.1f} "
            f"of {self.ram_total_bytes / GB:.1f} GB available"
        )


# ---------------------------------------------------------------- running tools


def run_tool(args: list[str], timeout: float | None = None) -> tuple[str | None, str]:
    """Run a command; returns (stdout, "") or (None, why it gave nothing)."""
    timeout = TOOL_TIMEOUT_S if timeout is None else timeout
    exe = shutil.which(args[0])
    if exe is None:
        return None, f"{args[0]}: not installed"
    try:
        done = subprocess.run(
            [exe, *args[1:]], capture_output=True, timeout=timeout, stdin=subprocess.DEVNULL, check=False
        )
    except subprocess.TimeoutExpired:
        return None, f"{args[0]}: no answer within {timeout:g} s"
    except OSError as exc:
        return None, f"{args[0]}: cannot run ({exc})"
    out = done.stdout.decode("utf-8", errors="replace")
    if done.returncode != 0:
        err = done.stderr.decode("utf-8", errors="replace").strip().splitlines()
        return None, f"{args[0]}: exit status {done.returncode}" + (f" ({err[-1][:120]})" if err else "")
    return out, ""


# ---------------------------------------------------------------- NVIDIA


NVIDIA_SMI_QUERY = ["nvidia-smi", "--query-gpu=index,name,memory.total,memory.free", "--format=csv,noheader,nounits"]


def parse_nvidia_smi(text: str) -> list[Gpu]:
    """Parse ``index, name, total MiB, free MiB`` lines; lines that don't fit are skipped."""
    gpus = []
    for line in text.splitlines():
        parts = [p.strip() for p in line.split(",")]
        if len(parts) != 4:
            continue
        index, name, total, free = parts
        try:
            gpu = Gpu(int(index), name or "NVIDIA GPU", "nvidia", int(float(total) * MIB), int(float(free) * MIB))
        except ValueError:  # "[N/A]", "[Not Supported]", garbage
            continue
        if gpu.total_bytes > 0 and 0 <= gpu.free_bytes <= gpu.total_bytes:
            gpus.append(gpu)
    return gpus


def nvml_gpus() -> tuple[list[Gpu], str]:
    """NVIDIA GPUs through NVML (``nvidia-ml-py``, the ``gpu`` extra)."""
    try:
        import pynvml
    except ImportError:
        return [], "NVML: nvidia-ml-py is not installed"
    try:
        pynvml.nvmlInit()
    except Exception as exc:  # NVMLError_LibraryNotFound, _DriverNotLoaded, ...
        return [], f"NVML: {exc or type(exc).__name__}"
    try:
        gpus = []
        for i in range(pynvml.nvmlDeviceGetCount()):
            handle = pynvml.nvmlDeviceGetHandleByIndex(i)
            name = pynvml.nvmlDeviceGetName(handle)
            memory = pynvml.nvmlDeviceGetMemoryInfo(handle)
            name = name.decode("utf-8", errors="replace") if isinstance(name, bytes) else str(name)
            gpus.append(Gpu(i, name, "nvidia", int(memory.total), int(memory.free)))
        return gpus, ""
    except Exception as exc:
        return [], f"NVML: {exc or type(exc).__name__}"
    finally:
        try:
            pynvml.nvmlShutdown()
        except Exception:
            pass


def nvidia_gpus() -> tuple[list[Gpu], list[str]]:
    gpus, why = nvml_gpus()
    if gpus:
        return gpus, []
    out, why_smi = run_tool(NVIDIA_SMI_QUERY)
    if out is None:
        return [], [why, why_smi]
    gpus = parse_nvidia_smi(out)
    return gpus, [] if gpus else [why, "nvidia-smi: no GPU in its answer"]


# ---------------------------------------------------------------- AMD


ROCM_SMI_QUERY = ["rocm-smi", "--showproductname", "--showmeminfo", "vram", "--json"]


def parse_rocm_smi(text: str) -> list[Gpu]:
    """Parse ``rocm-smi --json``: ``{"card0": {"VRAM Total Memory (B)": "...", ...}}``."""
    try:
        cards = json.loads(text)
    except (ValueError, RecursionError):
        return []
    if not isinstance(cards, dict):
        return []
    gpus = []
    for key, card in cards.items():
        if not (isinstance(key, str) and key.startswith("card") and isinstance(card, dict)):
            continue
        try:
            index = int(key[4:])
            total = int(card["VRAM Total Memory (B)"])
            used = int(card["VRAM Total Used Memory (B)"])
        except (KeyError, ValueError, TypeError):
            continue
        name = next((str(card[k]) for k in ("Card Series", "Card series", "Card Model", "Card model", "Device Name") if card.get(k)), "AMD GPU")
        if total > 0 and 0 <= used <= total:
            gpus.append(Gpu(index, name, "amd", total, total - used))
    return gpus


def amd_gpus() -> tuple[list[Gpu], list[str]]:
    out, why = run_tool(ROCM_SMI_QUERY)
    if out is None:
        return [], [why]
    gpus = parse_rocm_smi(out)
    return gpus, [] if gpus else ["rocm-smi: no GPU in its answer"]


# ---------------------------------------------------------------- Apple Silicon


def apple_gpu(ram_total: int, ram_available: int) -> Gpu | None:
    if platform.system() != "Darwin" or platform.machine() != "arm64":
        return None
    out, _why = run_tool(["sysctl", "-n", "machdep.cpu.brand_string"])
    name = (out or "").strip() or "Apple Silicon"
    total = int(ram_total * APPLE_GPU_SHARE)
    return Gpu(0, name, "apple", total, min(total, ram_available), unified=True)


# ---------------------------------------------------------------- CPU, RAM, llama.cpp


def cpu_and_ram() -> tuple[int, int, int, int]:
    """(physical cores, logical threads, RAM total, RAM available)."""
    import psutil

    threads = psutil.cpu_count(logical=True) or os.cpu_count() or 1
    cores = psutil.cpu_count(logical=False) or threads
    memory = psutil.virtual_memory()
    return cores, threads, int(memory.total), int(memory.available)


def llama_offload() -> tuple[bool, str]:
    """Whether the installed llama.cpp can put layers on a GPU."""
    try:
        import llama_cpp

        return bool(llama_cpp.llama_supports_gpu_offload()), ""
    except Exception as exc:  # not installed, or its shared library does not load
        return False, f"llama.cpp: {exc}"


def llama_system_info() -> str:
    """llama.cpp's own line about its build (backends, CPU features)."""
    try:
        import llama_cpp

        info = llama_cpp.llama_print_system_info()
        return (info.decode("utf-8", errors="replace") if isinstance(info, bytes) else str(info)).strip()
    except Exception as exc:
        return f"unavailable ({exc})"


def detect(probe_gpus: bool = True) -> Hardware:
    """Probe this machine. With ``probe_gpus=False`` (a CPU-only llama.cpp) no GPU tool is run."""
    cores, threads, ram_total, ram_available = cpu_and_ram()
    offload, why = llama_offload()
    notes = [why] if why else []
    gpus: list[Gpu] = []
    if probe_gpus:
        apple = apple_gpu(ram_total, ram_available)
        if apple:
            gpus = [apple]
        else:
            nvidia, why_nv = nvidia_gpus()
            amd, why_amd = amd_gpus()
            gpus = nvidia + amd
            notes += [n for n in why_nv + why_amd if n]
    return Hardware(tuple(gpus), cores, threads, ram_total, ram_available, offload, tuple(notes))


def whisper_cuda_devices() -> int:
    """CUDA devices CTranslate2 (faster-whisper) can use; 0 when it has no CUDA support."""
    try:
        import ctranslate2

        return int(ctranslate2.get_cuda_device_count())
    except Exception:
        return 0
