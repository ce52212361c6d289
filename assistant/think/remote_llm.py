"""An LLM on a shared inference server (llama.cpp server, vLLM, Ollama) for kiosk fleets.

It speaks the OpenAI-compatible ``/v1/chat/completions`` with ``stream: true`` (server-
sent events) over the standard library's ``http.client``. The conversation history stays
here, so the server can be stateless; servers that cache prompt prefixes (llama.cpp
server does) still reuse the stable system prompt + history prefix.
"""

from __future__ import annotations

import http.client
import json
import logging
import socket
import threading
from contextlib import contextmanager
from typing import Any, Iterator
from urllib.parse import urlsplit

from assistant.config import LlmConfig
from assistant.think.conversation import GenerationStats, History, LlmError
from assistant.think.prompt import examples_for
from assistant.think.reply_guard import ReplyGuard

log = logging.getLogger(__name__)

CONNECT_TIMEOUT_S = 3.0
CHARS_PER_TOKEN = 4
"""Rough history accounting: the server's tokenizer is not available here."""


def _approx_tokens(text: str) -> int:
    return len(text) // CHARS_PER_TOKEN + 1


class RemoteLlm:
    """The :class:`~assistant.think.llm.Llm` protocol over HTTP; one request per turn."""

    def __init__(self, config: LlmConfig):
        parts = urlsplit(config.remote_url.rstrip("/"))
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise LlmError(f"llm.remote_url must be an http:// or https:// URL, not {config.remote_url!r}")
        self.config = config
        self.url = config.remote_url.rstrip("/")
        self._https = parts.scheme == "https"
        self._host = parts.hostname
        self._port = parts.port or (443 if self._https else 80)
        base = parts.path.rstrip("/")
        base = base.removesuffix("/chat/completions").removesuffix("/v1")
        self._path = f"{base}/v1/chat/completions"
        self.name = f"{config.remote_model} at {self.url}"
        self.path = None
        self.bigger_model = ""
        self.quantization = ""
        self.build_note = None
        self.history = History(config.history_tokens, _approx_tokens, examples=examples_for(config, None))
        self._lock = threading.Lock()

    def _connect(self) -> http.client.HTTPConnection:
        cls = http.client.HTTPSConnection if self._https else http.client.HTTPConnection
        conn = cls(self._host, self._port, timeout=min(CONNECT_TIMEOUT_S, self.config.remote_timeout_s))
        try:
            conn.connect()
        except (TimeoutError, socket.timeout) as exc:
            conn.close()
            raise LlmError(f"LLM server at {self.url} is not reachable: no connection within {conn.timeout:g} s") from exc
        except OSError as exc:
            conn.close()
            raise LlmError(f"LLM server at {self.url} is not reachable: {exc.strerror or exc}") from exc
        conn.sock.settimeout(self.config.remote_timeout_s)
        return conn

    def _body(self, user: str) -> bytes:
        cfg = self.config
        return json.dumps(
            {
                "model": cfg.remote_model,
                "messages": self.history.messages(cfg.system_prompt, user),
                "stream": True,
                "stream_options": {"include_usage": True},
                "max_tokens": cfg.max_tokens,
                "temperature": cfg.temperature,
                "top_p": cfg.top_p,
                "repeat_penalty": cfg.repeat_penalty,
                "seed": cfg.seed,
            }
        ).encode("utf-8")

    def stream(self, user: str, stats: GenerationStats) -> Iterator[str]:
        """Yield reply text as the server streams it; closing the iterator closes the
        connection, which makes the server stop generating."""
        with self._lock:
            conn = self._connect()
            try:
                with self._errors():
                    limit, guard = self.config.max_tokens, ReplyGuard(self.config.reply_language)
                    yield from guard.stream(self._exchange(conn, user, stats), stats, limit)
            finally:
                conn.close()

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """Network failures after connecting, as :class:`LlmError` naming the server."""
        try:
            yield
        except (TimeoutError, socket.timeout) as exc:
            raise LlmError(f"LLM server at {self.url} timed out after {self.config.remote_timeout_s:g} s") from exc
        except (OSError, http.client.HTTPException) as exc:
            raise LlmError(f"LLM server at {self.url} dropped the connection: {exc}") from exc

    def _exchange(self, conn: http.client.HTTPConnection, user: str, stats: GenerationStats) -> Iterator[str]:
        headers = {"Content-Type": "application/json", "Accept": "text/event-stream"}
        conn.request("POST", self._path, body=self._body(user), headers=headers)
        response = conn.getresponse()
        try:
            if response.status != 200:
                detail = response.read(300).decode("utf-8", errors="replace").strip()
                raise LlmError(f"LLM server at {self.url} answered {response.status} {response.reason}: {detail}")
            for event in _events(response):
                if event == "[DONE]":
                    break
                chunk = _json(event, self.url)
                _usage(chunk, stats)
                for choice in chunk.get("choices") or []:
                    text = _text(choice)
                    if text:
                        stats.tokens += 1
                        yield text
        finally:
            response.close()

    def check(self) -> list[str]:
        """The model names the server offers (``GET /v1/models``); raises :class:`LlmError`."""
        conn = self._connect()
        try:
            with self._errors():
                conn.request("GET", self._path.removesuffix("/chat/completions") + "/models")
                response = conn.getresponse()
                body = response.read(65536)
            if response.status != 200:
                raise LlmError(f"LLM server at {self.url} answered {response.status} {response.reason}")
            data = _json(body.decode("utf-8", errors="replace"), self.url).get("data") or []
            return [str(m.get("id")) for m in data if isinstance(m, dict)] if isinstance(data, list) else []
        finally:
            conn.close()

    def remember(self, user: str, reply: str) -> None:
        self.history.add(user, reply)

    def reset(self) -> None:
        self.history.clear()

    def count_tokens(self, text: str) -> int:
        return _approx_tokens(text)

    def prefill(self, partial: str) -> int:  # noqa: ARG002 - protocol
        return 0  # the server evaluates the whole prompt with each request

    def all_cores(self, on: bool) -> None:
        pass  # the server's threads are its own

    def end_of_turn(self, user: str, reply_to: str | None = None) -> float | None:  # noqa: ARG002 - protocol
        return None  # a chat server does not give the probability of its end-of-turn token

    on_cpu = True
    """The server may share this machine's cores (a local llama.cpp server)."""


