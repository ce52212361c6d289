"""Audio devices failing under the wired engine (build_engine, with its audio watch): a
fake PortAudio whose speaker raises mid-reply, vanishes and comes back, is replaced by a
new default or stalls for 3 s, and whose microphone vanishes mid-question, stalls for
3 s, or outruns an engine that stalls for 3 s. Each test prints the recovery time it
measured (``-s``); only the bounds the requirements state are asserted (back within 5 s
without a restart; latency back within a second of a stall's end)."""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import replace

import numpy as np
import pytest

from assistant.config import Config, RepliesConfig
from assistant.events import EventType
from assistant.hear.microphone import MicSource
from assistant.machine import devices
from assistant.pipeline.session import LoadedModels, build_engine
from assistant.pipeline.waiting import wait_until
from assistant.speak.sinks import NullSink, SpeakerSink

from fake_portaudio import FakePortAudio
from fakes import FakeLlm, FakeStt, FakeTts, FakeVad, Recorder

LONG_REPLY = " ".join(["Here is a long answer that goes on for a while, sentence after sentence."] * 5)
"""About 3 s of speech from the fake voice (50 ms a word)."""
BACK_WITHIN_S = 5.0


@pytest.fixture
def portaudio(monkeypatch):
    sd = FakePortAudio()
    monkeypatch.setattr(devices, "import_sounddevice", lambda: sd)
    return sd


@pytest.fixture
def wired(portaudio):
    """wired(llm=..., vad=..., speaker=True) -> (engine, output, recorder): the engine as
    the front ends build it, on fake models and the fake PortAudio."""
    made = []

    def make(llm: FakeLlm | None = None, vad=None, speaker: bool = True):
        config = replace(Config(), replies=RepliesConfig(enabled=False))
        output = SpeakerSink(config.audio.output_rate) if speaker else NullSink(config.audio.output_rate)
        recorder = Recorder()
        models = LoadedModels(stt=FakeStt(), llm=llm or FakeLlm(reply=LONG_REPLY), tts=FakeTts(), vad=vad or FakeVad())
        engine = build_engine(config, models, output, on_event=recorder)
        made.append((engine, output))
        return engine, output, recorder

    yield make
    for engine, output in made:
        engine.close()
        output.close()


def device_news(recorder: Recorder, device: str) -> list[tuple[bool, str]]:
    return [(e.data.working, e.data.text) for e in recorder.of(EventType.DEVICE) if e.data.device == device]


def when(condition, timeout: float = 10.0) -> float:
    """perf_counter time ``condition`` first held (checked every 5 ms)."""
    assert wait_until(condition, timeout=timeout, interval=0.005), "it did not happen in time"
    return time.perf_counter()


def in_reply(portaudio: FakePortAudio, blocks: int = 25):
    """The speaker's stream once it has played ``blocks`` blocks of 20 ms of the reply."""
    stream = portaudio.outputs()[0]
    when(lambda: stream.blocks >= blocks)
    return stream


# ---------------------------------------------------------------- the speaker


def test_a_speaker_that_raises_mid_reply_is_reported_and_reopened(portaudio, wired):
    engine, speaker, recorder = wired()
    engine.submit_text("Tell me something long.")
    stream = in_reply(portaudio)
    stream.fail_after = stream.blocks  # the next write raises, the device stays
    failed = when(lambda: stream.failed_at is not None)
    reopened = when(lambda: portaudio.opened_after(failed, "output") is not None and speaker.status().working)
    reopened = portaudio.opened_after(failed, "output")
    recorder.wait_turns(1, timeout=30)
    result = recorder.results[0]
    print(f"\nspeaker raised mid-reply: reported and open again {reopened - failed:.2f} s later "
          f"(retry every {speaker.retry_s} s)")
    assert result.reply.split() == LONG_REPLY.split(), "the reply's text stays"
    assert any("the speaker stopped" in error and "PortAudioError" in error for error in result.errors)
    assert [working for working, _ in device_news(recorder, "speaker")] == [False, True]
    assert reopened - failed < BACK_WITHIN_S
    engine.submit_text("And a short one?")
    recorder.wait_turns(2, timeout=30)
    assert portaudio.outputs()[-1].samples > 0 and recorder.results[1].errors == [], "the next reply is heard"


