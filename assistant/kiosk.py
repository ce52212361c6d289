"""The kiosk's engine side (no Qt): the locked configuration's checks, a supervised
engine that forgets each visitor, a microphone that is reopened when it is lost,
transcripts only when the administrator enables them, and ``assistant kiosk``.

:class:`KioskSession` runs one watch thread. Every ``watchdog_interval_s`` it lets the
:class:`~assistant.supervisor.EngineSupervisor` look at the stages, keeps the microphone
open (hands-free) and, once nobody has spoken for ``idle_reset_s``, forgets the visitor:
a fresh engine (the old one's turns and queued audio go with it), ``llm.reset()`` (the
history, and the KV cache back to the system prompt), and freed memory handed back to
the system.
"""

from __future__ import annotations

import argparse
import ctypes
import faulthandler
import gc
import json
import logging
import os
import signal
import sys
import threading
import time
from dataclasses import replace
from datetime import datetime
from enum import Enum
from pathlib import Path
from typing import Any, Callable, Iterator
from urllib.parse import urlparse

import numpy as np

from .audio import AudioIn, AudioOut
from .config import Config, ConfigError, KioskConfig
from .events import Event, EventType, State, TurnResult
from .llm import Llm
from .session import Engines, build_engine
from .supervisor import (
    EngineFactory, EngineSupervisor, ProcessSupervisor, RestartPolicy, exit_for_restart, log_to_file,
    rotating_handler,
)

log = logging.getLogger(__name__)

MIC_RETRY_S = 10.0
"""Wait before a lost or missing microphone is tried again; doubled after each failure."""
MIC_RETRY_MAX_S = 300.0
TAP_LISTEN_S = 8.0
"""After a tap, how long the microphone waits for the visitor to start speaking."""
VISITOR_EVENTS = frozenset({
    EventType.SPEECH_START, EventType.PARTIAL_TRANSCRIPT, EventType.TRANSCRIPT, EventType.REPLY_TEXT,
    EventType.AUDIO_START, EventType.TURN_END,
})
"""Events that mean someone is using the kiosk (state changes alone do not)."""
MODIFIERS = frozenset({"ctrl", "alt", "shift", "meta"})
NAMED_KEYS = frozenset({"esc", "escape", "tab", "backspace", "return", "enter", "insert", "ins", "delete", "del",
                        "pause", "print", "home", "end", "pgup", "pgdown", "left", "right", "up", "down", "space"})
COMMON_SHORTCUTS = ("Alt+F4", "Ctrl+Q", "Ctrl+W", "Ctrl+C", "Alt+Tab", "Ctrl+Alt+Delete", "Ctrl+Alt+Del",
                    "Ctrl+Alt+Backspace", "Ctrl+Shift+Esc", "Ctrl+Shift+Escape")
"""Key combinations visitors (or the desktop) use: never the administrator exit."""


class KioskStatus(str, Enum):
    READY = "ready"
    RESTARTING = "restarting"
    """The engine is being replaced ("one moment")."""
    NO_MICROPHONE = "no microphone"


# ---------------------------------------------------------------- the locked configuration


def _keys(keys: str) -> tuple[frozenset[str], str]:
    """(modifiers, key) of a combination like ``Ctrl+Alt+E``, lower-cased."""
    *mods, key = [part.strip().lower() for part in keys.split("+")]
    return frozenset(mods), key


def exit_keys_problem(keys: str) -> str | None:
    """Why ``keys`` cannot be the administrator exit, or None."""
    if not keys.strip() or any(not part.strip() for part in keys.split("+")):
        return "must be a key combination like Ctrl+Alt+Shift+E"
    mods, key = _keys(keys)
    if not mods or not mods <= MODIFIERS:
        return "must hold at least one of Ctrl, Alt, Shift, Meta before the key"
    if not (len(key) == 1 and key.isalnum() or key in NAMED_KEYS or key[:1] == "f" and key[1:].isdigit()):
        return f"names no key in '{key}'"
    if (mods, key) in {_keys(shortcut) for shortcut in COMMON_SHORTCUTS}:
        return "is a shortcut visitors know; choose one nobody presses by chance"
    return None


