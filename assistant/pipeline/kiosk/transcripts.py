"""What visitors said, kept only when the administrator asks for it."""

from __future__ import annotations

import json
import logging
from datetime import datetime

from assistant.config import KioskConfig
from assistant.events import TurnResult
from assistant.pipeline.kiosk.logs import rotating_handler


class TranscriptLog:
    """One JSON line per turn in ``transcripts.jsonl`` (rotating). Exists only when the
    administrator enabled ``kiosk.store_transcripts``."""

    def __init__(self, kiosk: KioskConfig):
        self._handler = rotating_handler(kiosk, "transcripts.jsonl")
        self._handler.setFormatter(logging.Formatter("%(message)s"))
        self.visitor = 1

    def new_visitor(self) -> None:
        self.visitor += 1

    def write(self, result: TurnResult) -> None:
        line = json.dumps({
            "at": datetime.now().isoformat(timespec="seconds"), "visitor": self.visitor, "turn": result.turn_id,
            "transcript": result.transcript, "reply": result.reply, "source": result.source,
        }, ensure_ascii=False)
        self._handler.handle(logging.makeLogRecord({"msg": line, "levelno": logging.INFO, "levelname": "INFO"}))

    def close(self) -> None:
        self._handler.close()
