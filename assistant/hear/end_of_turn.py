"""When the user has finished: the end-of-turn decision, pure and clock-free.

At each pause the detector is told what the user said so far (the transcript at the
pause, the language model's probability that the words end a sentence, the recognizer's
confidence in the last word, whether they are an instant-reply phrase) and how long the
silence has lasted. The wait grows smoothly as the model's probability falls:

- the model is the core: its probability that a sentence ends right after the words
  (its end-of-turn token, or ".", "?", "!", read from one set of logits on the words
  without the recognizer's punctuation) at or above ``complete_log10`` ends the turn
  after ``complete_ms``; below ``unfinished_log10`` the words wait ``max_ms``; in
  between the wait rises along a square-root curve;
- words that cannot end a sentence in any reading (an article, a conjunction, a filler:
  "the", "and", "um") or that trail off ("...", ",") wait ``max_ms``, unless the model
  is confident they are complete or the words are likely misheard;
- when the recognizer was unsure of a word (the words are likely misheard), the model's
  reading of them waits ``misheard_ms`` at most (a little over the longest thinking pause
  the budget counts), not the maximum, and so does the word or mark they end on; so does a
  reading with no words at all (words not read yet wait the maximum);
- when the model cannot read the words at all (a language it does not know), or, where
  ``unsure_word_p`` is set (off by default), the recognizer was unsure of the last word, the
  silence decides alone: at most ``unsure_ms``,
  about a fixed endpoint, never the maximum for words that may be misheard; where the
  language itself is one the model cannot read (``silence_alone``), the grammar of the
  language speaks where it can: Korean is over only after a sentence-final ending
  (:mod:`~assistant.hear.korean_grammar`, else :data:`FINAL_ENDINGS`), so words that end
  on one are complete, and words that end otherwise, or are not read yet, or hold no
  Hangul, wait ``no_ending_ms`` (a thinking pause, or misheard words); in a language with
  no such table the words are not even waited for (their transcription would only delay
  the end); a model that reads such a language decides only
  where it is confident the words are complete;
- what is answered without the model (an instant-reply phrase, a skill's request) is complete
  after ``phrase_ms``, the length of a comma's pause, so that what follows one is the same turn
  ("Tell me a joke, please.").

``fixed`` mode keeps the plain silence endpoint: the detector never commits early.
Like :class:`~assistant.hear.vad.Endpointer`, it is fed numbers and returns decisions, so its
tests are lists in, decisions out. The thresholds were tuned on the tuning half of the
split turn corpus (docs/tuning.md) and are reported on its test half.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from enum import Enum

from assistant.config import Config, TurnConfig, VadConfig, check_section
from assistant.events import TurnSignals
from assistant.hear import korean_grammar
from assistant.writing import SYLLABLE

CANNOT_END = {
    "en": frozenset("a an the and or but nor um uh er erm hmm ah my your their our".split()),
}
"""Per language, last words after which no sentence is over in any reading: articles,
conjunctions, fillers, possessive determiners. Prepositions, auxiliaries and pronouns are
not here: English strands them in complete questions ("What is it for?", "Can you?"); nor
"his" and "her", which end sentences as pronouns ("It's his.", "Tell her.")."""
FINAL_ENDINGS = {
    "ko": frozenset("요다죠니냐래라야줘"),
}
"""Per language, the last syllables of its sentence-final endings (Korean 종결어미): a sentence is
over only after one. Korean's are read by a morphological analyser where the ``ko`` extra has
installed it (:mod:`~assistant.hear.korean_grammar`: the ending told by the words around it, so the
informal -아/-어, -지 and -자 end a sentence too); by the last syllable, as follows, where it has
not. Korean ends every sentence on its verb, and the ending says the sentence is done: 요 (the
polite -아요, -세요, -에요, -네요), 다 (-다, -습니다), 죠 (-지요), 니 and 냐 (questions), 래, 라,
and the two informal forms people say to an assistant most ("몇 시야", "타이머 맞춰 줘"): 야 (-야,
-이야) and 줘. A particle or a connective ending (은, 를, 에서, 까지, -고, -면, -는데, -니까) is
never the last syllable of a finished sentence. 까 ends one only as the questions -ㄹ까 and -ㅂ니까
(:func:`~assistant.hear.korean_grammar.ends_on_a_question_in_kka`), never the connective -니까. Left out, since particles and
connectives end on them too: 지 (-지; but 까지), 자 (-자; but -자마자), the other informal -아/-어
forms (해, 와, 봐; but 가, 와, 서), and 네 (-네; but Whisper writes the particle 에 after a vowel as
네: "부산에" heard 사네, "월요일에" 요이네): such words wait as any others that end on no ending. (야
ends the connective -어야 too: "먼저 해야" is taken as finished.)"""
WAIT_CURVE = 0.5
"""Between the thresholds the wait is ``complete_ms + x ** WAIT_CURVE * (max_ms - complete_ms)``,
``x`` the model's log10 probability's place from ``complete_log10`` (0) to ``unfinished_log10`` (1)."""

SILENCE_ALONE_READ_MS = 150
"""Where the silence alone ends turns, the utterance is read once, this far into the pause
(not at its first quiet frame, where the end of a soft last syllable may still be missing:
"몇 시야" read 며티아 there and 며치야 whole), and that reading, ready before the endpoint, is
the one answered: no second reading after the endpoint for the user to wait for."""

_WORD = re.compile(r"[\w']+")
_TRAILING_OFF = re.compile(r"(\.\.\.|…|,|-|—|:)\s*$")
_END_MARK = re.compile(r"[.?!]\W*$")
_END_PUNCTUATION = re.compile(r"[\s.?!,;:…\"'—-]+$")


class TurnCall(str, Enum):
    """The call on the end of the turn, from the words at a pause."""

    COMPLETE = "complete"
    UNSURE = "unsure"
    UNFINISHED = "unfinished"
    NO_WORDS = "no words yet"
    FIXED = "fixed silence"


@dataclass(frozen=True)
class Judgement:
    call: TurnCall
    wait_ms: float
    """Silence after which the turn is over, given the words so far."""
    reason: str


@dataclass(frozen=True)
class Decision:
    """The turn is over."""

    call: TurnCall
    silence_ms: float
    """Silence when the decision was made."""
    reason: str

    def describe(self) -> str:
        return f"{self.call.value} at {self.silence_ms:.0f} ms of silence"


def pause_reading(vad: VadConfig, silence_alone: bool, language: str = "en") -> VadConfig:
    """The endpointer's settings: where the silence alone decides, or a language's endings
    (:data:`FINAL_ENDINGS`: the reading must hold the last syllable), the pause's reading (the
    early silence) comes :data:`SILENCE_ALONE_READ_MS` into the pause."""
    if not (silence_alone or language in FINAL_ENDINGS) or vad.early_silence_ms >= SILENCE_ALONE_READ_MS:
        return vad
    return replace(vad, early_silence_ms=SILENCE_ALONE_READ_MS)


def longest_silence_ms(config: Config) -> int:
    """The longest silence after speech before a turn is over, whatever was said."""
    return config.turn.max_ms if config.turn.mode == "semantic" else config.vad.endpoint_ms


def words_for_model(transcript: str) -> str:
    """The words without their final punctuation (what the model is asked about)."""
    return _END_PUNCTUATION.sub("", transcript.strip())


def last_word(transcript: str) -> str:
    words = _WORD.findall(transcript.lower())
    return words[-1] if words else ""


# ------------------------------------------------------------ what the words say


def ends_on_a_word_that_cannot_end(transcript: str, language: str = "en") -> bool:
    """The last word is one after which no sentence ends ("the", "and", "um")."""
    return last_word(transcript) in CANNOT_END.get(language, frozenset())


def last_syllable(transcript: str) -> str:
    """The last Hangul syllable of the words ('' when there is none)."""
    found = SYLLABLE.findall(transcript)
    return found[-1] if found else ""


def ends_on_a_final_ending(transcript: str, language: str) -> bool | None:
    """Whether the words end on a sentence-final ending of ``language`` (:data:`FINAL_ENDINGS`);
    None where the language has no such table or the words are in no script of it."""
    endings = FINAL_ENDINGS.get(language)
    syllable = last_syllable(transcript) if endings is not None else ""
    if not syllable:
        return None
    if language == "ko":
        read = korean_grammar.ends_a_sentence(words_for_model(transcript))
        if read is not None:  # the analyser's reading of the words (else the last syllable's)
            return read
    return syllable in endings or (language == "ko" and korean_grammar.ends_on_a_question_in_kka(transcript))


def trails_off(transcript: str) -> bool:
    """The words end on "...", a comma, a dash or a colon."""
    return _TRAILING_OFF.search(transcript) is not None


def has_an_end_mark(text: str) -> bool:
    """The text ends with ".", "?" or "!" (maybe before a closing quote)."""
    return _END_MARK.search(text) is not None


# ------------------------------------------------------------ what the recognizer and the model say


def recognizer_was_unsure_of_the_last_word(signals: TurnSignals, config: TurnConfig) -> bool:
    """The recognizer gave its last word a probability below ``unsure_word_p``: the words
    may be misheard, and what they seem to say should not stretch the wait."""
    return signals.last_word_p is not None and signals.last_word_p < config.unsure_word_p


def model_cannot_judge(signals: TurnSignals) -> bool:
    """No probability from the model, and none coming: it does not read these words (a
    language it does not know) or there is no model."""
    return signals.end_of_turn is None and not signals.awaiting_model


def model_is_confident(log10: float, config: TurnConfig) -> bool:
    """The model's probability (log10) that the words end a sentence reaches ``complete_log10``."""
    return log10 >= config.complete_log10


