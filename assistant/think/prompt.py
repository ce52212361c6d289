"""The prompt for small models: example exchanges before the conversation.

Small models (under :data:`SMALL_MODEL_PARAMETERS`) answer far better when shown a few
exchanges than when told what to do (measured in docs/skills.md); bigger models keep
the plain system prompt. ``llm.few_shot`` is ``auto`` (by the model's size), ``on`` or
``off``.
"""

from __future__ import annotations

import logging
import tomllib
from importlib import resources
from pathlib import Path

from assistant.config import ConfigError, LlmConfig

log = logging.getLogger(__name__)

SMALL_MODEL_PARAMETERS = 1_000_000_000
FEW_SHOT_CHOICES = ("auto", "on", "off")

Example = tuple[str, str]


def default_examples() -> list[Example]:
    text = resources.files(__package__).joinpath("data", "few_shot.toml").read_text(encoding="utf-8")
    return [(row["user"], row["assistant"]) for row in tomllib.loads(text)["example"]]


def is_small(model: Path | None) -> bool:
    """Whether the GGUF at ``model`` has fewer than a billion parameters (False when unknown)."""
    if model is None:
        return False
    from assistant.machine.gguf_info import read_gguf
    from assistant.machine.models import ModelError

    try:
        return read_gguf(model).parameters < SMALL_MODEL_PARAMETERS
    except (ModelError, OSError, ValueError) as exc:
        log.debug("cannot size %s: %s", model, exc)
        return False


def examples_for(config: LlmConfig, model: Path | None) -> list[Example]:
    """The example exchanges the model at ``model`` gets (none for a big or remote one)."""
    if config.few_shot not in FEW_SHOT_CHOICES:
        raise ConfigError(f"'llm.few_shot' must be one of {', '.join(FEW_SHOT_CHOICES)}, not {config.few_shot!r}")
    if config.few_shot == "off" or (config.few_shot == "auto" and not is_small(model)):
        return []
    return default_examples()
