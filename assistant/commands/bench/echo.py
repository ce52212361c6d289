"""The bench's echo figures: each canceller on the room simulation.

A scene is a reply (far end) played into the room while the user (near end) starts
talking over it halfway. The microphone hears both, the reply through the room's echo
path. Every figure is read from the signals:

- ERLE (echo return loss enhancement): how much quieter the echo is after the
  canceller, where only the reply sounds, after the canceller's first second.
- near kept: level of the user's speech in the output during double talk, relative
  to what they said (0 dB: all of it; projection, so residual echo does not count).
- double-talk SDR: the user's speech against everything else in the output then.
- false pauses: times the barge-in logic (the listener's own) would pause the reply
  where only its echo sounded; and how soon after the user's first speech frame it
  pauses the reply when they do talk.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass

import numpy as np

from assistant.hear.bargein import Action, Overlap, UserSpeech
from assistant.config import Config
from assistant.hear.echo import Canceller, EchoFilter, PlayedAudio, to_int16
from assistant.hear.echo_memory import RoomRecord, measure_delay
from assistant.hear.room import EchoPath, through_room
from assistant.hear.vad import Endpointer, VadEventType
from assistant.commands.bench.stats import median

CONVERGENCE_S = 1.0
BLOCK_S = 0.01


@dataclass(frozen=True)
class Scene:
    rate: int
    far: np.ndarray
    """What the speaker played."""
    near: np.ndarray
    """What the user said, as the microphone hears it."""
    echo: np.ndarray
    """What the microphone heard of the speaker."""

    @property
    def mic(self) -> np.ndarray:
        return self.near + self.echo


def make_scene(far: np.ndarray, near: np.ndarray, path: EchoPath, rate: int, near_at_s: float | None = None) -> Scene:
    """``far`` played from sample 0; ``near`` spoken from ``near_at_s`` (default: halfway through ``far``)."""
    start = round((far.size / rate / 2 if near_at_s is None else near_at_s) * rate)
    total = max(far.size, start + near.size) + rate // 2
    far_full = np.zeros(total, np.float32)
    far_full[: far.size] = far
    near_full = np.zeros(total, np.float32)
    near_full[start : start + near.size] = near
    echo = through_room(far_full, path.impulse_response(rate), round(path.delay_ms * rate / 1000))
    return Scene(rate, far_full, near_full, echo)


@dataclass(frozen=True)
class EchoFigures:
    canceller: str
    erle_db: float
    erle_first_s_db: float
    near_kept_db: float
    double_talk_sdr_db: float
    false_pauses: int
    """Pauses of the reply where only its echo sounded."""
    pause_after_s: float | None
    """From the user's first speech frame to the reply's pause (None: it never paused)."""
    ms_per_block: float
    ready_after_s: float | None = None
    """Seconds of reply before the canceller was ready (ERLE over ``echo.ready_erle_db``;
    0 when it started from a remembered room; None: never)."""
    first_syllables_kept_db: float | None = None
    """Level of the user's first 300 ms of speech in the output (0 dB: all of it)."""

    def to_json(self) -> dict:
        return {k: (round(float(v), 2) if isinstance(v, (float, np.floating)) else v) for k, v in asdict(self).items()}


def _played(scene: Scene) -> PlayedAudio:
    played = PlayedAudio(scene.rate, keep_s=scene.mic.size / scene.rate + 1)
    played.start(0.0)
    played.add(scene.far, scene.rate, 0.0)
    return played


