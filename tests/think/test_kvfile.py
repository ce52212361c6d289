"""The prompt cache file is data: a damaged or foreign file is refused, never executed."""

from __future__ import annotations

import os
import pickle

import pytest

from assistant.think import kvfile


def test_round_trip(tmp_path):
    path = tmp_path / "a.kv"
    kvfile.write(path, "key-1", b"\x01\x02" * 1000)
    assert kvfile.read(path, "key-1") == b"\x01\x02" * 1000
    assert [p.name for p in tmp_path.iterdir()] == ["a.kv"]  # no temporary file left


def test_another_key_is_refused(tmp_path):
    path = tmp_path / "a.kv"
    kvfile.write(path, "key-1", b"kv")
    with pytest.raises(ValueError, match="another"):
        kvfile.read(path, "key-2")


@pytest.mark.parametrize("cut", [0, 5, 16, 20, 40, -1])
def test_every_truncation_is_refused(tmp_path, cut):
    path = tmp_path / "a.kv"
    kvfile.write(path, "key", b"k" * 64)
    data = path.read_bytes()
    path.write_bytes(data[:cut] if cut >= 0 else data[:-1])
    with pytest.raises(ValueError):
        kvfile.read(path, "key")


class Payload:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.mkdir, (self.marker,))


def test_a_pickle_is_never_executed(tmp_path):
    """The old cache format was a pickle: such a file (or a hostile one) is refused unread."""
    marker = str(tmp_path / "pwned")
    path = tmp_path / "old.kv"
    path.write_bytes(pickle.dumps({"tokens": [1, 2], "kv": b"x", "x": Payload(marker)}))
    with pytest.raises(ValueError, match="not a prompt cache"):
        kvfile.read(path, "key")
    assert not os.path.exists(marker)
