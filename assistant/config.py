"""Configuration: one frozen dataclass per stage, loaded once at the entry point.

Values come from the defaults below, then a TOML file in the platform's config
directory (``assistant.toml``), then command-line overrides. Nothing below the entry
point ever sees an argparse namespace.
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, field, fields, is_dataclass, replace
from pathlib import Path
from typing import Any, Mapping

from platformdirs import user_cache_dir, user_config_dir, user_data_dir

APP_NAME = "offline-voice-assistant"


class ConfigError(ValueError):
    """A configuration file or value is invalid; the message names the key."""


@dataclass(frozen=True)
class AudioConfig:
    sample_rate: int = 16000
    """Rate every input stage works at (VAD, STT). Input is converted to it."""
    frame_ms: int = 32
    """Length of one input frame; 32 ms = 512 samples, the Silero VAD window."""
    output_rate: int = 22050
    """Rate of the reply audio (output WAV and speaker)."""
    input_device: str | None = None
    """sounddevice input device name or index; None is the system default."""
    output_device: str | None = None
    """sounddevice output device name or index; None is the system default."""

    @property
    def frame_samples(self) -> int:
        """Samples in one input frame at ``sample_rate``."""
        return round(self.sample_rate * self.frame_ms / 1000)


@dataclass(frozen=True)
class VadConfig:
    threshold: float = 0.5
    """Speech probability at or above which a frame counts as speech."""
    endpoint_ms: int = 300
    """Silence after speech that ends the user's turn."""
    min_speech_ms: int = 96
    """Speech shorter than this is a click or a cough, not a turn."""
    speech_pad_ms: int = 96
    """Audio kept before the first speech frame so STT hears the onset."""
    early_silence_ms: int = 64
    """Silence after which STT starts speculatively (kept if the endpoint follows). A
    pause inside a sentence wastes only the work started (on the JFK clip and the bench
    corpus: 4 dropped starts in 20 utterances at 64 ms, 2 at 96-128 ms, 10 at 32 ms)."""
    speculative: bool = True
    """Start the reply (STT, LLM, TTS) at the early silence; it is heard only once the
    endpoint confirms the user finished, and dropped if they speak on."""
    max_speech_s: float = 20.0
    """A turn is cut after this much speech, so a noisy room can't hold the floor."""


@dataclass(frozen=True)
class SttConfig:
    engine: str = "whisper"
    """``whisper`` (faster-whisper on the segment) or ``vosk`` (streams partials)."""
    language: str = "en"
    """Language code of the speech."""
    whisper_model: str | None = None
    """Path to a CTranslate2 Whisper model folder; None finds the embedded tiny.en."""
    vosk_model: str | None = None
    """Path to a vosk model folder; None finds one for ``language``."""
    threads: int = 2
    """CPU threads for the STT engine."""
    beam_size: int = 1
    """Whisper beam size; 1 (greedy) is the fastest."""
    window_s: int = 8
    """Shortest audio window Whisper's encoder sees (seconds, up to 30). Whisper was
    trained on 30 s windows; a short one is several times faster and, padded with at
    least a second of silence, transcribes short commands the same."""