def listen(canceller: Canceller | None, scene: Scene, vad, config: Config, frame_samples: int = 512,
           record: RoomRecord | None = None,
           prelude: Scene | None = None) -> tuple[np.ndarray, list[float], float, float | None]:
    """The microphone through ``canceller`` (None: untouched; warmed on ``record``, what it
    learnt of the room before, or having heard ``prelude`` first, the start-up sound in the
    same room) and the barge-in logic, frame by frame as the listener runs them: the cleaned
    signal, the stream positions (s) at which the reply would pause, the canceller's ms per
    10 ms block, and the seconds of reply it took to be ready."""
    played = _played(scene)
    echo = EchoFilter(canceller, played, frame_samples, config.echo)
    if record is not None and canceller is not None:
        echo.warm(record)
    before_s = 0.0
    if prelude is not None and canceller is not None:
        echo.played = _played(prelude)
        for i in range(0, prelude.mic.size - frame_samples + 1, frame_samples):
            echo.process(prelude.mic[i : i + frame_samples], 0.0)
        echo.played = played
        echo.restart()
        echo.sound_over()  # as the listener does when the start-up sound is over
        before_s = echo.readiness.far_blocks * canceller.block_samples / scene.rate
    endpointer = Endpointer(config.vad)
    user = UserSpeech(config.barge_in)
    vad.reset()
    mic = scene.mic
    padded = np.concatenate([mic, np.zeros((-mic.size) % frame_samples + frame_samples, np.float32)])
    out, pauses, spent = [], [], 0.0
    overlap: Overlap | None = None
    frame_s = frame_samples / scene.rate
    for i in range(0, padded.size, frame_samples):
        started = time.perf_counter()
        cleaned = echo.process(padded[i : i + frame_samples], 0.0)
        spent += time.perf_counter() - started
        out.append(cleaned.pcm)
        probability, threshold = user.judge(vad.probability(cleaned.pcm), cleaned)
        for event in endpointer.process(frame_s, probability, threshold):
            if event.type is VadEventType.SPEECH_START and cleaned.reply_audible:
                overlap = Overlap(config.barge_in, cleaned.converged, event.at,
                                  learning=canceller is not None and not cleaned.converged)
            elif event.type is VadEventType.ENDPOINT:
                overlap = None
        speech = probability >= (config.vad.threshold if threshold is None else threshold)
        kept = cleaned.kept_db >= config.barge_in.learning_kept_db
        if overlap is not None and overlap.frame(endpointer.position, speech, cleaned.reply_audible, kept) is Action.PAUSE:
            pauses.append(endpointer.position)
    lag = echo.lag_samples
    clean = np.concatenate(out)[lag : lag + mic.size]
    blocks = padded.size // (canceller.block_samples if canceller else frame_samples)
    ready = echo.readiness.ready_after_s if canceller is not None and echo.readiness.ready else None
    ready = None if ready is None else max(0.0, ready - before_s)  # seconds of the reply
    return clean, [p - lag / scene.rate for p in pauses], spent / blocks * 1000, ready


def _active(signal: np.ndarray, block: int, floor_db: float = 40.0) -> np.ndarray:
    """Per-sample mask of the blocks within ``floor_db`` of the loudest block."""
    n = signal.size // block
    energy = (signal[: n * block].reshape(n, block) ** 2).mean(axis=1)
    loud = energy > energy.max() * 10 ** (-floor_db / 10) if energy.max() > 0 else np.zeros(n, bool)
    mask = np.repeat(loud, block)
    return np.concatenate([mask, np.zeros(signal.size - mask.size, bool)])


def _db(num: float, den: float) -> float:
    return float(10 * np.log10(max(num, 1e-12) / max(den, 1e-12)))


def speech_onset(pcm: np.ndarray, vad, rate: int, threshold: float = 0.5) -> float | None:
    """Start (s) of the first frame the VAD hears as speech in ``pcm``."""
    vad.reset()
    n = vad.frame_samples
    for i in range(0, pcm.size - n, n):
        if vad.probability(pcm[i : i + n]) >= threshold:
            return i / rate
    return None


