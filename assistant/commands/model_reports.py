"""``assistant models``: every LLM file the assistant can find, its size, quantization and
whether it fits this machine. Only GGUF headers are read; no model is loaded, so a wrong,
truncated or oversized file is reported before it can crash a load.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from assistant import config as config_mod
from assistant import resources
from assistant.config import Config, LlmConfig
from assistant.machine import synthetic
from assistant.machine.gguf_info import read_gguf
from assistant.machine.hardware import Hardware, detect
from assistant.machine.models import SMOLLM2, Found, ModelError, find_llm
from assistant.machine.planner import LOADER_KV_TYPES, Plan, plan

MB = 1024**2
WRONG_FORMATS = {
    ".safetensors": "a Hugging Face safetensors checkpoint",
    ".bin": "a PyTorch checkpoint",
    ".pt": "a PyTorch checkpoint",
    ".pth": "a PyTorch checkpoint",
    ".ggml": "an old GGML file",
}
CONVERT_HINT = "convert it with llama.cpp's convert_hf_to_gguf.py, or download a .gguf build of the model"


@dataclass
class ModelReport:
    path: Path
    origin: str
    size_bytes: int = 0
    error: str = ""
    name: str = ""
    architecture: str = ""
    quantization: str = ""
    parameters: int = 0
    layers: int = 0
    context_length: int = 0
    plan: Plan | None = None
    used: bool = False

    @property
    def fit(self) -> str:
        if self.error:
            return "cannot be used"
        assert self.plan is not None
        if not self.plan.fits:
            return "too big for this machine"
        on_gpu = self.plan.layers_on_gpu
        if on_gpu == 0:
            return "fits: CPU only"
        return "fits: all on GPU" if on_gpu == self.plan.block_count else f"fits: {on_gpu}/{self.plan.block_count} layers on GPU"

    def to_json(self) -> dict[str, Any]:
        data = {k: v for k, v in asdict(self).items() if k != "plan"}
        data["path"] = str(self.path)
        data["fit"] = self.fit
        data["plan"] = _plan_json(self.plan) if self.plan else None
        return data


def _plan_json(p: Plan) -> dict[str, Any]:
    return {**asdict(p), "layers_on_gpu": p.layers_on_gpu, "summary": p.summary}


def _params(n: int) -> str:
    return f"{n / 1e9:.1f}B" if n >= 1e9 else f"{n / 1e6:.0f}M"


def inspect_model(path: Path, origin: str, config: LlmConfig, hardware: Hardware) -> ModelReport:
    report = ModelReport(path, origin)
    try:
        report.size_bytes = path.stat().st_size
    except OSError as exc:
        report.error = f"cannot read it: {exc.strerror or exc}"
        return report
    wrong = WRONG_FORMATS.get(path.suffix.lower())
    if wrong:
        report.error = f"{wrong}, not a GGUF model: {CONVERT_HINT}"
        return report
    try:
        info = read_gguf(path)
    except ModelError as exc:
        report.error = str(exc)
        return report
    report.name, report.architecture, report.quantization = info.name, info.architecture, info.quantization
    report.parameters, report.layers, report.context_length = info.parameters, info.block_count, info.context_length
    report.plan = plan(info, hardware, config.n_ctx, config.n_gpu_layers, kv_types=LOADER_KV_TYPES,
                       kv_type=config.kv_type)
    return report


def candidate_models(config: LlmConfig, extra: list[Path]) -> list[tuple[Path, str]]:
    """Every LLM file the assistant would consider, with where it was found."""
    found: list[tuple[Path, str]] = [(p.expanduser(), "command line") for p in extra]
    if config.model:
        found.append(_configured(config.model))
    for folder in resources.models_dirs():
        if folder.is_dir():
            for path in sorted(folder.iterdir()):
                if path.is_file() and (path.suffix.lower() == ".gguf" or path.suffix.lower() in WRONG_FORMATS):
                    found.append((path, f"models/ ({folder})"))
    packaged = SMOLLM2.find()
    if packaged:
        found.append((packaged, SMOLLM2.distribution))
    found += [(path, "synthetic (random weights; remove with --remove)") for path in synthetic.cached()]
    unique: dict[Path, tuple[Path, str]] = {}
    for path, origin in found:
        unique.setdefault(path.resolve(), (path, origin))
    return list(unique.values())


def _configured(model: str) -> tuple[Path, str]:
    """A configured model's file and origin (a synthetic spec names its cached file, built or not)."""
    if not synthetic.is_synthetic(model):
        return Path(model).expanduser(), "config"
    path = synthetic.parse(model).path
    return path, f"config: {model}" + ("" if path.is_file() else " (not built yet: built when first loaded)")


def find_model(model: str | None) -> Found:
    """The model the assistant loads, without building a synthetic one (doctor only reads)."""
    if model and synthetic.is_synthetic(model):
        return Found(*_configured(model))
    return find_llm(model)


def list_models(config: LlmConfig, hardware: Hardware, extra: list[Path] | None = None) -> list[ModelReport]:
    reports = [inspect_model(p, origin, config, hardware) for p, origin in candidate_models(config, extra or [])]
    try:
        used = find_model(config.model).path.resolve()
    except ModelError:
        used = None
    for report in reports:
        report.used = report.path.resolve() == used
    return reports


def format_model(report: ModelReport) -> str:
    mark = "*" if report.used else " "
    used = "   <- the assistant loads this one" if report.used else ""
    lines = [f"{mark} {report.path.name}  [{report.origin}]{used}", f"    {report.path}"]
    if report.error:
        lines.append(f"    error: {report.error}")
        return "\n".join(lines)
    lines.append(
        f"    {report.size_bytes / MB:,.0f} MB, {report.quantization}, {_params(report.parameters)} parameters, "
        f"{report.architecture}, {report.layers} layers, trained context {report.context_length}"
    )
    assert report.plan is not None
    lines += [f"    {report.fit}", f"    plan: {report.plan.summary}", f"    KV cache: {report.plan.kv_text}"]
    return "\n".join(lines)


# ---------------------------------------------------------------- doctor


def config_for(args: argparse.Namespace) -> Config:
    base = config_mod.load(args.config)
    return config_mod.with_overrides(base, llm={"model": args.llm_model}, stt={"language": args.language})


def run_models(args: argparse.Namespace) -> int:
    if args.remove:
        removed = synthetic.remove(args.remove)
        print("\n".join(f"removed {p}" for p in removed) or f"no cached synthetic model matches {args.remove}")
        return 0
    config = config_for(args)
    reports = list_models(config.llm, detect(), args.paths)
    if args.json:
        print(json.dumps([r.to_json() for r in reports], indent=2))
    else:
        print("LLM models (GGUF files the assistant can find; * marks the one it loads):")
        for report in reports:
            print(format_model(report))
        try:
            find_model(config.llm.model)
        except ModelError as exc:
            print(f"The assistant cannot load an LLM: {exc}")
    return 1 if any(r.error for r in reports if r.origin == "command line") else 0