@dataclass(frozen=True)
class LlmConfig:
    model: str | None = None
    """Path to a GGUF file; None finds the embedded SmolLM2-135M-Instruct."""
    system_prompt: str = (
        "You are a friendly voice assistant. Answer in one or two short spoken "
        "sentences. No lists, no markdown."
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
    max_tokens: int = 80
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
    which runs while tokens are generated (on 2 cores: 1). Threads fighting over cores
    stall llama.cpp's barriers: 2 threads beside a busy core decoded 100x slower here."""
    first_chunk_all_cores: bool = True
    """Until a reply's first chunk goes to speech synthesis, decode on every core when
    the speech engines are idle (2 cores: 9 instead of 14 ms per token); then on
    ``threads``."""
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
    kv_type: str = "f16"
    """KV-cache precision: ``f16``, or ``q8_0`` (half the memory; the planner picks it when VRAM is short)."""
    prefill_partials: bool = True
    """With a streaming recognizer (vosk), evaluate the user's words as they are
    recognized, so the reply starts with only the last words left to evaluate."""
    prompt_cache: bool = True
    """Save the evaluated system prompt to disk so a restart skips its prefill."""
    backend: str = "local"
    """``local`` loads the GGUF with llama.cpp; ``remote`` streams from an OpenAI-compatible server."""
    remote_url: str = "http://127.0.0.1:8080"
    """Base URL of the remote server (llama.cpp server, vLLM, Ollama); ``/v1/chat/completions`` is appended."""
    remote_model: str = "default"
    """Model name sent to the remote server (Ollama and vLLM pick the model by it)."""
    remote_timeout_s: float = 30.0
    """Seconds the remote server may stay silent (connecting: at most 3 s) before the turn fails."""


@dataclass(frozen=True)
class TtsConfig:
    engine: str = "piper"
    """``piper`` (neural, onnxruntime) or ``system`` (pyttsx3: espeak-ng/SAPI5/NSSS)."""
    voice: str | None = None
    """Path to a Piper ``.onnx`` voice (with its ``.onnx.json``); None finds joe-medium."""
    threads: int = 2
    """onnxruntime intra-op threads for Piper. 2 on a 2-core machine: the first chunk is
    ready in ~88 ms instead of ~140 ms while the LLM decodes on the other core."""
    first_chunk_alone: bool = True
    """The LLM pauses while the first chunk of a reply is synthesized, so synthesis has
    every core and the first sound comes sooner (2 cores: 82 instead of 156 ms); the rest
    of the reply is still far ahead of playback. Only while the LLM runs on the CPU."""
    length_scale: float | None = None
    """Speaking rate (< 1 is faster); None keeps the voice's own."""
    volume: float = 1.0
    """Output gain."""


@dataclass(frozen=True)
class ChunkerConfig:
    first_min_chars: int = 12
    """The first chunk is released at the first clause boundary after this many characters."""
    first_max_chars: int = 24
    """...or at a word boundary once this long, whatever the punctuation (about five
    words: each token less is ~15 ms sooner, and a shorter chunk is synthesized sooner)."""
    min_chars: int = 40
    """Later chunks are released at sentence ends once at least this long."""


@dataclass(frozen=True)
class RepliesConfig:
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
    enabled: bool = True
    """Answer timers, alarms, arithmetic, unit conversions, the time and date, and the
    actions (stop, repeat, louder, quieter) exactly, before the instant replies and the LLM."""
    disabled: tuple[str, ...] = ()
    """Names of skills to leave out (``actions``, ``timers``, ``clock``, ``arithmetic``, ``units``)."""
    locale: str = ""
    """Locale of spoken times and dates (``en_US``, ``en_GB``, ``de_DE``…); '' follows the
    system's (LC_TIME, LANG), else ``en_US``."""
    timers_file: str | None = None
    """Where running timers and alarms are kept across restarts; None is ``timers.json``
    in the user data folder."""


@dataclass(frozen=True)
class KioskConfig:
    """An unattended public screen: full screen, locked, supervised, forgetting each visitor."""

    enabled: bool = False
    """``assistant`` starts the kiosk instead of the desktop app (as ``assistant kiosk`` does)."""
    exit_keys: str = "Ctrl+Alt+Shift+E"
    """The administrator's way out (Qt key notation, with a modifier); no other key leaves the kiosk."""
    admin_pin: str = ""
    """Digits asked for after ``exit_keys`` (or five taps on the top-left corner); '' lets the keys alone exit."""
    hands_free: bool = True
    """Listen all the time; off, visitors tap the on-screen button to ask one question."""
    idle_reset_s: float = 60.0
    """Seconds without a visitor after which the conversation (screen, LLM history and KV cache) is forgotten."""
    attract_text: str = "Hello! Ask me anything. Just start talking."
    """The attract screen's invitation, shown while nobody is talking."""
    font_pt: int = 28
    """Base font size of the kiosk screen, in points."""
    hide_cursor_s: float = 3.0
    """The mouse cursor hides after this many seconds without movement."""
    store_transcripts: bool = False
    """Keep what visitors said and the replies in ``transcripts.jsonl`` in ``log_dir``; off, nothing is stored."""
    log_dir: str | None = None
    """Folder of the kiosk's logs; None is ``logs`` in the user data folder."""
    log_max_bytes: int = 1_000_000
    """A log file is rotated once it reaches this size."""
    log_backups: int = 3
    """Rotated files kept per log (older ones are deleted), so the logs never grow without bound."""
    stage_timeout_s: float = 60.0
    """A stage busy on one message longer than this is hung and the engine restarts; keep it above the longest spoken reply."""
    watchdog_interval_s: float = 1.0
    """How often the watchdog looks at the stages (and the idle timer)."""
    engine_restarts: int = 3
    """Engine restarts allowed within ``restart_window_s``; one more restarts the whole app."""
    restart_window_s: float = 600.0
    """The window over which ``engine_restarts`` is counted."""
    restart_backoff_s: float = 1.0
    """Wait before the app is started again after it died; doubled after each quick failure."""
    restart_backoff_max_s: float = 60.0
    """The longest wait between app restarts (an app that ran longer than this starts the backoff over)."""
    max_memory_mb: int = 0
    """Restart the app (between visitors) once its resident memory passes this many MB; 0 never does."""


@dataclass(frozen=True)
class Config:
    audio: AudioConfig = field(default_factory=AudioConfig)
    vad: VadConfig = field(default_factory=VadConfig)
    stt: SttConfig = field(default_factory=SttConfig)
    llm: LlmConfig = field(default_factory=LlmConfig)
    tts: TtsConfig = field(default_factory=TtsConfig)
    chunker: ChunkerConfig = field(default_factory=ChunkerConfig)
    replies: RepliesConfig = field(default_factory=RepliesConfig)
    skills: SkillsConfig = field(default_factory=SkillsConfig)
    kiosk: KioskConfig = field(default_factory=KioskConfig)


def config_dir() -> Path:
    return Path(user_config_dir(APP_NAME, appauthor=False))


def data_dir() -> Path:
    return Path(user_data_dir(APP_NAME, appauthor=False))


def cache_dir() -> Path:
    return Path(user_cache_dir(APP_NAME, appauthor=False))


def default_config_path() -> Path:
    return config_dir() / "assistant.toml"


def _build(cls: type, values: Mapping[str, Any], where: str) -> Any:
    known = {f.name: f for f in fields(cls)}
    kwargs: dict[str, Any] = {}
    for key, value in values.items():
        if key not in known:
            raise ConfigError(f"unknown key '{where}{key}' (known: {', '.join(sorted(known))})")
        default = getattr(cls(), key)
        if is_dataclass(default):
            if not isinstance(value, Mapping):
                raise ConfigError(f"'{where}{key}' must be a table")
            kwargs[key] = _build(type(default), value, f"{where}{key}.")
            continue
        kwargs[key] = _coerce(value, default, f"{where}{key}")
    return cls(**kwargs)


def _coerce(value: Any, default: Any, key: str) -> Any:
    if default is None or value is None:
        return value
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ConfigError(f"'{key}' must be true or false, not {value!r}")
        return value
    if isinstance(default, (int, float)) and not isinstance(default, bool):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"'{key}' must be a number, not {value!r}")
        return type(default)(value)
    if isinstance(default, tuple):
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"'{key}' must be a list of strings, not {value!r}")
        return tuple(value)
    if isinstance(default, str) and not isinstance(value, str):
        raise ConfigError(f"'{key}' must be a string, not {value!r}")
    return value


