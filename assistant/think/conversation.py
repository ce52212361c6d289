"""What every language-model backend shares: the conversation it keeps (a history within a
token budget), what one generation measured, the :class:`Llm` protocol the pipeline
drives, and the error a backend raises."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Protocol

from assistant.config import LlmConfig
from assistant.timeline import Timeline


class LlmError(RuntimeError):
    pass


@dataclass
class Exchange:
    user: str
    assistant: str
    tokens: int


@dataclass
class History:
    """Past turns kept within a token budget.

    When the budget is exceeded the oldest turns are dropped until half the budget is
    left. Dropping in one big step (not one turn per turn) keeps the prompt prefix
    stable, so the KV cache is rebuilt once per many turns instead of every turn.
    """

    budget_tokens: int
    count_tokens: Callable[[str], int]
    exchanges: list[Exchange] = field(default_factory=list)
    examples: list[tuple[str, str]] = field(default_factory=list)
    """Example exchanges shown before the conversation (see :mod:`assistant.think.prompt`); never dropped."""
    bigger_model_named: bool = False
    """A bigger model has been named in this conversation (a hedge, or "I don't know that one"): once is enough."""

    @property
    def tokens(self) -> int:
        return sum(e.tokens for e in self.exchanges)

    def add(self, user: str, assistant: str) -> None:
        cost = self.count_tokens(user) + self.count_tokens(assistant) + 8  # template markup
        self.exchanges.append(Exchange(user, assistant, cost))
        if self.tokens > self.budget_tokens:
            while self.exchanges and self.tokens > self.budget_tokens // 2:
                self.exchanges.pop(0)

    def messages(self, system: str, user: str) -> list[dict[str, str]]:
        messages = [{"role": "system", "content": system}]
        for user_said, reply in self.examples:
            messages += [{"role": "user", "content": user_said}, {"role": "assistant", "content": reply}]
        for e in self.exchanges:
            messages += [{"role": "user", "content": e.user}, {"role": "assistant", "content": e.assistant}]
        messages.append({"role": "user", "content": user})
        return messages

    def copyable(self) -> list[tuple[str, str]]:
        """What a small model (the one shown examples) may copy instead of answering: its examples, and its
        own answers earlier in the conversation (:mod:`~assistant.think.copy_guard`); nothing for another."""
        if not self.examples:
            return []
        return [*self.examples, *((e.user, e.assistant) for e in self.exchanges)]

    def naming(self, bigger_model: str) -> str:
        """The bigger model to name after a hedge: ``bigger_model`` until it has been heard once in this
        conversation, then '' (said after every unsure answer, it was a sentence longer than most answers)."""
        return "" if self.bigger_model_named else bigger_model

    def clear(self) -> None:
        self.exchanges.clear()
        self.bigger_model_named = False


@dataclass
class GenerationStats:
    prompt_tokens: int = 0
    """Tokens in the rendered prompt."""
    reused_tokens: int = 0
    """Of those, tokens already in the KV cache (not evaluated again)."""
    tokens: int = 0
    """Tokens generated."""
    odds: Any = None
    """The probabilities of the chosen tokens (:class:`~assistant.think.confidence.TokenOdds`),
    when the backend can tell them; None otherwise."""
    replaced: str = ""
    """Why the model's words were not said and the reply guard's were ('copy', 'language'),
    or '' (:mod:`~assistant.think.reply_guard`)."""

    def record(self, timeline: Timeline) -> None:
        """Keep the counts in a turn's timeline."""
        timeline.set("tokens", self.tokens)
        timeline.set("prompt_tokens", self.prompt_tokens)
        timeline.set("prompt_reused", self.reused_tokens)
        if self.replaced:
            timeline.set("replaced", self.replaced)


class Llm(Protocol):
    """What the engine, the bench and the front ends use of a language model. A backend
    that lacks a capability implements it as a no-op (see :class:`~.remote_llm.RemoteLlm`)."""

    name: str
    config: LlmConfig
    """The settings it runs with; a new ``system_prompt`` applies after :meth:`reset`."""
    path: Path | None
    """The model file, or None for a model on a server."""
    history: History
    """The conversation so far, and the example exchanges before it."""
    quantization: str
    """The weights' quantization (``Q4_1``), or '' when not known."""
    build_note: str | None
    """What the native build check changed for this model (None when nothing)."""
    bigger_model: str
    """A model that would answer better on this machine, named when a reply is hedged ('': none)."""

    def stream(self, user: str, stats: GenerationStats) -> Iterator[str]:
        """Yield reply text pieces as tokens arrive; closing the iterator stops generation."""

    def remember(self, user: str, reply: str) -> None:
        """Add a finished exchange to the conversation."""

    def reset(self) -> None:
        """Forget the conversation."""

    def count_tokens(self, text: str) -> int:
        """Tokens of ``text`` (an estimate where the tokenizer is not at hand)."""

    def prefill(self, partial: str) -> int:
        """Evaluate the prompt up to the user's words so far, while they speak; the
        tokens evaluated (0: nothing done)."""

    def all_cores(self, on: bool) -> None:
        """Decode on every core (``on``) or on the decoding threads only."""

    def end_of_turn(self, user: str, reply_to: str | None = None) -> float | None:
        """The model's probability that a sentence ends right after ``user`` (None: not
        known, or the model cannot read the words); ``reply_to``: the words the reply will
        answer, when they differ (Whisper's punctuation)."""

    @property
    def on_cpu(self) -> bool:
        """Decoding competes with speech synthesis for this machine's cores."""
