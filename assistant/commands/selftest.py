"""Headless self-check of an install: ``assistant --self-test``.

Loads every engine the configuration names, answers one typed question into a WAV
file, checks the WAV holds speech (Silero VAD, and Whisper hears the reply back), and
prints one JSON report on stdout: the turn's timeline, load times, where each model
came from and whether this is a PyInstaller bundle. Exit status 0 only if every check
passed. The same command checks a source checkout, an installed wheel and the bundle.
"""

from __future__ import annotations

import json
import logging
import platform
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from assistant.commands import launcher
from assistant.machine import models
from assistant import resources
from assistant.speak.sinks import SameClockWavSink
from assistant.sound import load_wav
from assistant.config import Config
from assistant.events import Event, EventType, TurnResult
from assistant.pipeline.session import LoadedModels, build_engine, load_models
from assistant.timeline import Mark
from assistant.hear.vad import SileroVad
from assistant.pipeline.waiting import wait_until

log = logging.getLogger(__name__)

QUESTION = "What is the capital of France?"
TURN_TIMEOUT_S = 120.0
MIN_SPEECH_S = 0.3
"""The reply WAV must hold at least this much speech by the VAD."""
MIN_ROUND_TRIP_SCORE = 50.0
"""How closely (0-100, word-set match) the transcript of the reply WAV must match the reply text."""
VERSIONED = (
    "llama_cpp_python", "onnxruntime", "ctranslate2", "faster-whisper", "piper-tts", "vosk", "PySide6_Essentials"
)


@dataclass
class Report:
    """Checks in the order they ran; any failure makes the exit status non-zero."""

    checks: list[dict[str, Any]] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)

    def check(self, name: str, ok: bool | None, detail: str = "") -> bool:
        """Record a check; ``ok`` None means skipped (not a failure)."""
        status = "skipped" if ok is None else "ok" if ok else "failed"
        self.checks.append({"name": name, "status": status, "detail": detail})
        return ok is not False

    def attempt(self, name: str, fn: Callable[[], Any]) -> Any:
        """Run ``fn``; an exception becomes a failed check named ``name``."""
        try:
            return fn()
        except Exception as exc:  # noqa: BLE001 - every failure is reported, none escapes
            log.debug("self-test step %s failed", name, exc_info=True)
            cause = f" (cause: {type(exc.__cause__).__name__}: {exc.__cause__})" if exc.__cause__ else ""
            self.check(name, False, f"{type(exc).__name__}: {exc}{cause}")
            return None

    @property
    def ok(self) -> bool:
        return all(c["status"] != "failed" for c in self.checks)

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, **self.data, "checks": self.checks}


def process_age_s() -> float | None:
    """Seconds since this process started (the bundle's bootloader included)."""
    try:
        import psutil

        # Process creation time is only known as wall-clock time.
        return round(time.time() - psutil.Process().create_time(), 3)
    except Exception:  # noqa: BLE001 - a platform without the probe still runs the test
        return None


def environment() -> dict[str, Any]:
    bundle = resources.bundle_dir()
    return {
        "frozen": resources.is_frozen(),
        "bundle_dir": str(bundle) if bundle else None,
        "app_dir": str(resources.app_dir()),
        "executable": sys.executable,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "versions": {name: resources.distribution_version(name) for name in VERSIONED},
        "models_dirs": [str(p) for p in resources.models_dirs()],
    }


def find_models(config: Config) -> dict[str, dict[str, str]]:
    """Where each configured model was found (raises ModelError when one is missing)."""
    found = {"llm": models.find_llm(config.llm.model)} if config.llm.backend == "local" else {}
    if config.stt.engine == "whisper":
        found["stt"] = models.find_whisper(config.stt.whisper_model, config.stt.language)
    else:
        found["stt"] = models.find_vosk(config.stt.vosk_model, config.stt.language)
    if config.tts.engine == "piper":
        found["tts"] = models.find_piper_voice(config.tts.voice)
    named = {role: {"path": str(f.path), "origin": f.origin} for role, f in found.items()}
    named["vad"] = {"path": str(models.find_silero_vad()), "origin": "faster-whisper"}
    return named


def check_vosk(report: Report, config: Config) -> None:
    """The vosk library loads (libvosk); its model is only located, not loaded, unless it is the STT."""
    import vosk

    vosk.SetLogLevel(-1)
    try:
        where = str(models.find_vosk(config.stt.vosk_model, config.stt.language).path)
    except models.ModelError:
        where = f"no vosk model for '{config.stt.language}' (optional)"
    report.check("vosk", True, f"libvosk loaded; model: {where}")


def check_portaudio(report: Report) -> None:
    """PortAudio (microphone and speaker) loads. A bundle must carry it; a source install may
    lack it (the app then runs from WAV files and typed text)."""
    try:
        import sounddevice
    except OSError as exc:
        report.check("portaudio", False if resources.is_frozen() else None, str(exc))
        return
    library = getattr(sounddevice, "_libname", "")
    devices = len(sounddevice.query_devices())
    report.check("portaudio", True, f"{sounddevice.get_portaudio_version()[1]} {library}; {devices} devices")


