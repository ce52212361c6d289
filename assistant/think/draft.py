"""Speculative decoding: a small draft model (or prompt lookup) proposes tokens that the
big model verifies in one batch."""

from __future__ import annotations

from pathlib import Path

from assistant.machine import native_probe
from assistant.config import LlmConfig
from assistant.machine.gguf_info import check_loadable
from assistant.machine.models import ModelError


class GgufDraft:
    """A small GGUF model that drafts tokens for the big one to verify in one batch.

    It keeps its own KV cache in step with the prompt (reusing the common prefix) and
    drafts greedily; llama-cpp-python keeps the drafted tokens the target agrees with.
    """

    def __init__(self, path: Path, tokens: int, threads: int):
        check_loadable(path)
        try:
            self._llama = native_probe.load(path, n_ctx=2048, n_threads=threads, verbose=False)
        except (ValueError, RuntimeError, OSError) as exc:
            raise ModelError(f"llama.cpp cannot load the draft model {path}: {exc}") from exc
        self.tokens = tokens

    def __call__(self, input_ids, /, **kwargs):
        import numpy as np

        llama = self._llama
        ids = [int(t) for t in input_ids]
        keep = common_prefix(llama._input_ids[: llama.n_tokens].tolist(), ids[:-1])
        llama.n_tokens = keep
        llama.eval(ids[keep:])
        drafted: list[int] = []
        for _ in range(self.tokens):
            token = int(np.argmax(llama.scores[llama.n_tokens - 1]))
            if token == llama.token_eos():
                break
            drafted.append(token)
            llama.eval([token])
        llama.n_tokens = len(ids)
        return np.array(drafted, dtype=np.intc)


def make_draft(config: LlmConfig, threads: int):
    """The draft model for speculative decoding (``llm.draft``), or None."""
    if config.draft in ("", "off"):
        return None
    if config.draft == "prompt-lookup":
        from llama_cpp.llama_speculative import LlamaPromptLookupDecoding

        return LlamaPromptLookupDecoding(num_pred_tokens=config.draft_tokens)
    return GgufDraft(Path(config.draft).expanduser(), config.draft_tokens, threads)


def common_prefix(a, b) -> int:
    """How many leading items ``a`` and ``b`` share (token lists)."""
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n
