"""Korean a model cannot answer is never given to it.

The embedded SmolLM2-135M answers Korean with English noise (its vocabulary has one
Hangul token). When the loaded GGUF's vocabulary cannot write Korean compactly
(:func:`assistant.machine.vocab.korean_fit`) and the language is Korean or the words
said are, the turn gets :data:`CANNOT_ANSWER` instead: in Korean, so the Korean voice
says it, with what to do. A model on a server (``--llm-url``) and a GGUF that writes
Korean compactly answer as usual.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from assistant import languages
from assistant.writing import has_hangul
from assistant.think.said import Said

log = logging.getLogger(__name__)
_told: set[Path] = set()
"""Models the log has already said this of (an engine is built per kiosk visitor)."""

CANNOT_ANSWER = "죄송해요, 지금 모델은 한국어를 못 해요. 설정에서 엑사원 같은 한국어 모델을 골라 주세요."
"""Said instead of an answer ("Sorry, this model cannot speak Korean. Choose a Korean model
such as EXAONE in the settings."): Hangul only, so the Korean voice says all of it."""
CANNOT_ANSWER_AGAIN = "지금 모델은 한국어를 못 해요."
"""Said instead once the whole notice has been heard in this conversation ("This model cannot speak Korean."):
its first sentence, 2.6 s where the whole is 7.5 s, every Korean turn."""
WHAT_TO_DO = (
    "{model} cannot answer in Korean ({fit:.1f} tokens a Hangul syllable): Korean questions get a short "
    "Korean notice instead. Choose a Korean-capable GGUF in the settings (Model) or with --llm-model "
    "(`assistant doctor --language ko` names the one for this machine). {hint}"
)


@dataclass(frozen=True)
class Notice(Said):
    """A reply said instead of the model's answer, never added to the conversation (no action,
    no effect): the model cannot answer in this language (``notice``), or the words were not
    heard well enough to answer (``misheard``, :mod:`assistant.think.misheard`)."""

    text: str
    audio: np.ndarray | None = None
    source: str = "notice"
    action = None


def is_korean(text: str) -> bool:
    """Whether most letters of ``text`` are Hangul."""
    letters = [c for c in text if c.isalpha()]
    return bool(letters) and sum(has_hangul(c) for c in letters) * 2 >= len(letters)


def speaks_korean(model: Path | None) -> bool:
    """Whether the GGUF at ``model`` can answer in Korean (None, a model on a server: yes)."""
    if model is None:
        return True
    from assistant.machine.models import ModelError
    from assistant.machine.vocab import korean_fit

    try:
        fit = korean_fit(model)
    except (ModelError, OSError) as exc:
        log.warning("cannot tell whether %s answers in Korean (%s); it is asked anyway", model, exc)
        return True
    if not fit.speaks_korean and model not in _told:
        _told.add(model)
        hint = languages.model_hint("ko").split(". ", 1)[-1]
        log.warning(WHAT_TO_DO.format(model=model.name, fit=fit.tokens_per_syllable, hint=hint))
    return fit.speaks_korean


class KoreanGuard:
    """Says :data:`CANNOT_ANSWER` for Korean the loaded model cannot answer."""

    def __init__(self, model: Path | None, language: str,
                 audio: Callable[[str], np.ndarray | None] | None = None):
        self.model = model
        self.language = language
        self.audio = audio
        """The notice's audio rendered before the first turn (the instant replies', which
        render :data:`CANNOT_ANSWER` too), or None: it is then synthesized when said."""
        self._speaks = speaks_korean(model) if language == "ko" else None
        """Read now for Korean, not in the first turn; else when Korean is first said."""
        self.told = False
        """The whole notice, what to do included, has been heard (:meth:`heard`): the next ones are its first
        sentence. An engine is built per kiosk visitor, so each visitor hears it whole first."""

    @property
    def speaks(self) -> bool:
        """Whether the model answers in Korean (asked once)."""
        if self._speaks is None:
            self._speaks = speaks_korean(self.model)
        return self._speaks

    @property
    def ends_by_silence(self) -> bool:
        """Korean is spoken and the model cannot read it: the end of a turn is the silence's
        and the words' ending (:func:`~assistant.hear.end_of_turn.judge_without_model`)."""
        return self.language == "ko" and not self.speaks

    def notice(self, text: str) -> Notice | None:
        """The notice for words the model cannot answer, or None (the model answers)."""
        if self.language != "ko" and not is_korean(text):
            return None
        if self.speaks:
            return None
        text = CANNOT_ANSWER_AGAIN if self.told else CANNOT_ANSWER
        return Notice(text, self.audio(text) if self.audio else None)

    def heard(self, reply: str, unheard: str) -> None:
        """A turn's ``reply`` has sounded, all but ``unheard``: the whole notice heard is told."""
        if reply == CANNOT_ANSWER and not unheard:
            self.told = True
