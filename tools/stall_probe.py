"""How long does the GUI thread stall while a reply is generated and spoken?

A timer ticks every 5 ms on the GUI thread; the longest gap between two ticks is the
longest time the window could not paint or react. The probe asks real questions on the
embedded models through the window's own text box and prints one JSON object.

    QT_QPA_PLATFORM=offscreen python -m tools.stall_probe --turns 3
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time

from PySide6.QtCore import QObject, Qt, QTimer

from assistant.events import EventType

QUESTIONS = (
    "Tell me a short story about a lighthouse keeper.",
    "What can I cook with rice, eggs and spinach?",
    "Why is the sky blue?",
)


class ReferenceTicker:
    """The same measurement on a plain Python thread: how late any thread of this
    process gets to run (CPU contention, the GIL), whatever the GUI does."""

    def __init__(self, interval_ms: int = 5):
        self.interval_s = interval_ms / 1000
        self.max_gap_ms = 0.0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self.max_gap_ms = 0.0
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="reference-ticker", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join()

    def _run(self) -> None:
        last = time.perf_counter()
        while not self._stop.wait(self.interval_s):
            now = time.perf_counter()
            self.max_gap_ms = max(self.max_gap_ms, (now - last) * 1000.0)
            last = now


class SlotTimer:
    """Wraps a slot and records the longest time one call took on the GUI thread."""

    def __init__(self, slot):
        self.slot = slot
        self.max_ms = 0.0

    def __call__(self, *args):
        start = time.perf_counter()
        try:
            return self.slot(*args)
        finally:
            self.max_ms = max(self.max_ms, (time.perf_counter() - start) * 1000.0)


class StallProbe(QObject):
    """Records the gaps between ticks of a precise timer on the GUI thread."""

    def __init__(self, interval_ms: int = 5, parent: QObject | None = None):
        super().__init__(parent)
        self.interval_ms = interval_ms
        self.gaps_ms: list[float] = []
        self._last: float | None = None
        self._timer = QTimer(self)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self._tick)

    def start(self) -> None:
        self.gaps_ms.clear()
        self._last = time.perf_counter()
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()
        self._last = None

    def _tick(self) -> None:
        now = time.perf_counter()
        if self._last is not None:
            self.gaps_ms.append((now - self._last) * 1000.0)
        self._last = now

    def summary(self) -> dict[str, float | int]:
        """Longest gap, 99th percentile, and ticks; a stall is the gap minus one interval."""
        gaps = sorted(self.gaps_ms)
        if not gaps:
            return {"ticks": 0, "max_gap_ms": 0.0, "p99_gap_ms": 0.0, "max_stall_ms": 0.0}
        p99 = gaps[min(len(gaps) - 1, int(len(gaps) * 0.99))]
        return {
            "ticks": len(gaps),
            "max_gap_ms": round(gaps[-1], 1),
            "p99_gap_ms": round(p99, 1),
            "max_stall_ms": round(max(0.0, gaps[-1] - self.interval_ms), 1),
        }


def run_turn(window, question: str, timeout_s: float = 180.0, stop_after_s: float | None = None,
             timings: dict | None = None):
    """Type ``question`` into the window and run the event loop until the turn ends
    (pressing Stop after ``stop_after_s``). Returns the TurnResult, or None on timeout."""
    timings = {} if timings is None else timings
    from PySide6.QtCore import QEventLoop

    ended: list = []
    loop = QEventLoop()

    def on_event(_generation, event) -> None:
        if event.type is EventType.TURN_END:
            ended.append(event.data)
            loop.quit()

    window.controller.bridge.event.connect(on_event, Qt.ConnectionType.QueuedConnection)
    QTimer.singleShot(int(timeout_s * 1000), loop.quit)
    try:
        window.text.setText(question)
        start = time.perf_counter()
        window.send()
        timings["send_call_ms"] = round((time.perf_counter() - start) * 1000, 2)
        if stop_after_s is not None:
            QTimer.singleShot(int(stop_after_s * 1000), lambda: _timed_stop(window, timings))
        loop.exec()
    finally:
        window.controller.bridge.event.disconnect(on_event)
    return ended[0] if ended else None


def _timed_stop(window, timings: dict) -> None:
    start = time.perf_counter()
    window.stop_button.click()
    timings["stop_call_ms"] = round((time.perf_counter() - start) * 1000, 2)


def ask_and_probe(window, question: str, probe: StallProbe, slot: SlotTimer | None = None,
                  stop_after_s: float | None = None) -> dict:
    reference = ReferenceTicker(probe.interval_ms)
    if slot:
        slot.max_ms = 0.0
    timings: dict = {}
    reference.start()
    probe.start()
    result = run_turn(window, question, stop_after_s=stop_after_s, timings=timings)
    probe.stop()
    reference.stop()
    figures = {"question": question, **probe.summary()}
    figures["reference_thread_max_gap_ms"] = round(reference.max_gap_ms, 1)
    if slot:
        figures["event_slot_max_ms"] = round(slot.max_ms, 2)
    figures.update(timings)
    figures["turn_ms"] = result.timeline.marks_ms().get("turn_end") if result else None
    figures["reply_chars"] = len(result.reply) if result else 0
    figures["interrupted"] = bool(result and result.interrupted)
    return figures


def idle_baseline(seconds: float, probe: StallProbe) -> dict:
    """The same probe with the window idle: the noise floor of this machine."""
    from PySide6.QtCore import QEventLoop

    loop = QEventLoop()
    QTimer.singleShot(int(seconds * 1000), loop.quit)
    probe.start()
    loop.exec()
    probe.stop()
    return probe.summary()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=2, help="questions to ask (default 2)")
    parser.add_argument("--idle-s", type=float, default=5.0, help="seconds of idle baseline first")
    parser.add_argument("--interval-ms", type=int, default=5, help="timer interval on the GUI thread")
    args = parser.parse_args(argv)

    from PySide6.QtWidgets import QApplication

    from assistant.speak.sinks import NullSink
    from assistant.config import Config
    from assistant.pipeline.session import load_models

    from ui.app import application
    from ui.window import MainWindow

    app = application()
    config = Config()
    engines = load_models(config)
    slot = SlotTimer(MainWindow._on_event)
    MainWindow._on_event = lambda self, *args: slot(self, *args)  # time the window's event handling
    window = MainWindow(config, engines=engines, output=NullSink(config.audio.output_rate))
    window.show()
    while not window.is_ready():
        QApplication.processEvents()
        time.sleep(0.005)
    probe = StallProbe(args.interval_ms)
    idle = idle_baseline(args.idle_s, probe)
    turns = [ask_and_probe(window, QUESTIONS[i % len(QUESTIONS)], probe, slot) for i in range(args.turns)]
    turns.append(ask_and_probe(window, "Tell me a long story about a dragon.", probe, slot, stop_after_s=3.0))
    window.close()
    app.processEvents()
    print(json.dumps({
        "platform": app.platformName(),
        "interval_ms": args.interval_ms,
        "idle": idle,
        "max_gap_ms": max(t["max_gap_ms"] for t in turns),
        "max_stall_ms": max(t["max_stall_ms"] for t in turns),
        "turns": turns,
    }, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
