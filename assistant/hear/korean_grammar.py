"""Where a Korean sentence ends, read by a morphological analyser: Kiwi (``kiwipiepy``, Apache-2.0, in
the ``ko`` extra with its model package), which tells a sentence-final ending (종결어미, its tag
``EF``) from a connective (``EC``), a particle (``J...``) or a noun by the words around it, not by
the last syllable alone: "오늘 날씨 어때" (어떻 + 어, final), "지금 몇 시지", "우리 가자", "만나"
end a question or a proposal; "서울까지" (a particle), "비가 오는데", "피곤해서", "먼저 해야"
(connectives) do not, though 지, 데, 서 and 야 end both kinds.

Two readings are kept over the analyser's: the plain -다, which it reads as a connective when no full
stop follows ("날씨 좋다"), is final, as it was by its syllable; and -네, final to the analyser
("좋네"), is not, since Whisper writes the particle 에 after a vowel as 네 ("부산에" heard 사네,
docs/tuning.md). A last 요 is final whatever the analyser makes of the words before it: the polite
ending, after a noun ("커피요", a particle to the analyser) or after words misheard ("파란과 요", which it
reads as a connective or a determiner). So is a vocative (-아/-야, "민수야"): a call ends what is said, and
Whisper writes the informal -아/-야 of a misheard question as one ("이거 얼마야" heard "이 꼬마야"). And so is a
last 아 or 야 where the analyser reads no connective there: the sentence-final vowel a with no consonant
heard before it, the informal ending or the a of -까, -나, -야 misheard, which Whisper writes into a made-up
noun ("영화 한 편 볼까" heard "양화한 양폭아", "지금 몇 시야" heard "취뜸 며티세아"); the connective -어야
("먼저 해야") is not. A filler ("음", "어": interjections to the analyser) is not.

Loaded once per process (about a second and 300 MB; its model is read at the first analysis, so
:func:`analyser` does one) on the loading threads when the language is Korean, never in a turn.
Where it is not installed, or its model cannot be read, the last syllable decides
(:data:`~assistant.hear.end_of_turn.FINAL_ENDINGS`) and the log says why.
"""

from __future__ import annotations

import logging
import threading
import warnings

from assistant.writing import SYLLABLE, SYLLABLES, final_consonant_index

log = logging.getLogger(__name__)

OPEN_A = ("아", "야")
"""Last syllables that end the words unless the analyser reads a connective there (the vowel a, no
consonant heard before it)."""

_LOCK = threading.Lock()
_USE = threading.Lock()
_ANALYSER = None
_UNAVAILABLE = False


def analyser():
    """Kiwi, loaded once; None where it cannot be (not installed, its model unreadable)."""
    global _ANALYSER, _UNAVAILABLE
    with _LOCK:
        if _ANALYSER is None and not _UNAVAILABLE:
            try:
                from kiwipiepy import Kiwi

                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", DeprecationWarning)  # num_workers=0: one thread, the caller's
                    kiwi = Kiwi(num_workers=0, load_multi_dict=False, load_typo_dict=False)
                kiwi.tokenize("지금 몇 시야")
                _ANALYSER = kiwi
            except Exception as exc:  # ImportError, or the model package missing or damaged
                _UNAVAILABLE = True
                log.warning("the Korean analyser (kiwipiepy, in the ko extra) cannot be used (%s): a Korean "
                            "sentence's end is read from its last syllable", exc)
        return _ANALYSER


def ends_a_sentence(words: str) -> bool | None:
    """Whether the Korean ``words`` (without the recognizer's last punctuation: the analyser reads
    "가는데..." and "피곤해서." as finished, the words as said as connectives) end on a sentence-final
    ending; None where the analyser is not available or finds no morpheme but symbols."""
    kiwi = analyser()
    if kiwi is None:
        return None
    try:
        with _USE:  # one analysis at a time (engines in one process share the analyser)
            analysed = kiwi.tokenize(words)
    except Exception:  # never seen; the turn must still end: the last syllable decides
        log.exception("the Korean analyser failed on %r", words)
        return None
    morphemes = [m for m in analysed if not m.tag.startswith("S")]  # S...: symbols, digits, Latin
    if not morphemes:
        return None
    last = morphemes[-1]
    if last.tag == "EF":
        return last.form != "네"
    syllables = SYLLABLE.findall(words)
    open_a = bool(syllables) and syllables[-1] in OPEN_A and last.tag != "EC"
    return last.form == "다" or last.form.endswith("요") or last.tag == "JKV" or open_a


_RIEUL, _BIEUP = 8, 17
"""Final consonants (받침) by their index in a Hangul syllable: ㄹ and ㅂ."""


def ends_on_a_question_in_kka(transcript: str) -> bool:
    """The Korean words end on the question -ㄹ까 / -을까 ("뭐 먹을까", "갈까": 까 after a syllable that
    ends in ㄹ) or the formal -ㅂ니까 / -습니까 ("몇 시입니까": 니 after one that ends in ㅂ); not on the
    connective -니까 ("시간이 없으니까": 니 after anything else) nor on 까지, whose last syllable is 지."""
    words = SYLLABLES.findall(transcript)
    letters = words[-1] if words else ""
    if len(letters) < 2 or letters[-1] != "까":
        return False
    before = final_consonant_index(letters[-2])
    if before == _RIEUL:
        return True
    return letters[-2] == "니" and len(letters) >= 3 and final_consonant_index(letters[-3]) == _BIEUP
