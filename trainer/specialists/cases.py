"""The shape every specialist generator yields, and the split rule.

A `Case` is one user request for one slot with its gold continuation: the
assistant and tool messages that follow the user message, exactly as the turn
loop appends them (an assistant message holding only `<tool_call>` blocks, one
`tool` message per call with the tool's real output, then the final answer),
and the summary the slot writes afterwards. `check` is what the slot's
verifier needs to decide whether an output is right (a reminder's due time,
a function's tests, the named items of a checklist); it is plain JSON.

Hold-outs are whole templates: `template` names the generator that produced
the case, and `split_of(template)` is fixed, so no held-out request shares a
template with a training one.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from mol_local.engine.base import Message

SPLITS = ("train", "heldout")


@dataclass(frozen=True)
class Case:
    slot: str
    template: str  # the template id: the unit of hold-out
    request: str  # the user's message
    gold: tuple[Message, ...]  # what follows the user message (assistant / tool messages), verbatim
    summary: str  # the gold summary-hop output for this task
    check: dict[str, Any] = field(default_factory=dict)  # what the verifier needs
    notes: tuple[str, ...] = ()  # memories placed in the tail (retrieved facts), if any

    @property
    def answer(self) -> str:
        """The final assistant message (after any tool rounds)."""
        return next(m["content"] for m in reversed(self.gold) if m["role"] == "assistant")

    @property
    def case_id(self) -> str:
        return hashlib.sha256(f"{self.slot}\0{self.template}\0{self.request}".encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Verdict:
    ok: bool
    reason: str = ""  # why not, in a few words (recorded in bench rows)
    score: float = 0.0  # 1.0 when ok; partial credit where a suite defines it


def split_of(template: str, heldout: frozenset[str]) -> str:
    return "heldout" if template in heldout else "train"
