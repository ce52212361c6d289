"""What the wake phrase's training says (:mod:`.wake_training`), per language: everyday sentences that never
say a phrase, the questions said after it, and sentences made from the phrase's own words and letters that do
not say it. English is below; Korean in :mod:`.wake_korean`; :func:`.wake_training.recipe_for` picks by the phrase's script.
"""

from __future__ import annotations

from dataclasses import dataclass

from assistant.pipeline.wake_sounds import sound_misses


@dataclass(frozen=True)
class Recipe:
    """The texts of one phrase's training, by kind."""

    sentences: tuple[str, ...]
    """Everyday speech (a third of them a voice)."""
    questions: tuple[str, ...]
    """What follows the phrase in the positives (one a voice, in turn)."""
    phrase_like: tuple[str, ...]
    """Sentences of the phrase's words that do not say it (a third of them, with the sentences)."""
    near: tuple[str, ...]
    """Near misses from the phrase's letters (half of them a voice)."""
    amid: tuple[str, ...]
    """The phrase's words amid others (:data:`AMID_PER_VOICE` a voice)."""
    sounds: tuple[str, ...]
    """Near misses from the phrase's sounds (:data:`SOUNDS_PER_VOICE` a voice that can say them)."""
    sounds_need_phonemes: bool = True
    """The sounds are eSpeak NG phonemes (only the voices that speak them say them), else text."""


def english_recipe(phrase: str) -> Recipe:
    return Recipe(SENTENCES, QUESTIONS, tuple(phrase_like(phrase)), tuple(near_misses(phrase)),
                  tuple(phrase_amid(phrase)), tuple(sound_misses(phrase)))


SENTENCES = (
    "What is the capital of Australia?", "How many legs does a spider have?", "Why is the sky blue?",
    "Can you recommend a good book?", "Who wrote Romeo and Juliet?", "What should I cook for dinner?",
    "Is it going to rain tomorrow?", "How do you boil an egg?", "Where do penguins live?",
    "Set a timer for five minutes.", "Tell me a joke about cats.", "Play some relaxing music.",
    "Remind me to water the plants.", "Turn the volume up.", "I had a long day at work.",
    "My brother is visiting next week.", "I think it is going to snow.", "Then we walked to the bakery.",
    "On the way home it started to rain.", "She used to cook for the whole family.", "Hello, how are you doing?",
    "Is this seat taken?", "Can you pass me the salt?", "Okay, let us go now.", "I will call you later.",
    "That sounds like a good plan.", "Where did I leave my keys?", "Thank you very much.", "Good morning everyone.",
    "Please close the door behind you.", "The meeting starts at nine.", "Have you seen my glasses?",
)
"""Everyday speech that never says a phrase (none of the wake bench's test half's sentences)."""
QUESTIONS = ("what time is it?", "tell me a joke.", "how tall is mount everest?", "turn the lights off.")
"""What follows the phrase in the positives."""


def phrase_like(phrase: str) -> list[str]:
    """Sentences made of the phrase's words that do not say it, for any phrase of two words or more
    (one word alone is the phrase)."""
    words = phrase.split()
    if len(words) < 2:
        return []
    first, rest = words[0].capitalize(), " ".join(words[1:])
    made = [f"{first}.", f"{first}, {SENTENCES[0].lower()}", f"{first}, {SENTENCES[21].lower()}",
            f"{first} there, {SENTENCES[20].lower()}", f"{first}, {SENTENCES[26].lower()}",
            f"{rest.capitalize()}.", f"The {rest} is here.", f"My {rest} called me.", f"Okay, {rest}.",
            f"I asked the {rest} about it."]
    return [text for text in made if _letters(phrase) not in _letters(text)]


def phrase_amid(phrase: str) -> list[str]:
    """More sentences with the phrase's words and not the phrase: its last words amid others, its first
    word before everyday words (each voice says :data:`AMID_PER_VOICE` of them)."""
    words = phrase.split()
    if len(words) < 2:
        return []
    first, rest = words[0].capitalize(), " ".join(words[1:])
    made = [f"She works as an {rest} at the school.", f"We need a new {rest} for the office.",
            f"Call the {rest} again tomorrow.", f"Where is the {rest} today?", f"Is your {rest} on holiday?",
            f"Our {rest} has a new phone.", f"I spoke to the {rest} this morning.", f"Ask the {rest}, then.",
            f"{first}, I just got home.", f"{first}, look at this.", f"{first} you, come over here.", f"{first}, it is late."]
    return [text for text in made if _letters(phrase) not in _letters(text)]


AMID_PER_VOICE = 4
SOUNDS_PER_VOICE = 8
"""Near misses made from the phrase's sounds, by each English voice (:mod:`.wake_sounds`)."""


def _letters(text: str) -> str:
    return "".join(c for c in text.casefold() if c.isalnum())


CONTINUATIONS = ("is it", "and then", "again")
"""What follows a near miss (everyday words; none from the wake bench's sentences)."""


def near_misses(phrase: str) -> list[str]:
    """Sounds the phrase begins with, going on otherwise (the adversarial negatives openWakeWord's
    training makes from phonemes, here from letters, for any phrase): each long word of the phrase cut
    short by two, three letters or half of it, and other words after it, with the words before it
    ("Hey, assista is it.", "Hey, assis and then.")."""
    words = phrase.split()
    made = []
    for index, word in enumerate(words):
        if len(word) < 4:
            continue
        before = " ".join(words[:index])
        for cut in dict.fromkeys((len(word) - 2, len(word) - 3, max(2, len(word) // 2))):
            for going_on in CONTINUATIONS:
                text = f"{before}, {word[:cut]} {going_on}." if before else f"{word[:cut]} {going_on}."
                made.append(text[:1].upper() + text[1:])
    return made