def model_expects_more(log10: float, config: TurnConfig) -> bool:
    """The model's probability (log10) is below ``unfinished_log10``."""
    return log10 < config.unfinished_log10


def phrase_judgement(signals: TurnSignals, config: TurnConfig, language: str = "en") -> Judgement:
    """Words of the instant-reply table, or a skill's request: complete, after ``phrase_ms``, the length of
    a comma's pause: what follows one is the same turn, after a greeting, thanks, yes or no ("Thanks, what
    is ten times four?") as after a request ("Tell me a joke, please.", "What time is it in Paris,
    France?"), which the recognizer ends with "." at the pause as often as with ",". A request in a
    language whose sentences end on their verb's ending (Korean: "지금 몇 시예요") is over on that
    ending: after ``complete_ms``."""
    if signals.social:
        return Judgement(TurnCall.COMPLETE, config.phrase_ms, "an instant-reply phrase (a request may follow)")
    if signals.stops_reply:
        return Judgement(TurnCall.COMPLETE, config.complete_ms, "stops the reply")
    if language in FINAL_ENDINGS and ends_on_a_final_ending(signals.transcript, language):
        return Judgement(TurnCall.COMPLETE, config.complete_ms, "answered at once (a sentence-final ending)")
    return Judgement(TurnCall.COMPLETE, config.phrase_ms, "answered at once (more may follow a comma's pause)")


