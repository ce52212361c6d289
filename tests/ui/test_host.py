"""What the window and the kiosk share: a speaker that falls back to silence, instant
replies that fall back to the LLM."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from assistant.sound import AudioError
from assistant.speak.sinks import NullSink  # noqa: E402


def test_engine_host_falls_back_when_the_speaker_or_the_phrase_table_fails(qtbot, monkeypatch, default_config):
    import ui.host
    from ui.host import EngineHost

    heard: list[str] = []

    class Host(EngineHost):
        def no_speaker(self, exc):
            heard.append(f"speaker: {exc}")

        def no_instant_replies(self, exc):
            heard.append(f"replies: {exc}")

    def no_speaker(config):
        raise AudioError("no speaker found (test)")

    def broken_table(config, tts, rate):
        raise ValueError("replies.toml line 3: bad")

    monkeypatch.setattr(ui.host, "open_speaker", no_speaker)
    monkeypatch.setattr("assistant.pipeline.session.make_replies", broken_table)
    host = Host(default_config)
    output = host.open_speaker(default_config)
    assert isinstance(output, NullSink) and output.rate == default_config.audio.output_rate
    from types import SimpleNamespace

    assert host.instant_replies(default_config, SimpleNamespace(tts=None), output) is None
    assert heard == ["speaker: no speaker found (test)", "replies: replies.toml line 3: bad"]
    host.output = output
    host.close_output()  # opened here: closed here


def test_the_desktop_keeps_its_timers_in_its_own_file(qtbot, default_config):
    from assistant.pipeline.session import desktop_timers
    from ui.host import EngineHost

    host = EngineHost(default_config)
    assert host.timers_path() == desktop_timers()
