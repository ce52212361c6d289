"""The engine watchdog: a stage that died or hangs gets a fresh engine; too many
restarts give up so that the app restarts. Fakes, then the real embedded models."""

from __future__ import annotations

import threading
import time
from dataclasses import replace

import pytest

from assistant.audio import NullSink
from assistant.config import Config
from assistant.events import EventType
from assistant.kiosk.session import KioskSession, KioskStatus, engine_factory
from assistant.pipeline import Engine
from assistant.waiting import wait_until
from assistant.watchdog import EngineSupervisor

from fakes import FakeLlm, FakeStt, FakeTts, FakeVad, RecordingSink, kiosk_config

def test_a_stage_records_when_its_current_message_started():
    llm = FakeLlm(reply="Short answer.", block=threading.Event())
    engine = Engine(Config(), stt=FakeStt(), llm=llm, tts=FakeTts(), vad=FakeVad(), output=RecordingSink())
    try:
        assert all(stage.busy_since is None and stage.alive for stage in engine.stages)
        before = time.perf_counter()
        engine.submit_text("hello")
        assert wait_until(lambda: engine.responder.busy_since is not None)
        assert engine.responder.busy_since >= before
        llm.block.set()
        assert wait_until(lambda: not engine.busy)
        assert wait_until(lambda: engine.responder.busy_since is None)
    finally:
        llm.block.set()
        engine.close()
    assert not any(stage.alive for stage in engine.stages)


def test_the_watchdog_restarts_a_hung_stage_and_the_next_turn_works(make_kiosk_session, tmp_path):
    hang = threading.Event()
    k = make_kiosk_session(kiosk_config(tmp_path), llm=FakeLlm(reply="Short answer.", block=hang))
    first = k.session.engine
    first.submit_text("are you there?")
    assert wait_until(lambda: k.session.engine is not first, timeout=5), "the hung engine was not replaced"
    assert k.session.supervisor.restarts == 1
    assert k.statuses[0][0] is KioskStatus.RESTARTING and "responder" in k.statuses[0][1]
    assert wait_until(lambda: k.session.status is KioskStatus.READY)
    k.llm.block = None  # the next turn's model answers
    result = k.ask("hello again")
    assert result.reply == "Short answer." and not result.errors
    hang.set()  # the abandoned stage wakes up; nothing of it reaches the kiosk
    time.sleep(0.2)
    assert all(generation == k.session.supervisor.generation for generation, _ in k.events[-3:])


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_the_watchdog_restarts_a_stage_whose_thread_died(make_kiosk_session, tmp_path):
    k = make_kiosk_session(kiosk_config(tmp_path), llm=FakeLlm(reply="Short answer.", crash=True))
    first = k.session.engine
    first.submit_text("crash now")
    assert wait_until(lambda: k.session.engine is not first, timeout=5)
    assert not first.responder.alive
    assert "responder thread died" in k.statuses[0][1]
    k.llm.crash = False
    assert k.ask("and now?").reply == "Short answer."


def test_a_long_message_under_the_limit_is_not_a_hang():
    llm = FakeLlm(reply=" ".join(["word"] * 12), delay_s=0.03)  # ~0.4 s on one message
    events = []
    supervisor = EngineSupervisor(
        lambda listener: Engine(Config(), stt=FakeStt(), llm=llm, tts=FakeTts(), vad=FakeVad(),
                                output=RecordingSink(), on_event=listener),
        lambda _g, e: events.append(e), stage_timeout_s=1.5, max_restarts=3, window_s=60,
    )
    try:
        supervisor.engine.submit_text("take your time")
        while not any(e.type is EventType.TURN_END for e in events):
            assert supervisor.check() is None
            time.sleep(0.02)
        assert supervisor.restarts == 0
    finally:
        supervisor.close()


def test_too_many_restarts_give_up_so_the_app_restarts():
    gave_up: list[str] = []
    built = []

    def make(listener):
        engine = Engine(Config(), stt=FakeStt(), llm=FakeLlm(), tts=FakeTts(), vad=FakeVad(),
                        output=RecordingSink(), on_event=listener)
        built.append(engine)
        return engine

    supervisor = EngineSupervisor(make, lambda *_: None, stage_timeout_s=1, max_restarts=2, window_s=60,
                                  on_give_up=gave_up.append)
    try:
        supervisor.restart("one")
        supervisor.restart("two")
        assert not gave_up and len(built) == 3
        supervisor.restart("three")
        assert gave_up == ["three"] and supervisor.gave_up and len(built) == 3
        assert supervisor.check() is None  # nothing more once given up
    finally:
        supervisor.close()




class HangOnce:
    """The real LLM, except that its first reply hangs."""

    def __init__(self, llm):
        self.llm = llm
        self.release = threading.Event()
        self.calls = 0

    def __getattr__(self, name):
        return getattr(self.llm, name)

    def stream(self, user, stats):
        self.calls += 1
        if self.calls == 1:
            self.release.wait()
        return self.llm.stream(user, stats)


@pytest.mark.slow
def test_real_engines_the_watchdog_heals_a_hung_reply(engines, tmp_path):
    config = kiosk_config(tmp_path, stage_timeout_s=1.0)
    llm = HangOnce(engines.llm)
    ends = []
    session = KioskSession(config, llm, engine_factory(config, replace(engines, llm=llm), NullSink(22050)),
                           on_event=lambda _g, e: ends.append(e.data) if e.type is EventType.TURN_END else None)
    session.start()
    try:
        first = session.engine
        first.submit_text("What color is the sky?")
        assert wait_until(lambda: session.engine is not first, timeout=10)
        session.supervisor.stage_timeout_s = 120  # a real reply (and its playback) takes seconds
        session.engine.submit_text("What color is the sky?")
        assert wait_until(lambda: bool(ends), timeout=120)
        assert ends[-1].reply and not ends[-1].errors
        assert session.supervisor.restarts == 1
    finally:
        llm.release.set()
        session.close()

