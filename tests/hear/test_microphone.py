"""The microphone, with faults injected through a fake sounddevice: a stream that goes
silent without an error is opened again after 2 s, and reported lost if that brings
nothing either (then opened again until it delivers); a listener that falls behind loses
the oldest audio, not the newest. Recovery times are measured and printed (``-s``)."""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace

import numpy as np
import pytest

from assistant.machine import devices
from assistant.sound import AudioError
from assistant.hear.microphone import MicSource

FRAME = 512
RATE = 16000


class FakeSoundDevice:
    """sounddevice with input streams that each deliver a given number of frames, then
    fall silent (no error, no callback), as a stalled driver does."""

    class PortAudioError(Exception):
        pass

    def __init__(self, frames_per_open: list[int], adc_age_s: float | None = None):
        self.frames_per_open = list(frames_per_open)
        self.adc_age_s = adc_age_s
        self.opened = 0
        self.closed = 0
        self.callbacks: list[float] = []
        """When (perf_counter) each callback was made."""

    def InputStream(self, callback, **_kwargs):  # noqa: N802 - sounddevice's name
        count = self.frames_per_open[self.opened] if self.opened < len(self.frames_per_open) else 0
        self.opened += 1
        return FakeStream(self, callback, count)


class FakeStream:
    def __init__(self, sd: FakeSoundDevice, callback, count: int):
        self.sd, self.callback, self.count = sd, callback, count
        self.running = threading.Event()

    def start(self):
        self.running.set()
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self):
        for _ in range(self.count):
            if not self.running.is_set():
                return
            time.sleep(FRAME / RATE / 4)  # faster than real time keeps the test short
            now = 100.0
            age = self.sd.adc_age_s
            info = SimpleNamespace(currentTime=now, inputBufferAdcTime=now - age if age is not None else 0.0)
            self.sd.callbacks.append(time.perf_counter())
            self.callback(np.full((FRAME, 1), 0.1, np.float32), FRAME, info, None)

    def abort(self):
        self.running.clear()

    def close(self):
        self.sd.closed += 1


@pytest.fixture
def fake_sd(monkeypatch):
    def install(frames_per_open, adc_age_s=None):
        sd = FakeSoundDevice(frames_per_open, adc_age_s)
        monkeypatch.setattr(devices, "import_sounddevice", lambda: sd)
        monkeypatch.setattr(devices, "check_device", lambda kind, device=None: "fake microphone")
        return sd

    return install


def take(source: MicSource, limit: int = 1000) -> tuple[list[float], Exception | None]:
    """perf_counter time each frame arrived, and the error that ended the frames (if any)."""
    arrivals: list[float] = []
    try:
        for _frame, _captured in source.frames():
            arrivals.append(time.perf_counter())
            if len(arrivals) >= limit:
                source.stop()
    except AudioError as exc:
        return arrivals, exc
    return arrivals, None


def test_a_microphone_that_goes_silent_is_opened_again(fake_sd):
    sd = fake_sd([10, 20])
    source = MicSource(RATE, FRAME, silent_s=0.5)
    arrivals, error = take(source, limit=30)
    assert len(arrivals) == 30 and error is None
    assert sd.opened == 2 and source.reopened == 1
    gap = arrivals[10] - arrivals[9]
    print(f"\nsilent microphone: frames again {gap:.2f} s after the last one (limit 0.5 s)")
    assert gap >= 0.5


def test_a_microphones_constant_offset_never_reaches_the_listener(fake_sd):
    fake_sd([12])  # every frame 0.1 throughout: an offset, no sound
    source = MicSource(RATE, FRAME, silent_s=5.0)
    frames = []
    for frame, _captured in source.frames():
        frames.append(frame)
        if len(frames) == 12:
            source.stop()
    assert frames[0].shape == (FRAME,)
    assert max(float(np.abs(f).max()) for f in frames) < 1e-6


class StatusLog:
    """Every status a source reports, as it changes, with when (perf_counter)."""

    def __init__(self, source: MicSource):
        self.source, self.seen, self._stop = source, [], threading.Event()
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self):
        while not self._stop.is_set():
            status = self.source.status()
            if not self.seen or self.seen[-1][1] != status:
                self.seen.append((time.perf_counter(), status))
            time.sleep(0.005)

    def stop(self):
        self._stop.set()


def test_a_microphone_silent_after_reopening_is_reported_lost_and_opened_again(fake_sd):
    sd = fake_sd([5, 0, 10])
    source = MicSource(RATE, FRAME, silent_s=0.5)
    statuses = StatusLog(source)
    arrivals, error = take(source, limit=15)
    statuses.stop()
    assert len(arrivals) == 15 and error is None
    assert [s.working for _, s in statuses.seen] == [True, False, True]
    (_, first), (lost_at, lost), (back_at, back) = statuses.seen
    assert "delivers no sound" in lost.text and "\n" not in lost.text and "is back" in back.text
    assert sd.opened == 3
    print(f"\nsilent microphone: reported lost {lost_at - arrivals[4]:.2f} s after its last frame, "
          f"frames again {arrivals[5] - lost_at:.2f} s after that")


def test_a_microphone_that_cannot_be_opened_at_the_start_is_an_error(fake_sd, monkeypatch):
    sd = fake_sd([])

    def refuse(**_kwargs):
        raise sd.PortAudioError("Device unavailable")

    monkeypatch.setattr(sd, "InputStream", refuse)
    arrivals, error = take(MicSource(RATE, FRAME))
    assert arrivals == [] and isinstance(error, AudioError) and "cannot open the microphone" in str(error)