def measure(canceller: Canceller | None, scene: Scene, vad, config: Config,
            record: RoomRecord | None = None, prelude: Scene | None = None) -> EchoFigures:
    """The figures of ``canceller`` on ``scene`` (None: no canceller, for comparison)."""
    out, pauses, ms_per_block, ready = listen(canceller, scene, vad, config, record=record, prelude=prelude)
    rate = scene.rate
    block = round(BLOCK_S * rate)
    echo_on = _active(scene.echo, block)
    near_on = _active(scene.near, block)
    settled = np.arange(out.size) >= CONVERGENCE_S * rate
    echo_only = echo_on & ~near_on
    steady, early = echo_only & settled, echo_only & ~settled
    mic = scene.mic
    erle = _db(np.sum(mic[steady] ** 2), np.sum(out[steady] ** 2))
    erle_first = _db(np.sum(mic[early] ** 2), np.sum(out[early] ** 2))
    both = echo_on & near_on
    near, kept = scene.near[both], out[both]
    gain = float(np.dot(kept, near) / max(np.dot(near, near), 1e-12))
    sdr = _db(np.sum(near**2), np.sum((kept - near) ** 2))
    onset = speech_onset(scene.near, vad, rate)
    near_span = np.flatnonzero(near_on)
    user_from, user_to = (onset - 0.05, near_span[-1] / rate + 0.5) if onset is not None else (np.inf, np.inf)
    false = [p for p in pauses if not user_from <= p <= user_to]
    hits = [p - onset for p in pauses if user_from <= p <= user_to]
    first = None
    if onset is not None:
        lo = round(onset * rate)
        near_first, kept_first = scene.near[lo : lo + round(0.3 * rate)], out[lo : lo + round(0.3 * rate)]
        gain_first = float(np.dot(kept_first, near_first) / max(np.dot(near_first, near_first), 1e-12))
        first = 20 * np.log10(max(gain_first, 1e-6))
    name = canceller.name if canceller else "none"
    return EchoFigures(
        f"{name}-remembered" if record is not None else f"{name}-sound" if prelude is not None else name, erle, erle_first, 20 * np.log10(max(gain, 1e-6)),
        sdr, len(false), hits[0] if hits else None, ms_per_block, ready, first,
    )


REPLY_TEXT = (
    "The moon is about three hundred eighty four thousand kilometers away from the earth. "
    "Light takes a little more than one second to travel that far. "
    "The same side of the moon always faces us, because it turns once for every trip around the earth."
)
"""What the assistant says in the echo scenes (about 13 s with the default voice)."""
USER_AT_S = (0.5, 1.0, 1.5, 2.5, 6.5)
"""Where the user starts talking over the reply: while a fresh canceller learns the room,
early, and once it has long learnt it."""


def canceller_names() -> list[str]:
    """Every canceller that can run here, and 'none' for comparison."""
    from assistant.hear.echo import CANCELLERS, EchoError, load_canceller

    names = ["none"]
    for name in CANCELLERS:
        try:
            load_canceller(name, Config().echo)
        except EchoError:
            continue
        names.append(name)
    return names


def remembered_room(reply: np.ndarray, path: EchoPath, rate: int, name: str, seconds: float = 4.0) -> RoomRecord:
    """What a canceller kept of the room from an earlier reply (here: ``reply`` played
    backwards, another sound through the same room)."""
    far = np.ascontiguousarray(reply[::-1][: round(seconds * rate)])
    mic = through_room(far, path.impulse_response(rate), round(path.delay_ms * rate / 1000))
    return RoomRecord(str(path), name, rate, to_int16(far), to_int16(mic), measure_delay(far, mic, rate), 0.0, 0.0)


def canceller_figures(reply: np.ndarray, users: list[np.ndarray], path: EchoPath, vad, config: Config,
                      rate: int, at_s: tuple[float, ...] = USER_AT_S) -> dict[str, dict]:
    """Each canceller on every scene (the reply with one user utterance over it, at each
    of ``at_s``), fresh, started from a remembered room, and having heard the start-up sound
    first: the figures per scene and their medians."""
    from assistant.hear.echo import load_canceller
    from assistant.speak.startup_sound import startup_sound

    sound = make_scene(startup_sound(rate), np.zeros(0, np.float32), path, rate, 0.0)
    report: dict[str, dict] = {}
    for name in canceller_names():
        for start in (("fresh", "remembered", "sound") if name != "none" else ("fresh",)):
            record = remembered_room(reply, path, rate, name) if start == "remembered" else None
            prelude = sound if start == "sound" else None
            scenes = []
            for user in users:
                for at in at_s:
                    canceller = None if name == "none" else load_canceller(name, config.echo, rate)
                    scene = make_scene(reply, user, path, rate, at)
                    scenes.append(measure(canceller, scene, vad, config, record, prelude).to_json() | {"user_at_s": at})
            report[scenes[0]["canceller"]] = {"median": _medians(scenes), "scenes": scenes}
    return report


