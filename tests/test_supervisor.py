"""Kiosk self-healing without Qt: the stage watchdog, the idle reset, the microphone,
transcripts, the app restarter, bounded logs, the locked config and the network guard.

Fakes for speed; the last tests run the real embedded models."""

from __future__ import annotations

import json
import logging
import socket
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import psutil
import pytest

from assistant import kiosk, offline
from assistant.audio import AudioError, NullSink
from assistant.config import Config, ConfigError, KioskConfig, from_mapping
from assistant.events import EventType
from assistant.kiosk import KioskSession, KioskStatus, engine_factory
from assistant.pipeline import Engine
from assistant.soak import QuestionFeeder
from assistant.supervisor import EngineSupervisor, ProcessSupervisor, RestartPolicy, rotating_handler

from fakes import FakeLlm, FakeStt, FakeTts, FakeVad, RecordingSink

REPO = Path(__file__).resolve().parent.parent


def wait_for(condition, timeout=10.0) -> bool:
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return False


def kiosk_config(tmp_path: Path, **kiosk_values) -> Config:
    values = dict(hands_free=False, idle_reset_s=30.0, stage_timeout_s=0.5, watchdog_interval_s=0.05,
                  log_dir=str(tmp_path / "logs"))
    values.update(kiosk_values)
    return replace(Config(), kiosk=KioskConfig(enabled=True, **values))


class Kiosk:
    """A KioskSession on fakes, recording what it reports."""

    def __init__(self, config: Config, llm: FakeLlm | None = None, open_source=None, vad=None):
        self.llm = llm or FakeLlm(reply="Short answer.")
        self.events: list = []
        self.statuses: list[tuple[KioskStatus, str]] = []
        self.resets = 0
        self.gave_up: list[str] = []

        def make(listener):
            return Engine(config, stt=FakeStt(), llm=self.llm, tts=FakeTts(), vad=vad or FakeVad(),
                          output=RecordingSink(), on_event=listener)

        self.session = KioskSession(
            config, self.llm, make, open_source=open_source,
            on_event=lambda generation, event: self.events.append((generation, event)),
            on_status=lambda status, why: self.statuses.append((status, why)),
            on_reset=self._reset, on_give_up=self.gave_up.append,
        )

    def _reset(self) -> None:
        self.resets += 1

    def ends(self) -> list:
        return [event.data for _, event in self.events if event.type is EventType.TURN_END]

    def ask(self, text: str, timeout: float = 10.0):
        before = len(self.ends())
        self.session.engine.submit_text(text)
        assert wait_for(lambda: len(self.ends()) > before, timeout), "the turn did not end"
        return self.ends()[-1]


@pytest.fixture
def make_kiosk():
    made: list[Kiosk] = []

    def make(config, **kwargs) -> Kiosk:
        k = Kiosk(config, **kwargs)
        made.append(k)
        k.session.start()
        return k

    yield make
    for k in made:
        if k.llm.block is not None:
            k.llm.block.set()
        k.session.close()


# ---------------------------------------------------------------- the stage watchdog


def test_a_stage_records_when_its_current_message_started():
    llm = FakeLlm(reply="Short answer.", block=threading.Event())
    engine = Engine(Config(), stt=FakeStt(), llm=llm, tts=FakeTts(), vad=FakeVad(), output=RecordingSink())
    try:
        assert all(stage.busy_since is None and stage.alive for stage in engine.stages)
        before = time.perf_counter()
        engine.submit_text("hello")
        assert wait_for(lambda: engine.responder.busy_since is not None)
        assert engine.responder.busy_since >= before
        llm.block.set()
        assert wait_for(lambda: not engine.busy)
        assert wait_for(lambda: engine.responder.busy_since is None)
    finally:
        llm.block.set()
        engine.close()
    assert not any(stage.alive for stage in engine.stages)