def model_wait_ms(log10: float, config: TurnConfig) -> float:
    """The silence the model's probability asks for: ``complete_ms`` when it is confident,
    ``max_ms`` when it expects more, rising along :data:`WAIT_CURVE` in between."""
    if model_is_confident(log10, config):
        return float(config.complete_ms)
    if model_expects_more(log10, config):
        return float(config.max_ms)
    x = (config.complete_log10 - log10) / (config.complete_log10 - config.unfinished_log10)
    return config.complete_ms + x**WAIT_CURVE * (config.max_ms - config.complete_ms)


# ------------------------------------------------------------ the judgement


def judge(signals: TurnSignals | None, config: TurnConfig, fixed_ms: float = 300.0, words: bool = True,
          silence_alone: bool = False, language: str = "en") -> Judgement:
    """How long to wait for more, given the words at the pause (``fixed_ms`` in fixed mode;
    ``words=False`` leaves the decision to the model alone, for comparison). ``silence_alone``:
    the model cannot read ``language``, the language spoken (:func:`judge_without_model`)."""
    if config.mode == "fixed":
        return Judgement(TurnCall.FIXED, fixed_ms, "fixed silence")
    if silence_alone:
        return judge_without_model(signals, config, language, words)
    if signals is None:
        return Judgement(TurnCall.NO_WORDS, config.max_ms, "no transcript yet")
    text = signals.transcript.strip()
    if not text:  # read, and nothing found: the recognizer could not read the words, misheard at the most
        return Judgement(TurnCall.UNSURE, min(config.misheard_ms, config.max_ms), "no words transcribed")
    if signals.instant and words:
        return phrase_judgement(signals, config, language)
    if words and ends_on_a_final_ending(text, language) is not None:
        return judge_by_ending(signals, config, language)
    if signals.awaiting_model:
        return Judgement(TurnCall.UNSURE, config.max_ms, "waiting for the model")
    if model_cannot_judge(signals):
        return Judgement(TurnCall.UNSURE, config.unsure_ms, "silence alone (the model cannot read the words)")
    log10 = math.log10(max(signals.end_of_turn, 1e-12))
    about = f"end of sentence 10^{log10:.1f}"
    if words and not model_is_confident(log10, config):
        rule = (f"ends with '{last_word(text)}'" if ends_on_a_word_that_cannot_end(text)
                else "trails off" if trails_off(text) else "")
        if rule and signals.misheard:  # the word or mark it ends on may be misheard too
            return Judgement(TurnCall.UNSURE, min(config.misheard_ms, config.max_ms), f"{about}, {rule}, likely misheard")
        if rule:
            return Judgement(TurnCall.UNFINISHED, config.max_ms, f"{about}, {rule}")
    wait = model_wait_ms(log10, config)
    if recognizer_was_unsure_of_the_last_word(signals, config) and wait > config.unsure_ms:
        return Judgement(TurnCall.UNSURE, config.unsure_ms, f"{about}, last word recognized at p {signals.last_word_p:.2f}")
    misheard_ms = min(config.misheard_ms, config.max_ms)
    if signals.misheard and wait > misheard_ms:
        return Judgement(TurnCall.UNSURE, misheard_ms, f"{about}, words likely misheard")
    call = TurnCall.COMPLETE if wait <= config.complete_ms else TurnCall.UNFINISHED if wait >= config.max_ms else TurnCall.UNSURE
    return Judgement(call, wait, about)