def test_a_speaker_that_vanishes_and_comes_back_is_reopened(portaudio, wired):
    engine, speaker, recorder = wired()
    engine.submit_text("Tell me something long.")
    in_reply(portaudio)
    gone = portaudio.unplug("Speakers")
    when(lambda: not speaker.status().working)
    time.sleep(1.5)
    assert portaudio.opened_after(gone, "output") is None, "opened while unplugged"
    back = portaudio.plug("Speakers", "output")
    when(lambda: speaker.status().working, timeout=BACK_WITHIN_S + 1)
    reopened = portaudio.opened_after(back, "output")
    recorder.wait_turns(1, timeout=30)
    print(f"\nspeaker unplugged mid-reply for 1.5 s: open again {reopened - back:.2f} s after it came back")
    assert reopened - back < BACK_WITHIN_S
    assert recorder.results[0].reply.split() == LONG_REPLY.split()
    assert any("the speaker stopped" in error for error in recorder.results[0].errors)
    when(lambda: len(device_news(recorder, "speaker")) == 2)
    lost, returned = device_news(recorder, "speaker")
    assert not lost[0] and "replies are shown until it is back" in lost[1]
    assert returned == (True, "the speaker is back (Speakers)")


def test_a_lost_speaker_opens_the_new_default_device(portaudio, wired):
    engine, speaker, recorder = wired()
    engine.submit_text("Tell me something long.")
    in_reply(portaudio)
    portaudio.unplug("Speakers")
    when(lambda: not speaker.status().working)
    changed = portaudio.plug("Headphones", "output", default=True)
    when(lambda: speaker.status().working, timeout=BACK_WITHIN_S + 1)
    reopened = portaudio.opened_after(changed, "output")
    print(f"\nspeaker unplugged, new default: open on it {reopened - changed:.2f} s after the change")
    assert reopened - changed < BACK_WITHIN_S
    assert speaker.name == "Headphones" and portaudio.outputs()[-1].device == "Headphones"
    assert portaudio.rescans > 0, "the device list was read again to find it"
    when(lambda: device_news(recorder, "speaker")[-1:] == [(True, "the speaker is back (Headphones)")])


def test_a_speaker_that_stalls_for_3_s_is_restarted_by_the_watchdog(portaudio, wired):
    engine, speaker, recorder = wired()
    engine.submit_text("Tell me something long.")
    stream = in_reply(portaudio)
    stream.stall_s = 3.0
    stalled = when(lambda: stream.stalled_at is not None)
    reopened = when(lambda: portaudio.opened_after(stalled, "output") is not None and speaker.status().working)
    reopened = portaudio.opened_after(stalled, "output")
    recorder.wait_turns(1, timeout=30)
    print(f"\nspeaker write stalled for 3 s: found hung and open again {reopened - stalled:.2f} s after the stall began")
    assert reopened - stalled < 3.0, "the watchdog did not wait for the stall to end"
    assert any("hangs in its driver" in error for error in recorder.results[0].errors)
    engine.submit_text("And a short one?")
    recorder.wait_turns(2, timeout=30)
    assert portaudio.outputs()[-1].samples > 0 and recorder.results[1].errors == []


# ---------------------------------------------------------------- the microphone


