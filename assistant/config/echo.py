"""The ``echo`` and ``barge_in`` sections: listening while the assistant speaks, and when
speech over the reply stops it (their own module: the sections' file is full)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from assistant.config.rules import choice, within


@dataclass(frozen=True)
class EchoConfig:
    """Listening while the assistant speaks, through a loudspeaker."""
    table: ClassVar[str] = "echo"

    canceller: str = choice("auto", "speex", "webrtc", "off")
    """``speex`` (speexdsp, package ``pyaec``), ``webrtc`` (AEC3, package ``pywebrtc-audio`` or ``livekit``),
    ``off``, or ``auto``: the first of speex and webrtc that can run. Without one the
    assistant listens half duplex: only "stop" is heard while it speaks."""
    tail_ms: int = within(192, 32, 1000, "ms")
    """Longest echo speexdsp models: the delay left in the reference plus the room's reverberation
    (128 ms: too short; 256-512 ms learn more slowly and did not cure a reverberant room: docs/echo.md)."""
    noise_suppression: bool = False
    """WebRTC only: its noise suppression on the microphone too (speexdsp's always runs)."""
    high_pass: bool = True
    """WebRTC only: its high-pass filter (rumble and DC below ~80 Hz)."""
    stream_delay_ms: int = within(0, 0, 500, "ms")
    """WebRTC only: known speaker-to-microphone delay beyond what the output reports."""
    ready_erle_db: float = within(18.0, 0, 60, "dB")
    """The canceller has learnt the room once it makes the echo this much quieter (ERLE over
    the latest 0.5 s of reply; speexdsp: ~6 dB in its first second, ~35 dB once it has
    learnt the room); until then speech over the reply pauses it only where the canceller
    kept its energy (``barge_in.learning_kept_db``). 0: ready at once."""
    remember_room: bool = True
    """Keep what the canceller learnt of the room (4 s of reply and its echo, the delay) per
    pair of devices, so the first reply of the next run starts with a canceller that knows it."""
    memory_s: float = within(4.0, 1, 10, "seconds")
    """How much of the reply and its echo is kept to teach a fresh canceller the room."""
    learn_sound: bool = True
    """Where nothing of the room is kept yet, start listening with a sound (1.5 s, as loud as a
    reply) the canceller learns the room from, so the first reply can be interrupted at once."""
    echo_tail_ms: int = within(150, 0, 1000, "ms")
    """After the reply's last sound the room still rings this long; half duplex keeps
    the microphone closed for it."""


@dataclass(frozen=True)
class BargeInConfig:
    """When speech over the reply stops it."""
    table: ClassVar[str] = "barge_in"

    min_speech_ms: int = within(128, 32, 1000, "ms")
    """Speech over the reply pauses it once it holds this much speech from its first sound
    (a click is shorter); with the VAD's own delay it falls silent ~300 ms after that sound."""
    threshold: float = within(0.2, 0.15, 0.95)
    """Speech probability that counts as the user's speech while the reply plays: the canceller
    leaves the voice quieter and rougher (Silero: 0.3-0.6, the clean voice 0.8-0.9)."""
    kept_db: float = within(-25.0, -60, 0, "dB")
    """A frame counts as the user's speech while the reply plays only if the canceller
    kept at least this much of its energy (dB): echo it took out does not count (once
    it has learnt the room it keeps -35 to -55 dB of the echo alone; of the user's
    speech over the echo, -15 to 0 dB, with dips where its suppressor bites)."""
    learning_kept_db: float = within(0.0, -30, 10, "dB")
    """While the canceller is still learning the room, a frame of speech over the reply counts
    toward pausing it only if the canceller kept at least this much of its energy (it keeps -2
    to -20 dB of echo: at -4 dB it paused the first reply on its own echo). A stop phrase counts always."""
    confirm_ms: int = within(96, 0, 1000, "ms")
    """Words heard over the reply take the floor only if the speech goes on this long
    once the paused reply has fallen silent: a person who talks over it goes on, the
    echo the canceller left stops with the reply (0: pausing it is enough)."""
    resume_after_ms: int = within(192, 32, 5000, "ms")
    """A paused reply resumes after this much silence once it has fallen silent, when
    nobody went on speaking (it was echo, a cough or a knock)..."""
    resume_after_word_ms: int = within(500, 32, 5000, "ms")
    """...or after this much, when what paused it lasted a word (``word_ms``): a speaker who
    says "Actually, how…" over the reply pauses at the comma, and the reply must not play
    in that pause (200-500 ms)."""
    word_ms: int = within(250, 32, 2000, "ms")
    """Speech over the reply this long is a word (echo residue at a word's onset, a knock: shorter)."""
    min_words: int = within(1, 1, 20)
    """Words (not counting "mm-hm", "yeah", "okay"...) the paused speech must hold to
    take the floor; with fewer, the reply resumes."""
    resume_within_s: float = within(4.0, 0, 60, "seconds")
    """A reply paused longer than this is not resumed but ends where it stopped."""
    backchannels: tuple[str, ...] = (
        "mm", "mmm", "hm", "hmm", "mhm", "mm-hm", "mm-hmm", "uh-huh", "uh", "um", "ah", "oh", "yeah", "yes",
        "yep", "okay", "ok", "right", "sure", "aha", "i see",
        "음", "으음", "흠", "응", "어", "아", "네", "예", "그래", "그래요", "맞아", "맞아요", "아하", "그렇구나",
    )
    """Words that say "go on" rather than take the floor."""
