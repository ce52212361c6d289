"""The configuration's sections: one frozen dataclass per stage, a docstring per field,
each field's rules declared with it (:mod:`.rules`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import ClassVar

from assistant.config.rules import not_empty, choice, exit_keys_problem, rule, within
from assistant.config.echo import BargeInConfig, EchoConfig
from assistant.config.wake import WakeConfig

KV_TYPES = ("f16", "q8_0")
"""The KV-cache precisions llama.cpp is given here (a quantized V cache needs flash attention)."""


@dataclass(frozen=True)
class AudioConfig:
    table: ClassVar[str] = "audio"
    sample_rate: int = 16000
    """Rate every input stage works at (VAD, STT). Input is converted to it."""
    frame_ms: int = 32
    """Length of one input frame; 32 ms = 512 samples, the Silero VAD window."""
    output_rate: int = 22050
    """Rate of the reply audio (output WAV and speaker)."""
    input_device: str | int | None = None
    """sounddevice input device name or index; None is the system default."""
    output_device: str | int | None = None
    """sounddevice output device name or index; None is the system default."""

    @property
    def frame_samples(self) -> int:
        """Samples in one input frame at ``sample_rate``."""
        return round(self.sample_rate * self.frame_ms / 1000)


@dataclass(frozen=True)
class VadConfig:
    table: ClassVar[str] = "vad"
    threshold: float = within(0.5, 0.2, 0.95)
    """Speech probability at or above which a frame counts as speech. The endpointer leaves
    speech 0.15 below it, so it stays above 0.2."""
    endpoint_ms: int = within(300, 100, 3000, "ms")
    """Silence after speech that ends the user's turn."""
    min_speech_ms: int = 96
    """Speech shorter than this is a click or a cough, not a turn."""
    speech_pad_ms: int = 96
    """Audio kept before the first speech frame so STT hears the onset."""
    early_silence_ms: int = 32
    """Silence after which STT starts speculatively (kept if the endpoint follows): one
    frame. A pause inside a sentence wastes only the work started (docs/tuning.md)."""
    speculative: bool = True
    """Start the reply (STT, LLM, TTS) at the early silence; it is heard only once the
    endpoint confirms the user finished, and dropped if they speak on."""
    max_speech_s: float = within(90.0, 1, 300, "seconds")
    """A turn is cut after this much speech, so a noisy room can't hold the floor (a
    minute-long story still is one turn; Whisper hears it in 30 s windows)."""


