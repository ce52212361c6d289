"""Command line: ``assistant`` (desktop app), ``assistant chat`` and friends.

Logs go to stderr; ``--json`` prints one JSON object per turn on stdout.
"""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Callable

from . import bench
from . import config as config_mod
from . import doctor
from . import kiosk
from .audio import AudioError, MicSource, NullSink, PacedWavSource, SameClockWavSink, SpeakerSink, load_wav
from .config import Config, ConfigError
from .events import Event, EventType, TurnResult
from .llm import LlmError
from .models import ModelError
from .stt import SttError
from .tts import TtsError

log = logging.getLogger("assistant")

USER_ERRORS = (AudioError, ConfigError, ModelError, LlmError, SttError, TtsError)


def add_engine_options(parser: argparse.ArgumentParser, top_level: bool = False) -> None:
    """Engine flags, accepted before or after the subcommand (``assistant --stt vosk chat``
    and ``assistant chat --stt vosk``). Only the top-level parser sets defaults, so a
    subcommand never overwrites a flag given before it."""
    group = parser.add_argument_group("engines", argument_default=None if top_level else argparse.SUPPRESS)
    group.add_argument("--config", type=Path, help="TOML config file (default: the platform config dir)")
    group.add_argument("--stt", choices=["whisper", "vosk"], help="speech-to-text engine")
    group.add_argument("--language", help="speech language code (vosk picks its model by it)")
    group.add_argument("--stt-model", help="Whisper (CTranslate2) or vosk model folder")
    group.add_argument("--tts", choices=["piper", "system"], help="text-to-speech engine")
    group.add_argument("--voice", help="Piper .onnx voice file")
    group.add_argument("--llm-model", help="GGUF model file")
    group.add_argument("--system-prompt", help="system prompt for the LLM")
    group.add_argument("--endpoint-ms", type=int, help="silence that ends the user's turn (ms)")
    group.add_argument("--max-tokens", type=int, help="longest reply in tokens")
    group.add_argument("--llm-url", help="use an OpenAI-compatible server (llama.cpp server, vLLM, Ollama) at this URL")
    group.add_argument("--llm-draft", help="speculative decoding: off, prompt-lookup, or a draft GGUF file")
    group.add_argument("--no-replies", action="store_true", help="disable the instant-reply cache")
    group.add_argument("--no-skills", action="store_true", help="disable the skills (timers, arithmetic, units, time)")
    group.add_argument("-v", "--verbose", action="count", help="more logging on stderr",
                       **({"default": 0} if top_level else {}))


def config_from_args(args: argparse.Namespace) -> Config:
    """The single place where CLI flags become configuration."""
    base = config_mod.load(args.config)
    stt_model = args.stt_model
    stt_engine = args.stt or base.stt.engine
    return config_mod.with_overrides(
        base,
        stt={
            "engine": args.stt,
            "language": args.language,
            "whisper_model": stt_model if stt_engine == "whisper" else None,
            "vosk_model": stt_model if stt_engine == "vosk" else None,
        },
        tts={"engine": args.tts, "voice": args.voice},
        llm={"reply_language": args.language, "model": args.llm_model, "system_prompt": args.system_prompt, "max_tokens": args.max_tokens,
             "draft": args.llm_draft, "backend": "remote" if args.llm_url else None, "remote_url": args.llm_url},
        vad={"endpoint_ms": args.endpoint_ms},
        replies={"enabled": False if args.no_replies else None},
        skills={"enabled": False if args.no_skills else None},
    )


