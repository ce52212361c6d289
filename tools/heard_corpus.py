"""The spoken test corpora: what the recognizer makes of eSpeak NG's voices, in Korean and in English.

Each sentence of a corpus (``tests/data/korean/corpus.toml``, the default, or
``tests/data/english/corpus.toml`` with ``--corpus english``: the skills on English voices
the recognizer knows badly) is said by the voices of its half
(``espeak-ng -v VOICE -s RATE -p PITCH``, 0.5 s of silence before and 1.2 s after, at
16 kHz), transcribed by the app's recognizer for the corpus's ``language``, and written to
``heard-<half>[-<engine>].tsv`` beside it (voice, sentence, what was heard), so
the tests run the instant replies and the skills on real recognizer output without
synthesizing or recognizing anything. Both programs are deterministic: running this
again writes the same files on the same machine.

Whisper's files have two more columns: the clip read again with the hint words (the
second look, :mod:`assistant.hear.second_look`) and its support, so the scores apply the
same choice as the transcription stage (``--no-look``: the first reading only).

    python -m tools.heard_corpus [--corpus korean|english] [--half tune|heldout] [--engine whisper|vosk]
    python -m tools.heard_corpus [--corpus korean|english] --score [--half heldout] [--engine whisper] [--no-look]   # the figures

``answer`` is what the engine's responder does with a transcript before the language
model: the skills, then the instant-reply table (see ``pipeline/responder.py``).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import numpy as np

from assistant.hear.second_look import Look
from assistant.pipeline.transcription import choose

ROOT = Path(__file__).resolve().parent.parent
CORPORA = {"korean": ROOT / "tests" / "data" / "korean" / "corpus.toml",
           "english": ROOT / "tests" / "data" / "english" / "corpus.toml"}
CORPUS = CORPORA["korean"]
HALVES = ("tune", "heldout")
BEFORE_S, AFTER_S = 0.5, 1.2


@dataclass(frozen=True)
class Sentence:
    half: str
    text: str
    answer: str
    """``reply``, a skill's name, or ``llm``."""
    says: str = ""
    before: str = ""


@dataclass(frozen=True)
class Voice:
    name: str
    rate: int
    pitch: int

    @property
    def label(self) -> str:
        return f"{self.name}-s{self.rate}-p{self.pitch}"


def load(path: Path = CORPUS) -> tuple[dict, list[Sentence], dict[str, list[Voice]]]:
    """(the file's values, its sentences, each half's voices)."""
    values = tomllib.loads(path.read_text(encoding="utf-8"))
    sentences = [Sentence(group["split"], **item) for group in values["sentence"] for item in group["items"]]
    voices = {half: [Voice(*v) for v in values["voices"][half]] for half in HALVES}
    return values, sentences, voices


def heard_path(half: str, engine: str = "whisper", corpus: Path = CORPUS) -> Path:
    suffix = "" if engine == "whisper" else f"-{engine}"
    return corpus.parent / f"heard-{half}{suffix}.tsv"


def _lines(half: str, engine: str, corpus: Path) -> list[list[str]]:
    return [(line.split("\t") + ["", "", "", ""])[:5]
            for line in heard_path(half, engine, corpus).read_text(encoding="utf-8").splitlines()
            if line and not line.startswith("#")]


def read_heard(half: str, engine: str = "whisper", corpus: Path = CORPUS) -> list[tuple[str, str, str]]:
    """(voice, sentence, what was heard) rows of a half."""
    return [(voice, text, heard) for voice, text, heard, _look, _support in _lines(half, engine, corpus)]


def read_looks(half: str, engine: str = "whisper", corpus: Path = CORPUS) -> dict[tuple[str, str], Look | None]:
    """The second look of each (voice, sentence) of a half (None: none was made)."""
    return {(voice, text): Look(look, float(support)) if support else None
            for voice, text, _heard, look, support in _lines(half, engine, corpus)}