@dataclass(frozen=True)
class TurnConfig:
    """When the user's turn is over (see :mod:`assistant.hear.end_of_turn`)."""
    table: ClassVar[str] = "turn"

    mode: str = choice("semantic", "fixed")
    """``semantic``: over after ``complete_ms`` of silence when the words are complete, up
    to ``max_ms`` when they are not; ``fixed``: over after ``vad.endpoint_ms`` of silence."""
    max_ms: int = within(2000, 500, 5000, "ms")
    """Longest silence waited for words that sound unfinished ("what is the capital of")."""
    complete_ms: int = within(150, 50, "unsure_ms", "ms")
    """Silence that ends a turn whose words the model is confident are complete."""
    unsure_ms: int = within(500, "complete_ms", "max_ms", "ms")
    """The most a turn waits when its words cannot be judged: the model cannot read the words (a
    language it does not know), or, where ``unsure_word_p`` is set, the recognizer was unsure of the
    last word. About a fixed endpoint."""
    phrase_ms: int = within(300, "complete_ms", "max_ms", "ms")
    """Silence that ends a turn whose words are answered without the model (a skill's request, a phrase
    of the instant-reply table): people go on after a comma's pause, from a greeting ("Okay, set a
    timer...") as from a request ("Tell me a joke, please."); on the tuning takes 160-352 ms, 1 in 20
    at 320 ms or more (docs/tuning.md). A Korean request that ends on a sentence-final ending is over
    after ``complete_ms``."""
    no_ending_ms: int = within(1000, "complete_ms", 5000, "ms")
    """Korean (a language with sentence-final endings): the silence waited (``max_ms`` at most)
    after words that end on no sentence-final ending, and, where the model cannot read Korean,
    while no words are read: a thinking pause up to a second, or words misheard
    (docs/tuning.md). Words that end on one are complete."""
    misheard_ms: int = within(1150, "complete_ms", 5000, "ms")
    """The most a turn waits (``max_ms`` at most) when the recognizer was unsure of a word
    (``stt.misheard_below``: the words are likely misheard, so the model's reading of them is no
    reason to wait longer), or read no words at all: the longest thinking pause the budget counts (1 s) and the most the
    silence the detector counts outlasts the speaker's pause (132 ms on the tuning half: the
    voice's return is heard a frame or more late). Misheard words that end on a word no sentence
    ends on, or trail off, wait it too: that word or mark may be misheard as well (docs/tuning.md)."""
    complete_log10: float = within(-0.3, "unfinished_log10", 0.0)
    """log10 of the model's probability that a sentence ends after the words, at or above
    which they are complete (and outweigh the word rules)."""
    unfinished_log10: float = within(-5.0, -12.0, "complete_log10")
    """...and below which they wait ``max_ms`` (between the two the wait rises smoothly)."""
    unsure_word_p: float = within(0.0, 0.0, 1.0)
    """The recognizer's probability of the last word below which the silence decides alone (the
    wait at most ``unsure_ms``). 0, the default, turns this off: such words are misheard words and
    wait ``misheard_ms`` at most like any others (at 0.05 it changed nothing on either half of the
    turn corpus and cut a thinking pause of 1 s off on a new set: docs/tuning.md). Whisper gives the
    probability greedy or with a beam (``stt.beam_size``; a beam's from the decoder's pass over the words)."""


@dataclass(frozen=True)
class SttConfig:
    table: ClassVar[str] = "stt"
    engine: str = choice("whisper", "vosk")
    """``whisper`` (faster-whisper on the segment) or ``vosk`` (streams partials)."""
    language: str = rule("en", lambda code: None if re.fullmatch(r"[a-z]{2,3}", code) else "must be a language code like en, ko, de")
    """Language code of the speech."""
    whisper_model: str | None = None
    """Path to a CTranslate2 Whisper model folder; None finds the embedded tiny.en."""
    vosk_model: str | None = None
    """Path to a vosk model folder; None finds one for ``language``."""
    vosk_fast: bool = False
    """Decode vosk with a narrower search (max-active 1000, beam 8, lattice beam 1): less
    CPU per second of speech, so a slow machine keeps up, for a few more errors."""
    threads: int = 1
    """CPU threads for the STT engine. Whisper tiny.en's decoder steps are too small to share: on two cores one
    thread decodes a token in 4.9 ms where two take 6.5 ms (each step waits at OpenMP barriers), its encoder
    takes the same 40 ms either way, and the other core stays free for the VAD and the LLM (106 -> 90 ms a turn)."""
    beam_size: int | None = None
    """Whisper beam size (1, greedy, is the fastest); None: 5 for Korean (docs/korean-stt.md), 1 otherwise."""
    hint_words: str = "auto"
    """Words to read again what no skill took (hear/second_look.py): auto (the language's own: Korean's, English's), '' (none) or yours."""
    misheard_below: float = within(0.2, 0.0, 1.0)
    """English words whose least sure word Whisper gave a probability under this are taken as
    misheard: no skill or instant reply taking them, they get "Sorry, I didn't catch that."
    instead of the model's answer, never twice in a row (0 answers everything). Chosen on the
    tuning half for tiny.en: the most that refuses at most 1 in 20 of the finished turns it heard
    right (docs/tuning.md, "Misheard words")."""
    window_s: int = 8
    """Shortest audio window Whisper's encoder sees (seconds, up to 30). Whisper was trained on 30 s windows;
    a short one is several times faster and, padded with at least a second of silence, transcribes the same."""


