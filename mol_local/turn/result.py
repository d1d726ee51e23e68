"""What a turn hands back (`TurnResult`) and the callbacks a live display gives it (`TurnHooks`).

Their own module so that every part of a turn (mol_local.turn, remote_turn, recall) imports them at the top
without importing the turn loop: no import cycle.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from memory.timeline import RouteRecord
from mol_local.engine.base import GenerationResult
from mol_local.extract import MemoryChange


@dataclass
class TurnResult:
    conversation_id: str
    task_id: str
    slot: str
    answer: str
    route: RouteRecord | None
    summary: str | None
    timings_ms: dict[str, float] = field(default_factory=dict)
    tool_rounds: int = 0
    memory_ids: list[str] = field(default_factory=list)  # memories placed in the answer view's tail
    memories_written: list[str] = field(default_factory=list)  # by /remember or automatic extraction
    memory_changes: list[MemoryChange] = field(default_factory=list)  # what extraction added, updated or retired
    notices: list[str] = field(default_factory=list)  # e.g. extraction failed after the turn committed
    engine: str = ""  # which engine answered, e.g. "local local-default (fallback)"; see remote_turn
    finish_reason: str = "stop"  # the answer hop's: stop | length | time | cancelled
    view_id: str | None = None  # L3: the stored generative-UI view this answer is (mol_local.genui)
    tool_calls: list[dict] = field(default_factory=list)  # each call made: name, arguments, result, error
    document: dict | None = None  # L3: the final UI document
    ui_raw_first: str | None = None  # L3: the first attempt as generated, before any repair
    code_check: str = ""  # what running the answer's code found (turn/code_check.py); '' when it had none
    code_redrafted: bool = False  # the streamed draft's code failed and a later draft that passes is the answer


@dataclass
class TurnHooks:
    """Callbacks for a live display. All optional; called on the turn's thread."""

    on_route: Callable[[RouteRecord], None] | None = None
    on_token: Callable[[str], None] | None = None
    on_answer: Callable[[str], None] | None = None  # the answer is delivered; the summary follows
    on_fallback: Callable[[str], None] | None = None  # the remote failed (reason); the local fallback answers now
    on_tool: Callable[[dict], None] | None = None  # a tool call ran: name, arguments, result, error
    on_draft: Callable[[dict], None] | None = None  # L3: the complete part of the document being written (genui.partial)


def count_answer(timings: dict, result: GenerationResult) -> None:
    """Add one answer hop to the turn's timings: the first hop's TTFT, every hop's time and tokens."""
    timings.setdefault("answer_ttft_ms", result.timings_ms["ttft"])
    if "first_component" in result.timings_ms:  # L3 drawn as it is written: its first output on screen
        timings.setdefault("answer_first_component_ms", result.timings_ms["first_component"])
    for key, value in (("answer_ms", result.timings_ms["total"]), ("answer_decode_ms", result.timings_ms["decode"]),
                       ("prefill_tokens", result.prefill_tokens), ("completion_tokens", result.completion_tokens)):
        timings[key] = timings.get(key, 0) + value
    timings["prompt_tokens"] = result.prompt_tokens
