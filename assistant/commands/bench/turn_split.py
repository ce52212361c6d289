"""The split turn-taking corpus: a tuning half and a test half, apart by voice and by sentence.

Rules and thresholds are tuned on the tuning half only; every figure that is reported
comes from the test half first, said by voices and made of sentences the tuning half
never has. Each half holds complete questions, requests, statements, greetings, one-word
answers, questions that end on a preposition or an auxiliary ("What is it for?"),
thinking pauses of 0.4-1.2 s mid-sentence, trailing fillers, takes under steady noise,
and Korean questions (whole, and with a pause). Piper (the app's own voice, with its
random variation on) speaks in the tuning half only; the test half is espeak-ng voices,
rates and pitches the tuning half does not use. A thinking pause is said one take in two
as separate parts and one take in two in one breath (the intonation runs on across it).
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

import numpy as np

from assistant.commands.bench.stats import slug
from assistant.commands.bench.turn_corpus import (
    RATE,
    Speaker,
    TurnTake,
    espeak_said,
    espeak_speaker,
    join_parts,
    noise,
    piper_speaker,
    read_manifest,
    take_json,
    trim,
)
from assistant.resources import cache_dir
from assistant.sound import audible_windows, save_wav
from assistant.speak.tts import Tts

VERSION = 2
HALVES = ("test", "tune")
"""Reported in this order: the test half is the figure, the tuning half shows the gap."""


@dataclass(frozen=True)
class Voice:
    name: str
    """espeak-ng voice (with variant), or ``piper``."""
    rate: int = 165
    """Words per minute (espeak-ng)."""
    pitch: int = 50
    """0-99 (espeak-ng)."""
    language: str = "en"


# Version 2: the first version's two halves were both looked at while its rules were made, so
# both are now the tuning half; the test half is new (voices and sentences written before any
# tuning on this version, and scored once at the end).
FIRST_VOICES = {
    "tune": (
        Voice("piper"), Voice("en-us", 165, 50), Voice("en-gb+f3", 150, 60), Voice("en-gb-scotland+m3", 180, 40),
        Voice("en-us+m7", 140, 35), Voice("en-gb+f4", 175, 65),
    ),
    "test": (
        Voice("en-gb-x-rp+m5", 160, 45), Voice("en-029+f1", 145, 62), Voice("en-us-nyc+m2", 185, 38),
        Voice("en-gb-x-gbcwmd+f2", 170, 58), Voice("en-gb-x-gbclan+m6", 150, 48), Voice("en-us+f2", 190, 70),
    ),
}
"""The first version's halves (the wake bench still splits its corpus by them: docs/wake.md)."""


def second_version(first: dict, test):
    """This version's halves: the first version's two as the tuning half, ``test`` new."""
    return {"tune": first["tune"] + first["test"], "test": test}


VOICES = second_version(FIRST_VOICES, (
        Voice("en-us+Andy", 170, 55), Voice("en-gb+Annie", 155, 66), Voice("en-gb-x-rp+Gene", 176, 40),
        Voice("en-029+Lee", 160, 50), Voice("en-us-nyc+belinda", 150, 68), Voice("en-gb-scotland+david", 186, 42),
))
KOREAN_VOICES = {
    "tune": (Voice("ko", 150, 50, "ko"), Voice("ko+f3", 170, 62, "ko"), Voice("ko+m3", 135, 40, "ko"),
             Voice("ko+f2", 160, 68, "ko"), Voice("ko+m5", 185, 45, "ko"), Voice("ko+f4", 140, 55, "ko")),
    "test": (Voice("ko+Andy", 150, 50, "ko"), Voice("ko+Annie", 172, 64, "ko"), Voice("ko+m2", 140, 44, "ko")),
}

