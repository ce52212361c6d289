"""The settings dialog's checks: what is refused and why, and what a change reloads."""

from __future__ import annotations

import pytest


def test_reloads_name_only_what_changed(default_config):
    from dataclasses import replace

    from ui.validation import reloads

    c = default_config
    assert reloads(c, c) == set()
    assert reloads(c, replace(c, vad=replace(c.vad, endpoint_ms=500))) == set()
    assert reloads(c, replace(c, llm=replace(c.llm, system_prompt="Be brief."))) == {"system_prompt"}
    assert reloads(c, replace(c, llm=replace(c.llm, model="x.gguf", system_prompt="Be brief."))) == {"llm"}
    assert reloads(c, replace(c, stt=replace(c.stt, language="de"))) == {"stt"}
    assert reloads(c, replace(c, tts=replace(c.tts, voice="v.onnx"))) == {"tts"}
    assert reloads(c, replace(c, audio=replace(c.audio, output_device="USB"))) == {"output"}


def test_validation_reasons(default_config):
    from dataclasses import replace

    from ui.validation import SettingsError, validate

    c = default_config
    validate(c)
    cases = [
        (replace(c, vad=replace(c.vad, endpoint_ms=20)), "vad.endpoint_ms' must be 100 to 3000 ms"),
        (replace(c, vad=replace(c.vad, threshold=0.05)), "vad.threshold"),
        (replace(c, turn=replace(c.turn, max_ms=100)), "turn.max_ms' must be 500 to 5000 ms"),
        (replace(c, turn=replace(c.turn, mode="psychic")), "turn.mode' must be semantic or fixed"),
        (replace(c, turn=replace(c.turn, unsure_ms=9000)), "turn.unsure_ms"),
        (replace(c, llm=replace(c.llm, system_prompt="  ")), "llm.system_prompt' must not be empty"),
        (replace(c, stt=replace(c.stt, engine="dragon")), "stt.engine' must be whisper or vosk"),
        (replace(c, stt=replace(c.stt, language="english")), "language code"),
        (replace(c, tts=replace(c.tts, voice="/nowhere/voice.onnx")), "does not exist"),
    ]
    for config, reason in cases:
        with pytest.raises(SettingsError, match=reason):
            validate(config)
