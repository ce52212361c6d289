"""The remote LLM backend against a real llama.cpp server on loopback, and against small
local servers that misbehave (down, silent, erroring, garbage). Loopback only."""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from assistant.config import Config, LlmConfig
from assistant.events import EventType
from assistant.think.conversation import GenerationStats, LlmError
from assistant.machine.models import find_llm
from assistant.pipeline import Engine
from assistant.think.remote_llm import RemoteLlm
from assistant.timeline import Mark
from assistant.pipeline.waiting import wait_until

from fakes import FakeStt, FakeTts, FakeVad, RecordingSink


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def remote(url: str, timeout_s: float = 30.0, **kw) -> RemoteLlm:
    return RemoteLlm(LlmConfig(backend="remote", remote_url=url, remote_timeout_s=timeout_s, **kw))


# ---------------------------------------------------------------- small local servers


class ScriptedServer:
    """An HTTP server on loopback that answers every POST with ``events`` as SSE
    (or ``status`` with a plain body), records the requests, and notes when the
    client hangs up mid-stream."""

    def __init__(self, events=(), status=200, delay_s=0.0, port=0):
        self.events = list(events)
        self.status = status
        self.delay_s = delay_s
        self.requests: list[dict] = []
        self.client_gone = threading.Event()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                outer.requests.append(json.loads(self.rfile.read(length)))
                if outer.status != 200:
                    self.send_response(outer.status)
                    self.end_headers()
                    self.wfile.write(b"model not loaded")
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                try:
                    for event in outer.events:
                        time.sleep(outer.delay_s)
                        payload = event if isinstance(event, str) else json.dumps(event)
                        self.wfile.write(f"data: {payload}\n\n".encode())
                        self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    outer.client_gone.set()

        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


class SilentServer:
    """Accepts connections and never answers."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.sock.close()


def delta(text: str) -> dict:
    return {"choices": [{"index": 0, "delta": {"content": text}}]}


# ---------------------------------------------------------------- protocol


def test_streams_pieces_and_reads_usage():
    usage = {"choices": [], "usage": {"prompt_tokens": 42, "completion_tokens": 3,
                                       "prompt_tokens_details": {"cached_tokens": 30}}}
    with ScriptedServer([{"choices": [{"delta": {"role": "assistant"}}]}, delta("Paris"), delta(" is"),
                         delta(" lovely."), usage, "[DONE]"]) as server:
        llm = remote(server.url, temperature=0.1, max_tokens=17)
        stats = GenerationStats()
        assert list(llm.stream("Capital of France?", stats)) == ["Paris", " is", " lovely."]
    assert (stats.prompt_tokens, stats.reused_tokens, stats.tokens) == (42, 30, 3)
    body = server.requests[0]
    assert body["stream"] is True and body["max_tokens"] == 17 and body["temperature"] == 0.1
    assert body["messages"][-1] == {"role": "user", "content": "Capital of France?"}


def test_odd_but_valid_chunks_are_skipped():
    odd = [{"choices": [1, None, {"delta": None}, {"delta": {"content": None}}]}, {"choices": None}, {},
           {"usage": "n/a"}, delta("fine"), "[DONE]"]
    with ScriptedServer(odd) as server:
        stats = GenerationStats()
        assert list(remote(server.url).stream("x", stats)) == ["fine"]
    assert stats.tokens == 1


def test_history_is_kept_here_and_sent_each_turn():
    with ScriptedServer([delta("Hi Ada."), "[DONE]"]) as server:
        llm = remote(server.url)
        llm.remember("My name is Ada.", "Nice to meet you, Ada.")
        list(llm.stream("What is my name?", GenerationStats()))
        llm.reset()
        list(llm.stream("Hello", GenerationStats()))
    first, second = server.requests
    assert [m["role"] for m in first["messages"]] == ["system", "user", "assistant", "user"]
    assert first["messages"][1]["content"] == "My name is Ada."
    assert [m["role"] for m in second["messages"]] == ["system", "user"]


@pytest.mark.parametrize("suffix", ["", "/", "/v1", "/v1/chat/completions"])
def test_url_forms(suffix):
    with ScriptedServer([delta("ok"), "[DONE]"]) as server:
        assert list(remote(server.url + suffix).stream("x", GenerationStats())) == ["ok"]


def test_closing_the_iterator_hangs_up_so_the_server_stops():
    events = [delta(f"word{i} ") for i in range(400)]
    with ScriptedServer(events, delay_s=0.01) as server:
        llm = remote(server.url)
        stream = llm.stream("tell me a long story", GenerationStats())
        assert next(stream).startswith("word0")
        stream.close()
        assert wait_until(server.client_gone.is_set, timeout=10)
        # the lock is free again: the next turn streams
        server.events = [delta("again"), "[DONE]"]
        assert list(llm.stream("again", GenerationStats())) == ["again"]


def test_server_down_is_a_clear_error():
    url = f"http://127.0.0.1:{free_port()}"
    with pytest.raises(LlmError, match=f"LLM server at {url} is not reachable"):
        list(remote(url).stream("hello", GenerationStats()))


def test_silent_server_times_out():
    with SilentServer() as server:
        with pytest.raises(LlmError, match=r"timed out after 0.5 s"):
            list(remote(server.url, timeout_s=0.5).stream("hello", GenerationStats()))


def test_http_error_status_is_reported():
    with ScriptedServer(status=503) as server:
        with pytest.raises(LlmError, match="answered 503.*model not loaded"):
            list(remote(server.url).stream("hello", GenerationStats()))


@pytest.mark.parametrize("bad", ["not json at all", "[1, 2]", '{"error": {"message": "out of memory"}}'])
def test_garbage_events_are_reported(bad):
    with ScriptedServer([delta("Hi"), bad, "[DONE]"]) as server:
        with pytest.raises(LlmError, match=f"LLM server at {server.url}"):
            list(remote(server.url).stream("hello", GenerationStats()))


def test_bad_url_is_rejected():
    with pytest.raises(LlmError, match="must be an http"):
        remote("ftp://example")


def test_loader_picks_the_backend():
    from assistant.config import ConfigError
    from assistant.pipeline.session import load_llm

    llm = load_llm(LlmConfig(backend="remote", remote_url="http://127.0.0.1:9", remote_model="qwen"))
    assert isinstance(llm, RemoteLlm) and llm.name == "qwen at http://127.0.0.1:9"
    with pytest.raises(ConfigError, match="'llm.backend' must be local or remote"):
        load_llm(LlmConfig(backend="cloud"))


# ---------------------------------------------------------------- in the engine


class Turns:
    def __init__(self):
        self.results = []
        self.errors = []

    def __call__(self, event):
        if event.type is EventType.TURN_END:
            self.results.append(event.data)
        elif event.type is EventType.ERROR:
            self.errors.append(event.data)


def engine_with(llm) -> tuple[Engine, Turns]:
    turns = Turns()
    engine = Engine(Config(), stt=FakeStt(), llm=llm, tts=FakeTts(), vad=FakeVad(), output=RecordingSink(),
                    on_event=turns)
    return engine, turns


def test_engine_survives_the_server_being_down_then_answers():
    port = free_port()
    engine, turns = engine_with(remote(f"http://127.0.0.1:{port}"))
    try:
        engine.submit_text("are you there?")
        assert wait_until(lambda: len(turns.results) == 1, timeout=20)
        assert not engine.busy
        assert any("is not reachable" in e for e in turns.errors), turns.errors
        assert turns.results[0].reply == ""
        with ScriptedServer([delta("Yes,"), delta(" I am here."), "[DONE]"], port=port):
            engine.submit_text("are you there now?")
            assert wait_until(lambda: len(turns.results) == 2, timeout=20)
        result = turns.results[1]
        assert result.reply == "Yes, I am here." and not result.errors
        assert result.timeline.get(Mark.LLM_FIRST_TOKEN) is not None
        assert result.timeline.counts["tokens"] == 2
    finally:
        engine.close()


# ---------------------------------------------------------------- a real llama.cpp server


SERVER = """
import runpy, sys
from pathlib import Path
from assistant.machine import native_probe
model = sys.argv[1]
sys.argv = ["llama_cpp.server", "--model", model, *sys.argv[2:]]
with native_probe.model_params(native_probe.check(Path(model)).extra_bufts):
    runpy.run_module("llama_cpp.server", run_name="__main__")