FIRST_COMPLETE = {
    "tune": [
        "What is the capital of Australia?", "How many legs does a spider have?", "Why is the sky blue?",
        "Can you recommend a good book?", "Who wrote Romeo and Juliet?", "What should I cook for dinner?",
        "How tall is Mount Everest?", "What time does the sun set today?", "Is it going to rain tomorrow?",
        "How do you boil an egg?", "What is the largest planet?", "Where do penguins live?",
        "How long does it take to fly to Paris?", "What does a bee eat?",
    ],
    "test": [
        "What is the tallest building in the world?", "How many days are there in a leap year?",
        "Why do leaves change colour in autumn?", "Can you suggest a film for tonight?",
        "Who painted the Mona Lisa?", "What should I plant in my garden?", "How deep is the ocean?",
        "What is the fastest land animal?", "Do cats like water?", "How do airplanes stay in the air?",
        "Which country has the most people?", "When was the telephone invented?",
        "How far is the moon from the earth?", "What makes a rainbow?",
    ],
}
COMPLETE = second_version(FIRST_COMPLETE, [
        "What is the boiling point of water?", "How many continents are there?", "Why do we have seasons?",
        "Can you name a famous composer?", "Who invented the light bulb?", "What should I wear to a wedding?",
        "How old is the universe?", "What is the smallest bird?", "Are tomatoes a fruit?",
        "How does a compass work?", "Which planet is closest to the sun?", "When did the first car appear?",
        "How heavy is an elephant?", "What causes thunder?",
])
FIRST_REQUESTS = {
    "tune": ["Set a timer for five minutes.", "Tell me a joke about cats.", "Play some relaxing music.",
             "Remind me to water the plants.", "Give me a recipe for pancakes.", "Turn the volume up."],
    "test": ["Tell me something interesting.", "Start a timer for ten minutes.", "Read me a short poem.",
             "Give me three ideas for a birthday present.", "Explain how a rainbow forms.", "Wake me up at seven."],
}
REQUESTS = second_version(FIRST_REQUESTS, ["Tell me a fun fact.", "Set an alarm for six thirty.", "Sing me a song.",
                                          "Give me a word that rhymes with cat.", "Describe a sunset.", "Count to five."])
FIRST_STATEMENTS = {
    "tune": ["I had a long day at work.", "My sister is visiting next week.", "I think it is going to snow."],
    "test": ["The train was late again this morning.", "I finished reading that book.",
             "We are having friends over tonight."],
}
STATEMENTS = second_version(FIRST_STATEMENTS, ["My dog learned a new trick.", "It was raining all afternoon.",
                                              "I am going to the gym later."])
