"""Recovery from injected faults at the default settings, end to end: the real embedded
models, the real kiosk session and watchdog, the real app supervisor restarting real
processes. Each test prints the recovery time it measured (``-s``); the times are
reported, not asserted (they depend on the machine and its load).

Times are on one monotonic clock shared by the processes (``time.monotonic``)."""

from __future__ import annotations

import json
import logging
import os
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from assistant.config import Config
from assistant.commands.kiosk.restarter import ProcessSupervisor, RestartPolicy

pytestmark = pytest.mark.slow
REPO = Path(__file__).resolve().parents[2]

MODEL_HANG = textwrap.dedent('''
    import json, sys, threading, time
    from dataclasses import replace
    from pathlib import Path

    from assistant.speak.sinks import NullSink
    from assistant.config import Config, KioskConfig
    from assistant.events import EventType
    from assistant.pipeline.kiosk.session import KioskSession, engine_factory
    from assistant.pipeline.session import load_models

    marker, notes = Path(sys.argv[1]), Path(sys.argv[2])

    def note(what):
        with notes.open("a") as f:
            f.write(json.dumps({"what": what, "at": time.monotonic()}) + "\\n")

    class HangInTheModel:
        """The real LLM, whose first generation never returns (a native hang)."""

        def __init__(self, llm):
            self.llm = llm

        def __getattr__(self, name):
            return getattr(self.llm, name)

        def stream(self, user, stats):
            threading.Event().wait()

    note("start")
    hang = not marker.exists()
    models = load_models(Config())
    if hang:
        models = replace(models, llm=HangInTheModel(models.llm))
    config = replace(Config(), kiosk=KioskConfig(enabled=True, hands_free=False, log_dir=str(notes.parent)))
    answered = threading.Event()
    session = KioskSession(config, models.llm, engine_factory(config, models, NullSink(22050)),
                           on_event=lambda _g, e: answered.set() if e.type is EventType.TURN_END else None)
    session.start()
    note("ready")
    if hang:
        marker.touch()
        note("hang")
        session.engine.submit_text("What color is the sky?")
        time.sleep(120)  # the watchdog ends this process long before
        sys.exit(1)
    session.engine.submit_text("What color is the sky?")
    answered.wait(120)
    note("answered")
    session.close()
''')


def notes(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_hang_inside_a_model_call_restarts_the_app_within_10_s(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    log = tmp_path / "notes.jsonl"
    policy = RestartPolicy(Config().kiosk.restart_backoff_s, Config().kiosk.restart_backoff_max_s)
    supervisor = ProcessSupervisor([sys.executable, "-c", MODEL_HANG, str(tmp_path / "hung-once"), str(log)], policy,
                                   env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert supervisor.run() == 0
    seen = notes(log)
    at = {f"{n['what']}{i}": n["at"] for i, n in enumerate(x for x in seen)}
    hang = next(n["at"] for n in seen if n["what"] == "hang")
    ready = [n["at"] for n in seen if n["what"] == "ready"][-1]
    answered = next(n["at"] for n in seen if n["what"] == "answered")
    starts = [n["at"] for n in seen if n["what"] == "start"]
    print(f"\nmodel call hung: app started again {starts[1] - hang:.1f} s after the hang, "
          f"engine ready {ready - hang:.1f} s after it (models load in {ready - starts[1]:.1f} s), "
          f"the next question answered {answered - hang:.1f} s after it")
    assert supervisor.starts == 2 and supervisor.waits == [0.0]
    assert any("inside a model call" in r.getMessage() for r in caplog.records)
    assert ready > hang and answered > ready, at


GUI_SLEEP = textwrap.dedent('''
    import json, sys, time
    from dataclasses import replace
    from pathlib import Path

    from assistant.config import Config, KioskConfig
    from assistant.commands.kiosk.command import run_app

    marker, notes = Path(sys.argv[1]), Path(sys.argv[2])

    def note(what):
        with notes.open("a") as f:
            f.write(json.dumps({"what": what, "at": time.monotonic()}) + "\\n")

    note("start")
    from PySide6.QtCore import QTimer
    from ui.app import application

    app = application()
    first = not marker.exists()

    def sleep_on_the_gui_thread():
        marker.touch()
        note("sleep")
        time.sleep(120)

    def when_ready():  # the restarted kiosk shows its attract screen: the engine is ready
        from ui.kiosk import KioskWindow

        if any(isinstance(w, KioskWindow) and w.showing() == "attract" for w in app.topLevelWidgets()):
            note("ready")
            app.exit(0)

    if first:
        QTimer.singleShot(3000, sleep_on_the_gui_thread)
    else:
        poll = QTimer(app, interval=50)
        poll.timeout.connect(when_ready)
        poll.start()
    config = replace(Config(), kiosk=KioskConfig(enabled=True, hands_free=False, log_dir=str(notes.parent)))
    sys.exit(run_app(config, supervised=True))  # the kiosk app as the supervisor runs it
''')


def test_a_gui_thread_that_sleeps_is_restarted_by_the_supervisor(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    log = tmp_path / "notes.jsonl"
    k = Config().kiosk
    supervisor = ProcessSupervisor([sys.executable, "-c", GUI_SLEEP, str(tmp_path / "slept-once"), str(log)],
                                   RestartPolicy(k.restart_backoff_s, k.restart_backoff_max_s, k.gui_timeout_s),
                                   env=dict(os.environ, PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen"))
    monitors = []

    def watch_beats() -> None:  # the restarted app's heartbeat monitor
        while len(monitors) < 2:
            beats = supervisor.heartbeats
            if beats is not None and beats not in monitors:
                monitors.append(beats)
            time.sleep(0.005)

    watcher = threading.Thread(target=watch_beats, daemon=True)
    watcher.start()
    assert supervisor.run() == 0
    watcher.join(timeout=5)
    seen = notes(log)
    slept = next(n["at"] for n in seen if n["what"] == "sleep")
    ready = next(n["at"] for n in seen if n["what"] == "ready")
    found, back = supervisor.hangs[0], monitors[1].first
    print(f"\nGUI thread asleep: found hung {found - slept:.1f} s after the fault (limit {k.gui_timeout_s} s since "
          f"the last heartbeat, which came up to 1 s before it), the restarted window beating {back - slept:.1f} s and "
          f"the engine ready {ready - slept:.1f} s after the fault")
    assert supervisor.starts == 2 and len(supervisor.hangs) == 1
    assert any("sleep_on_the_gui_thread" in r.getMessage() for r in caplog.records), \
        "the hung app's stacks (faulthandler) reached the log"
    assert supervisor.waits == [0.0], "a hung app is started again at once"
    assert found > slept and back > found and ready >= back
