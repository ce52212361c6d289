"""The engine options every command takes, and the one place they become configuration."""

from __future__ import annotations

import argparse
from pathlib import Path

from assistant import config as config_mod
from assistant import languages
from assistant.config import Config


def add_engine_options(parser: argparse.ArgumentParser, top_level: bool = False) -> None:
    """Engine flags, accepted before or after the subcommand (``assistant --stt vosk chat``
    and ``assistant chat --stt vosk``). Only the top-level parser sets defaults, so a
    subcommand never overwrites a flag given before it."""
    group = parser.add_argument_group("engines", argument_default=None if top_level else argparse.SUPPRESS)
    group.add_argument("--config", type=Path, help="TOML config file (default: the platform config dir)")
    group.add_argument("--stt", choices=config_mod.choices(config_mod.SttConfig, "engine"), help="speech-to-text engine")
    group.add_argument("--language", help="language code: en, or ko (Korean STT model, system prompt, replies and screens)")
    group.add_argument("--stt-model", help="Whisper (CTranslate2) or vosk model folder")
    group.add_argument("--tts", choices=config_mod.choices(config_mod.TtsConfig, "engine"), help="text-to-speech engine")
    group.add_argument("--voice", help="Piper .onnx voice file")
    group.add_argument("--llm-model", help="GGUF model file")
    group.add_argument("--system-prompt", help="system prompt for the LLM")
    group.add_argument("--turn", choices=config_mod.choices(config_mod.TurnConfig, "mode"),
                       help="when the user's turn is over: semantic (after a short silence when the words are "
                            "complete, up to --turn-max-ms when not) or fixed (after --endpoint-ms of silence)")
    group.add_argument("--turn-max-ms", type=int, help="longest silence waited for words that sound unfinished (ms)")
    group.add_argument("--endpoint-ms", type=int, help="silence that ends the user's turn in fixed mode (ms)")
    group.add_argument("--max-tokens", type=int, help="longest reply in tokens")
    group.add_argument("--llm-url", help="use an OpenAI-compatible server (llama.cpp server, vLLM, Ollama) at this URL")
    group.add_argument("--llm-draft", help="speculative decoding: off, prompt-lookup, or a draft GGUF file")
    group.add_argument("--wake", metavar="PHRASE", nargs="?", const="hey assistant",
                       help='hands-free answers only after this phrase (alone: "hey assistant"; "" answers '
                            'everything; push-to-talk and typing never need it); `bench --wake` measures it '
                            '(false accepts, misses, latency, CPU); see docs/wake.md')
    group.add_argument("--no-replies", action="store_true", help="disable the instant-reply cache")
    group.add_argument("--no-skills", action="store_true", help="disable the skills (timers, arithmetic, units, time)")
    group.add_argument("--offline", action="store_true",
                       help="no network for anything in the process: its own network namespace where the OS "
                            "allows it, else a Python audit hook (kiosks always run so; see `assistant doctor`)")
    group.add_argument("-v", "--verbose", action="count", help="more logging on stderr",
                       **({"default": 0} if top_level else {}))


def _echo_path(text: str):
    from assistant.hear.room import EchoPath, EchoPathError

    try:
        return EchoPath.parse(text)
    except EchoPathError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_echo_path(parser, help: str, default: str | None = None) -> None:
    """``--echo-path DELAY_MS,GAIN[,ROOM.wav]``: the room simulation (an
    :class:`~assistant.hear.room.EchoPath`), checked as it is parsed."""
    parser.add_argument("--echo-path", type=_echo_path, default=default, metavar="DELAY_MS,GAIN[,ROOM.wav]", help=help)


def add_command(sub, name: str, help: str, description: str | None = None) -> argparse.ArgumentParser:
    """A subcommand of ``assistant`` that takes the engine options."""
    parser = sub.add_parser(name, help=help, description=description)
    add_engine_options(parser)
    return parser


def config_from_args(args: argparse.Namespace) -> Config:
    """The single place where CLI flags become configuration."""
    base = config_mod.load(args.config)
    stt_model = args.stt_model
    stt_engine = args.stt or base.stt.engine
    config = languages.for_language(config_mod.with_overrides(
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
        turn={"mode": args.turn, "max_ms": args.turn_max_ms},
        replies={"enabled": False if args.no_replies else None},
        skills={"enabled": False if args.no_skills else None},
        wake={"phrase": args.wake},
    ))
    config_mod.check(config)
    return config