@dataclass(frozen=True)
class LlmConfig:
    table: ClassVar[str] = "llm"
    model: str | None = None
    """Path to a GGUF file; None finds the embedded SmolLM2-135M-Instruct."""
    system_prompt: str = rule(
        "You are a friendly voice assistant. Answer in one or two short spoken "
        "sentences. No lists, no markdown.",
        not_empty,
    )
    """System prompt; its evaluated tokens are kept in the KV cache across turns."""
    few_shot: str = "auto"
    """Example exchanges before the conversation (``data/few_shot.toml``): ``auto`` gives
    them to models under a billion parameters, which answer far better for them; ``on``, ``off``."""
    reply_language: str = "en"
    """Language replies must stay in: a later sentence drifting into another ends the
    reply (checked for ``en``; '' checks none). ``--language`` sets it with the speech's."""
    n_ctx: int = 2048
    """Context window in tokens."""
    history_tokens: int = 768
    """Token budget for past turns; older turns are dropped when it is exceeded."""
    max_tokens: int = within(80, 1)
    """Longest spoken reply, in tokens."""
    temperature: float = 0.0
    """Sampling temperature; 0 is greedy (the same question gets the same answer). With the
    embedded model and its examples, greedy answered as many questions right as sampling at
    0.3 and never less (docs/skills.md)."""
    top_p: float = 0.9
    """Nucleus sampling cutoff."""
    repeat_penalty: float = 1.1
    """Penalty for repeated tokens (1 is none). 1.3 made the embedded model's answers
    worse; loops are ended by the reply guard instead (assistant/reply_guard.py)."""
    threads: int | None = None
    """CPU threads for generating tokens; None leaves one core free for speech synthesis,
    which runs while tokens are generated. Threads fighting over cores stall llama.cpp's
    barriers (docs/tuning.md)."""
    first_chunk_all_cores: bool = True
    """Until a reply's first chunk goes to speech synthesis, decode on every core when
    the speech engines are idle; then on ``threads``."""
    batch_threads: int | None = None
    """CPU threads for evaluating a prompt (nothing else runs then); None uses every core."""
    n_gpu_layers: int | None = None
    """Layers offloaded to the GPU: None plans it from the free VRAM, 0 keeps all on the CPU, -1 offloads all."""
    seed: int = 1234
    """Sampling seed, so a run can be repeated."""
    draft: str = "off"
    """Speculative decoding: ``off``, ``prompt-lookup`` (drafts copied from the prompt), or
    the path of a small GGUF with the same vocabulary used as a draft model."""
    draft_tokens: int = 6
    """Tokens drafted per step when ``draft`` is on."""
    kv_type: str | None = rule(None, lambda value: None if value in (None, *KV_TYPES) else
                               f"must be {' or '.join(KV_TYPES)}, or left out for the planner to choose")
    """KV-cache precision: ``f16``, or ``q8_0`` (half the memory). Left out, the planner
    chooses (``f16``, or ``q8_0`` when that puts more layers in the free VRAM); ``assistant
    doctor`` says which."""
    prefill_partials: bool = True
    """With a streaming recognizer (vosk), evaluate the user's words as they are
    recognized, so the reply starts with only the last words left to evaluate."""
    prompt_cache: bool = True
    """Save the evaluated system prompt to disk so a restart skips its prefill."""
    hedge_below: float | None = rule(None, lambda v: None if v is None or 0 <= v <= 1 else "must be from 0 to 1")
    """Hedge a reply whose first sentence the model was less sure of (0 never); None: the
    model's calibration (``assistant bench --quality --calibrate``), else no hedge."""
    backend: str = choice("local", "remote")
    """``local`` loads the GGUF with llama.cpp; ``remote`` streams from an OpenAI-compatible server."""
    remote_url: str = "http://127.0.0.1:8080"
    """Base URL of the remote server (llama.cpp server, vLLM, Ollama); ``/v1/chat/completions`` is appended."""
    remote_model: str = "default"
    """Model name sent to the remote server (Ollama and vLLM pick the model by it)."""
    remote_timeout_s: float = 30.0
    """Seconds the remote server may stay silent (connecting: at most 3 s) before the turn fails."""


