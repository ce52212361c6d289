"""Texts of the status line and the audio banner (plain functions, easy to test)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP

from assistant.config import Config
from assistant.pipeline.session import Llm


def llm_text(llm: Llm) -> str:
    return f"{llm.name} · {llm.quantization}" if llm.quantization else llm.name


def offload_text(llm: Llm, config: Config) -> tuple[str, str]:
    """(short, detailed) text of where the model's layers run.

    The planner's plan for the model's file, else the layer count it runs with. Probes
    the hardware: call it off the GUI thread.
    """
    if llm.path is not None:
        try:
            from assistant.machine.planner import plan_for

            plan = plan_for(llm.config, Path(llm.path))
        except Exception:  # no planner, or a header it cannot read: fall back to the setting
            plan = None
        if plan is not None:
            gpu, total = plan.layers_on_gpu, plan.block_count
            short = f"{gpu}/{total} layers on GPU" + (f", {total - gpu} on CPU" if gpu < total else "")
            return short, plan.summary
    layers = llm.config.n_gpu_layers
    if not layers:
        return "CPU only", f"n_gpu_layers = {layers}"
    short = "all layers on GPU" if layers < 0 else f"{layers} layers on GPU, the rest on CPU"
    return short, f"n_gpu_layers = {layers}"


DUPLEX_TEXT = {True: QT_TRANSLATE_NOOP("MainWindow", "talk over it"), False: QT_TRANSLATE_NOOP("MainWindow", "half duplex")}
DUPLEX_HINT = {True: QT_TRANSLATE_NOOP("KioskWindow", "You can interrupt me any time."),
               False: QT_TRANSLATE_NOOP("KioskWindow", "To interrupt me, say \u201cstop\u201d.")}
"""English texts, marked for translation (shown through the window's ``tr()``)."""


def duplex_text(engine) -> tuple[str, str]:
    """(short, detailed) text of how the engine listens while it speaks."""
    mode = engine.duplex
    return DUPLEX_TEXT[bool(mode.full)], mode.describe()


def duplex_hint(mode) -> str:
    """What a kiosk visitor needs to know about talking while the assistant speaks."""
    return DUPLEX_HINT[bool(mode.full)]


MIC_TEXT = {
    "off": QT_TRANSLATE_NOOP("MainWindow", "mic off"),
    "push-to-talk": QT_TRANSLATE_NOOP("MainWindow", "mic on (push-to-talk)"),
    "hands-free": QT_TRANSLATE_NOOP("MainWindow", "mic on (hands-free)"),
    "unavailable": QT_TRANSLATE_NOOP("MainWindow", "no microphone"),
}
"""English texts, marked for translation; the window shows them through its ``tr()``."""


def device_problem(message: str) -> str:
    """An AudioError message without the command-line hint at its end."""
    return message.split(" Use --")[0].rstrip(".") + "."