def from_mapping(values: Mapping[str, Any]) -> Config:
    """Build a Config from nested tables, naming the exact key that is wrong."""
    return _build(Config, values, "")


def load(path: Path | None = None) -> Config:
    """Load the TOML config file (missing file = defaults)."""
    path = path or default_config_path()
    if not path.exists():
        return Config()
    try:
        values = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"cannot read config {path}: {exc}") from exc
    return from_mapping(values)


def with_overrides(config: Config, **sections: Mapping[str, Any]) -> Config:
    """Return ``config`` with per-section overrides; None values are ignored."""
    updated = {}
    for name, values in sections.items():
        values = {k: v for k, v in values.items() if v is not None}
        if values:
            updated[name] = replace(getattr(config, name), **values)
    return replace(config, **updated)


def to_mapping(config: Config) -> dict[str, Any]:
    """Nested dict of the config without None values (TOML has no null)."""

    def strip(obj: Any) -> Any:
        if isinstance(obj, dict):
            return {k: strip(v) for k, v in obj.items() if v is not None}
        return obj

    return strip(dataclasses.asdict(config))


def save(config: Config, path: Path | None = None) -> Path:
    """Write the config atomically, so a crash mid-write never loses the old file."""
    import tomli_w

    path = path or default_config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".toml.tmp")
    tmp.write_text(tomli_w.dumps(to_mapping(config)), encoding="utf-8")
    tmp.replace(path)
    return path
