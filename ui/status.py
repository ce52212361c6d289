"""Texts of the status line and the audio banner (plain functions, easy to test)."""

from __future__ import annotations

from pathlib import Path

from assistant.config import Config


def llm_text(llm) -> str:
    quantization = getattr(llm, "quantization", "")
    return f"{llm.name} · {quantization}" if quantization else llm.name


def build_note(llm) -> str | None:
    """What the native build check changed for this model (None when nothing)."""
    native = getattr(llm, "native", None)
    return native.note if native is not None else None


def offload_text(llm, config: Config) -> tuple[str, str]:
    """(short, detailed) text of where the model's layers run.

    The model's own plan if it carries one, else the planner's plan for its file,
    else the configured layer count. Probes the hardware: call it off the GUI thread.
    """
    plan = getattr(llm, "plan", None)
    path = getattr(llm, "path", None)
    if plan is None and path is not None:
        try:
            from assistant.planner import plan_for

            plan = plan_for(getattr(llm, "config", config.llm), Path(path))
        except Exception:  # no planner, or a header it cannot read: fall back to the setting
            plan = None
    if plan is not None and hasattr(plan, "layers_on_gpu"):
        gpu, total = plan.layers_on_gpu, plan.block_count
        short = f"{gpu}/{total} layers on GPU" + (f", {total - gpu} on CPU" if gpu < total else "")
        return short, plan.summary
    layers = getattr(getattr(llm, "config", None), "n_gpu_layers", config.llm.n_gpu_layers)
    if not layers:
        return "CPU only", f"n_gpu_layers = {layers}"
    short = "all layers on GPU" if layers < 0 else f"{layers} layers on GPU, the rest on CPU"
    return short, f"n_gpu_layers = {layers}"


MIC_TEXT = {
    "off": "mic off",
    "push-to-talk": "mic on (push-to-talk)",
    "hands-free": "mic on (hands-free)",
    "unavailable": "no microphone",
}


def device_problem(message: str) -> str:
    """An AudioError message without the command-line hint at its end."""
    return message.split(" Use --")[0].rstrip(".") + "."
