"""``assistant bench``: options, loading, and where the report goes."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from dataclasses import replace


def _modes(text: str) -> tuple[str, ...]:
    from assistant.commands.bench.runner import MODES  # the engine modules load only when bench runs

    return _listed(text, MODES, "modes")


def _listed(text: str, allowed: tuple[str, ...], what: str) -> tuple[str, ...]:
    """The comma-separated names of ``text``, each one of ``allowed``."""
    modes = tuple(m.strip() for m in text.split(",") if m.strip())
    if not modes or any(m not in allowed for m in modes):
        raise argparse.ArgumentTypeError(f"{what} are {', '.join(allowed)} (comma-separated), not {text!r}")
    return modes


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a count of 0 or more, not {text}")
    return value


def add_parser(sub) -> argparse.ArgumentParser:
    """Register ``bench`` on the CLI's subparsers."""
    from assistant.commands.options import add_command, add_echo_path

    parser = add_command(
        sub, "bench", "measure latency: spoken questions through the streaming pipeline and the serial chain",
        "Runs spoken questions through the real pipeline in real time (paced input, "
        "same-clock output, as chat --input) and through the naive serial chain on the "
        "same models, and reports voice-to-voice latency per stage, side by side.",
    )
    corpus = parser.add_argument_group("corpus")
    corpus.add_argument("--corpus", type=Path, help="folder of WAVs, one question each, with transcripts.tsv "
                        "(name.wav<TAB>words) or <name>.txt beside each WAV (default: synthesized questions)")
    corpus.add_argument("--questions", type=_count, help="use only the first N default questions")
    corpus.add_argument("--phrases", type=_count, help="use only the first N default instant-reply phrases")
    run = parser.add_argument_group("run")
    run.add_argument("--modes", type=_modes, default="streaming,serial",
                     help="comma-separated: streaming,serial,echo (default streaming,serial); echo is the streaming "
                          "pipeline heard through the room simulation, with the echo cancellers' figures")
    add_echo_path(run, "the room of the echo mode (default 40,0.5)", default="40,0.5")
    run.add_argument("--repeat", type=_count, default=1, help="passes over the corpus (default 1)")
    run.add_argument("--turns", type=_count, default=8,
                     help="turns of the conversation run, where the history grows (default 8; 0 skips it)")
    run.add_argument("--turn-taking", choices=["full", "small", "split", "off"], default="full",
                     help="the turn-taking corpus (pauses mid-sentence, trailing 'um', noise, a 60 s monologue): "
                          "its signals replayed and every take run in real time (default full; small: a few takes; "
                          "split: the corpus split into a tuning and a test half by voice and sentence, English and "
                          "Korean, both halves replayed and the test half run in real time)")
    run.add_argument("--sizes", help="time model sizes instead: a comma-separated list such as "
                     "embedded,0.5b,1.5b,3b:q8_0 (synthetic models of real shapes), with heard latencies "
                     "from --questions spoken questions each (default 4); writes sizes.json and sizes.png")
    run.add_argument("--fast", action="store_true",
                     help="not real time: feed input as fast as it is taken, replies count as heard at once "
                          "(smoke tests; the figures are not user-felt latencies)")
    quality = parser.add_argument_group("quality")
    quality.add_argument("--quality", action="store_true",
                         help="score the answers instead of timing them: a question set asked typed and spoken, "
                              "the share right by source (skills, instant replies, language model)")
    quality.add_argument("--calibrate", action="store_true",
                         help="with --quality: ask with no hedge, choose the model's confidence threshold on the "
                              "tuning half (with the default set, also on the questions written for calibration), "
                              "judge it on the test half and keep it for the model")
    quality.add_argument("--quality-set", type=Path, help="TOML question set (default: the built-in 127 questions)")
    quality.add_argument("--quality-modes", type=_quality_modes, default="typed,spoken,conversation",
                         help="comma-separated: typed, spoken (each question on a fresh conversation), "
                              "conversation (typed into one conversation a half) (default all three)")
    out = parser.add_argument_group("output")
    out.add_argument("--out", type=Path, default=Path("bench-out"), help="output folder (default bench-out/)")
    out.add_argument("--json", type=Path, help="report JSON (default OUT/bench.json)")
    out.add_argument("--chart", type=Path, help="chart PNG (default OUT/bench.png)")
    out.add_argument("--no-audio", action="store_true", help="do not keep the same-clock reply WAVs")
    parser.set_defaults(func=run_bench)
    return parser


