"""The language model: llama.cpp through llama-cpp-python (the private parts of it used
here are listed in :mod:`assistant.think.llama_internals`).

One owner thread uses the model at a time (``Llama`` is not thread-safe). The prompt is
rendered with the GGUF's own chat template and tokenized here, so the engine knows how
many prompt tokens the KV cache already holds: the system prompt and history form a
stable prefix that is evaluated once and reused every turn.
"""

from __future__ import annotations

import atexit
import logging
import threading
import weakref
from pathlib import Path
from typing import Iterator

from assistant.think import kvfile, llama_internals
from assistant.machine import native_probe, synthetic
from assistant.think.draft import common_prefix, make_draft
from assistant.config import LlmConfig
from assistant.resources import cache_dir
from assistant.machine.gguf_info import check_loadable
from assistant.machine.models import ModelError, find_llm
from assistant.think.confidence import TokenOdds
from assistant.think.conversation import GenerationStats, History, LlmError
from assistant.machine.planner import generation_threads, physical_cores, use_mmap
from assistant.think.prompt import examples_for
from assistant.think.reply_guard import ReplyGuard

log = logging.getLogger(__name__)


def _kv_options(kv_type: str) -> dict:
    """llama.cpp options for a KV-cache precision (a quantized V cache needs flash attention)."""
    import llama_cpp

    types = {"f16": llama_cpp.GGML_TYPE_F16, "q8_0": llama_cpp.GGML_TYPE_Q8_0}
    if kv_type not in types:
        raise LlmError(f"unknown llm.kv_type '{kv_type}' (choose {' or '.join(types)})")
    if kv_type == "f16":
        return {}
    return {"type_k": types[kv_type], "type_v": types[kv_type], "flash_attn": True}


def _quiet_at_exit(model: "weakref.ref[LlamaLlm]") -> None:
    """Take the model for good as the process ends: a daemon thread still evaluating (the
    prefix refilled after a reply) would compute on weights being freed, and crash."""
    llm = model()
    if llm is not None:
        llm._lock.acquire(timeout=10)