@dataclass(frozen=True)
class Answer:
    """Who answered a transcript before the language model, and what they said."""

    source: str
    """``skill``, ``cache`` (the instant-reply table) or ``llm`` (neither)."""
    who: str = ""
    """The skill's name."""
    text: str = ""
    action: str | None = None


class Answerer:
    """The skills and the instant-reply table on a fixed clock, timers in memory."""

    def __init__(self, now: datetime):
        from assistant.config import RepliesConfig, SkillsConfig
        from assistant.think.replies import Matcher, default_table
        from assistant.think.skills import SkillContext, Skills

        self.context = SkillContext(now=now)
        self.skills = Skills(SkillsConfig(locale="en_US"))  # English times as the English corpus writes them
        self.skills.timers.clock = now.timestamp
        self.matcher = Matcher(default_table(), RepliesConfig().score_cutoff)

    def answer(self, transcript: str, before: str = "") -> Answer:
        from assistant.think.replies import fill

        timers = self.skills.timers
        timers.cancel(timers.active())
        if before:
            first = self.skills.match(before, self.context)
            if first is not None and first.effect is not None:
                first.effect()
        hit = self.skills.match(transcript, self.context)
        if hit is not None:
            return Answer("skill", hit.skill, hit.text, hit.action)
        entry = self.matcher.match(transcript)
        if entry is not None:
            return Answer("cache", "", fill(entry.text, self.context.now), entry.action)
        return Answer("llm")

    def wants(self, transcript: str, before: str = "") -> bool:
        """Whether a skill or the instant-reply table takes ``transcript``."""
        return self.answer(transcript, before).source != "llm"

    def close(self) -> None:
        self.skills.close()


def right(sentence: Sentence, got: Answer) -> bool:
    """Whether ``got`` is what ``sentence`` must get (see corpus.toml's header)."""
    if sentence.answer == "llm":
        return got.source == "llm"
    if sentence.answer == "reply":
        return got.source in ("cache", "skill") and got.text == sentence.says
    if sentence.answer == "clock" and got.source == "cache":  # the table tells the time too
        return sentence.says in got.text
    return got.source == "skill" and got.who == sentence.answer and sentence.says in got.text


def score(half: str, engine: str = "whisper", look: bool = True,
          corpus: Path = CORPUS) -> list[tuple[str, Sentence, str, Answer]]:
    """(voice, sentence, heard, answer) for every recording of ``half``; ``engine`` ``typed``:
    each sentence once, as written. With ``look``, what no skill and no reply takes is
    read again where a second look was recorded (the transcription stage's choice), and
    ``heard`` is the transcript answered."""
    values, sentences, _voices = load(corpus)
    by_text = {s.text: s for s in sentences if s.half == half}
    heard = ([("typed", s.text, s.text) for s in by_text.values()] if engine == "typed"
             else read_heard(half, engine, corpus))
    looks = read_looks(half, engine, corpus) if look and engine == "whisper" else {}
    answerer = Answerer(datetime.fromisoformat(values["now"]))
    rows = []
    try:
        for voice, text, said in heard:
            before = by_text[text].before
            if looks.get((voice, text)) is not None:
                said, _seen = choose(said, lambda: looks[(voice, text)], lambda t: answerer.wants(t, before))
            rows.append((voice, by_text[text], said, answerer.answer(said, before)))
        return rows
    finally:
        answerer.close()


def figures(rows: list[tuple[str, Sentence, str, Answer]]) -> dict[str, str]:
    """Share found per kind of answer, and how many questions were taken from the model."""
    out = {}
    kinds = sorted({s.answer for _v, s, _h, _a in rows}, key=lambda k: (k == "llm", k))
    for kind in kinds:
        mine = [(s, a) for _v, s, _h, a in rows if s.answer == kind]
        good = sum(right(s, a) for s, a in mine)
        out[kind] = f"{good}/{len(mine)}"
    asked = [(s, a) for _v, s, _h, a in rows if s.answer != "llm"]
    out["found (replies and skills)"] = f"{sum(right(s, a) for s, a in asked)}/{len(asked)}"
    out["wrong answers"] = str(sum(a.source != "llm" and not right(s, a) for _v, s, _h, a in rows))
    return out


