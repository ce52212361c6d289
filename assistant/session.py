"""Loading the models (in parallel, each warmed), the instant replies, and assembling a
running Engine on them."""

from __future__ import annotations

import logging
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Callable

from .audio import AudioOut
from .config import Config, LlmConfig, check, check_section
from .echo import SpeakerEcho
from .events import Event
from . import llm as local_llm
from .llm import Llm
from .models import ModelError, find_llm, find_silero_vad
from .pipeline import Engine
from .planner import plan_for
from .replies import Replies
from .skills import Skills
from .stt import Stt, load_stt
from .tts import Tts, load_tts
from .vad import SileroVad, Vad
from .voices import with_script_voices

log = logging.getLogger(__name__)


@dataclass
class LoadedModels:
    """The engines an :class:`~assistant.pipeline.Engine` runs on, loaded and warmed once
    (several engines in turn may share them)."""

    stt: Stt
    llm: Llm
    tts: Tts
    vad: Vad
    load_s: dict[str, float] = field(default_factory=dict)


def load_llm(config: LlmConfig) -> Llm:
    """The configured LLM: a remote server, or the local GGUF offloaded as planned."""
    check_section(config)
    if config.backend == "remote":
        from .remote_llm import RemoteLlm

        return RemoteLlm(config)
    path = find_llm(config.model).path
    plan = plan_for(config, path)
    if not plan.fits:
        raise ModelError(f"{path.name} is too big for this machine: {plan.summary}")
    log.info("LLM offload plan: %s", plan.summary)
    planned = replace(config, model=str(path), n_gpu_layers=plan.n_gpu_layers, n_ctx=plan.n_ctx,
                      kv_type=plan.kv_type)
    return local_llm.LlamaLlm(planned)


def _timed(name: str, fn: Callable, progress: Callable[[str], None] | None, times: dict[str, float]):
    def run():
        if progress:
            progress(f"loading {name}")
        start = time.perf_counter()
        value = fn()
        times[name] = round(time.perf_counter() - start, 2)
        log.info("%s loaded in %.2f s", name, times[name])
        return value

    return run


def load_models(config: Config, progress: Callable[[str], None] | None = None) -> LoadedModels:
    """Load and warm every engine before the first turn (no cold start).

    The three big models load concurrently; the first failure is raised with its own
    message (which names the model and what to install).
    """
    check(config)
    times: dict[str, float] = {}
    with ThreadPoolExecutor(max_workers=3, thread_name_prefix="load") as pool:
        llm = pool.submit(_timed("llm", lambda: load_llm(config.llm), progress, times))
        stt = pool.submit(_timed("stt", lambda: load_stt(config.stt), progress, times))
        tts = pool.submit(_timed("tts", lambda: with_script_voices(load_tts(config.tts), config.tts), progress, times))
        vad = SileroVad(find_silero_vad())
        futures = [llm, stt, tts]
        for future in futures:
            if future.exception() is not None:
                for other in futures:
                    other.cancel()
                raise future.exception()  # type: ignore[misc]
    return LoadedModels(stt=stt.result(), llm=llm.result(), tts=tts.result(), vad=vad, load_s=times)


def build_engine(
    config: Config,
    engines: LoadedModels,
    output: AudioOut,
    replies: Replies | None = None,
    on_event: Callable[[Event], None] | None = None,
    echo: SpeakerEcho | None = None,
    skills: Skills | None = None,
) -> Engine:
    """An engine on the loaded models; ``echo`` shares an echo canceller that has already
    learnt the room (default: the engine makes its own)."""
    return Engine(
        config,
        stt=engines.stt,
        llm=engines.llm,
        tts=engines.tts,
        vad=engines.vad,
        output=output,
        replies=replies,
        skills=skills,
        on_event=on_event,
        echo=echo,
    )


def make_replies(config: Config, tts: Tts, output_rate: int) -> Replies | None:
    """The instant replies with their audio ready before the first turn (rendering it
    would compete with the first answer; after the first start it comes from disk)."""
    if not config.replies.enabled:
        return None
    from .replies import load_replies

    replies = load_replies(config.replies, tts, output_rate)
    replies.wait_ready(timeout=120)
    return replies


def make_skills(config: Config, replies: Replies | None = None, output_rate: int | None = None) -> Skills | None:
    """The skills (timers running), using the instant replies' audio where they share a text."""
    from .skills import load_skills

    skills = load_skills(config, output_rate)
    if skills is not None and replies is not None:
        skills.use_reply_audio(replies.audio)
    return skills