@dataclass(frozen=True)
class TtsConfig:
    table: ClassVar[str] = "tts"
    engine: str = choice("piper", "system")
    """``piper`` (neural, onnxruntime) or ``system`` (pyttsx3: espeak-ng/SAPI5/NSSS)."""
    voice: str | None = None
    """Path to a Piper ``.onnx`` voice (with its ``.onnx.json``); None finds joe-medium."""
    threads: int = 2
    """onnxruntime intra-op threads for Piper (docs/tuning.md)."""
    first_chunk_alone: bool = True
    """The LLM pauses while the first chunk of a reply is synthesized, so synthesis has
    every core and the first sound comes sooner; the rest of the reply is still far ahead
    of playback. Only while the LLM runs on the CPU."""
    length_scale: float | None = None
    """Speaking rate (< 1 is faster); None keeps the voice's own."""
    volume: float = 1.0
    """Output gain."""


@dataclass(frozen=True)
class ChunkerConfig:
    table: ClassVar[str] = "chunker"
    first_min_chars: int = 8
    """The first chunk is released at the first clause boundary after this many characters."""
    first_max_chars: int = 16
    """...or at a word boundary once this long, whatever the punctuation (about three
    words, "The capital of": each token less comes ~13 ms sooner, and Piper synthesizes it
    in ~48 ms instead of ~68 ms; it runs on into the next chunk without Piper's pause)."""
    min_chars: int = 40
    """Later chunks are released at sentence ends once at least this long."""


@dataclass(frozen=True)
class RepliesConfig:
    table: ClassVar[str] = "replies"
    enabled: bool = True
    """Answer short fixed phrases from the instant-reply table without the LLM."""
    table: str | None = None
    """Path to a phrase table TOML; None uses ``replies.toml`` in the config dir, else the defaults."""
    score_cutoff: float = 88.0
    """Fuzzy-match score (0-100) a phrase must reach to hit."""
    filler: bool = False
    """Latency masking: play the table's short filler ("Let me think.") before an LLM answer predicted to be slow."""
    filler_min_words: int = 12
    """A question of at least this many words is predicted to be slow."""
    filler_model_mb: int = 2000
    """With a GGUF model of at least this many MB, every question is predicted to be slow."""


@dataclass(frozen=True)
class SkillsConfig:
    table: ClassVar[str] = "skills"
    enabled: bool = True
    """Answer timers, alarms, arithmetic, unit conversions, the time and date, and the
    actions (stop, repeat, louder, quieter) exactly, before the instant replies and the LLM."""
    disabled: tuple[str, ...] = ()
    """Names of skills to leave out (``actions``, ``timers``, ``clock``, ``arithmetic``, ``units``)."""
    locale: str = ""
    """Locale of spoken times and dates (``en_US``, ``en_GB``, ``de_DE``…); '' follows the
    system's (LC_TIME, LANG), else ``en_US``."""
    timers_file: str | None = None
    """Where running timers and alarms are kept across restarts, by every command. None:
    each place keeps its own: the desktop app ``timers.json`` in the user data folder,
    ``assistant chat`` none after the run (``--timers FILE`` keeps them), the kiosk each
    visitor's in memory until the visitor is forgotten."""


