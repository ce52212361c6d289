"""What this project uses of llama-cpp-python beyond its public ``Llama`` API, in one list.

:mod:`assistant.think.llm` keeps the KV cache itself: it reuses the prompt prefix, saves
and restores the system prompt's KV state, and reads the logits of two positions of one
batch (the end-of-turn probability). The public API offers none of that, so it uses
private members (``Llama._ctx``, ``Llama._batch``...) and the raw C functions. Private
members may go in any release: pyproject.toml pins llama-cpp-python to the range tested
(:data:`TESTED`), the test suite checks every name below on the installed version, and a
model load checks them too, so a version without one fails at start with a message
naming it, not mid-turn with an AttributeError.
"""

from __future__ import annotations

import importlib

TESTED = ">=0.3.7,<0.4"
"""The llama-cpp-python versions this project is tested with (pyproject.toml says the same)."""

MODULE_NAMES: dict[str, tuple[str, ...]] = {
    "llama_cpp": (
        "llama_state_seq_get_size", "llama_state_seq_get_data", "llama_state_seq_set_data",
        "llama_set_n_threads", "llama_get_logits_ith", "llama_model_get_vocab", "llama_vocab_is_eog",
        "llama_vocab_get_text", "llama_supports_gpu_offload", "llama_print_system_info",
        "llama_model_default_params", "llama_model_params", "llama_model_quantize",
        "llama_model_quantize_default_params", "GGML_TYPE_F16", "GGML_TYPE_Q8_0",
    ),
    "llama_cpp.llama_cpp": ("_lib", "llama_model_default_params"),
    "llama_cpp.llama_chat_format": ("Jinja2ChatFormatter",),
    "llama_cpp.llama_speculative": ("LlamaPromptLookupDecoding",),
}
"""Functions, classes and constants, by module."""

CLASS_MEMBERS: dict[str, tuple[str, ...]] = {
    "llama_cpp._internals.LlamaContext": ("kv_cache_seq_rm", "decode", "get_logits"),
    "llama_cpp._internals.LlamaBatch": ("set_batch",),
    "llama_cpp.llama.Llama": ("_input_ids", "eval", "reset", "tokenize", "detokenize", "create_completion",
                              "n_vocab", "token_eos", "token_bos"),
}
"""Methods and properties, by class."""

STRUCT_FIELDS: dict[str, tuple[str, ...]] = {
    "llama_cpp.llama_cpp.llama_model_params": ("use_extra_bufts",),
}
"""Fields of ctypes structures (setting a missing one fails silently: it must be looked up in ``_fields_``)."""

LOADED_ATTRIBUTES = (
    "_ctx", "_ctx.ctx", "_batch", "_batch.batch", "_model", "_model.model", "input_ids", "n_tokens",
    "_requires_eval", "n_threads", "n_threads_batch", "n_batch", "scores", "metadata", "model_params",
)
"""Attributes of a loaded ``Llama`` (dotted: of what the first one holds)."""


def _lookup(dotted: str):
    """The object a dotted name (module path, then attributes) names; AttributeError or
    ImportError when part of it is missing."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            found = getattr(found, name)
        return found
    raise ImportError(f"no module in {dotted}")


def _has(dotted: str) -> bool:
    try:
        _lookup(dotted)
    except (ImportError, AttributeError):
        return False
    return True


def missing(llama=None) -> list[str]:
    """The names above that the installed llama-cpp-python lacks (those of a loaded
    ``Llama`` too when one is given); empty when all are there."""
    absent = [f"{module}.{name}" for module, names in MODULE_NAMES.items() for name in names
              if not _has(f"{module}.{name}")]
    absent += [f"{cls}.{name}" for cls, names in CLASS_MEMBERS.items() for name in names
               if not _has(f"{cls}.{name}")]
    for struct, names in STRUCT_FIELDS.items():
        try:
            fields = [field for field, *_ in _lookup(struct)._fields_]
        except (ImportError, AttributeError):
            fields = []
        absent += [f"{struct}.{name}" for name in names if name not in fields]
    if llama is not None:
        for dotted in LOADED_ATTRIBUTES:
            found = llama
            try:
                for name in dotted.split("."):
                    found = getattr(found, name)
            except AttributeError:
                absent.append(f"Llama().{dotted}")
    return absent


def problem(llama=None) -> str | None:
    """Why the installed llama-cpp-python cannot be used here, or None."""
    absent = missing(llama)
    if not absent:
        return None
    from assistant.resources import distribution_version

    version = distribution_version("llama_cpp_python") or "of unknown version"
    return (f"llama-cpp-python {version} lacks {', '.join(absent)}, which this assistant uses: "
            f"install a tested version: pip install 'llama-cpp-python{TESTED}'")