def _quality_modes(text: str) -> tuple[str, ...]:
    from assistant.commands.bench.quality import MODES  # the engine modules load only when bench runs

    return _listed(text, MODES, "quality modes")


def run_quality_bench(args: argparse.Namespace) -> int:
    from assistant.commands.options import config_from_args
    from assistant.pipeline.session import load_models, make_replies
    from assistant.commands.bench.quality import build_quality_report, format_quality, run_quality
    from assistant.commands.bench.report import write_json
    from assistant.commands.bench.questions import load_calibration_questions, load_questions

    config = config_from_args(args)
    if args.calibrate:
        config = replace(config, llm=replace(config.llm, hedge_below=0.0))  # every answer as the model gave it
    questions = load_questions(args.quality_set)  # a bad file fails before loading
    print("loading models…", file=sys.stderr)
    engines = load_models(config)
    replies = make_replies(config, engines.tts, config.audio.output_rate)
    answers = run_quality(engines, config, replies, questions, args.quality_modes)
    meta = {"stt": engines.stt.name, "llm": engines.llm.name, "tts": engines.tts.name,
            "questions": len(questions), "question_set": str(args.quality_set or "default"),
            "skills": config.skills.enabled, "instant_replies": replies is not None,
            "few_shot": bool(engines.llm.history.examples)}
    report = build_quality_report(answers, meta)
    if args.calibrate:
        # the questions written for calibration, typed, beside the tuning half (never in the report's halves)
        extra = [] if args.quality_set else run_quality(engines, config, replies, load_calibration_questions(),
                                                        ("typed",))
        report["calibration"] = _calibrate(engines.llm, answers + extra, meta)
    path = args.json or args.out / "quality.json"
    write_json(report, path)
    print(format_quality(report))
    if args.calibrate:
        from assistant.commands.bench.calibrate import format_calibration

        print(format_calibration(report["calibration"]))
    print(f"\nreport: {path}", file=sys.stderr)
    return 0


def _calibrate(llm, answers, meta: dict) -> dict:
    from datetime import date

    from assistant.commands.bench.calibrate import calibrate
    from assistant.think import calibration

    result = calibrate(answers)
    path = llm.path
    if path is None:
        result["kept"] = None  # a remote model: nothing to keep it with
    else:
        result["kept"] = str(calibration.save(path, result["threshold"], {
            "calibrated": date.today().isoformat(), "questions": result["tuned_on"], "half": "tune",
            "model": meta["llm"]}))
    return result


def _split_turn_taking(models, config, replies, args: argparse.Namespace) -> dict:
    from assistant.commands.bench.signals import records_json
    from assistant.commands.bench.split_report import (
        format_halves,
        format_misheard,
        format_real_time,
        korean_engines,
        languages_read_by_silence,
        misheard_halves,
        real_time_halves,
        replay_halves,
        score_halves,
    )
    from assistant.commands.bench.turn_split import make_split_corpus

    takes = make_split_corpus(models.tts)
    engines = {"en": (models, config, replies), "ko": korean_engines(config)}
    print(f"replaying the pauses of {len(takes)} takes, both halves…", file=sys.stderr)
    records = replay_halves(takes, engines)
    scores = score_halves(records, {language: engine[1] for language, engine in engines.items()},
                          silence_alone=languages_read_by_silence(engines))
    print(format_halves(scores))
    misheard = misheard_halves(records, takes, config)
    print(format_misheard(misheard))
    print("running the test half in real time…", file=sys.stderr)
    real_time = real_time_halves(takes, engines, progress=lambda name: print(f"  {name}", file=sys.stderr))
    print(format_real_time(real_time))
    return {
        "mode": config.turn.mode,
        "replayed": scores,
        "misheard": misheard,
        "real_time": real_time,
        "pauses": {half: {lang: records_json(rows) for lang, rows in by.items()} for half, by in records.items()},
    }


