"""Loading the models (in parallel, each warmed), the instant replies, and assembling a
running Engine on them; the one place a front end gets engines and devices from (the
window never loads one itself)."""

from __future__ import annotations

import logging
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from assistant.sound import AudioIn, AudioOut
from assistant.config import Config, LlmConfig, RepliesConfig, check, check_section
from assistant.hear.echo import SpeakerEcho
from assistant.events import Event
from assistant.think import llm as local_llm
from assistant.think.conversation import Llm
from assistant.machine.models import ModelError, find_llm, find_silero_vad
from assistant.pipeline import Engine
from assistant.pipeline.watchdog import watch_audio
from assistant.machine.hardware import detect, llama_offload
from assistant.machine.planner import plan_for, recommend
from assistant.think.replies import InstantReplies, Replies
from assistant.think.skills import Skills, often_answers
from assistant.think.skills.facts import facts
from assistant.think.skills.jokes import JOKES, KOREAN_JOKES
from assistant.think.skills.korean_timers import is_korean, korean_label
from assistant.think.skills.stopwatch import Stopwatch
from assistant.think.skills.timer_store import Timer, Timers
from assistant.resources import data_dir
from assistant.hear import korean_grammar
from assistant.hear.end_of_turn import longest_silence_ms
from assistant.hear.microphone import MicSource
from assistant.speak.sinks import NullSink, SpeakerSink
from assistant.hear.stt import Stt, load_stt
from assistant.speak.tts import Tts, load_tts
from assistant.hear.vad import SileroVad, Vad
from assistant.speak.ready import ready_audio
from assistant.speak.voices import with_script_voices

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
        from assistant.think.remote_llm import RemoteLlm

        return RemoteLlm(config)
    path = find_llm(config.model).path
    offload, _why = llama_offload()
    hardware = detect(probe_gpus=offload and config.n_gpu_layers is None)
    plan = plan_for(config, path, hardware)
    if not plan.fits:
        raise ModelError(f"{path.name} is too big for this machine: {plan.summary}")
    log.info("LLM offload plan: %s", plan.summary)
    planned = replace(config, model=str(path), n_gpu_layers=plan.n_gpu_layers, n_ctx=plan.n_ctx,
                      kv_type=plan.kv_type)
    llm = local_llm.LlamaLlm(planned)
    tier = recommend(hardware)
    if tier.file.lower() != path.name.lower():
        llm.bigger_model = tier.model  # what doctor recommends for this machine
    return llm


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
    with ThreadPoolExecutor(max_workers=4, thread_name_prefix="load") as pool:
        if config.stt.language == "ko":  # where a Korean sentence ends: read in a turn, loaded here
            pool.submit(_timed("grammar", korean_grammar.analyser, progress, times))
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
    """An engine on the loaded models, its audio devices watched (:func:`watch_audio`);
    ``echo`` shares an echo canceller that has already learnt the room (default: the
    engine makes its own)."""
    engine = Engine(
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
    watch_audio(engine)
    return engine


def make_replies(config: Config, tts: Tts, output_rate: int) -> Replies | None:
    """The instant replies with their audio ready before the first turn (rendering it
    would compete with the first answer; after the first start it comes from disk), and the
    skills' answers asked often (:data:`~assistant.think.skills.ASKED_OFTEN`, :func:`told_first`)."""
    korean = config.stt.language == "ko"
    often = tuple(often_answers(korean) + told_first(korean)) if config.skills.enabled else ()
    replies = load_replies(config.replies, tts, output_rate, also=often)
    if replies is not None:
        replies.wait_ready(timeout=120)
    return replies


def told_first(korean: bool) -> list[str]:
    """The joke and the fun fact every run tells first (each list is told in turn from its first)."""
    languages = ("en", "ko") if korean else ("en",)
    return [(KOREAN_JOKES if language == "ko" else JOKES)[0] for language in languages] + \
        [facts()[language][0].text for language in languages]


def load_replies(config: RepliesConfig, tts: Tts, output_rate: int,
                 background: bool | None = None, also: tuple[str, ...] = ()) -> InstantReplies | None:
    """The instant replies with ``tts`` rendering their audio; None when disabled.

    ``background`` None renders on a thread when the engine allows concurrent use
    (Piper) and otherwise here, before the engine starts (the system voice: its first
    start takes a moment longer, later starts read the disk cache). Raises
    :class:`ConfigError` for a malformed table.
    """
    from assistant.think import replies

    concurrent = tts.concurrent if background is None else background
    return replies.load_replies(config, ready_audio(tts, output_rate), concurrent, also)


def desktop_timers() -> Path:
    """Where the desktop app keeps its timers and alarms (unless ``skills.timers_file`` says)."""
    return data_dir() / "timers.json"


def make_skills(config: Config, replies: Replies | None = None, output_rate: int | None = None,
                timers_path: Path | None = None) -> Skills | None:
    """The skills (timers running, kept in ``timers_path``: the place's own file, or None
    for memory only), using the instant replies' audio where they share a text."""
    from assistant.think.skills import load_skills

    skills = load_skills(config, output_rate, timers_path)
    if skills is not None and replies is not None:
        skills.use_reply_audio(replies.audio)
    return skills


# ------------------------------------------------------------------ for a front end


def timer_label(timer: Timer) -> str:
    """How a timer is called on screen: in Korean where it was set in Korean ("라면 타이머", "오전 일곱 시 알람"),
    else "pasta timer", "alarm"."""
    return korean_label(timer) if is_korean(timer) else timer.label


__all__ = ["AudioIn", "AudioOut", "LoadedModels", "Llm", "Replies", "Skills", "Stopwatch", "Timer", "Timers", "is_korean",
           "timer_label"]


def reload_models(engines: LoadedModels, config: Config, changed: set[str],
                  progress: Callable[[str], None] | None = None) -> LoadedModels:
    """``engines`` with the models named in ``changed`` (``all``, ``llm``, ``stt``, ``tts``)
    loaded again for ``config``."""
    if "all" in changed:
        return load_models(config, progress=progress)
    say = progress or (lambda text: None)
    if "llm" in changed:
        say("loading the language model")
        engines = replace(engines, llm=load_llm(config.llm))
    if "stt" in changed:
        say("loading speech recognition")
        engines = replace(engines, stt=load_stt(config.stt))
    if "tts" in changed:
        say("loading the voice")
        engines = replace(engines, tts=with_script_voices(load_tts(config.tts), config.tts))
    return engines


def use_system_prompt(llm: Llm, prompt: str) -> None:
    """Give the loaded model a new system prompt (the conversation starts over)."""
    llm.config = replace(llm.config, system_prompt=prompt)
    llm.reset()


def open_microphone(config: Config) -> AudioIn:
    """The configured microphone; raises AudioError saying why there is none."""
    audio = config.audio
    return MicSource(audio.sample_rate, audio.frame_samples, audio.input_device)


def open_speaker(config: Config) -> AudioOut:
    """The configured speaker; raises when there is none (PortAudio errors are not all AudioError)."""
    return SpeakerSink(config.audio.output_rate, config.audio.output_device)


def silent_output(config: Config) -> AudioOut:
    """An output that plays nothing, on the clock a speaker would keep (replies are shown only)."""
    return NullSink(config.audio.output_rate)


def utterance_tail_ms(config: Config) -> float:
    """Silence after which a push-to-talk utterance is over: the longest the turn detector
    may wait, and a little more."""
    return longest_silence_ms(config) + 200
