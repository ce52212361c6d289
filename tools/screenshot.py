"""Take a screenshot of the real window mid-conversation (for the docs).

    xvfb-run -s "-screen 0 1280x800x24" python -m tools.screenshot docs/screenshot.png
    xvfb-run -s "-screen 0 1280x800x24" python -m tools.screenshot --language ko docs/korean.png
    xvfb-run -s "-screen 0 1280x800x24" python -m tools.screenshot --kiosk [--language ko] docs/kiosk.png
    xvfb-run -s "-screen 0 1280x800x24" python -m tools.screenshot --timers [--language ko] docs/timers.png

(Qt's xcb plugin needs libxcb-cursor0, libxcb-icccm4 and libxcb-keysyms1 on Debian.)

The app starts as a user would start it (models load behind the progress indicator),
answers a few typed questions, and is captured while the last reply is being spoken.
With ``--timers`` it sets two kitchen timers, asks how long one has left, and is
captured with both running (the timers file is a temporary one, not the user's). With
``--kiosk`` the kiosk (push-to-talk, its logs in a temporary folder) is captured on its attract screen
once the models are loaded.
"""

from __future__ import annotations

import argparse
import sys
import time

from PySide6.QtCore import QEventLoop, Qt, QTimer

from assistant.events import EventType, State

QUESTIONS = {"en": ("Hello", "Tell me a fun fact about the ocean."), "ko": ("안녕하세요", "지금 몇 시예요?")}
LAST_QUESTION = {"en": "What is the tallest mountain in the world?", "ko": "한국의 수도는 어디예요?"}
NEXT_QUESTION = {"en": "And how high is it?", "ko": "거기까지 얼마나 걸려요?"}
TIMER_REQUESTS = {"en": ("Set a pasta timer for ten minutes.", "Set an egg timer for four minutes.",
                         "How long is left on the pasta timer?", "Start a stopwatch."),
                  "ko": ("라면 타이머 오 분 맞춰 줘", "아침 일곱 시에 깨워 줘", "라면 타이머 얼마나 남았어?", "스톱워치 시작해 줘")}
TIMER_CHIPS = 3
"""The chips the requests leave: two timers and the stopwatch."""


def pump_events_until(condition, timeout_s: float) -> bool:
    """Run the event loop until ``condition()`` holds."""
    loop = QEventLoop()
    deadline = time.perf_counter() + timeout_s
    timer = QTimer()
    timer.setInterval(20)
    timer.timeout.connect(lambda: (condition() or time.perf_counter() > deadline) and loop.quit())
    timer.start()
    loop.exec()
    timer.stop()
    return condition()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="screenshot of the window mid-conversation")
    parser.add_argument("output", help="PNG file to write")
    parser.add_argument("--language", choices=sorted(QUESTIONS), default="en", help="language of the questions and screens")
    parser.add_argument("--timers", action="store_true", help="running timers and a stopwatch instead of a conversation")
    parser.add_argument("--kiosk", action="store_true", help="the kiosk's attract screen instead of the window")
    args = parser.parse_args(argv)
    if args.timers:
        return timers_shot(args.output, args.language)
    if args.kiosk:
        return kiosk_shot(args.output, args.language)

    from dataclasses import replace

    from assistant import languages
    from assistant.config import Config

    from tools.stall_probe import run_turn
    from ui.app import application
    from ui.window import MainWindow

    app = application()
    config = Config()
    window = MainWindow(languages.for_language(replace(config, stt=replace(config.stt, language=args.language))))
    window.show()
    if not pump_events_until(window.is_ready, 180):
        print("the models did not load", file=sys.stderr)
        return 1
    for question in QUESTIONS[args.language]:
        run_turn(window, question)
    replies: list[str] = []
    window.controller.bridge.event.connect(
        lambda _g, e: replies.append(e.data) if e.type is EventType.REPLY_TEXT else None,
        Qt.ConnectionType.QueuedConnection,
    )
    window.text.setText(LAST_QUESTION[args.language])
    window.send()
    pump_events_until(lambda: window.indicator.state is State.SPEAKING and len("".join(replies)) > 140, 120)
    window.text.setText(NEXT_QUESTION[args.language])
    pump_events_until(lambda: False, 0.3)  # let the last pieces paint
    window.grab().save(args.output)
    print(f"saved {args.output}")
    window.close()
    return 0



def timers_shot(output: str, language: str = "en") -> int:
    import tempfile
    from dataclasses import replace

    from assistant import languages
    from assistant.config import Config

    from tools.stall_probe import run_turn
    from ui.app import application
    from ui.window import MainWindow

    app = application()  # noqa: F841 - kept alive while the window is open
    with tempfile.TemporaryDirectory() as scratch:
        config = Config()
        config = replace(config, skills=replace(config.skills, timers_file=f"{scratch}/timers.json"),
                         stt=replace(config.stt, language=language))
        window = MainWindow(languages.for_language(config))
        window.show()
        if not pump_events_until(window.is_ready, 180):
            print("the models did not load", file=sys.stderr)
            return 1
        requests = TIMER_REQUESTS[language]
        results = [run_turn(window, request) for request in requests]
        pump_events_until(lambda: len(window.timers.texts()) == TIMER_CHIPS, 5)
        pump_events_until(lambda: False, 1.2)  # the countdowns tick once more
        window.grab().save(output)
        for request, result in zip(requests, results):
            print(f"{request} -> {result.reply if result else None} [{result.source if result else ''}]")
        print(f"timers shown: {window.timers.texts()}")
        print(f"saved {output}")
        window.close()
    return 0


def kiosk_shot(output: str, language: str) -> int:
    import tempfile
    from dataclasses import replace

    from assistant import languages
    from assistant.config import Config

    from ui.app import application
    from ui.kiosk import KioskWindow

    app = application()  # noqa: F841 - kept alive while the window is open
    with tempfile.TemporaryDirectory() as scratch:
        config = Config()
        config = replace(config, stt=replace(config.stt, language=language),
                         kiosk=replace(config.kiosk, enabled=True, hands_free=False, log_dir=scratch))
        window = KioskWindow(languages.for_language(config), use_microphone=False)
        window.fill_screen()
        if not pump_events_until(lambda: window.controller.session is not None and window.showing() == "attract", 180):
            print("the models did not load", file=sys.stderr)
            return 1
        pump_events_until(lambda: False, 0.3)  # let the last pieces paint
        window.grab().save(output)
        print(f"saved {output}")
        window.leave()
    return 0


if __name__ == "__main__":
    sys.exit(main())