def judge_by_ending(signals: TurnSignals, config: TurnConfig, language: str) -> Judgement:
    """A language whose grammar says where a sentence ends (:data:`FINAL_ENDINGS`), read by the
    model: a confident model ends the turn, else the ending decides as it does without a model,
    and the model is not waited for (its probability, when it comes, can only end the turn
    sooner). (Korean with the one Korean-reading GGUF at hand: the model's probability alone cut
    off more thinking pauses and waited longer than the endings, docs/tuning.md.)"""
    if signals.end_of_turn is not None and not signals.awaiting_model:
        log10 = math.log10(max(signals.end_of_turn, 1e-12))
        if model_is_confident(log10, config):
            return Judgement(TurnCall.COMPLETE, config.complete_ms, f"end of sentence 10^{log10:.1f}")
    return judge_without_model(signals, config, language)


def judge_without_model(signals: TurnSignals | None, config: TurnConfig, language: str, words: bool = True
                        ) -> Judgement:
    """The model cannot read the language: an instant-reply phrase is complete; where the
    language has sentence-final endings, words that end on one are complete (``complete_ms``)
    and others wait ``no_ending_ms`` (``max_ms`` at most), as do words not read yet and a reading
    with no words (a slow or empty reading must not let the silence cut a thinking pause off); elsewhere
    ``unsure_ms`` of silence, the words not waited for. A reading with no letter of the language's
    script (Whisper base writes digits or English for Korean it mishears: "4, 5, 2, 1") waits as no
    words do. ``words=False``: the silence alone."""
    silence = Judgement(TurnCall.UNSURE, config.unsure_ms, "silence alone (the model cannot read the language)")
    if not words:
        return silence
    no_ending_ms = min(config.no_ending_ms, config.max_ms)
    if signals is None or not signals.transcript.strip():
        if language in FINAL_ENDINGS:  # as in English, no words are no sign that the turn is over
            reason = "waiting for the words" if signals is None or signals.awaiting_model else "no words transcribed"
            return Judgement(TurnCall.UNSURE, no_ending_ms, reason)
        return silence
    if signals.instant:
        return phrase_judgement(signals, config, language)
    if language not in FINAL_ENDINGS:
        return silence
    syllable = last_syllable(signals.transcript)
    if not syllable:  # digits or Latin letters for speech in the language: misheard, as good as no words
        return Judgement(TurnCall.UNSURE, no_ending_ms, "no words in the language's script (likely misheard)")
    if ends_on_a_final_ending(signals.transcript, language):
        return Judgement(TurnCall.COMPLETE, config.complete_ms, f"ends on a sentence-final ending ('{syllable}')")
    return Judgement(TurnCall.UNSURE, no_ending_ms, f"ends on no sentence-final ending ('{syllable}')")


