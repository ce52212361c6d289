"""``assistant bench``: options, loading, and where the report goes."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def _modes(text: str) -> tuple[str, ...]:
    from .runner import MODES  # the engine modules load only when bench runs

    modes = tuple(m.strip() for m in text.split(",") if m.strip())
    unknown = [m for m in modes if m not in MODES]
    if unknown or not modes:
        raise argparse.ArgumentTypeError(f"modes are {', '.join(MODES)} (comma-separated), not {text!r}")
    return modes


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a count of 0 or more, not {text}")
    return value


def add_parser(sub) -> argparse.ArgumentParser:
    """Register ``bench`` on the CLI's subparsers."""
    from ..cli import add_engine_options

    parser = sub.add_parser(
        "bench",
        help="measure latency: spoken questions through the streaming pipeline and the serial chain",
        description=(
            "Runs spoken questions through the real pipeline in real time (paced input, "
            "same-clock output, as chat --input) and through the naive serial chain on the "
            "same models, and reports voice-to-voice latency per stage, side by side."
        ),
    )
    add_engine_options(parser)
    corpus = parser.add_argument_group("corpus")
    corpus.add_argument("--corpus", type=Path, help="folder of WAVs, one question each, with transcripts.tsv "
                        "(name.wav<TAB>words) or <name>.txt beside each WAV (default: synthesized questions)")
    corpus.add_argument("--questions", type=_count, help="use only the first N default questions")
    corpus.add_argument("--phrases", type=_count, help="use only the first N default instant-reply phrases")
    run = parser.add_argument_group("run")
    run.add_argument("--modes", type=_modes, default="streaming,serial", help="comma-separated: streaming,serial (default both)")
    run.add_argument("--repeat", type=_count, default=1, help="passes over the corpus (default 1)")
    run.add_argument("--turns", type=_count, default=8,
                     help="turns of the conversation run, where the history grows (default 8; 0 skips it)")
    run.add_argument("--fast", action="store_true",
                     help="not real time: feed input as fast as it is taken, replies count as heard at once "
                          "(smoke tests; the figures are not user-felt latencies)")
    quality = parser.add_argument_group("quality")
    quality.add_argument("--quality", action="store_true",
                         help="score the answers instead of timing them: a question set asked typed and spoken, "
                              "the share right by source (skills, instant replies, language model)")
    quality.add_argument("--quality-set", type=Path, help="TOML question set (default: the built-in 61 questions)")
    quality.add_argument("--quality-modes", type=_quality_modes, default="typed,spoken",
                         help="comma-separated: typed,spoken (default both)")
    out = parser.add_argument_group("output")
    out.add_argument("--out", type=Path, default=Path("bench-out"), help="output folder (default bench-out/)")
    out.add_argument("--json", type=Path, help="report JSON (default OUT/bench.json)")
    out.add_argument("--chart", type=Path, help="chart PNG (default OUT/bench.png)")
    out.add_argument("--no-audio", action="store_true", help="do not keep the same-clock reply WAVs")
    parser.set_defaults(func=run_bench)
    return parser


def _quality_modes(text: str) -> tuple[str, ...]:
    modes = tuple(m.strip() for m in text.split(",") if m.strip())
    if not modes or any(m not in ("typed", "spoken") for m in modes):
        raise argparse.ArgumentTypeError(f"quality modes are typed, spoken (comma-separated), not {text!r}")
    return modes


def run_quality_bench(args: argparse.Namespace) -> int:
    from ..cli import config_from_args, make_replies
    from ..session import load_engines
    from .quality import build_quality_report, format_quality, run_quality, write_quality
    from .questions import load_questions

    config = config_from_args(args)
    questions = load_questions(args.quality_set)  # a bad file fails before loading
    print("loading models…", file=sys.stderr)
    engines = load_engines(config)
    replies = make_replies(config, engines.tts, config.audio.output_rate)
    answers = run_quality(engines, config, replies, questions, args.quality_modes)
    meta = {"stt": engines.stt.name, "llm": engines.llm.name, "tts": engines.tts.name,
            "questions": len(questions), "question_set": str(args.quality_set or "default"),
            "skills": config.skills.enabled, "instant_replies": replies is not None,
            "few_shot": bool(getattr(getattr(engines.llm, "history", None), "examples", None))}
    report = build_quality_report(answers, meta)
    path = args.json or args.out / "quality.json"
    write_quality(report, path)
    print(format_quality(report))
    print(f"\nreport: {path}", file=sys.stderr)
    return 0


def run_bench(args: argparse.Namespace) -> int:
    if args.quality:
        return run_quality_bench(args)
    from ..cli import make_replies, config_from_args
    from ..session import load_engines
    from .chart import write_chart
    from .corpus import default_corpus, load_corpus_dir
    from .report import build_report, format_table, write_json
    from .runner import Bench, BenchOptions

    config = config_from_args(args)
    items = load_corpus_dir(args.corpus) if args.corpus else None  # a bad folder fails before loading
    if args.repeat < 1 and args.turns < 1:
        print("error: nothing to run (--repeat 0 and --turns 0)", file=sys.stderr)
        return 2
    print("loading models…", file=sys.stderr)
    engines = load_engines(config)
    replies = make_replies(config, engines.tts, config.audio.output_rate)
    if items is None:
        print("preparing the spoken corpus…", file=sys.stderr)
        items = default_corpus(engines.tts, args.questions, args.phrases)
    # The conversation run asks questions; --questions 0 keeps them out of the corpus pass only.
    conversation = [i for i in items if i.kind == "question"] or items
    if args.turns and not conversation:
        conversation = [i for i in default_corpus(engines.tts, None, 0) if i.kind == "question"]
    options = BenchOptions(
        modes=args.modes,
        repeat=args.repeat,
        turns=args.turns,
        fast=args.fast,
        audio_dir=None if args.no_audio else args.out / "audio",
    )
    result = Bench(engines, config, replies, options).run(items, conversation)
    meta = {
        "stt": engines.stt.name,
        "llm": engines.llm.name,
        "tts": engines.tts.name,
        "items": len(items),
        "corpus": str(args.corpus) if args.corpus else "default",
        "endpoint_ms": config.vad.endpoint_ms,
        "instant_replies": replies is not None,
        "load_s": engines.load_s,
    }
    report = build_report(result, meta)
    json_path = args.json or args.out / "bench.json"
    chart_path = args.chart or args.out / "bench.png"
    write_json(report, json_path)
    write_chart(report, chart_path)
    print(format_table(report))
    print(f"\nreport: {json_path}\nchart: {chart_path}", file=sys.stderr)
    return 0