def test_a_listener_that_falls_behind_loses_the_oldest_frames(fake_sd, caplog):
    from assistant.pipeline.waiting import wait_until

    sd = fake_sd([200])
    source = MicSource(RATE, FRAME, queued_s=0.2)  # 6 frames
    kept = source._frames.maxlen
    frames = source.frames()
    next(frames)
    assert wait_until(lambda: len(sd.callbacks) >= 61, timeout=10)  # the listener stalls for 60 frames
    time.sleep(0.01)
    stall_over = time.perf_counter()
    late = [stall_over - captured for _, captured in (next(frames) for _ in range(kept))]
    now = [time.perf_counter() - next(frames)[1] for _ in range(3)]
    source.stop()
    frames.close()
    assert source.dropped >= 60 - kept - 1 and source.take_dropped() == source.dropped and source.take_dropped() == 0
    assert max(late) < (kept + 1) * FRAME / RATE / 4 + 0.5, "the frames kept are the newest"
    assert max(now) < 0.2, "after the stall the frames are fresh"
    assert any("dropped the oldest" in r.getMessage() for r in caplog.records)
    print(f"\nlistener stalled for 60 frames: {source.dropped} dropped, the oldest kept was {max(late) * 1000:.0f} ms "
          f"old, then {max(now) * 1000:.0f} ms")


def test_at_the_defaults_a_silent_microphone_is_reopened_after_2_s(fake_sd):
    fake_sd([3, 3])
    source = MicSource(RATE, FRAME)
    assert source.silent_s == 2.0
    arrivals, _ = take(source, limit=6)
    gap = arrivals[3] - arrivals[2]
    print(f"\nsilent microphone (defaults): reopened, frames again after {gap:.2f} s")
    assert 2.0 <= gap


def test_frames_are_stamped_when_portaudio_captured_them(fake_sd):
    sd = fake_sd([3], adc_age_s=0.25)
    source = MicSource(RATE, FRAME)
    stamps = []
    for _frame, captured in source.frames():
        stamps.append(captured)
        if len(stamps) == 3:
            source.stop()
    # each frame is dated 0.25 s before its callback, as PortAudio said (not one frame: 0.032 s)
    assert all(abs(called - 0.25 - captured) < 0.1 for called, captured in zip(sd.callbacks, stamps)), stamps


def test_without_portaudio_times_a_frame_is_stamped_one_frame_back(fake_sd):
    sd = fake_sd([3], adc_age_s=None)
    source = MicSource(RATE, FRAME)
    for _frame, captured in source.frames():
        source.stop()
        break
    assert abs(sd.callbacks[0] - FRAME / RATE - captured) < 0.1


# ---------------------------------------------------------------- in the kiosk


def test_the_kiosk_reports_a_microphone_that_stays_silent_and_opens_it_again(fake_sd, make_kiosk_session, tmp_path,
                                                                            monkeypatch):
    from assistant.pipeline.kiosk import session as kiosk_session
    from assistant.pipeline.kiosk.session import KioskStatus
    from assistant.pipeline.waiting import wait_until

    from fakes import kiosk_config

    monkeypatch.setattr(kiosk_session, "MIC_RETRY_S", 0.5)
    sd = fake_sd([20, 0, 10_000])  # frames, then silence (also after the reopen), then a working device
    k = make_kiosk_session(kiosk_config(tmp_path, hands_free=True),
                           open_source=lambda: MicSource(RATE, FRAME))
    assert wait_until(lambda: sd.opened == 1 and k.session.status is KioskStatus.READY)
    assert wait_until(lambda: k.session._source is not None and k.session._source.live, timeout=5)
    source = k.session._source
    went_silent = source.last_frame
    assert wait_until(lambda: k.session.status is KioskStatus.NO_MICROPHONE, timeout=10)
    reported = time.perf_counter()
    assert "delivers no sound" in k.statuses[-1][1]
    assert wait_until(lambda: k.session.status is KioskStatus.READY, timeout=10)
    back = time.perf_counter()
    print(f"\nsilent microphone in the kiosk: reopened after 2 s, reported lost {reported - went_silent:.1f} s "
          f"after its last frame, listening again {back - went_silent:.1f} s after it (the microphone reopens itself)")
    assert sd.opened == 3 and reported - went_silent >= 4.0  # 2 s silent, reopened, 2 s silent again
    assert k.session._source is source, "the microphone healed itself: the kiosk did not replace it"


class StuckInTheDriver:
    """An input whose frames stop inside the driver: no error, no return, stop ignored."""

    rate, frame_samples = RATE, FRAME

    def __init__(self):
        self.stuck = threading.Event()

    def frames(self):
        for _ in range(5):
            time.sleep(FRAME / RATE)
            yield np.zeros(FRAME, np.float32), time.perf_counter()
        self.stuck.wait()

    def stop(self):
        pass


def test_the_kiosk_drops_a_microphone_stuck_in_its_driver(make_kiosk_session, tmp_path, monkeypatch):
    from assistant.pipeline.kiosk import session as kiosk_session
    from assistant.pipeline.kiosk.session import KioskStatus
    from assistant.pipeline.waiting import wait_until

    from fakes import kiosk_config

    monkeypatch.setattr(kiosk_session, "MIC_SILENT_S", 0.5)
    monkeypatch.setattr(kiosk_session, "MIC_RETRY_S", 0.2)
    opened = []

    def open_source():
        opened.append(StuckInTheDriver())
        return opened[-1]

    k = make_kiosk_session(kiosk_config(tmp_path, hands_free=True), open_source=open_source)
    assert wait_until(lambda: k.session.status is KioskStatus.NO_MICROPHONE, timeout=5)
    assert "sent nothing" in k.statuses[-1][1]
    assert wait_until(lambda: len(opened) >= 2, timeout=5), "a fresh microphone is opened"
    for source in opened:
        source.stuck.set()