def _events(response: http.client.HTTPResponse) -> Iterator[str]:
    """The ``data:`` payloads of a server-sent event stream, one per event."""
    data: list[str] = []
    while True:
        line = response.readline()
        if not line:
            break
        text = line.decode("utf-8", errors="replace").rstrip("\r\n")
        if not text:
            if data:
                yield "\n".join(data)
                data = []
        elif text.startswith("data:"):
            data.append(text[5:].lstrip(" "))
    if data:
        yield "\n".join(data)


def _json(event: str, url: str) -> dict[str, Any]:
    try:
        chunk = json.loads(event)
    except ValueError as exc:
        raise LlmError(f"LLM server at {url} sent something that is not JSON: {event[:80]!r}") from exc
    if not isinstance(chunk, dict):
        raise LlmError(f"LLM server at {url} sent an unexpected event: {event[:80]!r}")
    if "error" in chunk:
        raise LlmError(f"LLM server at {url} reported an error: {chunk['error']}")
    return chunk


def _text(choice: Any) -> str:
    """The new text of one streamed choice (chat ``delta.content``, or completion ``text``)."""
    if not isinstance(choice, dict):
        return ""
    delta = choice.get("delta")
    text = delta.get("content") if isinstance(delta, dict) else choice.get("text")
    return text if isinstance(text, str) else ""


def _usage(chunk: dict[str, Any], stats: GenerationStats) -> None:
    """Token counts the server reports (OpenAI ``usage``; llama.cpp's ``timings``)."""
    try:
        _read_usage(chunk, stats)
    except (TypeError, ValueError, AttributeError):
        log.debug("ignoring malformed usage in %r", chunk)


def _read_usage(chunk: dict[str, Any], stats: GenerationStats) -> None:
    usage = chunk.get("usage") or {}
    if isinstance(usage, dict):
        stats.prompt_tokens = int(usage.get("prompt_tokens") or stats.prompt_tokens)
        stats.tokens = int(usage.get("completion_tokens") or stats.tokens)
        details = usage.get("prompt_tokens_details") or {}
        if isinstance(details, dict) and details.get("cached_tokens"):
            stats.reused_tokens = int(details["cached_tokens"])
    timings = chunk.get("timings") or {}
    if isinstance(timings, dict) and timings.get("cache_n"):
        stats.reused_tokens = int(timings["cache_n"])
