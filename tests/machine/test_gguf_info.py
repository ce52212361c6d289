"""The GGUF header reader, on the real embedded model and on broken copies of it."""

from __future__ import annotations

import pytest

from assistant.machine.gguf_info import read_gguf
from assistant.machine.models import ModelError, find_llm


@pytest.fixture(scope="module")
def model_path():
    return find_llm(None).path


@pytest.fixture(scope="module")
def info(model_path):
    return read_gguf(model_path)


def test_embedded_model_header(info, model_path):
    assert info.architecture == "llama"
    assert info.block_count == 30
    assert info.context_length == 8192
    assert info.embedding_length == 576
    assert info.get("attention.head_count_kv") == 3
    assert info.vocab_size == 49152
    assert info.quantization == "Q4_1"
    assert 130e6 < info.parameters < 140e6
    assert info.file_size == model_path.stat().st_size
    assert info.tensor_bytes < info.file_size
    assert len(info.block_bytes()) == 30 and len(set(info.block_bytes())) == 1
    assert "tokenizer.ggml.tokens" not in info.metadata  # the vocabulary is skipped, not read
    assert info.metadata["tokenizer.ggml.tokens_count"] == 49152


def test_agrees_with_llama_cpp_reference_reader(info, model_path):
    gguf = pytest.importorskip("gguf")
    reference = gguf.GGUFReader(str(model_path))
    ours = {t.name: (t.nbytes, t.shape) for t in info.tensors}
    theirs = {t.name: (int(t.n_bytes), tuple(int(d) for d in t.shape)) for t in reference.tensors}
    assert ours == theirs
    assert reference.fields["llama.block_count"].contents() == info.block_count


def _copy_prefix(src, dst, n):
    with src.open("rb") as fh:
        dst.write_bytes(fh.read(n))
    return dst


@pytest.mark.parametrize("cut", [3, 16, 2000, 600_000])
def test_truncated_header_is_reported(model_path, tmp_path, cut):
    path = _copy_prefix(model_path, tmp_path / "cut.gguf", cut)
    with pytest.raises(ModelError, match="truncated|too short"):
        read_gguf(path)


def test_truncated_data_is_reported(model_path, tmp_path):
    path = _copy_prefix(model_path, tmp_path / "half.gguf", model_path.stat().st_size // 2)
    with pytest.raises(ModelError, match=r"truncated: the tensors need .* bytes.*download it again"):
        read_gguf(path)


def test_not_a_gguf(tmp_path):
    path = tmp_path / "model.gguf"
    path.write_bytes(b"PK\x03\x04" + bytes(4096))
    with pytest.raises(ModelError, match="not a GGUF model"):
        read_gguf(path)


def test_missing_file(tmp_path):
    with pytest.raises(ModelError, match="does not exist"):
        read_gguf(tmp_path / "nope.gguf")


def test_garbage_after_magic(tmp_path):
    path = tmp_path / "junk.gguf"
    path.write_bytes(b"GGUF" + b"\x03\x00\x00\x00" + b"\xff" * 4096)
    with pytest.raises(ModelError, match="truncated or corrupt"):
        read_gguf(path)


def test_git_lfs_pointer(tmp_path):
    path = tmp_path / "model.gguf"
    path.write_text("version https://git-lfs.github.com/spec/v1\noid sha256:0123\nsize 4920734016\n")
    with pytest.raises(ModelError, match="Git LFS pointer, not the model"):
        read_gguf(path)


def test_an_alignment_that_is_not_a_number_is_reported(tmp_path):
    """``general.alignment`` written as an (empty) array, as a damaged file once had it."""
    path = tmp_path / "array-alignment.gguf"
    path.write_bytes(b"GGUF\x02\x00\x00\x00" + b"\x00" * 8 + b"\x01" + b"\x00" * 7 + b"\x11" + b"\x00" * 7
                     + b"general.alignment" + b"\x09\x00\x00\x00" + b"\x00" * 12)
    with pytest.raises((ModelError, ValueError), match="alignment"):
        read_gguf(path)
