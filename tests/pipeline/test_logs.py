"""Logs of unattended use rotate and never grow without bound."""

from __future__ import annotations

import logging

from assistant.config import KioskConfig
from assistant.pipeline.kiosk.logs import rotating_handler


def test_logs_rotate_and_never_grow_without_bound(tmp_path):
    config = KioskConfig(log_dir=str(tmp_path), log_max_bytes=4096, log_backups=2)
    handler = rotating_handler(config, "kiosk.log")
    logger = logging.getLogger("test.rotation")
    logger.propagate = False
    logger.addHandler(handler)
    try:
        for i in range(2000):
            logger.error("line %d %s", i, "x" * 100)
    finally:
        logger.removeHandler(handler)
        handler.close()
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["kiosk.log", "kiosk.log.1", "kiosk.log.2"]
    assert all((tmp_path / name).stat().st_size <= 4096 for name in files)
