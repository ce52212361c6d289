"""The kiosk never reaches the network: the guard refuses connections and lookups, lets
only the configured LLM server through, and a real turn opens no socket."""

from __future__ import annotations

import socket
import threading

import psutil
import pytest

from assistant import offline
from assistant.audio import NullSink
from assistant.config import Config, from_mapping
from assistant.events import EventType
from assistant.kiosk.command import allowed_hosts
from assistant.kiosk.session import KioskSession, engine_factory
from assistant.waiting import wait_until

from fakes import kiosk_config

@pytest.fixture
def no_network():
    offline.attempts.clear()
    offline.forbid_network()
    yield offline.attempts
    offline.allow_network()


def test_the_network_guard_refuses_connections_and_lookups(no_network):
    with pytest.raises(PermissionError, match="network access is off"):
        socket.create_connection(("example.com", 80), timeout=1)
    with pytest.raises(PermissionError):
        socket.socket(socket.AF_INET, socket.SOCK_STREAM).connect(("192.0.2.1", 80))
    assert [event for event, _ in no_network] == ["socket.getaddrinfo", "socket.connect"]
    left, right = socket.socketpair()  # local sockets still work
    left.close(), right.close()


def test_the_network_guard_lets_the_configured_remote_server_through():
    offline.forbid_network(["127.0.0.1"])
    try:
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", port), timeout=1)
    finally:
        offline.allow_network()
    config = from_mapping({"llm": {"backend": "remote", "remote_url": "http://gpu-box:8080"}})
    assert allowed_hosts(config) == ["gpu-box"]
    assert allowed_hosts(Config()) == []



@pytest.mark.slow
def test_real_engines_a_turn_opens_no_socket(engines, tmp_path, no_network):
    config = kiosk_config(tmp_path, stage_timeout_s=60)
    ends = []
    session = KioskSession(config, engines.llm, engine_factory(config, engines, NullSink(22050)),
                           on_event=lambda _g, e: ends.append(e.data) if e.type is EventType.TURN_END else None)
    process = psutil.Process()
    before = {c.laddr for c in process.net_connections(kind="inet")}
    seen = set()
    stop = threading.Event()

    def sample():
        while not stop.wait(0.02):
            seen.update(c.raddr for c in process.net_connections(kind="inet") if c.laddr not in before)

    sampler = threading.Thread(target=sample)
    sampler.start()
    session.start()
    try:
        session.engine.submit_text("What color is the sky?")
        assert wait_until(lambda: bool(ends), timeout=120)
    finally:
        stop.set()
        sampler.join()
        session.close()
    assert ends[0].reply and not ends[0].errors
    assert no_network == [], "the kiosk tried to reach the network"
    assert not seen, f"sockets opened during the turn: {seen}"


