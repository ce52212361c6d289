"""Streaming mode: a take through the real pipeline, as ``chat --input`` runs it."""

from __future__ import annotations

import logging
import threading

from assistant.config import Config
from assistant.hear.echo import SpeakerEcho
from assistant.hear.end_of_turn import longest_silence_ms
from assistant.events import Event, EventType, TurnResult
from assistant.think.replies import Replies
from assistant.hear.room import EchoPath, EchoRoom
from assistant.pipeline.session import LoadedModels, build_engine
from assistant.think.skills import Skills
from assistant.pipeline.waiting import wait_until
from assistant.commands.bench.takes import Take

log = logging.getLogger(__name__)


class TurnCollector:
    """Collects finished turns; ``answered`` is set by the first one not interrupted."""

    def __init__(self) -> None:
        self.results: list[TurnResult] = []
        self.answered = threading.Event()

    def __call__(self, event: Event) -> None:
        if event.type is EventType.ERROR:
            log.info("turn %d: %s", event.turn_id, event.data)
        if event.type is not EventType.TURN_END:
            return
        result: TurnResult = event.data
        self.results.append(result)
        if not result.interrupted:
            self.answered.set()


def run_streaming(
    engines: LoadedModels, config: Config, replies: Replies | None, take: Take, timeout_s: float = 120.0,
    echo_path: EchoPath | None = None, echo: SpeakerEcho | None = None, skills: Skills | None = None,
) -> TurnResult | None:
    """Listen to the take until its question is answered; the answered turn, or None
    when no speech was heard (or the reply never came within ``timeout_s``).

    With ``echo_path`` the take is heard through the room simulation (the reply comes
    back into the microphone) and the run goes on until the input is over, so a turn
    the echo would start is seen: the answered turn's ``turns_taken`` counts them all.
    ``echo``: a canceller that has learnt the room in earlier takes."""
    turns = TurnCollector()
    engine = build_engine(config, engines, take.sink, replies=replies, skills=skills, on_event=turns, echo=echo)
    source = EchoRoom(take.source, engine.echo.played, echo_path) if echo_path else take.source
    grace_s = (longest_silence_ms(config) + 200) / 1000
    try:
        engine.listen(source)
        waited = 0.0
        while not turns.answered.wait(0.02):
            waited += 0.02
            if take.input_over(grace_s) and not engine.busy:
                break
            if waited > take.source.duration_s + grace_s + timeout_s:
                log.warning("no answer within %.0f s; giving up on this take", timeout_s)
                break
        if echo_path is not None and turns.answered.is_set():
            wait_until(lambda: take.input_over(grace_s) and not engine.busy, timeout_s)
    finally:
        engine.close()
        take.close()
    answered = [r for r in turns.results if not r.interrupted]
    if len(turns.results) > 1:
        log.warning("the take was taken as %d turns; the first answered one is kept", len(turns.results))
    if answered and echo_path is not None:
        answered[0].timeline.set("turns_taken", len(turns.results))
    return answered[0] if answered else None
