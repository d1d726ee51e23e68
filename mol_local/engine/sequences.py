"""Bookkeeping for LlamaCppEngine's KV sequences (one per slot, one for the router)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

_QUIET = False
SPECULATIVE_CHUNK = 128  # prefill tok/s on 2 cores: 162 at 512-token chunks, 151-162 at 128, 134-142 at 64


def quiet_llama_logs() -> None:
    """Route llama.cpp's log callback into silence once (never dup2 the terminal's fds)."""
    global _QUIET
    if not _QUIET:
        from llama_cpp import _logger

        _logger.logger.setLevel(50)
        _QUIET = True


@dataclass
class Seq:
    """What one KV sequence holds: its tokens, in position order, and under which stack."""

    id: int
    tokens: list[int] = field(default_factory=list)
    stack_key: tuple = ()
    last_used: int = 0


def common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i