def check(config: Config) -> None:
    """Refuse a kiosk configuration that cannot work, naming the key that is wrong."""
    k = config.kiosk
    rules: list[tuple[str, bool, str]] = [
        ("kiosk.exit_keys", exit_keys_problem(k.exit_keys) is None, exit_keys_problem(k.exit_keys) or ""),
        ("kiosk.admin_pin", k.admin_pin == "" or (k.admin_pin.isdigit() and 4 <= len(k.admin_pin) <= 12),
         "must be 4 to 12 digits (quoted, as a string), or '' for none"),
        ("kiosk.idle_reset_s", k.idle_reset_s > 0, "must be more than 0 seconds"),
        ("kiosk.attract_text", bool(k.attract_text.strip()), "must not be empty"),
        ("kiosk.font_pt", 8 <= k.font_pt <= 200, "must be 8 to 200 points"),
        ("kiosk.hide_cursor_s", k.hide_cursor_s > 0, "must be more than 0 seconds"),
        ("kiosk.log_dir", k.log_dir is None or isinstance(k.log_dir, str), "must be a folder path"),
        ("kiosk.log_max_bytes", k.log_max_bytes >= 4096, "must be at least 4096 (logs rotate at this size)"),
        ("kiosk.log_backups", k.log_backups >= 1, "must be at least 1 (0 would let a log grow without bound)"),
        ("kiosk.stage_timeout_s", k.stage_timeout_s > 0, "must be more than 0 seconds"),
        ("kiosk.watchdog_interval_s", 0 < k.watchdog_interval_s < k.stage_timeout_s,
         "must be more than 0 and less than kiosk.stage_timeout_s"),
        ("kiosk.engine_restarts", k.engine_restarts >= 0, "must be 0 or more"),
        ("kiosk.restart_window_s", k.restart_window_s > 0, "must be more than 0 seconds"),
        ("kiosk.restart_backoff_s", k.restart_backoff_s > 0, "must be more than 0 seconds"),
        ("kiosk.restart_backoff_max_s", k.restart_backoff_max_s >= k.restart_backoff_s,
         "must be at least kiosk.restart_backoff_s"),
        ("kiosk.max_memory_mb", k.max_memory_mb >= 0, "must be 0 (no limit) or more"),
        ("llm.backend", config.llm.backend in ("local", "remote"), "must be local or remote"),
        ("llm.max_tokens", config.llm.max_tokens > 0, "must be more than 0"),
        ("stt.engine", config.stt.engine in ("whisper", "vosk"), "must be whisper or vosk"),
        ("tts.engine", config.tts.engine in ("piper", "system"), "must be piper or system"),
        ("vad.endpoint_ms", 100 <= config.vad.endpoint_ms <= 3000, "must be 100 to 3000 ms"),
        ("vad.threshold", 0.2 <= config.vad.threshold <= 0.95, "must be 0.2 to 0.95"),
    ]
    for key, ok, why in rules:
        if not ok:
            section, name = key.split(".")
            value = getattr(getattr(config, section), name)
            raise ConfigError(f"'{key}' {why} (it is {value!r})")


def release_memory() -> None:
    """Hand freed heap memory back to the system. glibc keeps it for reuse, and with the
    native engines' varied allocations a process running all day creeps up; trimming at
    each visitor reset keeps it level. Does nothing where there is no glibc."""
    gc.collect()
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None).malloc_trim(0)
        except (OSError, AttributeError):  # another C library (musl)
            pass


def resident_mb() -> float:
    import psutil

    return psutil.Process().memory_info().rss / 2**20


def kiosk_config(config: Config) -> Config:
    """``config`` with kiosk mode on."""
    return replace(config, kiosk=replace(config.kiosk, enabled=True))


def allowed_hosts(config: Config) -> list[str]:
    """The only hosts a kiosk may reach: the remote LLM server, when one is configured."""
    if config.llm.backend != "remote":
        return []
    host = urlparse(config.llm.remote_url).hostname
    return [host] if host else []


# ---------------------------------------------------------------- transcripts


