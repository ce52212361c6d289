"""The clock's answers with their audio ready: what the assistant would say to "what time is it?"
(and the date, the weekday) at this minute and the next is synthesized while nobody is heard or
answered, so the answer plays at once instead of after the voice's first chunk (about 80-150 ms
on two cores). One short text a minute: the other answers were rendered the minute before.

Only where the voices may synthesize beside the reply's worker (``tts.concurrent``: Piper, eSpeak NG); the
answers are kept in memory, the ones no longer true forgotten.
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime, timedelta
from typing import Callable

from assistant.exiting import stop_at_exit
from assistant.think.replies import InstantReplies, fill
from assistant.think.skills import Skills
from assistant.think.skills.clock import ASKED_MOST
from assistant.writing import has_hangul

log = logging.getLogger(__name__)

AHEAD_S = 10.0
"""The next minute's answers are rendered this long before it begins."""
POLL_S = 0.25
"""How often a render waiting for the engine to be idle looks again."""


def passing_texts(moment: datetime, skills: Skills | None, replies: InstantReplies | None, korean: bool) -> list[str]:
    """What the assistant would say at ``moment`` to the clock's questions: the skills' answers and
    the instant-reply table's time and date texts (Korean ones only where ``korean``)."""
    questions = ASKED_MOST["en"] + (ASKED_MOST["ko"] if korean else ())
    texts = skills.passing_answers(moment, questions) if skills is not None else []
    if replies is not None:
        texts += [fill(entry.text, moment) for entry in replies.table.entries
                  if entry.dynamic and entry.action is None and (korean or not has_hangul(entry.text))]
    return list(dict.fromkeys(texts))


class ClockAhead:
    """A thread that renders the coming minute's clock answers while the engine is idle."""

    def __init__(self, texts: Callable[[datetime], list[str]], render: Callable[[list[str], Callable[[], bool]], int],
                 busy: Callable[[], bool], now: Callable[[], datetime] = lambda: datetime.now().astimezone()):
        self._texts = texts
        self._render = render
        self._busy = busy
        self._now = now
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="clock-ahead", daemon=True)

    def start(self) -> "ClockAhead":
        stop_at_exit(self)  # the voice synthesizing on a daemon thread as Python ends aborts the process
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)

    def render_once(self) -> int:
        """Render this minute's and the next one's answers (forgetting older ones); how many were new."""
        now = self._now()
        this_minute = now.replace(second=0, microsecond=0)
        return self._render(self._texts(this_minute) + self._texts(this_minute + timedelta(minutes=1)), self._idle)

    def _idle(self) -> bool:
        """Wait while someone is heard or answered (a synthesis beside the turn would slow it);
        False once stopped."""
        while self._busy() and not self._stop.wait(POLL_S):
            pass
        return not self._stop.is_set()

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                made = self.render_once()
                log.debug("the clock's answers rendered ahead: %d new", made)
                self._stop.wait(self._until_next(self._now()))
        except Exception:  # noqa: BLE001 - without it the clock's answers are only spoken live
            log.exception("rendering the clock's answers ahead stopped")

    @staticmethod
    def _until_next(now: datetime) -> float:
        """Seconds until :data:`AHEAD_S` before the next minute (a render there makes the minute after
        it ready too; the next one is ready already)."""
        into = now.second + now.microsecond / 1e6
        wait = 60.0 - into - AHEAD_S
        return wait if wait > 0.5 else wait + 60.0


def start_clock_ahead(skills: Skills | None, replies: InstantReplies | None, tts, busy: Callable[[], bool],
                      korean: bool) -> ClockAhead | None:
    """The clock's answers rendered ahead, where there are any and the voice can synthesize beside
    the reply; None otherwise."""
    if not isinstance(replies, InstantReplies) or not getattr(tts, "concurrent", False):
        return None  # no audio to keep them in (replies off), or a voice that must not run twice at once
    if skills is None and not any(entry.dynamic for entry in replies.table.entries):
        return None
    return ClockAhead(lambda moment: passing_texts(moment, skills, replies, korean), replies.render_passing,
                      busy).start()
