"""Texts of the window's status line and audio banner."""

from __future__ import annotations

from fakes import FakeLlm


def test_offload_text_falls_back_to_the_setting(default_config):
    from dataclasses import replace

    from ui.status import device_problem, offload_text

    def served(layers):
        return FakeLlm(config=replace(default_config.llm, n_gpu_layers=layers))  # no model file here

    assert offload_text(served(0), default_config)[0] == "CPU only"
    assert offload_text(served(-1), default_config)[0] == "all layers on GPU"
    assert device_problem("no microphone found (x). Use --input/--output WAV files or --text.") == "no microphone found (x)."
