"""A hedged reply shows what was said and why it was hedged."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")


def test_a_hedged_turn_shows_the_said_reply_and_the_reason(qtbot):
    from assistant.events import TurnResult
    from assistant.timeline import Timeline
    from ui.conversation import TurnView

    view = TurnView()
    qtbot.addWidget(view)
    for piece in ("The capital is", " Sydney.", " It"):  # streamed before the verdict
        view.append_reply(piece)
    result = TurnResult(1, Timeline(1), reply="The capital is Sydney. But I'm not sure of that.", source="llm",
                        confidence=0.08, hedged="unsure: 0.08")
    view.finish(result)
    assert view.reply.text() == result.reply
    assert "hedged, unsure: 0.08" in view.note.text()
    plain = TurnView()
    qtbot.addWidget(plain)
    plain.append_reply("Paris.")
    plain.finish(TurnResult(2, Timeline(2), reply="Paris.", source="llm", confidence=0.9))
    assert plain.reply.text() == "Paris." and "hedged" not in plain.note.text()


def test_a_turn_not_heard_well_enough_says_so_and_why(qtbot):
    from assistant.events import TurnResult
    from assistant.think.misheard import DID_NOT_CATCH
    from assistant.timeline import Timeline
    from ui.conversation import TurnView

    view = TurnView()
    qtbot.addWidget(view)
    timeline = Timeline(1)
    timeline.set("least_word_p", 0.086)
    view.append_reply(DID_NOT_CATCH)  # said as an instant reply's text is
    view.finish(TurnResult(1, timeline, transcript="Bukets like Logan", reply=DID_NOT_CATCH, source="misheard"))
    assert view.reply.text() == DID_NOT_CATCH
    assert "not heard well enough to answer (least sure word 0.09)" in view.note.text()