def test_the_watchdog_restarts_a_hung_stage_and_the_next_turn_works(make_kiosk, tmp_path):
    hang = threading.Event()
    k = make_kiosk(kiosk_config(tmp_path), llm=FakeLlm(reply="Short answer.", block=hang))
    first = k.session.engine
    first.submit_text("are you there?")
    assert wait_for(lambda: k.session.engine is not first, timeout=5), "the hung engine was not replaced"
    assert k.session.supervisor.restarts == 1
    assert k.statuses[0][0] is KioskStatus.RESTARTING and "responder" in k.statuses[0][1]
    assert wait_for(lambda: k.session.status is KioskStatus.READY)
    k.llm.block = None  # the next turn's model answers
    result = k.ask("hello again")
    assert result.reply == "Short answer." and not result.errors
    hang.set()  # the abandoned stage wakes up; nothing of it reaches the kiosk
    time.sleep(0.2)
    assert all(generation == k.session.supervisor.generation for generation, _ in k.events[-3:])


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_the_watchdog_restarts_a_stage_whose_thread_died(make_kiosk, tmp_path):
    k = make_kiosk(kiosk_config(tmp_path), llm=FakeLlm(reply="Short answer.", crash=True))
    first = k.session.engine
    first.submit_text("crash now")
    assert wait_for(lambda: k.session.engine is not first, timeout=5)
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


# ---------------------------------------------------------------- visitors


def test_an_idle_visitor_is_forgotten(make_kiosk, tmp_path):
    k = make_kiosk(kiosk_config(tmp_path, idle_reset_s=0.4))
    time.sleep(0.6)
    assert k.resets == 0, "nobody came: nothing to forget"
    first = k.session.engine
    k.ask("remember me")
    assert k.llm.remembered
    assert wait_for(lambda: k.resets == 1, timeout=5)
    assert k.llm.remembered == [], "the LLM history was reset"
    assert k.session.engine is not first, "the engine (its turns and audio queues) was replaced"
    time.sleep(0.6)
    assert k.resets == 1, "forgotten once, not again and again"


def test_the_app_restarts_between_visitors_once_memory_passes_the_limit(make_kiosk, tmp_path):
    k = make_kiosk(kiosk_config(tmp_path, max_memory_mb=1))
    k.ask("hello")
    assert not k.gave_up, "never in the middle of a visit"
    k.session.forget_visitor()
    assert len(k.gave_up) == 1 and "kiosk.max_memory_mb" in k.gave_up[0]


def test_a_visitor_is_not_forgotten_while_the_reply_plays(make_kiosk, tmp_path):
    k = make_kiosk(kiosk_config(tmp_path, idle_reset_s=0.2, stage_timeout_s=10),
                   llm=FakeLlm(reply=" ".join(["word"] * 30)))  # 1.5 s of reply audio
    k.session.engine.submit_text("a long one please")
    assert wait_for(lambda: k.session.engine.busy)
    time.sleep(0.8)
    assert k.resets == 0 and k.session.engine.busy
    assert wait_for(lambda: k.resets == 1, timeout=5)


def test_transcripts_are_not_stored_unless_enabled(make_kiosk, tmp_path):
    k = make_kiosk(kiosk_config(tmp_path))
    k.ask("my secret question")
    logs = tmp_path / "logs"
    assert not (logs / "transcripts.jsonl").exists()
    assert not any("secret" in p.read_text() for p in logs.glob("*")) if logs.exists() else True


def test_transcripts_are_stored_when_the_administrator_enables_them(make_kiosk, tmp_path):
    k = make_kiosk(kiosk_config(tmp_path, store_transcripts=True))
    k.ask("first visitor")
    k.session.forget_visitor()
    k.ask("second visitor")
    lines = [json.loads(line) for line in (tmp_path / "logs" / "transcripts.jsonl").read_text().splitlines()]
    assert [(line["visitor"], line["transcript"], line["reply"]) for line in lines] == [
        (1, "first visitor", "Short answer."), (2, "second visitor", "Short answer.")]


# ---------------------------------------------------------------- the microphone


SPEECH = np.concatenate([np.full(8000, 0.2, np.float32), np.zeros(100, np.float32)])
"""Half a second that FakeVad hears as speech."""


def test_a_missing_microphone_is_tried_again(make_kiosk, tmp_path, monkeypatch):
    monkeypatch.setattr(kiosk, "MIC_RETRY_S", 0.2)
    feeder = QuestionFeeder(16000)
    opened = []

    def open_source():
        opened.append(time.perf_counter())
        if len(opened) == 1:
            raise AudioError("no microphone found")
        return feeder.open()

    k = make_kiosk(kiosk_config(tmp_path, hands_free=True), open_source=open_source)
    assert k.statuses[0] == (KioskStatus.NO_MICROPHONE, "no microphone found")
    assert wait_for(lambda: k.session.status is KioskStatus.READY, timeout=5)
    feeder.ask(SPEECH)
    assert wait_for(lambda: bool(k.ends()), timeout=10), "the reopened microphone is heard"
    assert k.ends()[0].transcript == "hello there"


