"""The kiosk session without Qt: visitors forgotten when idle, memory kept in bounds,
transcripts only when enabled, and the microphone reopened when lost or tapped."""

from __future__ import annotations

import json
import time

import numpy as np

from assistant.sound import AudioError
from assistant.pipeline.kiosk import session as kiosk_session
from assistant.pipeline.kiosk.session import KioskStatus
from assistant.commands.kiosk.soak import QuestionFeeder
from assistant.pipeline.waiting import wait_until

from fakes import FakeLlm, kiosk_config

def test_an_idle_visitor_is_forgotten(make_kiosk_session, tmp_path):
    k = make_kiosk_session(kiosk_config(tmp_path, idle_reset_s=0.4))
    time.sleep(0.6)
    assert k.resets == 0, "nobody came: nothing to forget"
    first = k.session.engine
    k.ask("remember me")
    assert wait_until(lambda: k.llm.remembered, 2)
    assert wait_until(lambda: k.resets == 1, timeout=5)
    assert k.llm.remembered == [], "the LLM history was reset"
    assert k.session.engine is not first, "the engine (its turns and audio queues) was replaced"
    time.sleep(0.6)
    assert k.resets == 1, "forgotten once, not again and again"


def test_the_app_restarts_between_visitors_once_memory_passes_the_limit(make_kiosk_session, tmp_path):
    k = make_kiosk_session(kiosk_config(tmp_path, max_memory_mb=1))
    k.ask("hello")
    assert not k.gave_up, "never in the middle of a visit"
    k.session.forget_visitor()
    assert len(k.gave_up) == 1 and "kiosk.max_memory_mb" in k.gave_up[0]


def test_a_visitor_is_not_forgotten_while_the_reply_plays(make_kiosk_session, tmp_path):
    k = make_kiosk_session(kiosk_config(tmp_path, idle_reset_s=0.2, stage_timeout_s=10),
                   llm=FakeLlm(reply=" ".join(["word"] * 30)))  # 1.5 s of reply audio
    k.session.engine.submit_text("a long one please")
    assert wait_until(lambda: k.session.engine.busy)
    time.sleep(0.8)
    assert k.resets == 0 and k.session.engine.busy
    assert wait_until(lambda: k.resets == 1, timeout=5)


def test_transcripts_are_not_stored_unless_enabled(make_kiosk_session, tmp_path):
    k = make_kiosk_session(kiosk_config(tmp_path))
    k.ask("my secret question")
    logs = tmp_path / "logs"
    assert not (logs / "transcripts.jsonl").exists()
    assert not any("secret" in p.read_text() for p in logs.glob("*")) if logs.exists() else True


def test_transcripts_are_stored_when_the_administrator_enables_them(make_kiosk_session, tmp_path):
    k = make_kiosk_session(kiosk_config(tmp_path, store_transcripts=True))
    k.ask("first visitor")
    k.session.forget_visitor()
    k.ask("second visitor")
    lines = [json.loads(line) for line in (tmp_path / "logs" / "transcripts.jsonl").read_text().splitlines()]
    assert [(line["visitor"], line["transcript"], line["reply"]) for line in lines] == [
        (1, "first visitor", "Short answer."), (2, "second visitor", "Short answer.")]


# ---------------------------------------------------------------- the microphone


SPEECH = np.concatenate([np.full(8000, 0.2, np.float32), np.zeros(100, np.float32)])
"""Half a second that FakeVad takes for speech."""


def test_a_missing_microphone_is_tried_again(make_kiosk_session, tmp_path, monkeypatch):
    monkeypatch.setattr(kiosk_session, "MIC_RETRY_S", 0.2)
    feeder = QuestionFeeder(16000)
    opened = []

    def open_source():
        opened.append(time.perf_counter())
        if len(opened) == 1:
            raise AudioError("no microphone found")
        return feeder.open()

    k = make_kiosk_session(kiosk_config(tmp_path, hands_free=True), open_source=open_source)
    assert k.statuses[0] == (KioskStatus.NO_MICROPHONE, "no microphone found")
    assert wait_until(lambda: k.session.status is KioskStatus.READY, timeout=5)
    feeder.ask(SPEECH)
    assert wait_until(lambda: bool(k.ends()), timeout=10), "the reopened microphone is listened to"
    assert k.ends()[0].transcript == "hello there"


def test_tap_to_talk_listens_for_one_question(make_kiosk_session, tmp_path):
    feeder = QuestionFeeder(16000)
    sources = []

    def open_source():
        sources.append(feeder.open())
        return sources[-1]

    k = make_kiosk_session(kiosk_config(tmp_path, hands_free=False), open_source=open_source)
    time.sleep(0.2)
    assert not sources, "hands-free is off: the microphone stays closed until a tap"
    k.session.tap()
    assert wait_until(lambda: bool(sources))
    feeder.ask(SPEECH)
    assert wait_until(lambda: bool(k.ends()), timeout=10)
    assert k.ends()[0].reply == "Short answer."
    assert wait_until(lambda: sources[0]._stop.is_set(), timeout=5), "the microphone closes after the answer"