class TurnDetector:
    """The decision for one stream of speech, pause by pause.

    Call :meth:`pause` when a pause starts, :meth:`note_words`
    whenever more is known about the words (the transcript, then the model's
    probability), :meth:`update` with the silence so far (it returns the decision once
    the turn is over), and :meth:`resume` when the user speaks on.
    """

    def __init__(self, config: TurnConfig, fixed_ms: float = 300.0, silence_alone: bool = False,
                 language: str = "en"):
        check_section(config)
        self.config = config
        self.fixed_ms = fixed_ms
        self.silence_alone = silence_alone
        """The model cannot read the language spoken: the silence and the words' ending decide."""
        self.language = language
        self.reset()

    def reset(self) -> None:
        self._paused = False
        self._signals: TurnSignals | None = None
        self._judgement: Judgement | None = None
        """The judgement of :attr:`_signals`, made once per change of them, not at every frame of
        the pause (the words' reading, Korean's analysis among it, does not change with the silence)."""

    @property
    def signals(self) -> TurnSignals | None:
        return self._signals

    def pause(self) -> None:
        self._paused = True
        self._set_signals(None)

    def resume(self) -> None:
        self._paused = False
        self._set_signals(None)

    def _set_signals(self, signals: TurnSignals | None) -> None:
        self._signals = signals
        self._judgement = None

    def note_words(self, signals: TurnSignals) -> None:
        """What is known about the words of the current pause. The latest wins, except
        that words still awaiting the model never replace what the model said of them."""
        if not self._paused:
            return
        known = self._signals
        if signals.awaiting_model and known is not None and not known.awaiting_model:
            return
        self._set_signals(signals)

    def judgement(self) -> Judgement:
        if self._judgement is None:
            self._judgement = judge(self._signals, self.config, self.fixed_ms, silence_alone=self.silence_alone,
                                    language=self.language)
        return self._judgement

    def update(self, silence_s: float) -> Decision | None:
        """The decision once ``silence_s`` of silence is enough, else None."""
        if not self._paused:
            return None
        judgement = self.judgement()
        silence_ms = silence_s * 1000.0
        if silence_ms + 1e-6 < judgement.wait_ms:
            return None
        self._paused = False
        return Decision(judgement.call, silence_ms, judgement.reason)