class TranscriptLog:
    """One JSON line per turn in ``transcripts.jsonl`` (rotating). Exists only when the
    administrator enabled ``kiosk.store_transcripts``."""

    def __init__(self, kiosk: KioskConfig):
        self._handler = rotating_handler(kiosk, "transcripts.jsonl")
        self._handler.setFormatter(logging.Formatter("%(message)s"))
        self.visitor = 1

    def new_visitor(self) -> None:
        self.visitor += 1

    def write(self, result: TurnResult) -> None:
        line = json.dumps({
            "at": datetime.now().isoformat(timespec="seconds"), "visitor": self.visitor, "turn": result.turn_id,
            "transcript": result.transcript, "reply": result.reply, "source": result.source,
        }, ensure_ascii=False)
        self._handler.handle(logging.makeLogRecord({"msg": line, "levelno": logging.INFO, "levelname": "INFO"}))

    def close(self) -> None:
        self._handler.close()


# ---------------------------------------------------------------- the session


class _WatchedSource:
    """An audio input that notes when it delivers and when it ends."""

    def __init__(self, source: AudioIn):
        self.source = source
        self.rate = source.rate
        self.frame_samples = source.frame_samples
        self.live = False
        """At least one frame arrived: the device works."""
        self.stopped = False
        """Stopped on purpose (not lost)."""
        self.ended = threading.Event()

    def frames(self) -> Iterator[tuple[np.ndarray, float]]:
        try:
            for item in self.source.frames():
                self.live = True
                yield item
        finally:
            self.ended.set()

    def stop(self) -> None:
        self.stopped = True
        self.source.stop()


def engine_factory(
    config: Config, engines: Engines, output: AudioOut, replies: Any = None, skills: Any = None
) -> EngineFactory:
    def make(listener: Callable[[Event], None]):
        return build_engine(config, engines, output, replies=replies, skills=skills, on_event=listener)

    return make


