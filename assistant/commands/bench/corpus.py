"""What the bench listens to: spoken questions and instant-reply phrases, each a WAV
with (when known) the words it says.

A corpus folder holds one utterance per WAV. The words said go in ``transcripts.tsv``
beside them (``name.wav<TAB>words`` per line, ``#`` starts a comment), or in a
``<name>.txt`` next to each ``<name>.wav``; a WAV without either is still timed, only
left out of the word error rate.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from assistant.sound import AudioError
from assistant.resources import cache_dir
from assistant.commands.spoken import DEFAULT_QUESTIONS, question_wav
from assistant.speak.tts import Tts
from assistant.commands.bench.stats import slug

CACHE_PHRASES = ["Thank you.", "Hello."]
"""Said in the default corpus so the instant-reply path is measured too."""

TRANSCRIPTS_FILE = "transcripts.tsv"


@dataclass(frozen=True)
class CorpusItem:
    name: str
    path: Path
    expected: str | None = None
    """The words said, when known (for the word error rate)."""
    kind: str = "question"
    """``question`` (meant for the LLM) or ``phrase`` (meant for the instant-reply table)."""


def default_corpus(tts: Tts, questions: int | None = None, phrases: int | None = None) -> list[CorpusItem]:
    """The default questions and cache phrases said by ``tts``; synthesized on first use
    and cached per voice."""
    folder = cache_dir() / "corpus" / slug(tts.voice_id)
    spoken = [(text, "question") for text in DEFAULT_QUESTIONS[:questions]]
    spoken += [(text, "phrase") for text in CACHE_PHRASES[:phrases]]
    items = []
    for text, kind in spoken:
        path = question_wav(tts, text, folder)
        items.append(CorpusItem(path.stem, path, text, kind))
    return items


def _read_transcripts(folder: Path) -> dict[str, str]:
    table = folder / TRANSCRIPTS_FILE
    if not table.is_file():
        return {}
    expected: dict[str, str] = {}
    for number, line in enumerate(table.read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, tab, words = line.partition("\t")
        if not tab:
            raise AudioError(f"{table}:{number}: expected 'file.wav<TAB>words', got {line!r}")
        expected[Path(name.strip()).name] = words.strip()
    return expected


def load_corpus_dir(folder: Path) -> list[CorpusItem]:
    """Every ``*.wav`` in ``folder``, sorted by name, with its expected words if known."""
    if not folder.is_dir():
        raise AudioError(f"corpus folder {folder} does not exist")
    wavs = sorted(folder.glob("*.wav"))
    if not wavs:
        raise AudioError(f"corpus folder {folder} has no .wav files")
    table = _read_transcripts(folder)
    items = []
    for wav in wavs:
        sidecar = wav.with_suffix(".txt")
        expected = table.get(wav.name)
        if expected is None and sidecar.is_file():
            expected = sidecar.read_text(encoding="utf-8").strip()
        items.append(CorpusItem(wav.stem, wav, expected or None))
    return items
