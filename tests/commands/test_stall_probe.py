"""The development tool that measures how long the GUI thread stalls."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")


def test_stall_probe_records_ticks(qtbot):
    from tools.stall_probe import StallProbe

    probe = StallProbe(interval_ms=5)
    probe.start()
    qtbot.waitUntil(lambda: len(probe.gaps_ms) >= 5, timeout=10_000)
    probe.stop()
    summary = probe.summary()
    assert summary["ticks"] >= 5 and summary["max_gap_ms"] > 0
