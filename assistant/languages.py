"""What changes with the language the assistant speaks: the system prompt and the models
that can answer in it.

The embedded SmolLM2-135M speaks English only (its tokenizer splits Korean into about
three times as many tokens, and it answers in broken English). For Korean this module
names GGUF models that do speak it, per VRAM tier, and the remote backend.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from assistant.config import Config, LlmConfig

KOREAN_SYSTEM_PROMPT = (
    "당신은 친절한 음성 비서입니다. 항상 한국어로, 소리 내어 읽기 좋은 짧은 한두 문장으로 대답하세요. "
    "목록이나 마크다운은 쓰지 마세요."
)
SYSTEM_PROMPTS = {"ko": KOREAN_SYSTEM_PROMPT}
NAMES = {"en": "English", "ko": "Korean (한국어)"}
EMBEDDED_LANGUAGES = ("en",)
"""Languages the embedded SmolLM2-135M can answer in."""
MISHEARD_LANGUAGES = frozenset({"en"})
"""Where ``stt.misheard_below`` was measured (Whisper tiny.en's probabilities): words are taken as misheard there
only (the misheard-words notice, and the second look in English, which reads again only what it would refuse)."""


def likely_misheard(least_word_p: float | None, below: float, language: str) -> bool:
    """Words whose least sure word the recognizer gave ``least_word_p`` are likely misheard (under ``below``, in a
    language the bar was measured for)."""
    return least_word_p is not None and language in MISHEARD_LANGUAGES and least_word_p < below


@dataclass(frozen=True)
class ModelChoice:
    min_vram_gb: float
    model: str
    file: str
    repo: str
    """Where the GGUF is published (Hugging Face), to download on a connected machine."""
    size_gb: float


KOREAN_MODELS = (
    ModelChoice(16, "Qwen2.5-14B-Instruct Q4_K_M", "Qwen2.5-14B-Instruct-Q4_K_M.gguf",
                "bartowski/Qwen2.5-14B-Instruct-GGUF", 8.99),
    ModelChoice(12, "EXAONE 3.5 7.8B Instruct Q4_K_M (LG AI Research, trained on Korean)",
                "EXAONE-3.5-7.8B-Instruct-Q4_K_M.gguf", "bartowski/EXAONE-3.5-7.8B-Instruct-GGUF", 4.77),
    ModelChoice(12, "Qwen2.5-7B-Instruct Q4_K_M", "Qwen2.5-7B-Instruct-Q4_K_M.gguf",
                "bartowski/Qwen2.5-7B-Instruct-GGUF", 4.68),
    ModelChoice(4, "EXAONE 3.5 2.4B Instruct Q4_K_M (LG AI Research, trained on Korean)",
                "EXAONE-3.5-2.4B-Instruct-Q4_K_M.gguf", "bartowski/EXAONE-3.5-2.4B-Instruct-GGUF", 1.64),
    ModelChoice(4, "Qwen2.5-3B-Instruct Q4_K_M", "Qwen2.5-3B-Instruct-Q4_K_M.gguf",
                "bartowski/Qwen2.5-3B-Instruct-GGUF", 1.93),
    ModelChoice(0, "EXAONE 3.5 2.4B Instruct Q4_K_M (on the CPU: slow on a small machine, mind the latency)",
                "EXAONE-3.5-2.4B-Instruct-Q4_K_M.gguf", "bartowski/EXAONE-3.5-2.4B-Instruct-GGUF", 1.64),
)
REMOTE_ADVICE = (
    "or answer from a bigger Korean model on a server in the building: "
    "`assistant --llm-url http://HOST:8080` (llama.cpp server, vLLM or Ollama serving EXAONE 3.5 or Qwen2.5)"
)


def korean_models(vram_gb: float) -> list[ModelChoice]:
    """The Korean-capable models for this much VRAM, best first (the highest tier that fits)."""
    tier = max((m.min_vram_gb for m in KOREAN_MODELS if vram_gb >= m.min_vram_gb * 0.95), default=0)
    return [m for m in KOREAN_MODELS if m.min_vram_gb == tier]


def describe(choice: ModelChoice) -> str:
    return f"{choice.model}, {choice.size_gb:.2f} GB: {choice.file} from https://huggingface.co/{choice.repo}"


def speaks(language: str, model_is_embedded: bool) -> bool:
    """Whether the model can answer in ``language`` (only the embedded model is known not to)."""
    return not model_is_embedded or language in EMBEDDED_LANGUAGES


def for_language(config: Config) -> Config:
    """``config`` with the system prompt of its language (``stt.language``), unless the user
    wrote their own prompt (one that is none of the built-in ones); and the replies checked
    in that language (``llm.reply_language``, unless it is '': none) where it is one of
    :data:`NAMES` (Korean chosen in the settings alone used to leave it English, whose
    check cuts a Korean reply after its first sentence)."""
    llm = config.llm
    language = config.stt.language
    if llm.reply_language in NAMES and language in NAMES and llm.reply_language != language:
        llm = replace(llm, reply_language=language)
    built_in = {LlmConfig.system_prompt, *SYSTEM_PROMPTS.values()}
    prompt = SYSTEM_PROMPTS.get(language, LlmConfig.system_prompt)
    if llm.system_prompt in built_in and llm.system_prompt != prompt:
        llm = replace(llm, system_prompt=prompt)
    return config if llm == config.llm else replace(config, llm=llm)


def korean_fonts() -> list[str] | None:
    """Font families with Korean glyphs (fontconfig's ``fc-list``); None where there is no fc-list."""
    import shutil
    import subprocess

    if shutil.which("fc-list") is None:
        return None
    try:
        out = subprocess.run(["fc-list", ":lang=ko", "family"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return sorted({line.split(",")[0].strip() for line in out.splitlines() if line.strip()})


def packaged_korean_font() -> Path | None:
    """Noto Sans KR (SIL OFL 1.1) from the ko extra's font package, pylopdf-fonts-ko, found
    through the package's own API (in a bundle, the copy PyInstaller collected); None when it
    is not installed. The screens load it when no system font draws Hangul (ui/i18n.py)."""
    try:
        import pylopdf_fonts_ko
    except ImportError:
        return None
    path = Path(pylopdf_fonts_ko.sans_path())
    return path if path.is_file() else None


NO_KOREAN_FONT = ('no Korean font is installed, so Hangul shows as boxes: `pip install ".[ko]"` '
                  "(Noto Sans KR for the app) or install fonts-noto-cjk (Debian/Ubuntu)")


def model_hint(language: str) -> str:
    """One line for the model settings: the GGUFs that answer in ``language``, per VRAM tier."""
    if language in EMBEDDED_LANGUAGES:
        return ""
    if language != "ko":
        return "The embedded SmolLM2-135M answers in English only: choose a multilingual GGUF."
    tiers = {}
    for choice in KOREAN_MODELS:
        tiers.setdefault(choice.min_vram_gb, []).append(f"{choice.model.split(' (')[0]} ({choice.size_gb:.1f} GB)")
    parts = [f"{'CPU' if vram == 0 else f'{vram:g} GB VRAM'}: {' or '.join(names)}" for vram, names in tiers.items()]
    return ("The embedded SmolLM2-135M cannot answer in Korean. Korean-capable GGUFs: " + "; ".join(reversed(parts))
            + "; or a server with --llm-url.")