class KioskSession:
    """A supervised engine for one visitor at a time (see the module docstring).

    ``open_source`` opens the microphone (raising when there is none); ``on_event``
    receives (engine generation, event) of the current engine only; ``on_status`` a
    :class:`KioskStatus` and a reason; ``on_reset`` is called once a visitor is forgotten.
    """

    def __init__(
        self,
        config: Config,
        llm: Llm,
        make_engine: EngineFactory,
        *,
        open_source: Callable[[], AudioIn] | None = None,
        on_event: Callable[[int, Event], None] | None = None,
        on_status: Callable[[KioskStatus, str], None] | None = None,
        on_reset: Callable[[], None] | None = None,
        on_give_up: Callable[[str], None] = exit_for_restart,
        clock: Callable[[], float] = time.perf_counter,
    ):
        self.config = config
        self.kiosk = config.kiosk
        self.llm = llm
        self.resets = 0
        self.status = KioskStatus.READY
        self._make_engine = make_engine
        self._open_source = open_source
        self._on_event = on_event
        self._on_status = on_status
        self._on_reset = on_reset
        self._on_give_up = on_give_up
        self._clock = clock
        self._source: _WatchedSource | None = None
        self._mic_retry_at = 0.0
        self._mic_retry_s = MIC_RETRY_S
        self._tap_requested = False
        self._tap_deadline: float | None = None
        self._tap_turn_ended = False
        self._visitor = False
        self._last_activity = clock()
        self._transcripts = TranscriptLog(self.kiosk) if self.kiosk.store_transcripts else None
        self._wake = threading.Event()
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._run, name="kiosk-watch", daemon=True)
        self.supervisor = EngineSupervisor(
            self._new_engine, self._forward,
            stage_timeout_s=self.kiosk.stage_timeout_s, max_restarts=self.kiosk.engine_restarts,
            window_s=self.kiosk.restart_window_s, on_restart=self._restarting, on_give_up=on_give_up, clock=clock,
        )

    @property
    def engine(self):
        return self.supervisor.engine

    def start(self) -> None:
        self._thread.start()

    def close(self) -> None:
        self._closed.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        self.supervisor.close()
        if self._transcripts is not None:
            self._transcripts.close()

    # ------------------------------------------------------------ what the screen calls

    def tap(self) -> None:
        """The on-screen button: stops a reply in progress, else listens for one question
        (hands-free already listens). Returns at once."""
        engine = self.engine
        if engine.state in (State.THINKING, State.SPEAKING):
            engine.interrupt()
            return
        if not self.kiosk.hands_free:
            self._tap_requested = True
            self._wake.set()

    def forget_visitor(self) -> None:
        """Forget the conversation now: a fresh engine, the LLM history and KV cache, the transcript's visitor."""
        self._visitor = False
        self.supervisor.renew()
        self.llm.reset()
        release_memory()
        if self._transcripts is not None:
            self._transcripts.new_visitor()
        self.resets += 1
        log.info("the visitor was forgotten (reset %d)", self.resets)
        if self._on_reset is not None:
            self._on_reset()
        memory_mb = resident_mb()
        if self.kiosk.max_memory_mb and memory_mb > self.kiosk.max_memory_mb:
            self._on_give_up(f"{memory_mb:.0f} MB resident, above kiosk.max_memory_mb = {self.kiosk.max_memory_mb}")

    # ------------------------------------------------------------ engines and events

    def _new_engine(self, listener: Callable[[Event], None]):
        engine = self._make_engine(listener)
        self._source = None
        self._tap_deadline = None
        if self.kiosk.hands_free:
            self._listen(engine)
        return engine

    def _forward(self, generation: int, event: Event) -> None:
        if event.type in VISITOR_EVENTS:
            self._last_activity = self._clock()
            if event.type in (EventType.SPEECH_START, EventType.TRANSCRIPT):
                self._visitor = True
                self._tap_deadline = None
        if event.type is EventType.TURN_END:
            self._tap_turn_ended = True
            if self._transcripts is not None:
                self._transcripts.write(event.data)
        if self._on_event is not None:
            self._on_event(generation, event)

    def _set_status(self, status: KioskStatus, reason: str = "") -> None:
        if status is not self.status:
            self.status = status
            if self._on_status is not None:
                self._on_status(status, reason)

    def _restarting(self, reason: str) -> None:
        self._set_status(KioskStatus.RESTARTING, reason)

    # ------------------------------------------------------------ the watch thread

    def _run(self) -> None:
        while not self._closed.is_set():
            self._wake.wait(self.kiosk.watchdog_interval_s)
            self._wake.clear()
            if self._closed.is_set():
                return
            try:
                self.tick()
            except Exception:  # the watch must go on
                log.exception("kiosk watch failed")

    def tick(self) -> None:
        """One look: stages, microphone, tap, idle visitor."""
        if self.supervisor.check() is not None:
            if not self.supervisor.gave_up:
                self._set_status(KioskStatus.READY)
            return
        engine = self.engine
        now = self._clock()
        self._keep_listening(engine, now)
        if self._visitor and not engine.busy and now - self._last_activity >= self.kiosk.idle_reset_s:
            self.forget_visitor()

    def _listen(self, engine) -> None:
        if self._open_source is None:
            return
        try:
            source = _WatchedSource(self._open_source())
        except Exception as exc:  # no device now; tried again later
            self._mic_failed(str(exc))
            return
        self._source = source
        engine.listen(source)

    def _mic_failed(self, reason: str) -> None:
        level = logging.INFO if self.status is KioskStatus.NO_MICROPHONE else logging.WARNING
        log.log(level, "no microphone (%s); trying again in %.0f s", reason, self._mic_retry_s)
        self._mic_retry_at = self._clock() + self._mic_retry_s
        self._mic_retry_s = min(self._mic_retry_s * 2, MIC_RETRY_MAX_S)
        self._set_status(KioskStatus.NO_MICROPHONE, reason)

    def _stop_listening(self, engine) -> None:
        if self._source is not None:
            self._source.stop()
            self._source = None
        engine.stop_listening()

    def _keep_listening(self, engine, now: float) -> None:
        source = self._source
        if source is not None and source.ended.is_set() and not source.stopped:
            self._source = None
            self._mic_failed("the microphone stopped")
            engine.stop_listening()
        elif source is not None and source.live and self.status is KioskStatus.NO_MICROPHONE:
            self._mic_retry_s = MIC_RETRY_S
            self._set_status(KioskStatus.READY)
        if self.kiosk.hands_free:
            if self._source is None and now >= self._mic_retry_at:
                self._listen(engine)
            return
        if self._tap_requested:
            self._tap_requested = False
            if self._source is None:
                self._tap_turn_ended = False
                self._listen(engine)
            self._tap_deadline = now + TAP_LISTEN_S
        elif self._source is not None and not engine.busy and (
            self._tap_turn_ended or (self._tap_deadline is not None and now > self._tap_deadline)
        ):
            self._stop_listening(engine)  # the question was answered, or none came


