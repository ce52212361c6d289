"""Configuration: one frozen dataclass per stage, loaded once at the entry point.

Values come from the defaults below, then a TOML file in the platform's config
directory (``assistant.toml``), then command-line overrides. Nothing below the entry
point ever sees an argparse namespace.
"""

from assistant.config.files import default_config_path, from_mapping, load, save, to_mapping, with_overrides
from assistant.config.rules import (
    ConfigError,
    check,
    check_section,
    choice,
    choices,
    chosen,
    exit_keys_problem,
    limits,
    problem,
    rule,
    within,
    where,
)
from assistant.config.sections import (
    AudioConfig,
    BargeInConfig,
    ChunkerConfig,
    Config,
    EchoConfig,
    KioskConfig,
    LlmConfig,
    RepliesConfig,
    SkillsConfig,
    SttConfig,
    TtsConfig,
    TurnConfig,
    VadConfig,
    WakeConfig,
)

__all__ = [
    "AudioConfig", "BargeInConfig", "ChunkerConfig", "Config", "ConfigError", "EchoConfig", "KioskConfig",
    "LlmConfig", "RepliesConfig", "SkillsConfig", "SttConfig", "TtsConfig", "TurnConfig", "VadConfig",
    "WakeConfig",
    "check", "check_section", "choice", "choices", "chosen", "default_config_path", "exit_keys_problem", "from_mapping",
    "limits", "load", "problem", "rule", "save", "to_mapping", "where", "with_overrides", "within",
]
