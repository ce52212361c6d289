"""Model files, fuzzed: GGUF headers (built by hand, truncated, with huge counts, the wrong
magic, a folder instead of a file) and Piper's ``.onnx.json``. Each is read or refused
with one line before llama.cpp or onnxruntime sees it, and the loaded engines keep working."""

from __future__ import annotations

import json
import shutil
import struct
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from assistant.machine.gguf_info import GgufInfo, check_loadable, read_gguf
from assistant.machine.models import ModelError, find_llm, find_piper_voice, find_vosk, find_whisper
from assistant.speak.tts import read_voice_config

from fakes import Scratch, fuzz_settings

FUZZ = fuzz_settings(200)
SCRATCH = Scratch("fuzz-models-")
"""Where the fuzzed files are written (hypothesis tests take no ``tmp_path``)."""
U32, U64 = struct.Struct("<I"), struct.Struct("<Q")


def gguf_string(text: bytes) -> bytes:
    return U64.pack(len(text)) + text


SCALARS = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}


@st.composite
def gguf_values(draw, depth: int = 0) -> tuple[int, bytes]:
    kind = draw(st.sampled_from([*SCALARS, 8, 9] if depth < 2 else [*SCALARS, 8]))
    if kind == 8:
        return kind, gguf_string(draw(st.binary(max_size=20)))
    if kind == 9:
        item = draw(gguf_values(depth + 1))
        count = draw(st.one_of(st.integers(0, 4), st.just(2**64 - 1), st.integers(2**32, 2**63)))
        return kind, U32.pack(item[0]) + U64.pack(count) + item[1] * min(count, 4)
    fmt = "<" + SCALARS[kind]
    return kind, struct.pack(fmt, draw(st.integers(0, 1))) if kind != 7 else struct.pack(fmt, draw(st.booleans()))


@st.composite
def gguf_files(draw) -> bytes:
    keys = draw(st.lists(st.tuples(st.sampled_from([b"general.architecture", b"general.alignment", b"llama.block_count",
                                                     b"general.file_type", b"tokenizer.ggml.tokens", b"x"]),
                                   gguf_values()), max_size=5))
    tensors = draw(st.lists(st.tuples(st.binary(min_size=1, max_size=12), st.lists(st.integers(0, 2**40), max_size=9),
                                      st.integers(0, 40), st.integers(0, 2**40)), max_size=4))
    n_kv = draw(st.one_of(st.just(len(keys)), st.integers(0, 2**64 - 1)))
    n_tensors = draw(st.one_of(st.just(len(tensors)), st.integers(0, 2**64 - 1)))
    body = U32.pack(draw(st.sampled_from([1, 2, 3, 4, 2**32 - 1]))) + U64.pack(n_tensors) + U64.pack(n_kv)
    for key, (kind, value) in keys:
        body += gguf_string(key) + U32.pack(kind) + value
    for name, shape, kind, offset in tensors:
        body += gguf_string(name) + U32.pack(len(shape)) + b"".join(U64.pack(d) for d in shape)
        body += U32.pack(kind) + U64.pack(offset)
    return b"GGUF" + body + draw(st.binary(max_size=64))


def check(data: bytes) -> GgufInfo | ModelError:
    path = SCRATCH / "model.gguf"
    path.write_bytes(data)
    try:
        info = read_gguf(path)
        check_loadable(path)
        return info
    except ModelError as exc:
        assert str(exc) and "\n" not in str(exc), str(exc)
        return exc


@FUZZ
@given(data=gguf_files())
def test_built_gguf_headers(data):
    check(data)


@pytest.fixture(scope="module")
def real_header() -> bytes:
    with find_llm(None).path.open("rb") as fh:
        return fh.read(1_700_000)  # the header of the embedded model is about 1.6 MB (its vocabulary)


@FUZZ
@given(position=st.integers(0, 4096), data=st.binary(min_size=1, max_size=16))
def test_the_real_header_overwritten_in_place(real_header, position, data):
    mutated = real_header[:position] + data + real_header[position + len(data):]
    check(mutated)  # the data is missing too: read or refused, never a crash


@FUZZ
@given(length=st.integers(0, 1_700_000))
def test_the_real_header_truncated(real_header, length):
    result = check(real_header[:length])
    assert isinstance(result, ModelError)


@pytest.mark.parametrize("magic", [b"GGML", b"ggjt", b"GGUF"[::-1], b"\0\0\0\0", b"PK\x03\x04"])
def test_the_wrong_magic(real_header, magic):
    result = check(magic + real_header[4:])
    assert isinstance(result, ModelError) and "not a GGUF model" in str(result)