def test_tap_to_talk_listens_for_one_question(make_kiosk, tmp_path):
    feeder = QuestionFeeder(16000)
    sources = []

    def open_source():
        sources.append(feeder.open())
        return sources[-1]

    k = make_kiosk(kiosk_config(tmp_path, hands_free=False), open_source=open_source)
    time.sleep(0.2)
    assert not sources, "hands-free is off: the microphone stays closed until a tap"
    k.session.tap()
    assert wait_for(lambda: bool(sources))
    feeder.ask(SPEECH)
    assert wait_for(lambda: bool(k.ends()), timeout=10)
    assert k.ends()[0].reply == "Short answer."
    assert wait_for(lambda: sources[0]._stop.is_set(), timeout=5), "the microphone closes after the answer"


# ---------------------------------------------------------------- the app process


def counting_child(tmp_path: Path, codes: list[int]) -> list[str]:
    """A child that exits with codes[n] on its n-th start and says so on stderr."""
    counter = tmp_path / "starts"
    script = (
        "import pathlib, sys\n"
        f"p = pathlib.Path({str(counter)!r})\n"
        "n = int(p.read_text()) if p.exists() else 0\n"
        "p.write_text(str(n + 1))\n"
        f"codes = {codes!r}\n"
        "print(f'start {n} exits {codes[n]}', file=sys.stderr)\n"
        "sys.exit(codes[n])\n"
    )
    return [sys.executable, "-c", script]


