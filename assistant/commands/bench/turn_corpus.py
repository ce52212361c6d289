"""The turn-taking corpus: spoken turns that test when the assistant takes its turn.

Generated, never downloaded: Piper and several espeak-ng voices say complete questions,
questions with a thinking pause of 0.4-1.0 s in the middle, turns that trail off with
"um", questions under steady background noise, and a 60 s monologue. Each take is a
16 kHz WAV with the words said and where its pauses and its end are, so a run can
tell a premature commit (answered before the user finished) from a timely one.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from assistant.sound import AudioError, load_wav, resample, save_wav
from assistant.resources import cache_dir
from assistant.speak.tts import Tts
from assistant.sound import first_audible_s, last_audible_s
from assistant.commands.bench.stats import slug

RATE = 16000
VERSION = 2
"""Bumped when the corpus changes, so a cached one is made again."""
LEAD_S = 0.5
TAIL_S = 3.0
"""Silence after the last word: longer than the longest wait for a turn that is not over."""

COMPLETE = [
    "What is the capital of Australia?",
    "How many legs does a spider have?",
    "Can you recommend a good book?",
    "Set a timer for five minutes.",
    "Why is the sky blue?",
    "Tell me a joke about cats.",
    "Who wrote Romeo and Juliet?",
    "What should I cook for dinner?",
    "Thank you.",
    "Hello.",
]
PAUSED = [
    ("What is the capital of", "Australia?"),
    ("Remind me to", "call my mother tomorrow."),
    ("How many legs does a", "spider have?"),
    ("Can you tell me the", "weather for tomorrow?"),
    ("What is the difference between", "a frog and a toad?"),
    ("Tell me a story about", "a brave little mouse."),
    ("Who was the first person to", "walk on the moon?"),
    ("Set a timer for", "ten minutes."),
    ("What should I cook with", "rice and beans?"),
    ("How far away is the", "nearest star?"),
]
UM_PAUSED = [("What is the biggest animal in the, um,", "ocean?")]
UM_TRAILING = ["Can you tell me, um", "What time is it in Tokyo, um"]
"""The user trails off: the turn is over once they stay silent."""
NOISY = ["What is the capital of Australia?", "How many legs does a spider have?", "Tell me a joke about cats."]
NOISY_PAUSED = [("What is the capital of", "Australia?")]
MONOLOGUE = (
    "Yesterday I went to the market with my sister.",
    "We wanted to buy vegetables for the week.",
    "The first stall had tomatoes, peppers and a big pile of onions.",
    "My sister picked the reddest tomatoes she could find.",
    "Then we walked to the bakery at the end of the street.",
    "The baker gave us a loaf of fresh bread and two small cakes.",
    "On the way home it started to rain, so we waited under a bridge for a while.",
    "A man with a dog stood there too, and the dog was very friendly.",
    "When the rain stopped, we carried everything home and put it in the kitchen.",
    "In the evening I made a soup with the tomatoes and the onions.",
    "My sister said it was the best soup she had eaten this year.",
    "We sat at the table for a long time and talked about our grandmother.",
    "She used to cook for the whole family every Sunday.",
    "After dinner we washed the dishes and watched an old film together.",
    "It was about a sailor who lost his ship in a storm and had to find his way home.",
    "My sister fell asleep before the end, but I watched all of it.",
    "This morning the kitchen still smelled of soup and fresh bread.",
    "Now I have some vegetables left over.",
    "What else could I cook with them?",
)
"""About 60 s said by Piper, one sentence after another."""
PAUSES_S = (0.4, 0.55, 0.7, 0.85, 1.0)
SENTENCE_GAP_S = (0.3, 0.45, 0.35, 0.5)
"""Silence between the monologue's sentences (besides the voice's own)."""
ESPEAK_VOICES = ("en-us", "en-gb+f3", "en-gb-scotland+m3")
ESPEAK_PEAK = 0.7


@dataclass(frozen=True)
class TurnTake:
    name: str
    path: Path
    words: str
    """Everything said (the transcript a complete answer needs)."""
    kind: str
    """``complete``, ``pause``, ``um`` (a filled pause, mid-turn or trailing), ``noise`` or ``monologue``."""
    voice: str
    speech_end_s: float
    """Last audible sample of the last word."""
    pauses: tuple[tuple[float, float], ...] = ()
    """Silences inside the turn (start, end in seconds): committing in one is premature."""
    trailing: bool = False
    """The turn ends unfinished (a trailing "um"): waiting the longest is right."""
    half: str = ""
    """``tune`` or ``test`` in the split corpus (:mod:`.turn_split`)."""
    language: str = "en"


Speaker = Callable[[str], np.ndarray]
"""Says a text: mono float32 at 16 kHz, trimmed of silence at both ends."""


def trim(pcm: np.ndarray) -> np.ndarray:
    start, end = first_audible_s(pcm, RATE), last_audible_s(pcm, RATE)
    if start is None or end is None:
        return pcm[:0]
    return pcm[int(start * RATE) : int(end * RATE)]


def piper_speaker(tts: Tts, steady: bool = True) -> Speaker:
    """Piper, by default without its random variation where it has it (``steady``): a take
    is the same on every machine, and its transcript does not depend on a draw ("Remind me
    to" was heard "Remind me too." in one draw of three, a complete sentence)."""
    speak = tts.steady if steady else tts.synthesize

    def say(text: str) -> np.ndarray:
        pcm = np.concatenate(list(speak(text)))
        return trim(resample(pcm, tts.rate, RATE) * 0.8)

    return say


def espeak_said(voice: str, words_per_minute: int, pitch: int, text: str, ssml: bool = False) -> np.ndarray:
    """``text`` said by espeak-ng through its command line (it writes a WAV), peak at
    :data:`ESPEAK_PEAK`, untrimmed; ``ssml``: the text is SSML (breaks, for one)."""
    binary = shutil.which("espeak-ng")
    if binary is None:
        raise AudioError("espeak-ng is not installed (apt install espeak-ng); it voices part of the turn corpus")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "say.wav"
        subprocess.run([binary, *(["-m"] if ssml else []), "-v", voice, "-s", str(words_per_minute), "-p", str(pitch),
                        "-w", str(path), text], check=True, capture_output=True)
        pcm = load_wav(path, RATE)
    peak = float(np.abs(pcm).max()) or 1.0
    return pcm * (ESPEAK_PEAK / peak)


def espeak_speaker(voice: str, words_per_minute: int = 165, pitch: int = 50) -> Speaker:
    """espeak-ng, each text trimmed of its silence."""
    if shutil.which("espeak-ng") is None:
        raise AudioError("espeak-ng is not installed (apt install espeak-ng); it voices part of the turn corpus")

    def say(text: str) -> np.ndarray:
        return trim(espeak_said(voice, words_per_minute, pitch, text))

    return say


def _silence(seconds: float) -> np.ndarray:
    return np.zeros(int(round(seconds * RATE)), np.float32)


def noise(samples: int, seed: int) -> np.ndarray:
    """Steady pink-ish noise (a fan, a road) at unit RMS."""
    rng = np.random.default_rng(seed)
    white = rng.standard_normal(samples + RATE)
    pink = np.convolve(white, np.exp(-np.arange(64) / 12.0), mode="same")[RATE:]
    return (pink / np.sqrt(np.mean(pink**2))).astype(np.float32)


def join_parts(parts: list[np.ndarray], gaps: list[float]) -> tuple[np.ndarray, list[tuple[float, float]], float]:
    """Speech parts with ``gaps`` of silence between them, lead-in and tail: the audio,
    the pauses (start, end) and the end of the last word."""
    audio = [_silence(LEAD_S)]
    at = LEAD_S
    pauses = []
    for index, part in enumerate(parts):
        audio.append(part)
        at += part.size / RATE
        if index < len(gaps):
            pauses.append((round(at, 3), round(at + gaps[index], 3)))
            audio.append(_silence(gaps[index]))
            at += gaps[index]
    audio.append(_silence(TAIL_S))
    return np.concatenate(audio), pauses, round(at, 3)


def _plan(small: bool) -> list[tuple[str, list[str], list[float], bool, bool]]:
    """(kind, parts, gaps, noisy, trailing) for every take."""
    plan: list[tuple[str, list[str], list[float], bool, bool]] = []
    complete = COMPLETE[:3] if small else COMPLETE
    paused = PAUSED[:3] if small else PAUSED
    plan += [("complete", [text], [], False, False) for text in complete]
    plan += [("pause", list(parts), [PAUSES_S[(i * 2) % len(PAUSES_S)] if small else PAUSES_S[i % len(PAUSES_S)]], False, False)
             for i, parts in enumerate(paused)]
    plan += [("um", list(parts), [0.8], False, False) for parts in UM_PAUSED]
    plan += [("um", [text], [], False, True) for text in UM_TRAILING[: 1 if small else None]]
    plan += [("noise", [text], [], True, False) for text in NOISY[: 1 if small else None]]
    plan += [("noise", list(parts), [0.7], True, False) for parts in NOISY_PAUSED]
    if not small:
        gaps = [SENTENCE_GAP_S[i % len(SENTENCE_GAP_S)] for i in range(len(MONOLOGUE) - 1)]
        plan.append(("monologue", list(MONOLOGUE), gaps, False, False))
    return plan


def make_turn_corpus(tts: Tts, folder: Path | None = None, *, small: bool = False,
                     espeak_voices: tuple[str, ...] = ESPEAK_VOICES) -> list[TurnTake]:
    """Every take of the corpus (made on first use, then read from ``folder``).

    Voices take turns over the items, so each kind is said by Piper and by espeak-ng;
    the monologue is Piper's. ``small`` is the few-take version for tests."""
    folder = folder or cache_dir() / "turn-corpus" / f"v{VERSION}-{'small' if small else 'full'}-{file_slug(tts.voice_id)}"
    manifest = folder / "manifest.json"
    if manifest.is_file():
        return read_manifest(manifest)
    speakers: list[tuple[str, Speaker]] = [("piper", piper_speaker(tts))]
    speakers += [(f"espeak-{voice}", espeak_speaker(voice)) for voice in espeak_voices]
    folder.mkdir(parents=True, exist_ok=True)
    takes = []
    for index, (kind, parts, gaps, noisy, trailing) in enumerate(_plan(small)):
        voice, say = speakers[0] if kind == "monologue" else speakers[index % len(speakers)]
        audio, pauses, end = join_parts([say(p) for p in parts], gaps)
        if noisy:  # 20 dB below the speech's level
            level = float(np.sqrt(np.mean(audio[np.abs(audio) > 0.01] ** 2)))
            audio = audio + noise(audio.size, index) * level * 0.1
        name = f"{index:02d}-{kind}-{file_slug(' '.join(parts))}"
        path = folder / f"{name}.wav"
        save_wav(path, audio, RATE)
        takes.append(TurnTake(name, path, " ".join(parts), kind, voice, end, tuple(pauses), trailing))
    manifest.write_text(json.dumps([take_json(t) for t in takes], indent=1), encoding="utf-8")
    return takes


def take_json(take: TurnTake) -> dict:
    data = asdict(take)
    data["path"] = take.path.name
    return data


def read_manifest(path: Path) -> list[TurnTake]:
    rows = json.loads(path.read_text(encoding="utf-8"))
    return [
        TurnTake(**{**row, "path": path.parent / row["path"], "pauses": tuple(tuple(p) for p in row["pauses"])})
        for row in rows
    ]


def file_slug(text: str) -> str:
    return slug(text.lower(), keep="")[:40]
