"""The kiosk's malloc settings: glibc only, never failing elsewhere."""

from __future__ import annotations

import ctypes
import sys

import pytest

from assistant.pipeline.kiosk import memory


class _FakeLibc:
    def __init__(self, accepts: bool = True):
        self.calls: list[tuple[str, tuple]] = []
        self.accepts = accepts

    def mallopt(self, *args):
        self.calls.append(("mallopt", args))
        return 1 if self.accepts else 0

    def malloc_trim(self, *args):
        self.calls.append(("malloc_trim", args))
        return 1


def _use(monkeypatch, libc, platform: str = "linux") -> None:
    monkeypatch.setattr(sys, "platform", platform)
    monkeypatch.delenv("MALLOC_ARENA_MAX", raising=False)
    monkeypatch.setattr(memory.ctypes, "CDLL", lambda name: libc)


def test_limit_arenas_sets_glibcs_arena_max(monkeypatch):
    libc = _FakeLibc()
    _use(monkeypatch, libc)
    assert memory.limit_arenas() is True
    assert libc.calls == [("mallopt", (memory.M_ARENA_MAX, memory.KIOSK_ARENAS))]


def test_limit_arenas_reports_a_refusal(monkeypatch):
    _use(monkeypatch, _FakeLibc(accepts=False))
    assert memory.limit_arenas() is False


def test_an_arena_max_from_the_environment_is_left_alone(monkeypatch):
    libc = _FakeLibc()
    _use(monkeypatch, libc)
    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")
    assert memory.limit_arenas() is False
    assert libc.calls == []


@pytest.mark.parametrize("platform", ["win32", "darwin"])
def test_other_platforms_are_left_alone(monkeypatch, platform):
    def no_libc(name):
        raise AssertionError("no C library is opened off Linux")

    _use(monkeypatch, None, platform)
    monkeypatch.setattr(memory.ctypes, "CDLL", no_libc)
    assert memory.limit_arenas() is False
    memory.release_memory()  # a no-op, not an error


def test_a_c_library_without_glibcs_calls_is_left_alone(monkeypatch):
    class Musl:  # no mallopt, no malloc_trim
        pass

    _use(monkeypatch, Musl())
    assert memory.limit_arenas() is False
    memory.release_memory()


def test_no_c_library_at_all(monkeypatch):
    def missing(name):
        raise OSError("cannot open")

    _use(monkeypatch, None)
    monkeypatch.setattr(memory.ctypes, "CDLL", missing)
    assert memory.limit_arenas() is False
    memory.release_memory()


def test_release_memory_trims_the_heap(monkeypatch):
    libc = _FakeLibc()
    _use(monkeypatch, libc)
    memory.release_memory()
    assert libc.calls == [("malloc_trim", (0,))]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc only")
def test_the_real_c_library(monkeypatch):
    monkeypatch.delenv("MALLOC_ARENA_MAX", raising=False)
    if not hasattr(ctypes.CDLL(None), "mallopt"):
        pytest.skip("not glibc")
    assert memory.limit_arenas() is True
    memory.release_memory()
