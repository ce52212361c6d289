"""Hardware probing: parsers fed real and garbage tool output, tools missing or hanging."""

from __future__ import annotations

import os
import sys
import types

import numpy as np
import pytest

from assistant.machine import hardware
from assistant.machine.hardware import GB, MIB, Gpu, parse_nvidia_smi, parse_rocm_smi, run_tool

GARBAGE = [
    "",
    "\x00\xff\xfe garbage",
    "index, name, memory.total [MiB], memory.free [MiB]",
    "0, NVIDIA GeForce RTX 4090, [N/A], [N/A]",
    "0, Tesla T4, 15360",
    "x, GPU, 100, 50",
    "0, GPU, 100, 200",  # more free than total
    "0, GPU, -5, -1",
    "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.",
    "{" * 5000,
    "null",
    "[1, 2, 3]",
    '{"card0": "not a dict"}',
    '{"card0": {"VRAM Total Memory (B)": "lots"}}',
    '{"system": {"Driver version": "6.7"}}',
]


def test_nvidia_smi_two_gpus():
    text = "0, NVIDIA GeForce RTX 4060, 8188, 7420\n1, NVIDIA RTX A4000, 16376, 16100\n"
    gpus = parse_nvidia_smi(text)
    assert [g.name for g in gpus] == ["NVIDIA GeForce RTX 4060", "NVIDIA RTX A4000"]
    assert gpus[0].total_bytes == 8188 * MIB and gpus[0].free_bytes == 7420 * MIB
    assert gpus[1].index == 1 and gpus[1].vendor == "nvidia"


def test_nvidia_smi_skips_bad_lines_and_keeps_good_ones():
    text = "0, RTX 3060, [N/A], 100\n\ngarbage line\n1, RTX 3060, 12288, 11000\r\n"
    assert [g.index for g in parse_nvidia_smi(text)] == [1]


@pytest.mark.parametrize("text", GARBAGE)
def test_parsers_never_crash_on_garbage(text):
    assert parse_nvidia_smi(text) == []
    assert parse_rocm_smi(text) == []


def test_rocm_smi_json():
    text = """{"card0": {"Card Series": "Radeon RX 7900 XTX", "VRAM Total Memory (B)": "25753026560",
    "VRAM Total Used Memory (B)": "1073741824"}, "card1": {"VRAM Total Memory (B)": "17163091968",
    "VRAM Total Used Memory (B)": "0"}, "system": {"Driver version": "6.7.0"}}"""
    gpus = parse_rocm_smi(text)
    assert [(g.index, g.name, g.vendor) for g in gpus] == [(0, "Radeon RX 7900 XTX", "amd"), (1, "AMD GPU", "amd")]
    assert gpus[0].free_bytes == 25753026560 - GB


def test_run_tool_missing():
    out, why = run_tool(["surely-not-an-installed-tool-4711", "--version"])
    assert out is None and "not installed" in why


def test_run_tool_timeout_is_bounded():
    out, why = run_tool([sys.executable, "-c", "import time; time.sleep(30)"], timeout=0.5)
    assert out is None and "no answer within 0.5 s" in why


def test_run_tool_failing_command():
    out, why = run_tool([sys.executable, "-c", "import sys; print('boom', file=sys.stderr); sys.exit(3)"])
    assert out is None and "exit status 3" in why and "boom" in why


def test_run_tool_binary_output():
    out, why = run_tool([sys.executable, "-c", "import sys; sys.stdout.buffer.write(bytes(range(256)))"])
    assert out is not None and why == ""
    assert parse_nvidia_smi(out) == []


class FakeNvml(types.ModuleType):
    class NVMLError(Exception):
        pass

    def __init__(self, memory: list[tuple[int, int]], fail_init: bool = False):
        super().__init__("pynvml")
        self.memory = memory
        self.fail_init = fail_init
        self.shutdown = False

    def nvmlInit(self):
        if self.fail_init:
            raise self.NVMLError("Driver Not Loaded")

    def nvmlShutdown(self):
        self.shutdown = True

    def nvmlDeviceGetCount(self):
        return len(self.memory)

    def nvmlDeviceGetHandleByIndex(self, i):
        return i

    def nvmlDeviceGetName(self, handle):
        return b"NVIDIA H100" if handle == 0 else "NVIDIA L4"

    def nvmlDeviceGetMemoryInfo(self, handle):
        total, free = self.memory[handle]
        return types.SimpleNamespace(total=total, free=free, used=total - free)


def test_nvml_lists_devices(monkeypatch):
    fake = FakeNvml([(80 * GB, 79 * GB), (24 * GB, 20 * GB)])
    monkeypatch.setitem(sys.modules, "pynvml", fake)
    gpus, why = hardware.nvml_gpus()
    assert why == "" and fake.shutdown
    assert [(g.name, g.total_bytes, g.free_bytes) for g in gpus] == [
        ("NVIDIA H100", 80 * GB, 79 * GB),
        ("NVIDIA L4", 24 * GB, 20 * GB),
    ]


