"""What a window or kiosk keeps while it runs for weeks is bounded: the meter's session
statistics, the conversation on screen, the supervisor's record of restarts."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")


def test_the_latency_history_keeps_the_latest_turns_and_counts_them_all():
    from ui.meter import LatencyHistory, TurnFigures

    history = LatencyHistory(spark_turns=2, kept=3)
    for total in (100, 200, 300, 400, 500):
        history.add(TurnFigures(total, (), 0.0, False, False))
    for total in (50, 60, 70, 80):
        history.add(TurnFigures(total, (), 0.0, False, False, spoken=False))
    assert len(history.turns) == 3 and history.spoken == 5
    assert history.totals == [300, 400, 500] and history.median() == 400
    assert [t.total for t in history.recent()] == [400, 500]
    assert history.typed_totals == [60, 70, 80] and history.typed_count == 4


def test_the_conversation_keeps_the_latest_turns_on_screen(qtbot):
    from ui.conversation import ConversationView

    view = ConversationView(kept=3)
    qtbot.addWidget(view)
    first = view.turn((1, 1))
    for turn in range(2, 7):
        view.turn((1, turn)).set_user(f"question {turn}", final=True)
    assert list(view.turns) == [(1, 4), (1, 5), (1, 6)]
    qtbot.waitUntil(lambda: first not in view.findChildren(type(first)))  # deleted, not only hidden


def test_the_supervisor_remembers_the_latest_restarts(monkeypatch):
    from assistant.commands.kiosk import restarter

    monkeypatch.setattr(restarter, "KEPT", 3)
    supervisor = restarter.ProcessSupervisor(["true"], restarter.RestartPolicy(0.0, 0.0))
    codes = iter([1] * 6 + [0])
    monkeypatch.setattr(supervisor, "_run_child", lambda: next(codes))
    assert supervisor.run() == 0
    assert len(supervisor.waits) == 3
