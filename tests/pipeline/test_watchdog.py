"""The engine watchdog: a stage that died, or hangs outside a model call, gets a fresh
engine; a stage that hangs inside a model call (which may hold the model) and too many
restarts give up so that the app restarts. Fakes, then the real embedded models."""

from __future__ import annotations

import threading
import time

import pytest

from assistant.config import Config
from assistant.events import EventType
from assistant.pipeline.kiosk.session import KioskStatus
from assistant.pipeline import Engine
from assistant.pipeline.waiting import wait_until
from assistant.pipeline.watchdog import EngineSupervisor

from fakes import FakeLlm, FakeStt, FakeTts, FakeVad, RecordingSink, StallingSink, kiosk_config

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


def test_a_stage_hung_outside_a_model_gets_a_fresh_engine_and_the_next_turn_works(make_kiosk_session, tmp_path):
    speaker = StallingSink()
    k = make_kiosk_session(kiosk_config(tmp_path), output=speaker)
    first = k.session.engine
    first.submit_text("are you there?")
    assert wait_until(lambda: speaker.stalls == 1)
    stalled = time.perf_counter()
    assert wait_until(lambda: k.session.engine is not first, timeout=5), "the hung engine was not replaced"
    print(f"\nstage stuck outside a model: a fresh engine after {time.perf_counter() - stalled:.2f} s "
          f"(limit {k.session.kiosk.stage_timeout_s} s)")
    assert k.session.supervisor.restarts == 1 and not k.gave_up
    assert k.statuses[0][0] is KioskStatus.RESTARTING and "output" in k.statuses[0][1]
    assert wait_until(lambda: k.session.status is KioskStatus.READY)
    result = k.ask("hello again")
    assert result.reply == "Short answer." and not result.errors
    speaker.release.set()  # the abandoned stage wakes up; nothing of it reaches the kiosk
    time.sleep(0.2)
    assert all(generation == k.session.supervisor.generation for generation, _ in k.events[-3:])


def test_a_stage_hung_inside_a_model_call_restarts_the_app(make_kiosk_session, tmp_path):
    hang = threading.Event()
    k = make_kiosk_session(kiosk_config(tmp_path), llm=FakeLlm(reply="Short answer.", block=hang))
    first = k.session.engine
    started = time.perf_counter()
    first.submit_text("are you there?")
    assert wait_until(lambda: bool(k.gave_up), timeout=5), "the app was not asked to restart"
    print(f"\nstage stuck in a model call: app restart asked after {time.perf_counter() - started:.2f} s "
          f"(limit {k.session.kiosk.stage_timeout_s} s)")
    assert "responder" in k.gave_up[0] and "inside a model call" in k.gave_up[0]
    assert k.session.engine is first and k.session.supervisor.restarts == 0  # no engine on a held model
    hang.set()


def test_progress_is_not_a_hang_however_long_the_message():
    """A reply streaming for longer than the limit, token after token, is not stuck."""
    llm = FakeLlm(reply=" ".join(["word"] * 30), delay_s=0.05)  # ~1.5 s on one message
    events = []
    supervisor = EngineSupervisor(
        lambda listener: Engine(Config(), stt=FakeStt(), llm=llm, tts=FakeTts(), vad=FakeVad(),
                                output=RecordingSink(), on_event=listener),
        lambda _g, e: events.append(e), stage_timeout_s=0.5, max_restarts=3, window_s=60,
        on_give_up=lambda reason: pytest.fail(reason),
    )
    try:
        supervisor.engine.submit_text("take your time")
        while not any(e.type is EventType.TURN_END for e in events):
            assert supervisor.check() is None
            time.sleep(0.02)
        assert supervisor.restarts == 0
    finally:
        supervisor.close()


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


def test_a_look_while_the_engine_is_replaced_waits_for_the_fresh_one():
    """Another thread renewing the engine (the soak's forced restart) is not taken for a
    dead stage: the old engine's stopped threads are not looked at."""
    building, go = threading.Event(), threading.Event()
    built = []

    def make(listener):
        engine = Engine(Config(), stt=FakeStt(), llm=FakeLlm(), tts=FakeTts(), vad=FakeVad(),
                        output=RecordingSink(), on_event=listener)
        if built:  # the fresh engine: built once the old one has stopped
            old = built[-1]
            assert wait_until(lambda: not any(stage.alive for stage in old.stages), timeout=10)
            building.set()
            go.wait(10)
        built.append(engine)
        return engine

    supervisor = EngineSupervisor(make, lambda *_: None, stage_timeout_s=5, max_restarts=3, window_s=60,
                                  on_give_up=lambda reason: pytest.fail(reason))
    looked: list = []
    looked_done = threading.Event()

    def look():
        looked.append(supervisor.check())
        looked_done.set()

    renewing = threading.Thread(target=supervisor.renew)
    try:
        renewing.start()
        assert building.wait(10)
        threading.Thread(target=look).start()
        assert not looked_done.wait(0.2)  # it waits for the fresh engine
        go.set()
        renewing.join(10)
        assert looked_done.wait(10)
        assert looked == [None] and supervisor.restarts == 0 and len(built) == 2
    finally:
        go.set()
        supervisor.close()
