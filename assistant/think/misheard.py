"""Words the recognizer was not sure of are not answered as if they had been heard.

Whisper tiny.en mishears voices unlike the ones it learnt from (docs/tuning.md), and the model
then answers the misheard words as surely as any: "How many lanterns does a spider have?" for
legs, "is never must only airport" for "Is there a bus to the airport?". A misheard question
mostly holds a word the recognizer gave a low probability; one it heard right seldom does. So
an English question that no skill and no instant reply takes, whose least sure word is under
``stt.misheard_below``, gets :data:`DID_NOT_CATCH` instead of the model's answer (the user
says it again), never twice in a row: words said again right after it are answered, or a word
the recognizer never knows well (a rare name) would never be. Docs: docs/tuning.md, "Misheard
words".

Speech the recognizer read as nothing at all (Whisper's no-speech probability, or a voice it cannot
read: four takes of 72 by eSpeak NG's odder Korean voices on one set) gets the same
notice, in the language spoken (:data:`NOT_HEARD`), where the utterance lasted long enough to be a
question (:data:`HEARD_FOR_S`), not twice in a row either; shorter sounds (a laugh, a cough the
VAD took for a voice) still end without a word. Any language: no threshold of the recognizer's is used.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from assistant.languages import likely_misheard
from assistant.think.korean_guard import Notice

DID_NOT_CATCH = "Sorry, I didn't catch that."
NOT_HEARD = {"ko": "죄송해요, 잘 못 알아들었어요. 다시 한번 말씀해 주세요."}
"""Per language, what is said for speech read as nothing (else :data:`DID_NOT_CATCH`)."""
HEARD_FOR_S = 0.6
"""From the utterance's first speech to its last, at least this long for speech read as nothing to
get the notice: a question of two or three words ("What time is it?" is 0.8-1.1 s at 150-180 words a
minute, "Who are you talking to?" 1.0 s); a cough, an "mm" or a word alone ("Hey", 0.3-0.4 s) is
shorter and gets none."""

class MisheardGuard:
    """Says :data:`DID_NOT_CATCH` for words the recognizer was unsure of, not twice in a row."""

    def __init__(self, below: float, language: str, audio: Callable[[str], np.ndarray | None] | None = None):
        self.below = below
        """The least sure word's probability under which the words are taken as misheard (0: never)."""
        self.language = language
        self.audio = audio
        """The notice's audio rendered before the first turn (with the instant replies'), or None."""
        self.just_said = False
        """The last reply was the notice: the next words are answered whatever they are."""

    def unsure(self, least_word_p: float | None) -> bool:
        """The words whose least sure word is at ``least_word_p`` are likely misheard."""
        return likely_misheard(least_word_p, self.below, self.language)

    def notice(self, text: str, least_word_p: float | None) -> Notice | None:
        """The notice for ``text`` (its least sure word at ``least_word_p``), or None (answer it)."""
        if self.just_said or not text.strip() or not self.unsure(least_word_p):
            return None
        return Notice(DID_NOT_CATCH, self.audio(DID_NOT_CATCH) if self.audio else None, source="misheard")

    def not_heard(self, heard_s: float | None) -> Notice | None:
        """The notice for speech of ``heard_s`` seconds that the recognizer read as nothing, or None
        (too short to be a question, or the notice was the last reply)."""
        if self.just_said or heard_s is None or heard_s < HEARD_FOR_S:
            return None
        text = NOT_HEARD.get(self.language, DID_NOT_CATCH)
        return Notice(text, self.audio(text) if self.audio else None, source="misheard")

    def replied(self, source: str) -> None:
        """A turn's reply was given (its source: ``misheard`` for the notice)."""
        self.just_said = source == "misheard"
