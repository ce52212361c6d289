"""Command line: ``assistant`` (desktop app), ``assistant chat`` and friends.

Logs go to stderr; ``--json`` prints one JSON object per turn on stdout.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import sys
import threading
import time
from pathlib import Path

from assistant.commands import bench, doctor, launcher
from assistant import offline
from assistant.commands.bench import stt_compare
from assistant.sound import AudioError, load_wav
from assistant.speak.sinks import NullSink, SameClockWavSink, SpeakerSink
from assistant.hear.sources import PacedWavSource
from assistant.config import Config, ConfigError
from assistant.hear.end_of_turn import longest_silence_ms
from assistant.events import Event, EventType, TurnResult
from assistant.commands.kiosk import command as kiosk_command
from assistant.think.conversation import LlmError
from assistant.hear.microphone import MicSource
from assistant.machine.models import ModelError
from assistant.commands.options import add_command, add_echo_path, add_engine_options, config_from_args
from assistant.hear.room import EchoPath, EchoRoom
from assistant.hear.stt import SttError
from assistant.speak.tts import TtsError
from assistant.pipeline.waiting import wait_until

log = logging.getLogger("assistant")

USER_ERRORS = (AudioError, ConfigError, ModelError, LlmError, SttError, TtsError)


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
        elif event.type is EventType.DEVICE:
            print(f"note: {event.data.text}", file=sys.stderr)
        if event.type is not EventType.TURN_END:
            return
        result: TurnResult = event.data
        self.results.append(result)
        try:
            self._print(result)
        except BrokenPipeError:  # the reader went away ("| head -1"): the run goes on and ends, unprinted
            sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - stands for stdout until exit
            print("note: standard output was closed; the turns are no longer printed", file=sys.stderr)
        finally:
            self.done.set()

    def _print(self, result: TurnResult) -> None:
        if self.as_json:
            print(json.dumps(result.to_json(), ensure_ascii=False), flush=True)
            return
        latency = result.timeline.latency_ms()
        wait = latency.get("heard") if latency.get("heard") is not None else latency.get("voice_to_voice")
        print(f"you: {result.transcript}")
        decision = result.timeline.decision()
        tag = f" [{result.source}, {wait:.0f} ms{', ' + decision if decision else ''}]" if wait is not None else ""
        print(f"assistant: {result.reply}{tag}", flush=True)


def run_chat(args: argparse.Namespace) -> int:
    from assistant.pipeline.session import build_engine, load_models, make_replies, make_skills

    config = config_from_args(args)
    if args.fast and args.output:
        # --fast hands the file over faster than it was spoken: the reply's place in time
        # would not be on the input's clock, and the two WAVs would not show the latency.
        print("error: --fast is not real time, so its --output would not be on the input's clock; "
              "drop --fast to write a same-clock reply WAV", file=sys.stderr)
        return 2
    samples = load_wav(args.input, config.audio.sample_rate) if args.input else None  # fail before loading
    echo_path = _echo_path(args)
    if args.output:
        output = SameClockWavSink(args.output, config.audio.output_rate)
    elif args.no_audio:
        output = NullSink(config.audio.output_rate)
    else:
        output = SpeakerSink(config.audio.output_rate, config.audio.output_device)
    source = room = None
    if samples is None and not args.text:
        source = MicSource(config.audio.sample_rate, 512, config.audio.input_device)
    print("loading models…", file=sys.stderr)
    engines = load_models(config)
    printer = TurnPrinter(args.json)
    replies = make_replies(config, engines.tts, output.rate)
    skills = make_skills(config, replies, output.rate, args.timers)  # this run's own timers unless --timers
    engine = build_engine(config, engines, output, replies=replies, skills=skills, on_event=printer)
    try:
        if args.text:
            output.start(time.perf_counter())
            engine.submit_text(args.text)
            printer.done.wait()
            wait_until(lambda: not engine.busy, timeout=120)
        elif samples is not None:
            source = PacedWavSource(samples, config.audio.sample_rate, 512, realtime=not args.fast)
            if echo_path is not None:
                room = EchoRoom(source, engine.echo.played, echo_path, keep=bool(args.mic_output))
                print(f"room simulation: {echo_path}; {engine.duplex.describe()}", file=sys.stderr)
            _run_file(engine, source, config, room)
            if not printer.results:
                print(f"note: no speech was heard in {args.input}: no turn, no reply", file=sys.stderr)
        else:
            print("listening (Ctrl-C to quit)…", file=sys.stderr)
            engine.listen(source)
            signal.sigwait([signal.SIGINT]) if hasattr(signal, "sigwait") else threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        engine.close()
        duration = samples.size / config.audio.sample_rate if samples is not None else 0.0
        if skills is not None:
            skills.close()
        if isinstance(output, SameClockWavSink):
            output.close(min_seconds=duration)
        else:
            output.close()
        if room is not None and args.mic_output:
            room.save(args.mic_output, min_seconds=duration)
    return 0


def _echo_path(args: argparse.Namespace) -> EchoPath | None:
    """The room simulation asked for, checked before the models load."""
    if args.mic_output and not args.echo_path:
        raise ConfigError("--mic-output keeps what the simulated room's microphone heard: it needs --echo-path")
    if args.echo_path and not args.input:
        raise ConfigError("--echo-path simulates a room around a spoken question: it needs --input")
    return args.echo_path


def _run_file(engine, source: PacedWavSource, config: Config, room: EchoRoom | None = None) -> None:
    """Feed the WAV (in real time unless --fast), through the room simulation if there is
    one, then trailing silence until the last turn is done."""
    engine.listen(room or source)
    grace = (longest_silence_ms(config) + 200) / 1000
    wait_until(lambda: source.input_over(grace), timeout=source.duration_s + grace + 5)
    if not wait_until(lambda: not engine.busy, timeout=120):
        log.warning("the last turn did not finish within 120 s; stopping")
    engine.stop_listening()


def run_gui(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    if config.kiosk.enabled:
        return kiosk_command.run_kiosk(args)
    return launcher.run_desktop(config)


def run_self_test(args: argparse.Namespace) -> int:
    from assistant.commands.selftest import run_self_test as self_test

    return self_test(config_from_args(args), args.self_test_output)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="assistant", description="Offline voice assistant.")
    add_engine_options(parser, top_level=True)
    parser.add_argument("--self-test", action="store_true", help="check every engine headlessly, print a JSON report")
    parser.add_argument("--self-test-output", type=Path, help="keep the reply WAV of --self-test here (default: a temporary file, removed after the check)")
    sub = parser.add_subparsers(dest="command")

    chat = add_command(sub, "chat", "talk from the terminal: microphone, typed text, or WAV files")
    chat.add_argument("--text", help="a typed question; the answer is spoken")
    chat.add_argument("--input", type=Path, help="WAV with the spoken question(s), fed in real time")
    chat.add_argument("--output", type=Path, help="write the spoken reply to this WAV (same clock as --input)")
    chat.add_argument("--json", action="store_true", help="one JSON object per turn on stdout")
    chat.add_argument("--no-audio", action="store_true", help="no speaker: discard the reply audio")
    chat.add_argument("--fast", action="store_true",
                      help="feed --input as fast as possible (not real time, so not with --output)")
    add_echo_path(chat, "room simulation: the reply heard again by the microphone, delayed, scaled and through "
                        "a room response (synthetic, or a recorded one from a WAV), e.g. 40,0.5")
    chat.add_argument("--mic-output", type=Path, help="with --echo-path: write what the microphone heard to this WAV")
    chat.add_argument("--timers", type=Path, metavar="FILE",
                      help="keep timers and alarms in FILE, for later runs (default: they end with this run)")
    chat.set_defaults(func=run_chat)

    # Subcommands from their own modules register here, one line each.
    doctor.add_parsers(sub)
    bench.add_parser(sub)
    stt_compare.add_parser(sub)
    kiosk_command.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    _setup_logging(args.verbose)
    func = run_self_test if args.self_test else getattr(args, "func", run_gui)
    try:
        if args.offline:
            offline.secure(config_from_args(args), args.argv)
        return func(args)
    except USER_ERRORS as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