def run_turn(engines: LoadedModels, config: Config, wav: Path, report: Report) -> TurnResult | None:
    """One typed question, answered into ``wav`` the way ``assistant chat --text`` does."""
    from assistant.pipeline.session import load_replies

    output = SameClockWavSink(wav, config.audio.output_rate)
    start = time.perf_counter()
    replies = load_replies(config.replies, engines.tts, output.rate)
    report.data["load_s"]["replies"] = round(time.perf_counter() - start, 2)
    finished = threading.Event()
    results: list[TurnResult] = []

    def on_event(event: Event) -> None:
        if event.type is EventType.TURN_END:
            results.append(event.data)
            finished.set()

    engine = build_engine(config, engines, output, replies=replies, on_event=on_event)
    try:
        output.start(time.perf_counter())
        engine.submit_text(QUESTION)
        finished.wait(TURN_TIMEOUT_S)
        wait_until(lambda: not engine.busy, TURN_TIMEOUT_S)
    finally:
        engine.close()
        output.close()
    if not results:
        report.check("turn", False, f"no answer within {TURN_TIMEOUT_S:.0f} s")
        return None
    result = results[0]
    heard = result.timeline.get(Mark.AUDIO_OUT_START) is not None
    ok = bool(result.reply) and heard and not result.errors and result.timeline.in_order()
    errors = f"; errors: {result.errors}" if result.errors else ""
    report.check("turn", ok, f"{result.source}: {result.reply!r}{errors}")
    return result


def check_wav(engines: LoadedModels, wav: Path, reply: str, language: str, report: Report) -> dict[str, Any]:
    """The reply WAV holds speech (Silero VAD), and the STT hears the reply in it.

    The hearing check runs when the STT listens for English, the language of the embedded
    LLM and voice; a Korean recognizer, say, cannot be expected to transcribe them.
    """
    from rapidfuzz import fuzz

    rate = 16000
    pcm = load_wav(wav, rate)
    frame = SileroVad.frame_samples
    engines.vad.reset()
    probs = np.array([engines.vad.probability(pcm[i : i + frame]) for i in range(0, pcm.size - frame + 1, frame)])
    speech = np.flatnonzero(probs >= 0.5)
    speech_s = speech.size * frame / rate
    info: dict[str, Any] = {
        "path": str(wav), "seconds": round(pcm.size / rate, 2), "speech_s": round(speech_s, 2),
        "peak": round(float(np.abs(pcm).max(initial=0.0)), 3),
    }
    report.check("wav_speech", speech_s >= MIN_SPEECH_S, f"{speech_s:.2f} s of speech in {info['seconds']} s")
    if language != "en":
        report.check("wav_round_trip", None, f"the STT listens for '{language}', the reply is English")
        return info
    # Only the speech and 0.5 s around it: over long silence Whisper tends to repeat itself.
    pad = int(0.5 * rate)
    start, end = (speech[0] * frame, (speech[-1] + 1) * frame) if speech.size else (0, pcm.size)
    utterance = engines.stt.utterance()
    utterance.feed(pcm[max(0, start - pad) : end + pad])
    info["heard"] = utterance.transcribe()
    info["match"] = round(fuzz.token_set_ratio(info["heard"].lower(), reply.lower()), 1)
    ok = info["match"] >= MIN_ROUND_TRIP_SCORE
    report.check("wav_round_trip", ok, f"heard {info['heard']!r} (match {info['match']})")
    return info


def check_gui(report: Report) -> dict[str, Any] | None:
    """Qt loads with a platform plugin and the GUI modules import."""
    qt = launcher.check_qt()
    if qt.ok is None and resources.is_frozen():
        qt.ok = False  # a bundle must carry Qt
    report.check("gui", qt.ok, qt.detail)
    return qt.info


def run_self_test(config: Config, output: Path | None = None) -> int:
    """Run every check, print the JSON report on stdout, return the exit status. The
    reply WAV goes to ``output``, or to a temporary folder removed once it is checked."""
    if output is None:
        with tempfile.TemporaryDirectory(prefix="assistant-self-test-") as scratch:
            return run_self_test(config, Path(scratch) / "reply.wav")
    entry = time.perf_counter()
    report = Report()
    started = process_age_s()
    report.data.update(environment())
    report.data["load_s"] = {}
    wav = output

    def since_start(at: float | None) -> float | None:
        if at is None or started is None:
            return None
        return round(started + at - entry, 2)

    report.data["models"] = report.attempt("models", lambda: find_models(config))
    found = report.data["models"] is not None
    if found:
        report.check("models", True, ", ".join(f"{role}: {m['origin']}" for role, m in report.data["models"].items()))
    engines = report.attempt("engines", lambda: load_models(config)) if found else None
    ready = time.perf_counter()
    if engines is not None:
        report.data["load_s"].update(engines.load_s)
        report.data["engines"] = {"stt": engines.stt.name, "llm": engines.llm.name, "tts": engines.tts.name}
        report.check("engines", True, ", ".join(f"{k} {v} s" for k, v in engines.load_s.items()))
        report.attempt("vosk", lambda: check_vosk(report, config))
        report.attempt("portaudio", lambda: check_portaudio(report))
        result = report.attempt("turn", lambda: run_turn(engines, config, wav, report))
        if result is not None:
            report.data["turn"] = result.to_json()
            language = config.stt.language
            report.data["wav"] = report.attempt("wav", lambda: check_wav(engines, wav, result.reply, language, report))
            report.data["cold_start_s"] = {
                "process_start_to_main": started,
                "engines_ready": since_start(ready),
                "first_audio": since_start(result.timeline.get(Mark.AUDIO_OUT_START)),
                "turn_end": since_start(result.timeline.get(Mark.TURN_END)),
            }
    report.data["gui"] = report.attempt("gui", lambda: check_gui(report))
    report.data["total_s"] = round(time.perf_counter() - entry, 2)
    print(json.dumps(report.to_json(), indent=2, ensure_ascii=False), flush=True)
    return 0 if report.ok else 1