def _turn_taking(models, config, replies, args: argparse.Namespace) -> dict:
    if args.turn_taking == "split":
        return _split_turn_taking(models, config, replies, args)
    from assistant.commands.bench.signals import compare, records_json, replay
    from assistant.commands.bench.turn_corpus import make_turn_corpus
    from assistant.commands.bench.turn_taking import run_turn_taking, summarize_turn_taking

    print("preparing the turn-taking corpus…", file=sys.stderr)
    takes = make_turn_corpus(models.tts, small=args.turn_taking == "small")
    print(f"replaying the pauses of {len(takes)} takes for the end-of-turn signals…", file=sys.stderr)
    records = replay(takes, models, config, replies)
    print("running the turn-taking takes in real time…", file=sys.stderr)
    audio_dir = None if args.no_audio else args.out / "audio" / "turn-taking"
    rows = run_turn_taking(models, config, replies, takes, audio_dir,
                           progress=lambda name: print(f"  {name}", file=sys.stderr))
    return {
        "mode": config.turn.mode,
        "signals": compare(records, config),
        "summary": summarize_turn_taking(rows),
        "pauses": records_json(records),
        "takes": rows,
    }


def run_wake(args: argparse.Namespace) -> int:
    import json

    from assistant.commands.bench.wake import run_wake_bench
    from assistant.commands.options import config_from_args

    report = run_wake_bench(config_from_args(args), args.out)
    print(json.dumps(report["halves"], indent=1))
    return 0


def run_bench(args: argparse.Namespace) -> int:
    if args.wake:  # the wake phrase spotted on its own corpus instead (docs/wake.md)
        return run_wake(args)
    if args.quality:
        return run_quality_bench(args)
    from assistant.machine import synthetic
    from assistant.commands.options import config_from_args
    from assistant.pipeline.session import load_models, make_replies

    if args.sizes:
        from assistant.commands.bench.sizes_report import run_sizes

        return run_sizes(args)
    from assistant.commands.bench.chart import write_chart
    from assistant.commands.bench.corpus import default_corpus, load_corpus_dir
    from assistant.commands.bench.report import build_report, format_table, write_json
    from assistant.commands.bench.runner import Bench, BenchOptions

    config = config_from_args(args)
    items = load_corpus_dir(args.corpus) if args.corpus else None  # a bad folder fails before loading
    if args.repeat < 1 and args.turns < 1:
        print("error: nothing to run (--repeat 0 and --turns 0)", file=sys.stderr)
        return 2
    if "echo" in args.modes and args.fast:
        print("error: the echo mode needs real time (the echo is the reply as it plays): drop --fast", file=sys.stderr)
        return 2
    print("loading models…", file=sys.stderr)
    engines = load_models(config)
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
        echo_path=args.echo_path,
    )
    result = Bench(engines, config, replies, options).run(items, conversation)
    meta = {
        **({"note": f"synthetic model (random weights): {synthetic.NONSENSE}"} if synthetic.is_synthetic(config.llm.model) else {}),
        "stt": engines.stt.name,
        "llm": engines.llm.name,
        "tts": engines.tts.name,
        "items": len(items),
        "corpus": str(args.corpus) if args.corpus else "default",
        "endpoint_ms": config.vad.endpoint_ms,
        "turn": config.turn.mode,
        "turn_max_ms": config.turn.max_ms,
        "instant_replies": replies is not None,
        "load_s": engines.load_s,
    }
    report = build_report(result, meta)
    if args.turn_taking != "off" and not args.fast:
        report["turn_taking"] = _turn_taking(engines, config, replies, args)
    if "echo" in args.modes:
        from assistant.commands.bench.echo import echo_report, format_figures

        report["echo"] = echo_report(engines, config, args.echo_path, items, result.records)
        print(format_figures(report["echo"]["cancellers"], args.echo_path), file=sys.stderr)
    json_path = args.json or args.out / "bench.json"
    chart_path = args.chart or args.out / "bench.png"
    write_json(report, json_path)
    write_chart(report, chart_path)
    print(format_table(report))
    if "note" in meta:
        print(f"Note: {meta['note']}.")
    print(f"\nreport: {json_path}\nchart: {chart_path}", file=sys.stderr)
    return 0