class LlamaLlm:
    def __init__(self, config: LlmConfig, model_path: Path | None = None):
        try:
            import llama_cpp
            from llama_cpp.llama_chat_format import Jinja2ChatFormatter
        except ImportError as exc:
            raise LlmError("llama-cpp-python is not installed: pip install llama-cpp-python") from exc
        except OSError as exc:
            raise LlmError(f"llama-cpp-python cannot load its shared library: {exc}") from exc
        self.config = config
        path = model_path or find_llm(config.model).path
        check_loadable(path)
        self.path = path
        try:
            self.native = native_probe.check(path)
        except native_probe.NativeBuildError as exc:
            raise LlmError(str(exc)) from exc
        try:
            draft = make_draft(config, generation_threads(config))  # loads its own model: not inside model_params
            with native_probe.model_params(self.native.extra_bufts):
                self._llama = llama_cpp.Llama(
                    model_path=str(path),
                    n_ctx=config.n_ctx,
                    n_threads=generation_threads(config),
                    n_threads_batch=config.batch_threads or physical_cores(),
                    n_gpu_layers=config.n_gpu_layers if config.n_gpu_layers is not None else 0,
                    use_mmap=use_mmap(config, self.native.extra_bufts),
                    seed=config.seed,
                    verbose=False,
                    draft_model=draft,
                    **_kv_options(config.kv_type or "f16"),
                )
        except native_probe.NativeBuildError as exc:  # the fallback cannot be applied to this build
            raise LlmError(str(exc)) from exc
        except (ValueError, RuntimeError, OSError) as exc:
            raise ModelError(f"llama.cpp cannot load {path}: {exc}") from exc
        if why := llama_internals.problem(self._llama):
            raise LlmError(why)
        meta = self._llama.metadata
        template = meta.get("tokenizer.chat_template")
        if not template:
            raise ModelError(f"{path.name} has no chat template in its GGUF metadata")
        eos = self._llama.token_eos()
        bos = self._llama.token_bos()
        self._formatter = Jinja2ChatFormatter(
            template=template,
            eos_token=self._token_text(eos),
            bos_token=self._token_text(bos),
            stop_token_ids=[eos],
        )
        self.name = meta.get("general.name") or path.stem
        self.synthetic = synthetic.SpeakableNonsense(self._llama) if synthetic.SHAPE_KEY in meta else None
        """Random weights (a timing stand-in): replies are nonsense words, always ``max_tokens`` long."""
        if self.synthetic:
            log.warning("%s: %s", self.name, synthetic.NONSENSE)
        self.quantization = path.stem.rsplit(".", 1)[-1] if "." in path.stem else ""
        self.build_note = self.native.note
        self.history = History(config.history_tokens, self.count_tokens, examples=examples_for(config, path))
        self._lock = threading.Lock()
        atexit.register(_quiet_at_exit, weakref.ref(self))
        self._ends: list[int] | None = None
        """The tokens that end a sentence (see :meth:`_sentence_ends`)."""
        self.odds = TokenOdds(lambda token, detokenize=self._llama.detokenize: detokenize([token]))
        """The probabilities of the tokens of the reply being generated (its confidence)."""
        self.bigger_model = ""
        """A model that would answer better on this machine (named when a reply is hedged)."""
        self.warm()

    def _token_text(self, token: int) -> str:
        if token < 0:
            return ""
        return self._llama.detokenize([token], special=True).decode("utf-8", errors="ignore")

    def count_tokens(self, text: str) -> int:
        return len(self._llama.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    def _render(self, messages: list[dict[str, str]]) -> tuple[list[int], list[str]]:
        response = self._formatter(messages=messages)
        tokens = self._llama.tokenize(
            response.prompt.encode("utf-8"), add_bos=not response.added_special, special=True
        )
        stop = response.stop if isinstance(response.stop, list) else [response.stop] if response.stop else []
        return tokens, stop

    def system_prefix(self) -> list[int]:
        """Tokens shared by every prompt of this conversation: system prompt and history."""
        a, _ = self._render(self.history.messages(self.config.system_prompt, "a"))
        b, _ = self._render(self.history.messages(self.config.system_prompt, "b"))
        return a[: common_prefix(a, b)]

    def warm(self) -> None:
        """Put the prompt prefix in the KV cache (from disk when it was saved before)
        and run one short generation, so the first real turn pays neither the prefill
        of the system prompt nor buffer allocation."""
        with self._lock:
            prefix = self.system_prefix()
            self.load_stats = {"prefix_tokens": len(prefix), "prefix_from_disk": False, "prefix_eval_tokens": 0}
            if self._restore_prefix(prefix):
                self.load_stats["prefix_from_disk"] = True
            else:
                self._llama.reset()
                self._llama.eval(prefix)
                self.load_stats["prefix_eval_tokens"] = len(prefix)
                self._save_prefix(prefix)
            for _ in self._generate(self.history.messages(self.config.system_prompt, "Hi"), GenerationStats(), 2):
                pass
            self._llama.n_tokens = len(prefix)  # keep the prefix, drop the warm-up turn
        log.info("LLM warm: %d prefix tokens cached (%s)", len(prefix),
                 "from disk" if self.load_stats["prefix_from_disk"] else "evaluated")

    # -------------------------------------------------------- persistent prompt cache

    def _cache_key(self, prefix: list[int]) -> str:
        import json

        import llama_cpp

        stat = self.path.stat()
        return json.dumps({
            "model": str(self.path.resolve()), "size": stat.st_size, "mtime": stat.st_mtime_ns,
            "prefix": prefix, "n_ctx": self.config.n_ctx, "gpu": self.config.n_gpu_layers,
            "kv": self.config.kv_type or "f16", "draft": self.config.draft != "off",
            "llama_cpp": llama_cpp.__version__, "extra_bufts": self.native.extra_bufts,
        }, sort_keys=True)

    def _cache_file(self, key: str) -> Path | None:
        if not self.config.prompt_cache:
            return None
        import hashlib

        digest = hashlib.sha256(key.encode()).hexdigest()[:24]
        return cache_dir() / "prompt-cache" / f"{self.path.stem}-{digest}.kv"

    def _restore_prefix(self, prefix: list[int]) -> bool:
        """Load the saved KV cells of ``prefix``; any problem means rebuild, never a crash."""
        key = self._cache_key(prefix)
        path = self._cache_file(key)
        return path is not None and path.is_file() and kvfile.restore(self._llama, path, key, prefix)

    def _save_prefix(self, prefix: list[int]) -> None:
        key = self._cache_key(prefix)
        path = self._cache_file(key)
        if path is not None:
            kvfile.save(self._llama, path, key)

    def _generate(self, messages, stats: GenerationStats, max_tokens: int) -> Iterator[str]:
        tokens, stop = self._render(messages)
        stats.prompt_tokens = len(tokens)
        stats.reused_tokens = common_prefix(self._cached_tokens(), tokens[:-1])
        if len(tokens) + max_tokens > self.config.n_ctx:
            raise LlmError(f"prompt of {len(tokens)} tokens does not fit n_ctx={self.config.n_ctx}")
        cfg = self.config
        if self.synthetic:
            self.synthetic.begin(len(tokens))
        self.odds.begin(len(tokens))
        stats.odds = None if self.synthetic else self.odds
        for chunk in self._llama.create_completion(
            prompt=tokens,
            max_tokens=max_tokens,
            temperature=cfg.temperature,
            top_p=cfg.top_p,
            repeat_penalty=cfg.repeat_penalty,
            stop=stop,
            stream=True,
            logits_processor=[self.synthetic] if self.synthetic else [self.odds],
        ):
            stats.tokens += 1
            text = chunk["choices"][0]["text"]
            if text:
                yield text

    @property
    def on_cpu(self) -> bool:
        """Some layers run on the CPU, where decoding competes with speech synthesis."""
        if not self._supports_gpu():
            return True
        meta = self._llama.metadata
        layers = int(meta.get(f"{meta.get('general.architecture', '')}.block_count", 0))
        offloaded = self.config.n_gpu_layers or 0
        return not (offloaded < 0 or (layers and offloaded >= layers))

    @staticmethod
    def _supports_gpu() -> bool:
        import llama_cpp

        return bool(llama_cpp.llama_supports_gpu_offload())

    def all_cores(self, on: bool) -> None:
        """Decode the next tokens on every core (``on``) or on the decoding threads.
        Called by the thread consuming :meth:`stream` between tokens."""
        llama = self._llama
        self._set_threads(llama.n_threads_batch if on else llama.n_threads, llama.n_threads_batch)

    def _set_threads(self, decode: int, batch: int) -> None:
        """Threads for one token and for a batch of tokens, from the next evaluation on."""
        import llama_cpp

        llama_cpp.llama_set_n_threads(self._llama._ctx.ctx, decode, batch)

    def _cached_tokens(self) -> list[int]:
        """The tokens whose KV cells the context holds, in order."""
        return self._llama._input_ids[: self._llama.n_tokens].tolist()

    def prefill(self, partial: str) -> int:
        """Evaluate the prompt up to the user's words so far, while they still speak, so
        the turn itself evaluates only the last words and the reply header. Returns the
        tokens evaluated (0 when the model is busy or nothing is new).

        Only the part of the prompt that more words cannot change is evaluated (the last
        word may still grow), on the decoding threads: the speech recognizer is running
        on the other core. Words the recognizer revises are re-evaluated from there.
        """
        if not partial.strip() or not self._lock.acquire(blocking=False):
            return 0
        try:
            llama = self._llama
            system = self.config.system_prompt
            now, _ = self._render(self.history.messages(system, partial))
            more, _ = self._render(self.history.messages(system, partial + " and more words"))
            stable = now[: common_prefix(now, more) - 1]
            keep = common_prefix(self._cached_tokens(), stable)
            if keep >= len(stable) or len(stable) + self.config.max_tokens > self.config.n_ctx:
                return 0
            llama.n_tokens = keep
            self._set_threads(llama.n_threads, llama.n_threads)
            try:
                llama.eval(stable[keep:])
            finally:
                self._set_threads(llama.n_threads, llama.n_threads_batch)
            return len(stable) - keep
        finally:
            self._lock.release()

    def end_of_turn(self, user: str, reply_to: str | None = None) -> float | None:
        """The model's probability that a sentence ends right after ``user`` (the words
        without their final punctuation): its chance of the end-of-turn token or of ".",
        "?" or "!" next, from one set of logits. None when the model cannot read the words
        (:meth:`_reads`) or the template has no end-of-turn token after them. The prompt of
        the reply to ``reply_to`` (default ``user``) is evaluated in the same batch, the
        logits of ``user``'s last token kept too: the reply then samples at once, and one
        evaluation saves the model's fixed cost per call (~25 ms, embedded model, 2 cores)."""
        import llama_cpp
        import numpy as np

        if not user.strip():
            return None
        with self._lock:
            llama = self._llama
            prompt, _ = self._render(self.history.messages(self.config.system_prompt, user))
            vocab = llama_cpp.llama_model_get_vocab(llama._model.model)
            ends = [i for i, token in enumerate(prompt) if llama_cpp.llama_vocab_is_eog(vocab, token)]
            if not ends or len(prompt) + self.config.max_tokens > self.config.n_ctx:
                return None
            words = prompt[: ends[-1]]
            if not self._reads(user):
                return None
            keep = min(common_prefix(self._cached_tokens(), words), len(words) - 1)
            llama.n_tokens = keep
            reply_prompt = prompt
            if reply_to is not None and reply_to != user:
                reply_prompt, _ = self._render(self.history.messages(self.config.system_prompt, reply_to))
            rest = reply_prompt[keep:]
            if (self.synthetic or len(rest) > llama.n_batch or common_prefix(reply_prompt, words) < len(words)
                    or len(reply_prompt) + self.config.max_tokens > self.config.n_ctx):
                llama.eval(words[keep:])
                row = llama._ctx.get_logits()
            else:
                row = self._eval_keeping_logits(rest, len(words) - 1 - keep)
            logits = np.ctypeslib.as_array(row, shape=(llama.n_vocab(),)).astype(np.float64)
            probabilities = np.exp(logits - logits.max())
            probabilities /= probabilities.sum()
            return float(probabilities[prompt[ends[-1]]] + probabilities[self._sentence_ends()].sum())

    def _reads(self, text: str) -> bool:
        """Whether the model's vocabulary reads ``text`` as words: at most one token per
        character. A script it was not trained on (Hangul for SmolLM2) falls apart into
        byte tokens, and what the model says of those is noise."""
        tokens = self._llama.tokenize(text.encode("utf-8"), add_bos=False, special=False)
        return len(tokens) <= max(1, len(text.replace(" ", "")))

    def _sentence_ends(self) -> list[int]:
        """Tokens that end a sentence right after a word: the words are complete when the
        model would write one next as surely as when it would end the turn."""
        if self._ends is None:
            found = set()
            for mark in (".", "?", "!"):
                tokens = self._llama.tokenize(mark.encode(), add_bos=False, special=False)
                if len(tokens) == 1:
                    found.add(tokens[0])
            self._ends = sorted(found)
        return self._ends

    def _eval_keeping_logits(self, tokens: list[int], index: int):
        """Evaluate ``tokens`` after the cached ones in one batch (as ``Llama.eval``
        does), keeping the logits of ``tokens[index]`` too; returns a pointer to them."""
        import llama_cpp

        llama = self._llama
        llama._ctx.kv_cache_seq_rm(-1, llama.n_tokens, -1)
        batch = llama._batch
        batch.set_batch(batch=tokens, n_past=llama.n_tokens, logits_all=False)
        batch.batch.logits[index] = True
        llama._ctx.decode(batch)
        llama.input_ids[llama.n_tokens : llama.n_tokens + len(tokens)] = tokens
        llama.n_tokens += len(tokens)
        llama._requires_eval = False
        return llama_cpp.llama_get_logits_ith(llama._ctx.ctx, index)

    def stream(self, user: str, stats: GenerationStats) -> Iterator[str]:
        with self._lock:
            messages = self.history.messages(self.config.system_prompt, user)
            limit = self.config.max_tokens
            if self.synthetic:  # nonsense by design, timed at full length
                yield from self._generate(messages, stats, limit)
                return
            guard = ReplyGuard(self.config.reply_language, examples=self.history.copyable(), question=user,
                               bigger_model=self.history.naming(self.bigger_model))
            yield from guard.stream(self._generate(messages, stats, limit), stats, limit)

    def remember(self, user: str, reply: str) -> None:
        self.history.add(user, reply)
        # The next prompt's prefix is now the system prompt, the history with this
        # exchange and the next user header. Evaluate what the KV cache lacks of it now,
        # as the turn closes, not in the next turn's time to first token: after a
        # normal turn that is the reply's end markup (~6 tokens), after a history trim
        # the whole shortened history.
        threading.Thread(target=self._refill_prefix, name="llm-refill", daemon=True).start()

    def _refill_prefix(self) -> None:
        with self._lock:
            prefix = self.system_prefix()
            keep = common_prefix(self._cached_tokens(), prefix)
            self._llama.n_tokens = keep
            if keep < len(prefix):
                self._llama.eval(prefix[keep:])

    def reset(self) -> None:
        with self._lock:
            self.history.clear()
            prefix = self.system_prefix()
            if common_prefix(self._cached_tokens(), prefix) == len(prefix):
                self._llama.n_tokens = len(prefix)  # the system prompt stays in the KV cache
            else:
                self._llama.reset()
                self._llama.eval(prefix)