GREETINGS = {
    "tune": ["Hello.", "Thank you.", "Good morning.", "Goodbye.", "Hi there.", "Thanks a lot.", "Good night.",
             "See you later."],
    "test": ["Hey.", "Thanks so much.", "Good evening.", "Bye for now."],
}
ONE_WORD = {
    "tune": ["Yes.", "No.", "Maybe.", "Sure.", "Nope.", "Okay."],
    "test": ["Right.", "Absolutely.", "Never."],
}
STRANDED = {
    "tune": ["What is it for?", "Where are you from?", "Who did you go with?", "What is this made of?",
             "Can you?", "Which one is it?", "What are you thinking of?", "Who is it from?", "What is that used for?",
             "Where does it come from?", "Will it?", "What time is it?"],
    "test": ["What is it about?", "Who are you talking to?", "Where did it go to?", "What did you step on?",
             "Could you?", "How much is it?"],
}
"""Complete questions that end on a preposition or an auxiliary."""
PAUSED = {
    "tune": [
        ("What is the capital of", "Australia?"), ("Remind me to", "call my mother tomorrow."),
        ("How many legs does a", "spider have?"), ("Can you tell me the", "weather for tomorrow?"),
        ("What is the difference between", "a frog and a toad?"), ("Tell me a story about", "a brave little mouse."),
        ("Who was the first person to", "walk on the moon?"), ("Set a timer for", "ten minutes."),
        ("What should I cook with", "rice and beans?"), ("How far away is the", "nearest star?"),
        ("I would like to know", "how volcanoes work."), ("Can you play", "something by the Beatles?"),
        ("What is the population of", "Canada?"), ("Could you remind me to", "buy milk on the way home?"),
        ("How long does it take to", "bake a loaf of bread?"), ("Tell me about the", "history of chess."),
        ("Which is bigger, a", "whale or an elephant?"), ("What do you know about", "black holes?"),
        ("I need a recipe for", "chocolate cake."), ("Where is the", "nearest train station?"),
        ("How do I", "change a flat tyre?"), ("What is the best way to", "learn a new language?"),
        ("Why do", "cats purr?"), ("Can you explain", "how a fridge keeps things cold?"),
    ],
    "test": [
        ("What is the weather like in", "London today?"), ("Can you remind me to", "feed the cat?"),
        ("How many people live in", "Tokyo?"), ("Tell me a joke about", "penguins."),
        ("What is the difference between a", "lake and a pond?"), ("I want to know more about", "the Roman empire."),
        ("Who discovered", "penicillin?"), ("Start a countdown of", "three minutes."),
        ("What is the best time to", "visit Japan?"), ("How do you make", "fresh pasta?"),
        ("Could you tell me", "a bedtime story?"), ("Where can I buy", "fresh flowers?"),
    ],
}
FILLER_PAUSED = {
    "tune": [("What is the biggest animal in the, um,", "ocean?"), ("How do I, uh,", "make tea?"),
             ("Where can I find a good, um,", "pizza place?"), ("What is, uh,", "the speed of light?")],
    "test": [("What is the, um,", "tallest tree in the world?"), ("Can you, uh,", "play some jazz?")],
}
TRAILING = {
    "tune": ["Can you tell me, um", "What time is it in Tokyo, um", "I was wondering if, uh", "Tell me about, um"],
    "test": ["So I was thinking, um", "And then, uh"],
}
"""The user trails off: the turn is over once they stay silent (the longest wait is right)."""
KOREAN = {
    "tune": ["지금 몇 시예요?", "오늘 날씨 어때요?", "한국의 수도는 어디예요?", "고마워요.", "안녕하세요.",
             "내일 비가 와요?", "오늘 무슨 요일이에요?", "좋은 책을 추천해 주세요.", "바다는 왜 파란가요?", "감사합니다.",
             "잘 자요.", "지구에서 가장 높은 산은 뭐예요?"],
    "test": ["지금 몇 시야?", "내일 날씨 알려 줘.", "제일 큰 바다는 어디예요?", "고맙습니다.", "좋은 아침이에요.",
             "오늘 며칠이에요?"],
}
KOREAN_PAUSED = {
    "tune": [("서울에서 부산까지", "얼마나 걸려요?"), ("제일 맛있는 한국 음식이", "뭐예요?"),
             ("세계에서 가장 큰", "나라는 어디예요?"), ("타이머를", "오 분으로 맞춰 주세요.")],
    "test": [("한국에서 가장 높은", "산은 뭐예요?"), ("오늘 저녁에", "뭐 먹을까요?")],
}
PAUSES_S = (0.4, 0.55, 0.7, 0.85, 1.0, 1.2)


@dataclass(frozen=True)
class Item:
    kind: str
    parts: tuple[str, ...]
    gaps: tuple[float, ...] = ()
    trailing: bool = False
    language: str = "en"


def items(half: str) -> list[Item]:
    """What one half says, before voices are given to it."""
    out = [Item("complete", (t,)) for t in COMPLETE[half] + REQUESTS[half] + STATEMENTS[half]]
    out += [Item("greeting", (t,)) for t in GREETINGS[half] + ONE_WORD[half]]
    out += [Item("stranded", (t,)) for t in STRANDED[half]]
    out += [Item("pause", parts, (PAUSES_S[i % len(PAUSES_S)],)) for i, parts in enumerate(PAUSED[half])]
    out += [Item("um", parts, (0.8,)) for parts in FILLER_PAUSED[half]]
    out += [Item("um", (t,), (), trailing=True) for t in TRAILING[half]]
    out += [Item("korean", (t,), language="ko") for t in KOREAN[half]]
    out += [Item("korean-pause", parts, (PAUSES_S[(i + 2) % len(PAUSES_S)],), language="ko")
            for i, parts in enumerate(KOREAN_PAUSED[half])]
    return out


