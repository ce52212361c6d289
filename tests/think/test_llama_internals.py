"""The private parts of llama-cpp-python this project uses are there in the installed
version, and pyproject pins it to the range tested (both bounds)."""

from __future__ import annotations

import importlib.metadata
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from assistant.think import llama_internals

REPO = Path(__file__).resolve().parents[2]


def pinned() -> Requirement:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    return next(r for r in map(Requirement, project["dependencies"]) if r.name == "llama-cpp-python")


def test_pyproject_pins_llama_cpp_python_to_the_tested_range():
    requirement = pinned()
    bounds = {spec.operator for spec in requirement.specifier}
    assert {">=", "<"} <= bounds, f"{requirement} needs a lower and an upper bound"
    assert str(requirement.specifier) == str(Requirement(f"x{llama_internals.TESTED}").specifier)
    installed = importlib.metadata.version("llama_cpp_python")
    assert requirement.specifier.contains(installed), f"llama-cpp-python {installed} is outside {requirement}"


def test_every_internal_used_is_in_the_installed_version():
    assert llama_internals.missing() == []


def test_a_missing_internal_is_named(monkeypatch):
    from llama_cpp import _internals

    monkeypatch.delattr(_internals.LlamaContext, "kv_cache_seq_rm")
    assert llama_internals.missing() == ["llama_cpp._internals.LlamaContext.kv_cache_seq_rm"]
    why = llama_internals.problem()
    assert "kv_cache_seq_rm" in why and "pip install 'llama-cpp-python>=0.3.7,<0.4'" in why


def test_a_missing_struct_field_is_named(monkeypatch):
    import ctypes

    import llama_cpp.llama_cpp as lib

    class OldParams(ctypes.Structure):
        _fields_ = [("n_gpu_layers", ctypes.c_int32)]

    monkeypatch.setattr(lib, "llama_model_params", OldParams)
    assert "llama_cpp.llama_cpp.llama_model_params.use_extra_bufts" in llama_internals.missing()


@pytest.mark.slow
def test_a_loaded_model_has_every_attribute_used(engines):
    llama = engines.llm._llama
    assert llama_internals.missing(llama) == []
    batch = llama._batch
    del llama._batch  # as in a version that renamed it
    try:
        assert llama_internals.missing(llama) == ["Llama()._batch", "Llama()._batch.batch"]
    finally:
        llama._batch = batch
