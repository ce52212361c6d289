"""The streaming engine: listen → transcription → responder (instant reply or LLM) →
synthesis → playback.

Each stage is a small class with one ``process()`` method, its own inbox and thread
(:mod:`.stage`). Messages carry a ``turn_id``; the :mod:`.conductor`'s parts keep the
turns (:mod:`.turns`) and, when a turn is interrupted, flush the inboxes; every stage
drops stale messages, so nothing waits for abandoned work to finish.
"""

from assistant.pipeline.engine import Engine
from assistant.pipeline.stage import Stage

__all__ = ["Engine", "Stage"]
