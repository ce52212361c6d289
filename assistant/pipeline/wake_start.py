"""The wake phrase's model trained on a thread of its own the first time a phrase is chosen
(:mod:`.wake_training`), and stopped when the process exits before it is done."""

from __future__ import annotations

import atexit
import logging
import os
import threading
from typing import Callable

from assistant.hear.wake_model import ModelScorer, shared_embedder
from assistant.pipeline.wake_training import STOP, TrainingStopped, model_path, phrase_model, wait_while

log = logging.getLogger(__name__)

STOP_WAIT_S = 2.0
"""How long the exiting process waits for a training to stop (one clip's synthesis and looks take
well under a second): native code still running on a thread while the interpreter is torn down aborts
the process ("terminate called without an active exception", exit status 134)."""
_THREADS: list[threading.Thread] = []


@atexit.register
def stop_training() -> None:
    """Stop a training under way (nothing of it is kept: the phrase is trained again next time)."""
    STOP.set()
    for thread in list(_THREADS):
        thread.join(timeout=STOP_WAIT_S)


def start_phrase_model(wake, config, tts, busy: Callable[[], bool] | None = None) -> threading.Thread | None:
    """``wake.by = model`` or ``model+probability``: the wake gate (a
    :class:`~assistant.pipeline.wake_gate.WakeListening` scoring by Whisper's probability) scores with
    the phrase's model once it is there: at once where it is kept, else after it is trained on a
    thread of its own (by probability meanwhile), at the lowest priority, and waiting while ``busy()`` (the
    engine hears or answers someone). ``tts``: the voice that also says the positives.
    A Korean phrase's model (trained by eSpeak NG's Korean voices, :mod:`.wake_korean`) woke 50-71 times an
    hour on the held-out Korean sets where Whisper's probability woke none, so it only gates Whisper's looks
    (:meth:`~assistant.config.WakeConfig.phrase_gate`): the same wakes for less than half the CPU (docs/wake.md)."""
    if config.by not in ("model", "model+probability") or wake.scorer is None:
        return None
    whisper = wake.scorer

    def ready() -> None:
        try:
            model = phrase_model(config.phrase, tts)
        except TrainingStopped:
            log.info("the wake phrase model was not finished before the exit: trained again next time")
            return
        except Exception as exc:  # a voice or the embedding models missing: the probability stays
            log.warning("the wake phrase model cannot be trained (%s): by probability instead", exc)
            return
        wake.use(ModelScorer(model, shared_embedder(), whisper, gate=config.phrase_gate()))

    if model_path(config.phrase).is_file():
        ready()
        return None

    def train() -> None:
        lowest_priority()
        done = wait_while(busy) if busy is not None else None
        try:
            ready()
        finally:
            if done is not None:
                done()

    log.info("training the wake phrase model for %r (once, a few minutes): by probability meanwhile", config.phrase)
    thread = threading.Thread(target=train, name="wake-training", daemon=True)
    _THREADS[:] = [t for t in _THREADS if t.is_alive()] + [thread]
    thread.start()
    return thread


def lowest_priority() -> None:
    """The calling thread at the lowest scheduling priority, where the system lets a thread have its
    own (Linux: ``nice`` is per thread); elsewhere nothing changes."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
    except (AttributeError, OSError):  # no setpriority (Windows), or not allowed
        pass