def _setup_logging(verbose: int) -> None:
    level = logging.WARNING if verbose == 0 else logging.INFO if verbose == 1 else logging.DEBUG
    logging.basicConfig(stream=sys.stderr, level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")


class TurnPrinter:
    """Prints finished turns: JSON lines on stdout, or a readable transcript."""

    def __init__(self, as_json: bool):
        self.as_json = as_json
        self.results: list[TurnResult] = []
        self.done = threading.Event()

    def __call__(self, event: Event) -> None:
        if event.type is EventType.ERROR:
            print(f"note: {event.data}", file=sys.stderr)
        if event.type is not EventType.TURN_END:
            return
        result: TurnResult = event.data
        self.results.append(result)
        if self.as_json:
            print(json.dumps(result.to_json(), ensure_ascii=False), flush=True)
        else:
            v2v = result.timeline.latency_ms().get("voice_to_voice")
            print(f"you: {result.transcript}")
            tag = f" [{result.source}, {v2v:.0f} ms]" if v2v is not None else ""
            print(f"assistant: {result.reply}{tag}", flush=True)
        self.done.set()


def make_replies(config: Config, tts, output_rate: int):
    """The instant replies with their audio ready before the first turn (rendering it
    would compete with the first answer; after the first start it comes from disk)."""
    if not config.replies.enabled:
        return None
    from .replies import load_replies

    replies = load_replies(config.replies, tts, output_rate)
    replies.wait_ready(timeout=120)
    return replies


def make_skills(config: Config, replies=None, output_rate: int | None = None):
    """The skills (timers running), using the instant replies' audio where they share a text."""
    from .skills import load_skills

    skills = load_skills(config, output_rate)
    if skills is not None and replies is not None:
        skills.use_reply_audio(replies.audio)
    return skills


def run_chat(args: argparse.Namespace) -> int:
    from .session import build_engine, load_engines

    config = config_from_args(args)
    samples = load_wav(args.input, config.audio.sample_rate) if args.input else None  # fail before loading
    if args.output:
        output = SameClockWavSink(args.output, config.audio.output_rate)
    elif args.no_audio:
        output = NullSink(config.audio.output_rate)
    else:
        output = SpeakerSink(config.audio.output_rate, config.audio.output_device)
    source = None
    if samples is None and not args.text:
        source = MicSource(config.audio.sample_rate, 512, config.audio.input_device)
    print("loading models…", file=sys.stderr)
    engines = load_engines(config)
    printer = TurnPrinter(args.json)
    replies = make_replies(config, engines.tts, output.rate)
    skills = make_skills(config, replies, output.rate)
    engine = build_engine(config, engines, output, replies=replies, skills=skills, on_event=printer)
    try:
        if args.text:
            output.start(time.perf_counter())
            engine.submit_text(args.text)
            printer.done.wait()
            wait_until(lambda: not engine.busy, timeout=120)
        elif samples is not None:
            source = PacedWavSource(samples, config.audio.sample_rate, 512, realtime=not args.fast)
            _run_file(engine, source, config)
        else:
            print("listening (Ctrl-C to quit)…", file=sys.stderr)
            engine.listen(source)
            signal.sigwait([signal.SIGINT]) if hasattr(signal, "sigwait") else threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        engine.close()
        if skills is not None:
            skills.close()
        if isinstance(output, SameClockWavSink):
            duration = samples.size / config.audio.sample_rate if samples is not None else 0.0
            output.close(min_seconds=duration)
        else:
            output.close()
    return 0


def wait_until(condition: Callable[[], bool], timeout: float) -> bool:
    """Poll ``condition`` every 20 ms until it holds (True) or ``timeout`` seconds pass (False)."""
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


def _run_file(engine, source: PacedWavSource, config: Config) -> None:
    """Feed the WAV (in real time unless --fast), then trailing silence until the last
    turn is done."""
    engine.listen(source)
    grace = (config.vad.endpoint_ms + 200) / 1000
    wait_until(lambda: source.input_over(grace), timeout=source.duration_s + grace + 5)
    if not wait_until(lambda: not engine.busy, timeout=120):
        log.warning("the last turn did not finish within 120 s; stopping")
    engine.stop_listening()


def run_gui(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    if config.kiosk.enabled:
        return kiosk.run_kiosk(args)
    try:
        from ui.app import main as gui_main
    except ImportError as exc:
        print(f"error: the desktop app needs PySide6 ({exc}); use `assistant chat`", file=sys.stderr)
        return 2
    return gui_main(config)


def run_self_test(args: argparse.Namespace) -> int:
    from .selftest import run_self_test as self_test

    return self_test(config_from_args(args), args.self_test_output)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="assistant", description="Offline voice assistant.")
    add_engine_options(parser, top_level=True)
    parser.add_argument("--self-test", action="store_true", help="check every engine headlessly, print a JSON report")
    parser.add_argument("--self-test-output", type=Path, help="reply WAV of --self-test (default: a temp dir)")
    sub = parser.add_subparsers(dest="command")

    chat = sub.add_parser("chat", help="talk from the terminal: microphone, typed text, or WAV files")
    add_engine_options(chat)
    chat.add_argument("--text", help="a typed question; the answer is spoken")
    chat.add_argument("--input", type=Path, help="WAV with the spoken question(s), fed in real time")
    chat.add_argument("--output", type=Path, help="write the spoken reply to this WAV (same clock as --input)")
    chat.add_argument("--json", action="store_true", help="one JSON object per turn on stdout")
    chat.add_argument("--no-audio", action="store_true", help="no speaker: discard the reply audio")
    chat.add_argument("--fast", action="store_true", help="feed --input as fast as possible (not real time)")
    chat.set_defaults(func=run_chat)

    # Subcommands from their own modules register here, one line each.
    doctor.add_parsers(sub)
    bench.add_parser(sub)
    kiosk.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    _setup_logging(args.verbose)
    func = run_self_test if args.self_test else getattr(args, "func", run_gui)
    try:
        return func(args)
    except USER_ERRORS as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
