"""Small GGUF files that hold only a tokenizer vocabulary (and one tensor), for the tests
of what a vocabulary says about the languages a model answers in."""

from __future__ import annotations

import numpy as np

from assistant.machine import vocab


def write_gguf(path, model: str, tokens: list[str]):
    import gguf

    writer = gguf.GGUFWriter(str(path), arch="llama")
    writer.add_tokenizer_model(model)
    writer.add_token_list(tokens)
    writer.add_tensor("token_embd.weight", np.zeros((4, len(tokens)), np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def byte_level(text: str) -> str:
    """``text`` as a byte-level BPE token writes it (GPT-2's byte characters)."""
    encoder = {b: c for c, b in vocab._byte_decoder().items()}
    return "".join(encoder[b] for b in text.encode("utf-8"))


BYTES = [byte_level(bytes([b]).decode("latin-1")) if b < 128 else
         next(c for c, v in vocab._byte_decoder().items() if v == b) for b in range(256)]
"""A byte-level vocabulary's 256 single bytes."""
KOREAN_WORDS = sorted({w.strip(".?") for w in vocab.SAMPLE.split()} | set(vocab.SAMPLE) - {" "})
"""The words and syllables of the Korean sample: a vocabulary trained on Korean has them."""


def korean_gguf(path):
    """A byte-level vocabulary that writes Korean a word a token."""
    return write_gguf(path, "gpt2", BYTES + [byte_level(w) for w in KOREAN_WORDS])