# ---------------------------------------------------------------- ``assistant kiosk``


def add_parser(sub) -> argparse.ArgumentParser:
    """Register ``kiosk`` on the CLI's subparsers."""
    from .cli import add_engine_options

    parser = sub.add_parser(
        "kiosk",
        help="an unattended public screen: full screen, locked, offline, restarts itself",
        description=(
            "Runs the kiosk app full screen under a supervisor that starts it again if it dies. "
            "Settings come from the (locked) config file only; an invalid file is refused with the key named. "
            "--soak runs spoken turns through the kiosk engine headlessly and reports memory and threads. "
            "How an administrator leaves: press the exit keys (kiosk.exit_keys, default Ctrl+Alt+Shift+E); "
            "when kiosk.admin_pin is set, the PIN pad opens and the PIN leaves, and on a touch screen five "
            "taps within 3 s in the top-left corner open the PIN pad too. Closing the window, Esc, Alt+F4 and "
            "other shortcuts do nothing. See docs/kiosk.md."
        ),
    )
    add_engine_options(parser)
    parser.add_argument("--no-supervisor", action="store_true",
                        help="run the app in this process (nothing restarts it if it dies)")
    parser.add_argument("--app", action="store_true", help=argparse.SUPPRESS)  # the supervised child
    soak = parser.add_argument_group("soak run (no screen)")
    soak.add_argument("--soak", type=int, metavar="TURNS", help="run TURNS spoken questions through the kiosk engine")
    soak.add_argument("--input", type=Path, nargs="+", help="question WAVs, used in turn (default: short synthesized questions)")
    soak.add_argument("--report", type=Path, help="write the soak figures as JSON here")
    parser.set_defaults(func=run_kiosk)
    return parser


def run_kiosk(args: argparse.Namespace) -> int:
    from .cli import config_from_args

    config = kiosk_config(config_from_args(args))
    check(config)
    if getattr(args, "soak", None):
        from .soak import run_soak_command

        return run_soak_command(config, args)
    if getattr(args, "app", False) or getattr(args, "no_supervisor", False):
        return run_app(config, supervised=getattr(args, "app", False))
    return supervise(config, in_kiosk_command=getattr(args, "command", None) == "kiosk")


def run_app(config: Config, supervised: bool = False) -> int:
    """The kiosk window in this process: logs to a rotating file, no network."""
    from .offline import forbid_network

    path = log_to_file(config.kiosk, "kiosk.log")
    faulthandler.enable()  # a native crash dumps the Python stacks to stderr: the supervisor's log
    if not supervised:
        print(f"kiosk: logging to {path}", file=sys.stderr)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    forbid_network(allowed_hosts(config))
    try:
        from ui.kiosk import main
    except ImportError as exc:
        print(f"error: the kiosk needs PySide6 ({exc})", file=sys.stderr)
        return 2
    return main(config)


def child_command(argv: list[str], in_kiosk_command: bool) -> list[str]:
    """How the supervisor starts the app: this program again, as ``kiosk --app``."""
    program = [sys.executable] if getattr(sys, "frozen", False) else [sys.executable, "-m", "assistant"]
    return [*program, *argv, *([] if in_kiosk_command else ["kiosk"]), "--app"]


def supervise(config: Config, in_kiosk_command: bool) -> int:
    """Run the app as a child process and start it again whenever it dies."""
    path = log_to_file(config.kiosk, "supervisor.log")
    print(f"kiosk: supervising the app; logs in {path.parent}", file=sys.stderr)
    env = dict(os.environ)
    package_root = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    k = config.kiosk
    supervisor = ProcessSupervisor(child_command(sys.argv[1:], in_kiosk_command),
                                   RestartPolicy(k.restart_backoff_s, k.restart_backoff_max_s), env=env)
    for sig in (signal.SIGTERM, signal.SIGINT, getattr(signal, "SIGHUP", None)):
        if sig is not None:
            signal.signal(sig, lambda *_: supervisor.request_stop())
    return supervisor.run()