class Room:
    """What the fake microphone hears: speech (loud) in the given windows, seconds after
    ``t0``; each frame's level also says when it was captured (``captured``)."""

    def __init__(self, *speech: tuple[float, float]):
        self.t0 = time.perf_counter()
        self.speech = speech

    def __call__(self, t: float) -> float:
        rel = t - self.t0
        return 0.1 + rel * 1e-4 if any(a <= rel < b for a, b in self.speech) else 0.0

    def captured(self, frame: np.ndarray) -> float | None:
        level = float(np.max(frame))
        return self.t0 + (level - 0.1) / 1e-4 if level > 0.05 else None


def listen(engine, portaudio: FakePortAudio, room: Room, **options) -> MicSource:
    portaudio.room = room
    source = MicSource(16000, 512, **options)
    engine.listen(source)
    return source


def turns_after(recorder: Recorder, at: float, timeout: float = 20.0) -> list:
    """Turns whose speech began after ``at`` (perf_counter), once one has ended."""

    def begun_after():
        from assistant.timeline import Mark

        return [r for r in recorder.results if (r.timeline.get(Mark.SPEECH_START) or 0) > at]

    assert wait_until(lambda: begun_after(), timeout=timeout), [r.transcript for r in recorder.results]
    return begun_after()


def test_a_microphone_that_vanishes_mid_question_and_comes_back_is_reopened(portaudio, wired):
    engine, _, recorder = wired(llm=FakeLlm(reply="Short answer."), speaker=False)
    room = Room((0.3, 1.6), (4.0, 5.0))
    source = listen(engine, portaudio, room)
    when(lambda: room.t0 + 1.0 <= time.perf_counter())
    gone = portaudio.unplug("Microphone")  # mid-question
    when(lambda: not source.status().working)
    lost = time.perf_counter()
    time.sleep(max(0.0, room.t0 + 2.5 - time.perf_counter()))
    back = portaudio.plug("Microphone", "input")
    when(lambda: source.status().working, timeout=BACK_WITHIN_S + 1)
    hearing = portaudio.opened_after(back, "input")
    after = turns_after(recorder, back)
    print(f"\nmicrophone unplugged mid-question: reported lost {lost - gone:.2f} s after, open again "
          f"{hearing - back:.2f} s after it came back; the next question answered: {after[0].reply!r}")
    assert hearing - back < BACK_WITHIN_S
    assert after[0].transcript == "hello there" and after[0].reply == "Short answer."
    when(lambda: len(device_news(recorder, "microphone")) == 2)
    news = device_news(recorder, "microphone")
    assert [working for working, _ in news] == [False, True] and "stream ended" in news[0][1]


def test_a_microphone_that_stalls_for_3_s_is_opened_again(portaudio, wired):
    engine, _, recorder = wired(llm=FakeLlm(reply="Short answer."), speaker=False)
    room = Room((4.0, 5.0))
    source = listen(engine, portaudio, room)
    stream = portaudio.inputs()[0]
    when(lambda: stream.frames >= 10)
    stalled = stream.stall(3.0)
    reopened = when(lambda: portaudio.opened_after(stalled, "input") is not None
                    and portaudio.inputs()[-1].frames > 0, timeout=BACK_WITHIN_S + 1)
    after = turns_after(recorder, stalled)
    print(f"\nmicrophone stalled for 3 s: frames again {reopened - stalled:.2f} s after the stall began "
          f"(silent limit {source.silent_s:.0f} s), the next question answered")
    assert reopened - stalled < BACK_WITHIN_S and source.reopened == 1
    assert after[0].transcript == "hello there"


class StallingVad(FakeVad):
    """The fake VAD, stalled once for ``stall_s`` (a CPU stall in the engine), noting when
    each speech frame it judged was captured and judged."""

    def __init__(self, room: Room, stall_at_s: float, stall_s: float):
        self.room, self.stall_at_s, self.stall_s = room, stall_at_s, stall_s
        self.judged: list[tuple[float, float]] = []
        self.stall_ended: float | None = None

    def probability(self, frame):
        captured = self.room.captured(frame)
        if self.stall_ended is None and time.perf_counter() - self.room.t0 >= self.stall_at_s:
            time.sleep(self.stall_s)
            self.stall_ended = time.perf_counter()
        if captured is not None:
            self.judged.append((time.perf_counter(), captured))
        return super().probability(frame)


