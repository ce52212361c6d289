"""Running timers and alarms, shown as chips with the time left (a timer) or the time it
rings (an alarm), and the stopwatch with its time. The panel reads them twice a second on
the GUI thread: a copy of a short list under a lock, a clock read, nothing that waits."""

from __future__ import annotations

from datetime import datetime
from typing import Callable

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

from assistant.pipeline.session import Stopwatch, Timer, Timers, is_korean, timer_label

CHIP_STYLE = "background:#fff1e5; color:#762c00; border:1px solid #ffb77c; border-radius:10px; padding:4px 10px;"
REFRESH_MS = 500


def countdown(seconds: float, up: bool = True) -> str:
    """ "9:58", "1:02:03"; a part of a second counted as a whole one when ``up`` (a timer's left), else not
    (a stopwatch's gone)."""
    seconds = int(seconds + 0.999) if up else int(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def chip_text(timer: Timer, now: float) -> str:
    """A timer's chip in the words it was set in: "pasta timer  9:58", "라면 타이머  4:12", "alarm at 07:00"."""
    label, korean = timer_label(timer), is_korean(timer)
    if timer.kind == "alarm":
        at = datetime.fromtimestamp(timer.ends_at).strftime('%H:%M')
        return f"{label} {at}" if korean else f"{label} at {at}"
    # a paused one stands still, said in words: a pause sign is missing from the fonts a fresh machine has
    paused = (" 일시 정지" if korean else " paused") if timer.paused else ""
    return f"{label}  {countdown(timer.left_s(now))}{paused}"


class TimersPanel(QWidget):
    """One chip per running timer, one for the stopwatch while it has a time; hidden when there is none."""

    def __init__(self, timers: Callable[[], Timers | None], style: str = CHIP_STYLE, parent: QWidget | None = None,
                 stopwatch: Callable[[], Stopwatch | None] = lambda: None):
        super().__init__(parent)
        self._timers = timers
        self._stopwatch = stopwatch
        self._style = style
        self._layout = QHBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.addStretch(1)
        self.chips: list[QLabel] = []
        self._clock = QTimer(self, interval=REFRESH_MS)
        self._clock.timeout.connect(self.refresh)
        self._clock.start()
        self.hide()

    def refresh(self) -> None:
        timers = self._timers()
        running = timers.active() if timers is not None else []
        now = timers.clock() if timers is not None else 0.0
        texts = [chip_text(timer, now) for timer in running]
        stopwatch = self._stopwatch()
        seconds = stopwatch.elapsed_s() if stopwatch is not None else None
        if seconds is not None:
            texts.append(self.tr("Stopwatch") + f"  {countdown(seconds, up=False)}"
                         + ("" if stopwatch.running else " " + self.tr("stopped")))
        while len(self.chips) < len(texts):
            chip = QLabel()
            chip.setStyleSheet(self._style)
            self._layout.insertWidget(len(self.chips), chip)
            self.chips.append(chip)
        while len(self.chips) > len(texts):
            self.chips.pop().deleteLater()
        for chip, text in zip(self.chips, texts):
            chip.setText(text)
        self.setVisible(bool(texts))

    def texts(self) -> list[str]:
        return [chip.text() for chip in self.chips]
