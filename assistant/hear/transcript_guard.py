"""What a recognizer wrote that cannot be what was said: noise, a decoding loop, more
words than the audio could hold; and the words a loop repeated, said once."""

from __future__ import annotations

import logging
import re
import zlib

log = logging.getLogger(__name__)

NO_SPEECH_PROB = 0.6
"""Above this, Whisper's own no-speech probability says the audio held no words."""
COMPRESSION_RATIO_MAX = 2.4
"""Text that gzip shrinks more than this is a decoding loop, not speech (Whisper's own
threshold): "Ancient Rome Ancient Rome …" or "6,6,6,6,…" compress 12:1, a sentence 1:1."""
MAX_WORDS_PER_S = 8.0
"""More words than this per second of audio (plus two) cannot have been said. Speech is
about three words a second, a fast speaker's short question up to seven: "Can you turn it up
a bit?" at 230 words a minute is 7 words in 0.99 s of audio up to its pause, which a bound of 5
dropped (the turn then waited the longest silence for words it had). A decoding that runs on
writes far more ("13 words in 0.5 s")."""


# Whisper produces these on noise or breath; they are not something the user said.
_NOISE = re.compile(r"^[\W_]*$|^\s*[\[(].*[\])]\s*$")


_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+")


_REPEATED_WORDS = re.compile(r"\b((?:[\w']+[\s,.!?;:-]+){1,8}?)\1{2,}", re.IGNORECASE)
"""One to eight words said three times or more in a row."""


def clean_transcript(text: str) -> str:
    """Whitespace folded, noise dropped, and words or a sentence Whisper looped on said once; a
    character cut in two by the decoding limit (its bytes' first tokens only, decoded as U+FFFD)
    is left out."""
    text = " ".join(text.replace("\ufffd", " ").split())
    if _NOISE.match(text):
        return ""
    text = _REPEATED_WORDS.sub(r"\1", text + " ").strip()
    sentences: list[str] = []
    for sentence in _SENTENCE_BREAK.split(text):
        restarted = any(s.lower().startswith(sentence.lower().rstrip(".!?…, ")) for s in sentences)
        if sentence and not restarted:  # a sentence said again, whole or cut off by the decoding limit
            sentences.append(sentence)
    return " ".join(sentences)


def compression_ratio(text: str) -> float:
    data = text.encode("utf-8")
    return len(data) / len(zlib.compress(data)) if data else 0.0


def hallucination(text: str, seconds: float, no_speech_prob: float = 0.0) -> str | None:
    """Why a decoded segment cannot be what was said (then it is not understood), or None.

    The no-speech probability; the compression ratio of the raw decoding (a loop); the
    words per second of audio, once a sentence Whisper said again is said once.
    """
    if no_speech_prob > NO_SPEECH_PROB:
        return f"no speech (probability {no_speech_prob:.2f})"
    ratio = compression_ratio(text)
    if ratio > COMPRESSION_RATIO_MAX:
        return f"a repetition loop (compression ratio {ratio:.1f})"
    words = len(clean_transcript(text).split())
    if words > 2 + MAX_WORDS_PER_S * seconds:
        return f"{words} words in {seconds:.1f} s of audio"
    return None


def guarded(text: str, seconds: float, no_speech_prob: float = 0.0) -> str:
    """The transcript of a segment, or '' when it fails :func:`hallucination`."""
    reason = hallucination(text, seconds, no_speech_prob)
    if reason is not None:
        if text.strip():
            log.info("transcript %r dropped: %s", text[:80], reason)
        return ""
    return clean_transcript(text)


MIN_WORDS_PER_S = 1.5
"""Fewer words than this per second of audible speech (:data:`STOPPED_EARLY_AFTER_S` of it at
least) may not be all that was said: Whisper's decoding without timestamps can end at a pause
after a fragment that sounds finished ("How many? ... legs does a crab have?" read "How many?",
2 words in 1.9 s), and the words after it are lost. Under the slowest speaker of the turn corpus's
tuning half (1.85 words a second of audible speech, eSpeak NG; none of its readings is under it);
people say two to four. Below it the audio is read again with timestamps, and that reading is
kept only where it carries on from this one (:func:`carries_on`)."""
STOPPED_EARLY_AFTER_S = 1.5
"""...seconds of audible speech: a word or two said slowly is not a decoding that stopped."""


def stopped_early(text: str, speech_s: float) -> bool:
    """The words may be too few for ``speech_s`` seconds of audible speech (:data:`MIN_WORDS_PER_S`);
    no words are not a reading that stopped (nothing to carry on from: :func:`carries_on`)."""
    words = len(text.split())
    return words > 0 and speech_s >= STOPPED_EARLY_AFTER_S and words < MIN_WORDS_PER_S * speech_s


def carries_on(first: str, second: str) -> bool:
    """``second`` holds ``first``'s words and more after them (letters only compared; no words
    in ``first`` are not a reading that stopped, and none is carried on)."""
    def letters(text: str) -> str:
        return re.sub(r"[\W_]+", " ", text.lower()).strip()

    before, after = letters(first), letters(second)
    return bool(before) and len(after) > len(before) and after.startswith(before)