def test_nvidia_falls_back_to_nvidia_smi(monkeypatch):
    monkeypatch.setitem(sys.modules, "pynvml", FakeNvml([], fail_init=True))
    monkeypatch.setattr(hardware, "run_tool", lambda args, timeout=None: ("0, Tesla T4, 15360, 15000\n", ""))
    gpus, notes = hardware.nvidia_gpus()
    assert [g.name for g in gpus] == ["Tesla T4"] and notes == []


def test_nvidia_nothing_anywhere_gives_notes(monkeypatch):
    monkeypatch.setitem(sys.modules, "pynvml", None)  # import fails
    monkeypatch.setattr(hardware, "run_tool", lambda args, timeout=None: ("garbage\n", ""))
    gpus, notes = hardware.nvidia_gpus()
    assert gpus == []
    assert "nvidia-ml-py is not installed" in notes[0] and "no GPU in its answer" in notes[1]


@pytest.mark.skipif(os.name == "nt", reason="fake tools are shell scripts")
def test_detect_survives_hanging_and_garbage_tools(monkeypatch, tmp_path):
    (tmp_path / "nvidia-smi").write_text("#!/bin/sh\nexec sleep 30\n")
    (tmp_path / "rocm-smi").write_text("#!/bin/sh\nhead -c 2000 /dev/urandom\n")
    for tool in tmp_path.iterdir():
        tool.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path) + os.pathsep + os.environ.get("PATH", ""))
    monkeypatch.setitem(sys.modules, "pynvml", FakeNvml([], fail_init=True))
    monkeypatch.setattr(hardware, "TOOL_TIMEOUT_S", 0.5)
    monkeypatch.setattr(hardware.platform, "system", lambda: "Linux")
    hw = hardware.detect()
    assert hw.gpus == ()
    notes = " | ".join(hw.notes)
    assert "Driver Not Loaded" in notes and "nvidia-smi: no answer within 0.5 s" in notes
    assert "rocm-smi" in notes


def test_apple_silicon_shares_ram(monkeypatch):
    monkeypatch.setattr(hardware.platform, "system", lambda: "Darwin")
    monkeypatch.setattr(hardware.platform, "machine", lambda: "arm64")
    monkeypatch.setattr(hardware, "run_tool", lambda args, timeout=None: ("Apple M2 Pro\n", ""))
    gpu = hardware.apple_gpu(ram_total=32 * GB, ram_available=12 * GB)
    assert gpu == Gpu(0, "Apple M2 Pro", "apple", int(32 * GB * hardware.APPLE_GPU_SHARE), 12 * GB, unified=True)


def test_not_apple_elsewhere(monkeypatch):
    monkeypatch.setattr(hardware.platform, "system", lambda: "Linux")
    assert hardware.apple_gpu(16 * GB, 8 * GB) is None


def test_detect_this_machine():
    import llama_cpp

    hw = hardware.detect()
    assert hw.cpu_cores >= 1 and hw.cpu_threads >= hw.cpu_cores
    assert 0 < hw.ram_available_bytes <= hw.ram_total_bytes
    assert hw.llama_offload == bool(llama_cpp.llama_supports_gpu_offload())
    assert all(0 <= g.free_bytes <= g.total_bytes for g in hw.gpus)
    assert "CPU" in hw.describe_cpu()


def test_cpu_only_install_skips_gpu_probes(monkeypatch):
    def no_tools(*args, **kwargs):
        raise AssertionError("no GPU tool may run")

    monkeypatch.setattr(hardware, "run_tool", no_tools)
    monkeypatch.setattr(hardware, "nvml_gpus", no_tools)
    assert hardware.detect(probe_gpus=False).gpus == ()


def test_llama_system_info_names_the_build():
    assert "CPU" in hardware.llama_system_info()


def test_whisper_tries_cuda_only_when_ctranslate2_sees_it(monkeypatch):
    from assistant.hear import stt

    monkeypatch.setattr(hardware, "whisper_cuda_devices", lambda: 0)
    assert stt.whisper_devices() == [("cpu", "int8")]
    monkeypatch.setattr(hardware, "whisper_cuda_devices", lambda: 1)
    assert stt.whisper_devices() == [("auto", "int8_float16"), ("cpu", "int8")]


@pytest.mark.slow
def test_whisper_falls_back_to_cpu_when_cuda_fails(monkeypatch, caplog):
    from assistant.hear import stt
    from assistant.config import SttConfig

    if hardware.whisper_cuda_devices():
        pytest.skip("this machine has CUDA: the fallback cannot be forced")
    monkeypatch.setattr(stt, "whisper_devices", lambda: [("cuda", "float16"), ("cpu", "int8")])
    engine = stt.WhisperStt(SttConfig())
    assert engine.transcribe_array(np.zeros(16000, np.float32)) == ""
    assert "Whisper on cuda failed" in caplog.text