@dataclass(frozen=True)
class KioskConfig:
    """An unattended public screen: full screen, locked, supervised, forgetting each visitor."""
    table: ClassVar[str] = "kiosk"

    enabled: bool = False
    """``assistant`` starts the kiosk instead of the desktop app (as ``assistant kiosk`` does)."""
    exit_keys: str = rule("Ctrl+Alt+Shift+E", exit_keys_problem)
    """The administrator's way out (Qt key notation, with a modifier); no other key leaves the kiosk."""
    admin_pin: str = rule("", lambda pin: None if pin == "" or (pin.isdigit() and 4 <= len(pin) <= 12)
                          else "must be 4 to 12 digits (quoted, as a string), or '' for none")
    """Digits asked for after ``exit_keys`` (or five taps on the top-left corner); '' lets the keys alone exit."""
    hands_free: bool = True
    """Listen all the time; off, visitors tap the on-screen button to ask one question."""
    idle_reset_s: float = within(60.0, above=0, unit="seconds")
    """Seconds without a visitor after which the conversation (screen, LLM history and KV cache) is forgotten."""
    attract_text: str = rule("Hello! Ask me anything. Just start talking.", not_empty)
    """The attract screen's invitation, shown while nobody is talking."""
    font_pt: int = within(28, 8, 200, "points")
    """Base font size of the kiosk screen, in points."""
    hide_cursor_s: float = within(3.0, above=0, unit="seconds")
    """The mouse cursor hides after this many seconds without movement."""
    store_transcripts: bool = False
    """Keep what visitors said and the replies in ``transcripts.jsonl`` in ``log_dir``; off, nothing is stored."""
    log_dir: str | None = rule(None, lambda path: None if path is None or isinstance(path, str) else "must be a folder path")
    """Folder of the kiosk's logs; None is ``logs`` in the user data folder."""
    log_max_bytes: int = within(1_000_000, 4096)
    """A log file is rotated once it reaches this size."""
    log_backups: int = within(3, 1)
    """Rotated files kept per log (older ones are deleted), so the logs never grow without bound."""
    stage_timeout_s: float = within(4.0, above=0, unit="seconds")
    """A stage that makes no progress for this long (no frame, token, sentence or audio played) is hung:
    inside a model call the app restarts (the model may be held), elsewhere the engine does.
    Keep it above the longest single model call (a long prompt, a 20 s utterance: 1-2 s on a small CPU)."""
    watchdog_interval_s: float = within(0.25, above=0, below="stage_timeout_s", unit="seconds")
    """How often the watchdog looks at the stages (and the microphone and the idle timer)."""
    gui_timeout_s: float = within(5.0, above=0, unit="seconds")
    """The app's GUI thread silent this long (no heartbeat) is hung: the supervisor restarts the app."""
    engine_restarts: int = within(3, 0)
    """Engine restarts allowed within ``restart_window_s``; one more restarts the whole app."""
    restart_window_s: float = within(600.0, above=0, unit="seconds")
    """The window over which ``engine_restarts`` is counted."""
    restart_backoff_s: float = within(1.0, above=0, unit="seconds")
    """Wait before the app is started again after a quick failure; doubled after each one
    (an app that ran a while is started again at once)."""
    restart_backoff_max_s: float = within(60.0, "restart_backoff_s", unit="seconds")
    """The longest wait between app restarts (an app that ran longer than this starts the backoff over)."""
    max_memory_mb: int = within(0, 0)
    """Restart the app (between visitors) once its resident memory passes this many MB; 0 never does."""


@dataclass(frozen=True)
class Config:
    audio: AudioConfig = field(default_factory=AudioConfig)
    vad: VadConfig = field(default_factory=VadConfig)
    echo: EchoConfig = field(default_factory=EchoConfig)
    barge_in: BargeInConfig = field(default_factory=BargeInConfig)
    turn: TurnConfig = field(default_factory=TurnConfig)
    stt: SttConfig = field(default_factory=SttConfig)
    llm: LlmConfig = field(default_factory=LlmConfig)
    tts: TtsConfig = field(default_factory=TtsConfig)
    chunker: ChunkerConfig = field(default_factory=ChunkerConfig)
    replies: RepliesConfig = field(default_factory=RepliesConfig)
    skills: SkillsConfig = field(default_factory=SkillsConfig)
    kiosk: KioskConfig = field(default_factory=KioskConfig)
    wake: WakeConfig = field(default_factory=WakeConfig)
