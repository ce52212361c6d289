"""The latency meter: its figures come from the turn's timeline, and it paints."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from assistant.timeline import Mark, Timeline  # noqa: E402


def _timeline(**marks_ms) -> Timeline:
    timeline = Timeline(1)
    for name, ms in marks_ms.items():
        timeline.mark(Mark(name), 100.0 + ms / 1000)
    return timeline


def test_meter_figures_come_from_the_timeline():
    from ui.meter import LatencyHistory, TurnFigures, grade, percentile, GREEN, AMBER, RED

    spoken = _timeline(speech_start=-900, speech_end=0, endpoint=300, stt_start=300, stt_final=380,
                       llm_start=381, llm_first_token=430, first_chunk=520, tts_first_audio=640,
                       audio_out_start=650, turn_end=3000)
    figures = TurnFigures.from_timeline(spoken)
    stages = dict(figures.stages)
    assert figures.total == pytest.approx(650)
    assert stages["endpoint_wait"] == pytest.approx(300) and stages["stt"] == pytest.approx(80)
    assert stages["ttft"] == pytest.approx(49) and stages["first_clause"] == pytest.approx(90)
    assert stages["tts_first_chunk"] == pytest.approx(120)
    assert figures.other == pytest.approx(11, abs=0.5) and not figures.overlap and not figures.cached

    cached = _timeline(stt_start=0, stt_final=0, first_chunk=2, tts_first_audio=2, audio_out_start=3)
    cached.set("cache_hit", True)
    assert TurnFigures.from_timeline(cached).cached

    speculative = _timeline(speech_end=0, stt_start=-100, stt_final=-40, llm_start=-39, llm_first_token=10,
                            endpoint=300, first_chunk=60, tts_first_audio=200, audio_out_start=310)
    assert TurnFigures.from_timeline(speculative).overlap

    history = LatencyHistory()
    for total in (300, 700, 1200, 400, 650):
        history.add(TurnFigures(total, (), 0.0, False, False))
    history.add(TurnFigures(None, (), 0.0, False, False))  # no sound: not counted
    assert history.median() == 650 and history.p95() == 1200
    assert percentile([], 50) is None
    assert (grade(499), grade(500), grade(999), grade(1000)) == (GREEN, AMBER, AMBER, RED)


def test_meter_paints(qtbot):
    from ui.meter import LatencyMeter

    meter = LatencyMeter()
    qtbot.addWidget(meter)
    meter.resize(800, 130)
    meter.grab()  # empty
    for total in (420, 800, 1500):
        spoken = _timeline(speech_start=-800, voice_end=-60, speech_end=0, endpoint=160, stt_start=0, stt_final=100,
                           llm_start=101, llm_first_token=150, first_chunk=200, tts_first_audio=total - 10,
                           audio_out_start=total, reply_sound=total + 3)
        spoken.set("turn_decision", "complete")
        spoken.set("turn_silence_ms", 160.0)
        meter.add_turn(spoken)
    tip = meter.toolTip()
    assert "heard" in tip and "voice to voice" in tip and "complete at 160 ms of silence" in tip
    meter.add_turn(_timeline(stt_start=0, stt_final=0, llm_start=1, llm_first_token=50,
                             first_chunk=100, tts_first_audio=290, audio_out_start=300))
    assert not meter.grab().isNull()
    assert meter.history.totals == [pytest.approx(t + 63) for t in (420, 800, 1500)]  # heard: 60 + 3 ms more
    assert meter.history.typed_totals == [pytest.approx(300)]