def _medians(scenes: list[dict]) -> dict:
    keys = [k for k, v in scenes[0].items() if k not in ("canceller", "user_at_s")]
    out: dict = {}
    for key in keys:
        values = [s[key] for s in scenes if s[key] is not None]
        out[key] = median(values, 2)
    out["paused_for_the_user"] = sum(s["pause_after_s"] is not None for s in scenes)
    out["paused_within_300ms"] = sum(s["pause_after_s"] is not None and s["pause_after_s"] <= 0.3 for s in scenes)
    out["scenes"] = len(scenes)
    out["false_pauses"] = sum(s["false_pauses"] for s in scenes)
    return out


def format_figures(figures: dict[str, dict], path: EchoPath) -> str:
    lines = [f"echo cancellation on the room simulation ({path}), medians over the scenes:",
             f"{'canceller':<18}{'ready s':>8}{'ERLE dB':>9}{'1st s':>7}{'near kept':>11}{'1st 0.3 s':>10}"
             f"{'DT SDR':>8}{'false':>7}{'paused ≤300ms':>15}{'pause after s':>15}{'ms/10ms':>9}"]

    def number(value, width: int) -> str:
        return f"{'–' if value is None else format(value, '.2f'):>{width}}"

    for name, data in figures.items():
        m = data["median"]
        lines.append(
            f"{name:<18}{number(m['ready_after_s'], 8)}{m['erle_db']:>9.1f}{m['erle_first_s_db']:>7.1f}"
            f"{m['near_kept_db']:>11.1f}{number(m['first_syllables_kept_db'], 10)}"
            f"{m['double_talk_sdr_db']:>8.1f}{m['false_pauses']:>7}"
            f"{str(m['paused_within_300ms']) + '/' + str(m['scenes']):>15}"
            f"{number(m['pause_after_s'], 15)}{m['ms_per_block']:>9.2f}"
        )
    return "\n".join(lines)


def echo_report(engines, config: Config, path: EchoPath, items, records) -> dict:
    """The echo mode's part of the bench report: the cancellers on scenes of the reply
    voice with corpus questions spoken over it, and how the echo-mode turns went."""
    from assistant.sound import load_wav, resample

    rate = config.audio.sample_rate
    reply = resample(np.concatenate(list(engines.tts.synthesize(REPLY_TEXT))), engines.tts.rate, rate) * 0.8
    questions = [i for i in items if i.kind == "question"][:3] or items[:3]
    users = [_trim(load_wav(i.path, rate)) for i in questions]
    turns = [r for r in records if r.mode == "echo"]
    return {
        "echo_path": str(path),
        "cancellers": canceller_figures(reply, users, path, engines.vad, config, rate),
        "turns": {
            "answered": len(turns),
            "interrupted": sum(r.result.interrupted for r in turns),
            "taken_as_more_than_one_turn": sum(r.result.timeline.counts.get("turns_taken", 1) > 1 for r in turns),
            "paused_by_echo": sum(bool(r.result.timeline.counts.get("barge_in_pauses")) for r in turns),
        },
    }


def _trim(pcm: np.ndarray, threshold: float = 0.01) -> np.ndarray:
    loud = np.flatnonzero(np.abs(pcm) > threshold)
    return pcm[loud[0] : loud[-1] + 1] if loud.size else pcm


def sound_spans(pcm: np.ndarray, rate: int, threshold: float = 0.01, min_gap_s: float = 0.4) -> list[tuple[float, float]]:
    """(start, end) in seconds of where ``pcm`` is audible (a 10 ms window's peak above
    ``threshold``); gaps shorter than ``min_gap_s`` (pauses between sentences) are bridged."""
    window = max(1, round(rate * BLOCK_S))
    n = pcm.size // window
    loud = np.abs(pcm[: n * window]).reshape(n, window).max(axis=1) > threshold
    spans: list[tuple[float, float]] = []
    for index in np.flatnonzero(loud):
        start, end = index * window / rate, (index + 1) * window / rate
        if spans and start - spans[-1][1] < min_gap_s:
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
    return spans
