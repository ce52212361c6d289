"""A stage: a worker thread with an inbox and one :meth:`Stage.process` method.

Stages talk only through messages; a message carries its ``turn_id`` and a stage drops
the messages of a turn that is no longer current (no waiting for abandoned work).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from contextlib import contextmanager
from typing import Iterable, Iterator, Protocol, TypeVar

from assistant.events import Message, Remember, Stop

log = logging.getLogger(__name__)
T = TypeVar("T")


class Inbox:
    """A stage's queue. Control messages jump ahead of data; ``flush`` drops data (a
    :class:`~assistant.events.Remember` stays: it belongs to a turn already over)."""

    def __init__(self) -> None:
        self._items: deque[Message] = deque()
        self._cond = threading.Condition()

    def put(self, message: Message, urgent: bool = False) -> None:
        with self._cond:
            if urgent:
                self._items.appendleft(message)
            else:
                self._items.append(message)
            self._cond.notify_all()

    def get(self, timeout: float | None = None) -> Message | None:
        with self._cond:
            if not self._items and not self._cond.wait_for(lambda: bool(self._items), timeout):
                return None
            message = self._items.popleft()
            self._cond.notify_all()
            return message

    def wait_below(self, count: int, timeout: float) -> bool:
        """Wait until fewer than ``count`` messages are waiting; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: len(self._items) < count, timeout)

    def holds(self, *types: type) -> bool:
        """A message of one of these types is waiting."""
        with self._cond:
            return any(isinstance(m, types) for m in self._items)

    def flush(self) -> None:
        with self._cond:
            self._items = deque(m for m in self._items if isinstance(m, (Stop, Remember)))

    def drain(self, kind: type) -> list[Message]:
        """Take every waiting message of ``kind`` out, in order."""
        with self._cond:
            taken = [m for m in self._items if isinstance(m, kind)]
            self._items = deque(m for m in self._items if not isinstance(m, kind))
            return taken

    def __len__(self) -> int:
        return len(self._items)


class Turns(Protocol):
    """What every stage asks of the turns' book (:class:`~assistant.pipeline.turn_book.TurnBook`)."""

    def is_live(self, message: Message) -> bool:
        """The message belongs to the current turn (and, for replies, its current attempt)."""

    def fail(self, turn_id: int, text: str) -> None:
        """Report a failure to the user and end the turn."""


class Stage:
    """A worker thread with an inbox; subclasses implement :meth:`process`.

    ``alive``, :meth:`stuck_for` and ``in_model_since`` are what the watchdog looks at:
    a stage reports :meth:`progress` as its work moves on and wraps each call into a
    model in :meth:`model_call` (or takes a model's stream through :meth:`watched`)."""

    name = "stage"

    def __init__(self, turns: Turns):
        self.turns = turns
        self.inbox = Inbox()
        self.heartbeat = time.perf_counter()
        self.busy_since: float | None = None
        """When the message being processed was taken (perf_counter); None while waiting."""
        self.moved_at = 0.0
        """When the stage last made progress (a token, a sentence, a frame), or until when
        it is known to be waiting for something that takes time (audio playing)."""
        self.in_model_since: float | None = None
        """When the model call running now began (STT, LLM, TTS, VAD); None outside one."""
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)

    def start(self) -> None:
        self._thread.start()

    @property
    def alive(self) -> bool:
        """The stage's thread is running (False once stopped, or if it died)."""
        return self._thread.is_alive()

    @property
    def idle(self) -> bool:
        """Nothing is being processed and nothing waits."""
        return self.busy_since is None and not self.inbox

    def stuck_for(self, now: float) -> float:
        """Seconds the message being processed has gone without progress (0 while waiting)."""
        started = self.busy_since
        return 0.0 if started is None else now - max(started, self.moved_at)

    def progress(self, until: float | None = None) -> None:
        """The work moved on (or will be waiting legitimately until ``until``, perf_counter)."""
        now = time.perf_counter()
        self.moved_at = max(now, until or now)

    @contextmanager
    def model_call(self) -> Iterator[None]:
        """Around a call into a model: a hang in it may hold the model (see the watchdog)."""
        self.in_model_since = time.perf_counter()
        try:
            yield
        finally:
            self.in_model_since = None
            self.progress()

    def watched(self, items: Iterable[T]) -> Iterator[T]:
        """``items`` from a model's stream, each one taken inside :meth:`model_call`."""
        iterator = iter(items)
        while True:
            with self.model_call():
                try:
                    item = next(iterator)
                except StopIteration:
                    return
            yield item

    @property
    def backlog(self) -> int:
        """Messages waiting."""
        return len(self.inbox)

    def stop(self) -> None:
        self.inbox.put(Stop(0), urgent=True)
        self._thread.join(timeout=5)

    def send(self, message: Message) -> None:
        self.inbox.put(message)

    def flush(self) -> None:
        """Drop every waiting message (the turn or attempt they belong to is over)."""
        self.inbox.flush()

    def accepts(self, message: Message) -> bool:
        """Whether to process the message (default: it belongs to the live turn)."""
        return self.turns.is_live(message)

    def _run(self) -> None:
        while True:
            message = self.inbox.get(timeout=0.5)
            self.heartbeat = time.perf_counter()
            if message is None:
                continue
            if isinstance(message, Stop):
                for finished in self.inbox.drain(Remember):  # a finished turn's history is not lost
                    self._dispatch(finished)
                return
            self._dispatch(message)

    def _dispatch(self, message: Message) -> None:
        if not self.accepts(message):
            return
        self.busy_since = self.heartbeat
        try:
            self.process(message)
        except Exception as exc:  # a stage must survive any engine failure
            log.exception("%s failed on turn %d", self.name, message.turn_id)
            self.turns.fail(message.turn_id, f"{self.name} failed: {exc}")
        finally:
            self.busy_since = None

    def process(self, message: Message) -> None:
        raise NotImplementedError
