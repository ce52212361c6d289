"""Whether a GGUF model can answer in Korean, told by its tokenizer.

A model that was trained on Korean has a vocabulary that writes Korean in about a token
a syllable or less (Qwen2.5, EXAONE, Gemma, Llama 3); one that was not spells each
syllable out in two or three byte pieces (SmolLM2-135M has a single Hangul token), and it
answers Korean with noise. So the vocabulary is read from the GGUF header (no weights,
no llama.cpp), a fixed Korean text is cut into its longest tokens, and the tokens per
syllable decide. The result is kept per model file (its path, size and time) in the
user cache folder, so a file is read once.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path

from assistant import resources
from assistant.machine.gguf_info import read_vocabulary
from assistant.writing import SYLLABLE

log = logging.getLogger(__name__)

SAMPLE = ("안녕하세요. 오늘 날씨가 정말 좋네요. 가까운 지하철역이 어디에 있는지 알려 주시겠어요? "
          "저는 한국어로 이야기하고 싶어요. 내일 아침 일곱 시에 회의가 있어서 일찍 일어나야 해요.")
"""Everyday Korean the vocabulary is measured on."""
MAX_TOKENS_PER_SYLLABLE = 1.5
"""Above this the model was not trained on Korean (measured: SmolLM2-135M 2.4)."""
_BYTE_TOKEN = re.compile(r"<0x([0-9A-Fa-f]{2})>")


@dataclass(frozen=True)
class KoreanFit:
    """What a model's vocabulary makes of Korean."""

    tokens_per_syllable: float
    hangul_tokens: int
    """Vocabulary entries with a Hangul syllable in them."""

    @property
    def speaks_korean(self) -> bool:
        return self.tokens_per_syllable <= MAX_TOKENS_PER_SYLLABLE


def korean_fit(path: Path) -> KoreanFit:
    """The Korean fit of the GGUF at ``path``: from memory, the cache file, or its header.
    Raises :class:`~assistant.machine.models.ModelError` for a file that is no GGUF."""
    path = Path(path).resolve()
    stat = path.stat()
    return _fit(str(path), stat.st_size, stat.st_mtime_ns)


@lru_cache(maxsize=16)
def _fit(path: str, size: int, mtime_ns: int) -> KoreanFit:
    key = f"{path}|{size}|{mtime_ns}"
    cache = resources.cache_dir() / "korean-fit.json"
    try:
        known = json.loads(cache.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        known = {}
    if isinstance(known, dict) and isinstance(known.get(key), dict):
        try:
            return KoreanFit(**known[key])
        except TypeError:
            pass
    fit = measure(vocabulary(Path(path)))
    log.info("%s writes Korean in %.2f tokens a syllable (%d Hangul tokens)", Path(path).name,
             fit.tokens_per_syllable, fit.hangul_tokens)
    known = known if isinstance(known, dict) else {}
    known[key] = asdict(fit)
    try:
        resources.write_text(cache, json.dumps(known, indent=1))
    except OSError as exc:
        log.warning("cannot keep the Korean fit in %s: %s", cache, exc)
    return fit


def vocabulary(path: Path) -> list[bytes]:
    """The tokens of a GGUF's vocabulary as the bytes they stand for."""
    model, tokens = read_vocabulary(path)
    return [_token_bytes(t, model) for t in tokens]


@lru_cache(maxsize=1)
def _byte_decoder() -> dict[str, int]:
    """GPT-2's map from the characters of a byte-level BPE token to its bytes."""
    kept = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    chars, extra = list(kept), 0
    for byte in range(256):
        if byte not in kept:
            kept.append(byte)
            chars.append(256 + extra)
            extra += 1
    return {chr(c): b for b, c in zip(kept, chars)}


def _token_bytes(token: str, model: str) -> bytes:
    if model == "gpt2":  # byte-level BPE: each character stands for one byte
        decoder = _byte_decoder()
        if all(c in decoder for c in token):
            return bytes(decoder[c] for c in token)
        return token.encode("utf-8")
    byte = _BYTE_TOKEN.fullmatch(token)  # SentencePiece: <0xEA> byte pieces, ▁ for a space
    return bytes([int(byte[1], 16)]) if byte else token.replace("\u2581", " ").encode("utf-8")


def measure(tokens: list[bytes], text: str = SAMPLE) -> KoreanFit:
    """Tokens a syllable of ``text`` when cut into the longest tokens of ``tokens`` (a
    byte with no token of its own counts as one)."""
    known = {t for t in tokens if t}
    longest = max((len(t) for t in known), default=1)
    data, position, count = text.encode("utf-8"), 0, 0
    while position < len(data):
        size = next((n for n in range(min(longest, len(data) - position), 1, -1)
                     if data[position:position + n] in known), 1)
        position += size
        count += 1
    syllables = len(SYLLABLE.findall(text))
    hangul = sum(1 for t in known if SYLLABLE.search(t.decode("utf-8", "ignore")))
    return KoreanFit(round(count / max(1, syllables), 3), hangul)
