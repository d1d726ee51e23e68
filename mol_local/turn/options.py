"""What a caller may ask of a turn's answer hop (an OpenAI client through `mol serve`).

The route, summary and memory hops keep the HCP's budgets; only the answer the
person (or program) reads takes the caller's max_tokens, temperature, seed,
top_p, stop strings and output grammar, and its finish reason is reported back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mol_local.runtime import Runtime


@dataclass(frozen=True)
class AnswerOptions:
    max_tokens: int | None = None  # None: the HCP's answer.max_tokens
    temperature: float | None = None  # None: the HCP's answer.temperature
    seed: int = 0
    top_p: float = 0.95
    stop: tuple[str, ...] = ()
    grammar: str | None = None  # GBNF the answer must follow (response_format); no tool calls are parsed from it
    memory: bool = True  # put retrieved personal memories in the tail (off for API clients unless the HCP allows it)
    no_ui: bool = False  # never answer with a UI document: a routed UI slot answers on the entry slot instead
    system: str = ""  # the client's own system prompt, appended to the slot's system head
    source: str = ""  # the conversation's source when this turn commits ("api" for mol serve); "" leaves it


def words_slot(rt: Runtime, slot: str) -> str:
    """`slot`, unless it answers with UI documents: then the routing fallback, the entry slot or the first other slot."""
    from mol_local.turn.ui import is_ui_slot

    if not is_ui_slot(rt, slot):
        return slot
    for other in (rt.hcp.route_fallback, rt.hcp.entry_slot, *rt.hcp.slots):
        if not is_ui_slot(rt, other):
            return other
    return slot