def synthesize(voice: Voice, text: str, rate: int = 16000) -> np.ndarray:
    """``text`` said by eSpeak NG (the command), padded with silence, at ``rate``."""
    from assistant.sound import load_wav

    if shutil.which("espeak-ng") is None:
        raise SystemExit("espeak-ng is not installed (apt install espeak-ng)")
    with tempfile.TemporaryDirectory() as folder:
        wav = Path(folder) / "said.wav"
        subprocess.run(["espeak-ng", "-v", voice.name, "-s", str(voice.rate), "-p", str(voice.pitch),
                        "-w", str(wav), text], check=True, capture_output=True)
        pcm = load_wav(wav, rate)
    silence = np.zeros(int(BEFORE_S * rate), np.float32)
    return np.concatenate([silence, pcm, np.zeros(int(AFTER_S * rate), np.float32)])


def write_wav(path: Path, pcm: np.ndarray, rate: int = 16000) -> None:
    import soundfile as sf

    sf.write(path, pcm, rate, subtype="PCM_16")


def transcribe(stt, pcm: np.ndarray) -> str:
    return hear(stt, pcm)[0]


def hear(stt, pcm: np.ndarray) -> tuple[str, Look | None]:
    """The transcript, and the second look at it where the recognizer makes one."""
    utterance = stt.utterance()
    for start in range(0, pcm.size, 512):
        utterance.feed(pcm[start:start + 512])
    text = utterance.transcribe()
    second = getattr(utterance, "second_look", None)
    return text, (second() if second is not None and text else None)


def line(voice: str, text: str, heard: str, look: Look | None) -> str:
    """A row of a heard file (the second look's columns only where one was made)."""
    row = f"{voice}\t{text}\t{' '.join(heard.split())}"
    return row + (f"\t{' '.join(look.text.split())}\t{look.support:.3f}" if look is not None else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", choices=tuple(CORPORA), default="korean")
    parser.add_argument("--half", choices=HALVES, action="append", help="default: both")
    parser.add_argument("--engine", choices=("whisper", "vosk", "typed"), default="whisper",
                        help="the recognizer (typed: --score on the sentences as written)")
    parser.add_argument("--score", action="store_true", help="answer the recorded transcripts; print the figures")
    parser.add_argument("--list", action="store_true", help="with --score: every transcript and its answer")
    parser.add_argument("--no-look", action="store_true", help="with --score: the first reading only, no second look")
    args = parser.parse_args(argv)
    corpus = CORPORA[args.corpus]
    if args.score:
        for half in args.half or HALVES:
            rows = score(half, args.engine, look=not args.no_look, corpus=corpus)
            if args.list:
                for voice, sentence, heard, got in rows:
                    mark = "ok" if right(sentence, got) else "--"
                    who = got.who or got.source
                    print(f"{mark} {voice} {sentence.answer:10s} {sentence.text} | {heard} | {who}: {got.text}")
            print(half, args.engine, figures(rows))
        return 0
    from assistant.config import SttConfig
    from assistant.hear.stt import load_stt

    values, sentences, voices = load(corpus)
    stt = load_stt(SttConfig(language=values.get("language", "ko"), engine=args.engine))
    for half in args.half or HALVES:
        texts = list(dict.fromkeys(s.text for s in sentences if s.half == half))
        columns = "voice, said, heard" + (", read again with the hint words, support" if args.engine == "whisper" else "")
        lines = [f"# {half} half, heard by {args.engine} (python -m tools.heard_corpus --corpus {args.corpus}): {columns}"]
        for voice in voices[half]:
            for text in texts:
                lines.append(line(voice.label, text, *hear(stt, synthesize(voice, text))))
                print(lines[-1], file=sys.stderr, flush=True)
        heard_path(half, args.engine, corpus).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
