"""The seam between the turn loop and a model server.

The turn loop speaks in *sequences*: one per slot (and one for the router),
each holding that slot's own view. A local engine keeps each sequence's KV
resident between visits; a remote engine keeps nothing and resends text.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

Message = dict[str, str]  # {"role": ..., "content": ...}


@dataclass(frozen=True)
class AdapterSpec:
    """One LoRA in a slot's stack: a GGUF path and the scale it is applied with."""

    path: str
    scale: float = 1.0


Stack = tuple[AdapterSpec, ...]


@dataclass
class GenerationRequest:
    seq: str  # which sequence (slot label or "route") holds this prompt's KV
    messages: Sequence[Message]
    stack: Stack = ()
    max_tokens: int = 256
    temperature: float = 0.0
    seed: int = 0
    grammar: str | None = None  # GBNF; the answer then always parses under it
    call_grammar: str | None = None  # GBNF for each `<tool_call>` block: from the open tag to the close tag only
    keep_prefix_of: Sequence[Message] | None = None  # trim KV back to this after generating
    ignore_eos: bool = False  # benchmarks: always produce exactly max_tokens
    repeat_penalty: float = 1.0
    top_p: float = 0.95  # nucleus sampling when temperature > 0
    stop: Sequence[str] = ()  # the caller's stop strings (OpenAI `stop`): the answer ends before the first one
    max_seconds: float | None = None  # wall-clock cap of the decode; None = the engine's (HCP runtime.hop_max_seconds)
    cancel: threading.Event | None = None
    on_token: Callable[[str], None] | None = None


@dataclass
class GenerationResult:
    text: str
    finish_reason: str  # "stop", "length", "time" (the wall-clock cap) or "cancelled"
    prompt_tokens: int
    prefill_tokens: int  # tokens actually evaluated for the prompt (the rest came from KV)
    completion_tokens: int
    timings_ms: dict[str, float] = field(default_factory=dict)


class Engine(ABC):
    """What the turn loop needs from a model: generate on a named sequence."""

    name: str = "engine"

    @abstractmethod
    def generate(self, request: GenerationRequest) -> GenerationResult:
        """Render `messages`, reuse what the sequence already holds, stream the answer."""

    @abstractmethod
    def count_tokens(self, messages: Sequence[Message], *, add_generation_prompt: bool = True) -> int:
        """Tokens the rendered messages take; the view builder trims with this."""

    def context_limit(self) -> int:
        """Largest prompt+answer a single sequence may hold."""
        return 4096

    def choose(
        self,
        seq: str,
        messages: Sequence[Message],
        choices: Sequence[str],
        stack: Stack = (),
        cancel: threading.Event | None = None,
    ) -> str | None:
        """The choice the model ranks first as the whole answer, from one forward pass.

        Equivalent to greedy decoding under a grammar that allows exactly `choices`,
        without the decode steps. None when this engine cannot score (remote engines,
        or choices that do not differ in exactly one final token); callers then generate.
        """
        return None

    def prefill(
        self, seq: str, messages: Sequence[Message], stack: Stack = (), cancel: threading.Event | None = None, *, speculative: bool = False
    ) -> int:
        """Make `seq` hold `messages` (no generation prompt) so a later prompt that extends them
        evaluates only its new tail. Returns tokens evaluated; engines that hold no state return 0.
        `speculative` (prewarm): a full cache raises ContextOverflow instead of evicting another sequence."""
        return 0

    @property
    def reuses_prefixes(self) -> bool:
        """True when `prefill` now saves work later (a resident KV per sequence, reuse on)."""
        return False

    def held_tokens(self, seq: str) -> int:
        """Tokens `seq` holds resident right now (0 for engines that hold no state)."""
        return 0

    def reset(self, seq: str | None = None) -> None:
        """Forget cached state for one sequence (or all). Remote engines hold none."""

    def close(self) -> None:
        """Release native resources."""