"""
"""llama.cpp's own server, loading the model as this build and CPU allow (as the assistant does)."""


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory):
    pytest.importorskip("llama_cpp.server.app", reason="needs fastapi, uvicorn, sse-starlette (the test extra)")
    port = free_port()
    log = tmp_path_factory.mktemp("server") / "server.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-c", SERVER, str(find_llm(None).path),
             "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "2048", "--n_threads", "2"],
            stdout=out, stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"

    def ready() -> bool:
        if proc.poll() is not None:
            return True
        try:
            return bool(remote(url, timeout_s=2).check())
        except LlmError:
            return False

    try:
        if not wait_until(ready, timeout=180) or proc.poll() is not None:
            pytest.fail(f"llama.cpp server did not start: {log.read_text(errors='replace')[-2000:]}")
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=15)


@pytest.mark.slow
def test_real_server_streams_a_reply(llama_server):
    llm = remote(llama_server, max_tokens=24)
    assert llm.check()
    stats = GenerationStats()
    pieces = list(llm.stream("What is the capital of France?", stats))
    assert "".join(pieces).strip()
    assert stats.tokens == len(pieces) > 0


@pytest.mark.slow
def test_real_server_turn_in_the_engine_with_an_early_hang_up(llama_server):
    llm = remote(llama_server, max_tokens=200)
    stream = llm.stream("Tell me a long story about a dragon.", GenerationStats())
    next(stream)
    stream.close()  # hang up mid-reply; the server must stay usable
    engine, turns = engine_with(llm)
    try:
        engine.submit_text("What is the capital of France?")
        assert wait_until(lambda: len(turns.results) == 1, timeout=120)
        result = turns.results[0]
        assert result.source == "llm" and result.reply and not result.errors
        assert result.timeline.get(Mark.LLM_FIRST_TOKEN) is not None
        assert result.timeline.counts["tokens"] > 0
        assert result.timeline.in_order()
    finally:
        engine.close()


def test_check_against_a_server_that_is_down():
    with pytest.raises(LlmError, match="is not reachable"):
        remote(f"http://127.0.0.1:{free_port()}").check()


def test_check_reads_models():
    class Models(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            body = json.dumps({"data": [{"id": "qwen2.5-3b"}]}).encode()
            self.send_response(200 if self.path == "/v1/models" else 404)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Models)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        assert remote(f"http://127.0.0.1:{httpd.server_address[1]}").check() == ["qwen2.5-3b"]
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_connection_is_closed_after_each_turn():
    with ScriptedServer([delta("ok"), "[DONE]"]) as server:
        llm = remote(server.url)
        opened = []
        real = llm._connect

        def spy():
            conn = real()
            opened.append(conn)
            return conn

        llm._connect = spy
        list(llm.stream("x", GenerationStats()))
    assert opened and all(conn.sock is None for conn in opened)
    assert isinstance(opened[0], http.client.HTTPConnection)