TAKES_PER_ITEM = 2
"""Each item is said by this many voices of its half (different ones for different items)."""
NOISY_EVERY = 5
"""One take in this many has steady noise 20 dB below the speech."""


BREATH_BREAK_S = 1.5
"""The break asked of espeak-ng between the parts said in one breath (found again and
replaced by the item's own gap)."""


def in_one_breath(voice: Voice, parts: tuple[str, ...]) -> list[np.ndarray] | None:
    """The parts said by espeak-ng as one utterance with a break between them (SSML), so the
    intonation runs on across the pause as a thinking speaker's does, cut back into parts at
    the breaks; None for Piper, or where the breaks are not found."""
    if voice.name == "piper" or shutil.which("espeak-ng") is None or len(parts) < 2:
        return None
    text = f' <break time="{BREATH_BREAK_S * 1000:.0f}ms"/> '.join(escape(p) for p in parts)
    pcm = espeak_said(voice.name, voice.rate, voice.pitch, text, ssml=True)
    loud, size = audible_windows(pcm, RATE)
    quiet_runs, run_start = [], None
    for index, audible in enumerate(np.append(loud, True)):
        if not audible and run_start is None:
            run_start = index
        elif audible and run_start is not None:
            if (index - run_start) * size / RATE >= BREATH_BREAK_S * 0.8 and run_start > 0 and index < loud.size:
                quiet_runs.append((run_start * size, index * size))
            run_start = None
    if len(quiet_runs) != len(parts) - 1:
        return None
    bounds = [0] + [x for run in quiet_runs for x in run] + [pcm.size]
    return [trim(pcm[bounds[i] : bounds[i + 1]]) for i in range(0, len(bounds), 2)]


def _speaker(voice: Voice, tts: Tts) -> Speaker:
    if voice.name == "piper":
        return piper_speaker(tts, steady=False)
    return espeak_speaker(voice.name, voice.rate, voice.pitch)


def make_split_corpus(tts: Tts, folder: Path | None = None) -> list[TurnTake]:
    """Both halves (made on first use, then read from ``folder``)."""
    folder = folder or cache_dir() / "turn-split" / f"v{VERSION}-{slug(tts.voice_id.lower(), keep='')[:40]}"
    manifest = folder / "manifest.json"
    if manifest.is_file():
        return read_manifest(manifest)
    folder.mkdir(parents=True, exist_ok=True)
    takes = []
    for half in HALVES:
        english = [(v, _speaker(v, tts)) for v in VOICES[half]]
        korean = [(v, _speaker(v, tts)) for v in KOREAN_VOICES[half]]
        for index, item in enumerate(items(half)):
            voices = korean if item.language == "ko" else english
            for k in range(TAKES_PER_ITEM):
                voice, say = voices[(index * TAKES_PER_ITEM + k) % len(voices)]
                said = in_one_breath(voice, item.parts) if k % 2 else None  # one take in two: in one breath
                audio, pauses, end = join_parts(said or [say(p) for p in item.parts], list(item.gaps))
                number = len(takes)
                if number % NOISY_EVERY == NOISY_EVERY - 1:
                    level = float(np.sqrt(np.mean(audio[np.abs(audio) > 0.01] ** 2)))
                    audio = audio + noise(audio.size, number) * level * 0.1
                name = f"{half}-{number:03d}-{item.kind}-{slug(' '.join(item.parts).lower(), keep='')[:32]}"
                path = folder / f"{name}.wav"
                save_wav(path, audio, RATE)
                takes.append(TurnTake(name, path, " ".join(item.parts), item.kind, voice.name, end, tuple(pauses),
                                      item.trailing, half=half, language=item.language))
    manifest.write_text(json.dumps([take_json(t) for t in takes], indent=1, ensure_ascii=False), encoding="utf-8")
    return takes