def test_the_app_is_restarted_with_backoff_until_it_exits_cleanly(tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    supervisor = ProcessSupervisor(counting_child(tmp_path, [1, 3, 0]), RestartPolicy(0.05, 30.0))
    assert supervisor.run() == 0
    assert supervisor.starts == 3
    assert supervisor.waits == [0.05, 0.1], "the wait doubles after each quick failure"
    app_lines = [r.getMessage() for r in caplog.records if r.name == "assistant.app"]
    assert app_lines == ["start 0 exits 1", "start 1 exits 3", "start 2 exits 0"]


def test_the_backoff_starts_over_after_a_long_run(tmp_path):
    slow_crash = [sys.executable, "-c", "import sys, time; time.sleep(0.4); sys.exit(1)"]
    supervisor = ProcessSupervisor(slow_crash, RestartPolicy(0.05, 0.1))
    runner = threading.Thread(target=supervisor.run)
    runner.start()
    assert wait_for(lambda: len(supervisor.waits) >= 3, timeout=30)
    supervisor.request_stop()
    runner.join(timeout=15)
    assert supervisor.waits[:3] == [0.05, 0.05, 0.05]


def test_a_refused_config_is_not_restarted_over_and_over(tmp_path):
    supervisor = ProcessSupervisor(counting_child(tmp_path, [2, 0]), RestartPolicy(0.05, 0.1))
    assert supervisor.run() == 2
    assert supervisor.starts == 1


def test_stopping_the_supervisor_ends_the_app(tmp_path):
    supervisor = ProcessSupervisor([sys.executable, "-c", "import time; time.sleep(60)"], RestartPolicy(0.05, 0.1))
    codes = []
    runner = threading.Thread(target=lambda: codes.append(supervisor.run()))
    runner.start()
    assert wait_for(lambda: supervisor.starts == 1 and supervisor._child is not None)
    time.sleep(0.2)
    supervisor.request_stop()
    runner.join(timeout=10)
    assert codes == [0] and supervisor._child.returncode is not None


def test_the_app_is_started_as_this_program_in_kiosk_app_mode():
    program = [sys.executable, "-m", "assistant"]
    assert kiosk.child_command(["kiosk", "--config", "k.toml"], True) == [*program, "kiosk", "--config", "k.toml", "--app"]
    assert kiosk.child_command(["--config", "k.toml"], False) == [*program, "--config", "k.toml", "kiosk", "--app"]


def test_logs_rotate_and_never_grow_without_bound(tmp_path):
    config = KioskConfig(log_dir=str(tmp_path), log_max_bytes=4096, log_backups=2)
    handler = rotating_handler(config, "kiosk.log")
    logger = logging.getLogger("test.rotation")
    logger.propagate = False
    logger.addHandler(handler)
    try:
        for i in range(2000):
            logger.error("line %d %s", i, "x" * 100)
    finally:
        logger.removeHandler(handler)
        handler.close()
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["kiosk.log", "kiosk.log.1", "kiosk.log.2"]
    assert all((tmp_path / name).stat().st_size <= 4096 for name in files)


# ---------------------------------------------------------------- the locked configuration


@pytest.mark.parametrize("section, values, key", [
    ("kiosk", {"idle_reset_s": 0}, "kiosk.idle_reset_s"),
    ("kiosk", {"exit_keys": "Alt+F4"}, "kiosk.exit_keys"),
    ("kiosk", {"exit_keys": "Q"}, "kiosk.exit_keys"),
    ("kiosk", {"admin_pin": "12ab"}, "kiosk.admin_pin"),
    ("kiosk", {"log_backups": 0}, "kiosk.log_backups"),
    ("kiosk", {"watchdog_interval_s": 90.0}, "kiosk.watchdog_interval_s"),
    ("llm", {"backend": "cloud"}, "llm.backend"),
])
def test_invalid_kiosk_settings_are_refused_naming_the_key(section, values, key):
    config = from_mapping({section: values})
    with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
        kiosk.check(config)


def test_the_default_kiosk_settings_pass():
    kiosk.check(kiosk.kiosk_config(Config()))


@pytest.mark.parametrize("text, key", [
    ("[kiosk]\nidle_reset_s = -5\n", "kiosk.idle_reset_s"),
    ("[kiosk]\nadmin_pin = 1234\n", "kiosk.admin_pin"),
    ("[kiosk]\nidle_reset = 30\n", "kiosk.idle_reset"),
])
def test_the_kiosk_command_refuses_an_invalid_config_naming_the_key(tmp_path, text, key):
    bad = tmp_path / "bad.toml"
    bad.write_text(text)
    run = subprocess.run([sys.executable, "-m", "assistant", "kiosk", "--config", str(bad)],
                         capture_output=True, text=True, timeout=60, cwd=REPO)
    assert run.returncode == 2
    assert f"'{key}'" in run.stderr
    assert not (tmp_path / "logs").exists()


def test_a_config_with_kiosk_enabled_starts_the_kiosk_and_is_checked(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[kiosk]\nenabled = true\nexit_keys = "Ctrl+Q"\n')
    run = subprocess.run([sys.executable, "-m", "assistant", "--config", str(bad)],
                         capture_output=True, text=True, timeout=60, cwd=REPO)
    assert run.returncode == 2 and "'kiosk.exit_keys'" in run.stderr


@pytest.fixture
def no_network():
    offline.attempts.clear()
    offline.forbid_network()
    yield offline.attempts
    offline.allow_network()


# ---------------------------------------------------------------- real models


class HangOnce:
    """The real LLM, except that its first reply hangs."""

    def __init__(self, llm):
        self.llm = llm
        self.name = llm.name
        self.release = threading.Event()
        self.calls = 0

    def stream(self, user, stats):
        self.calls += 1
        if self.calls == 1:
            self.release.wait()
        return self.llm.stream(user, stats)

    def remember(self, user, reply):
        self.llm.remember(user, reply)

    def reset(self):
        self.llm.reset()


@pytest.mark.slow
def test_real_engines_a_turn_opens_no_socket(engines, tmp_path, no_network):
    config = kiosk_config(tmp_path, stage_timeout_s=60)
    ends = []
    session = KioskSession(config, engines.llm, engine_factory(config, engines, NullSink(22050)),
                           on_event=lambda _g, e: ends.append(e.data) if e.type is EventType.TURN_END else None)
    process = psutil.Process()
    before = {c.laddr for c in process.net_connections(kind="inet")}
    seen = set()
    stop = threading.Event()

    def sample():
        while not stop.wait(0.02):
            seen.update(c.raddr for c in process.net_connections(kind="inet") if c.laddr not in before)

    sampler = threading.Thread(target=sample)
    sampler.start()
    session.start()
    try:
        session.engine.submit_text("What color is the sky?")
        assert wait_for(lambda: bool(ends), timeout=120)
    finally:
        stop.set()
        sampler.join()
        session.close()
    assert ends[0].reply and not ends[0].errors
    assert no_network == [], "the kiosk tried to reach the network"
    assert not seen, f"sockets opened during the turn: {seen}"


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
        assert wait_for(lambda: session.engine is not first, timeout=10)
        session.supervisor.stage_timeout_s = 120  # a real reply (and its playback) takes seconds
        session.engine.submit_text("What color is the sky?")
        assert wait_for(lambda: bool(ends), timeout=120)
        assert ends[-1].reply and not ends[-1].errors
        assert session.supervisor.restarts == 1
    finally:
        llm.release.set()
        session.close()