def test_after_an_engine_stall_of_3_s_the_microphone_drops_the_oldest_audio_and_catches_up(portaudio, wired,
                                                                                          caplog):
    caplog.set_level(logging.WARNING)
    room = Room((0.3, 6.0))
    vad = StallingVad(room, stall_at_s=1.5, stall_s=3.0)
    engine, _, recorder = wired(llm=FakeLlm(reply="Short answer."), vad=vad, speaker=False)
    listen(engine, portaudio, room)
    recorder.wait_turns(1, timeout=30)
    ended = vad.stall_ended
    lags = [(at - ended, at - captured) for at, captured in vad.judged if at >= ended]
    caught_up = next(since for since, lag in lags if lag < 0.1)
    worst = max(lag for _, lag in lags)
    counts = recorder.results[0].to_json()["counts"]
    print(f"\nengine stalled for 3 s: {counts.get('frames_dropped', 0)} frames dropped; the first frame judged after "
          f"the stall was {worst:.2f} s old, frames were under 0.1 s old again {caught_up:.2f} s after the stall ended")
    assert caught_up < 1.0, "latency did not recover within a second of the stall's end"
    assert counts.get("frames_dropped", 0) > 0, counts
    assert any("dropped the oldest" in r.getMessage() for r in caplog.records)


def test_the_watch_reports_a_loss_that_was_over_before_it_looked(portaudio):
    """A loss and a return between two looks are both told."""
    from assistant.pipeline.watchdog import AudioWatch
    from assistant.sound import DeviceStatus

    class Flaky:
        kind, alive, losses, last_loss = "microphone", True, 0, None

        def __init__(self):
            self.now = DeviceStatus("microphone", True, "the microphone is Microphone")

        def stuck_for(self, now):
            return 0.0

        def status(self):
            return self.now

        def restart(self, reason):
            raise AssertionError("a working device is not restarted")

        def take_dropped(self):
            return 0

    flaky = Flaky()
    emitted = []
    watch = AudioWatch(Idle(emitted.append), devices_open=lambda: [flaky])
    assert watch.check() == []  # a device that works is no news
    flaky.losses, flaky.last_loss = 1, DeviceStatus("microphone", False, "the microphone stopped")
    flaky.now = DeviceStatus("microphone", True, "the microphone is back (Microphone)")
    assert [s.working for s in watch.check()] == [False, True]
    assert watch.check() == [] and [kind for kind, _turn, _status in emitted] == [EventType.DEVICE] * 2


class Idle:
    """What the watch reads of an engine: no turn on, events to ``emit``."""

    stages: list = []

    def __init__(self, emit=lambda event: None):
        self.turns = type("Turns", (), {"current": None})()
        self.bus = type("Bus", (), {"emit": lambda _self, *event: emit(event)})()


def test_a_thread_that_died_is_restarted_by_the_watch(portaudio):
    from assistant.pipeline.watchdog import AudioWatch

    speaker = SpeakerSink(22050)
    try:
        speaker._writer += 1  # the writer thread ends, as one that died would
        when(lambda: not speaker.alive)
        AudioWatch(Idle(), devices_open=lambda: [speaker]).check()
        when(lambda: speaker.alive and speaker.status().working)
        assert len(portaudio.outputs()) == 2 and speaker.play(np.zeros(2205, np.float32)) > 0
        when(lambda: portaudio.outputs()[-1].samples > 0)
    finally:
        speaker.close()


def test_closed_devices_leave_the_watch(portaudio):
    speaker = SpeakerSink(22050)
    assert speaker in devices.open_devices()
    speaker.close()
    assert speaker not in devices.open_devices()
    assert not [t for t in threading.enumerate() if t.name == "speaker" and t.is_alive()]