@pytest.mark.parametrize("counts", [(2**64 - 1, 0), (0, 2**64 - 1), (2**40, 2**40)])
def test_huge_counts(counts):
    result = check(b"GGUF" + U32.pack(3) + U64.pack(counts[0]) + U64.pack(counts[1]) + bytes(64))
    assert isinstance(result, ModelError)


def test_model_folders_given_as_a_gguf():
    for folder, kind in ((find_vosk(None, "ko").path, "vosk"), (find_whisper(None).path, "Whisper")):
        with pytest.raises(ModelError, match=f"is a {kind} model folder, not a GGUF file"):
            check_loadable(folder)


# ---------------------------------------------------------------- Piper's .onnx.json


@pytest.fixture(scope="module")
def voice() -> tuple[Path, dict]:
    path = find_piper_voice(None).path
    return path, json.loads(Path(f"{path}.json").read_text(encoding="utf-8"))


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(), st.text(max_size=10)),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=4), inner, max_size=3)),
    max_leaves=6,
)
KEYS = [("audio", "sample_rate"), ("num_symbols",), ("num_speakers",), ("espeak", "voice"), ("phoneme_type",),
        ("phoneme_id_map",), ("phoneme_id_map", "a"), ("phoneme_id_map", "^"), ("inference", "noise_scale"),
        ("inference",), ("speaker_id_map",), ("hop_length",), ("vowel_clusters",), ("audio",), ("espeak",)]


def load_voice(path: Path, config: dict | bytes):
    onnx = SCRATCH / "voice.onnx"
    if not onnx.exists():
        onnx.symlink_to(path)
    Path(f"{onnx}.json").write_bytes(config if isinstance(config, bytes) else
                                     json.dumps(config, allow_nan=True).encode())
    try:
        return read_voice_config(onnx)
    except ModelError as exc:
        assert str(exc) and "\n" not in str(exc), str(exc)
        return exc


@FUZZ
@given(changes=st.lists(st.tuples(st.sampled_from(KEYS), st.one_of(json_values, st.just("<delete>"))), min_size=1,
                        max_size=3))
def test_voice_config_mutations(voice, changes):
    path, original = voice
    config = json.loads(json.dumps(original))
    for keys, value in changes:
        target = config
        for key in keys[:-1]:
            target = target.setdefault(key, {}) if isinstance(target, dict) else {}
        if isinstance(target, dict):
            if value == "<delete>":
                target.pop(keys[-1], None)
            else:
                target[keys[-1]] = value
    load_voice(path, config)


@FUZZ
@given(data=st.binary(max_size=200))
def test_voice_config_random_bytes(voice, data):
    load_voice(voice[0], data)


def test_the_real_voice_config_reads(voice):
    assert load_voice(*voice).sample_rate == 22050


@pytest.mark.slow
@pytest.mark.parametrize("change", [
    {"espeak": {"voice": "no-such-voice"}}, {"phoneme_id_map": {"^": [1], "$": [2], "_": [0]}},
    {"num_symbols": 3}, {"audio": {"sample_rate": 8000}},
])
def test_a_real_piper_load_with_a_changed_config_is_refused_or_speaks(voice, change, engines):
    from assistant.config import TtsConfig
    from assistant.speak.tts import PiperTts

    path, original = voice
    load_voice(path, {**original, **change})
    try:
        tts = PiperTts(TtsConfig(), SCRATCH / "voice.onnx")
        assert sum(chunk.size for chunk in tts.synthesize("Hello there.")) > 0
    except ModelError as exc:
        assert "\n" not in str(exc)
    assert sum(chunk.size for chunk in engines.tts.synthesize("Still speaking.")) > 0  # the loaded voice is unharmed


@pytest.mark.slow
def test_a_corrupt_gguf_is_refused_before_llama_cpp_and_the_loaded_model_still_answers(real_header, engines):
    from assistant.config import LlmConfig
    from assistant.think.conversation import GenerationStats
    from assistant.think.llm import LlamaLlm

    bad = SCRATCH / "bad.gguf"
    shutil.copyfile(find_llm(None).path, bad)
    with bad.open("r+b") as fh:
        fh.seek(16)
        fh.write(U64.pack(2**62))  # the key count
    with pytest.raises(ModelError, match="implausible counts"):
        LlamaLlm(LlmConfig(model=str(bad)))
    assert "".join(engines.llm.stream("Say hi.", GenerationStats())).strip()
