"""L3's answer hop inside the turn loop: compose a document instead of prose.

The turn loop calls `answer_ui` when the slot is the UI slot. The UI guide
(catalog, action fields, one example: ~420 tokens) is part of L3's head
(`Runtime.head`), so its KV is computed once and reused, and the tail is the
user's message unchanged: L3's view is an ordinary slot view, so its past
turns match its KV and the trainer sees exactly what ran. Prefilling the
guide in every tail cost about 2 s per L3 turn on 2 cores; on the genui eval
set adherence and validity after repair held (`mol bench genui --placement`).

A document with `ask_model` actions holds the task open, so pressing one
continues the same L3 task (sticky, no route) with the event as the user's
message.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from mol_local.engine.base import GenerationResult, Message, Stack
from mol_local.genui.generate import Composed, compose
from mol_local.genui.partial import DraftReader
from mol_local.models import on_embedded

if TYPE_CHECKING:
    from sqlite_utils import Database

    from mol_local.runtime import Runtime
    from mol_local.turn import TurnHooks

UI_SLOT = "L3"
UI_MAX_TOKENS: int | None = None  # None: the HCP answer budget (answer.max_tokens; 384 fits catalog documents)


def is_ui_slot(rt: Runtime, slot: str) -> bool:
    return slot == UI_SLOT and slot in rt.hcp.slots


def answer_ui(
    rt: Runtime, slot: str, view: Sequence[Message], stack: Stack, cancel: threading.Event | None, hooks: TurnHooks,
    request: str = "",
) -> tuple[Composed, GenerationResult]:
    """Compose on L3; returns the composition and one GenerationResult summing its attempts.

    The component kinds `request` names ("a timer", "a form … and a toggle") are required by the grammar
    (mol_local.genui.asked): a person who asked for a timer gets one.

    With `hooks.on_draft`, each time more of the document is complete it gets the draft
    (mol_local.genui.partial), so the view is drawn as it is written; the draft's first component
    is the slot's time to first output ("first_component" in the result's timings)."""
    on_draft = hooks.on_draft
    reader = DraftReader()
    t0 = time.perf_counter()
    first_component: float | None = None

    def stream(piece: str) -> None:
        nonlocal first_component
        draft = reader.feed(piece)
        if draft is None or on_draft is None:
            return
        if draft["components"] and first_component is None:
            first_component = (time.perf_counter() - t0) * 1000
        on_draft(draft)

    composed = compose(rt.engine, view, seq=slot, stack=stack, max_tokens=UI_MAX_TOKENS or rt.hcp.answer_max_tokens,
                       cancel=cancel, on_token=stream if on_draft is not None else None, request=request,
                       starters=on_embedded(rt.hcp), now=rt.clock())
    rs = composed.results
    merged = GenerationResult(
        text=composed.text,
        finish_reason=rs[-1].finish_reason,
        prompt_tokens=rs[-1].prompt_tokens,
        prefill_tokens=sum(r.prefill_tokens for r in rs),
        completion_tokens=sum(r.completion_tokens for r in rs),
        timings_ms={"ttft": rs[0].timings_ms.get("ttft", 0.0), "total": sum(r.timings_ms.get("total", 0.0) for r in rs),
                    "decode": sum(r.timings_ms.get("decode", 0.0) for r in rs),
                    **({"first_component": first_component} if first_component is not None else {})},
    )
    if hooks.on_token is not None:
        hooks.on_token(composed.text)
    return composed, merged


def holds(composed: Composed) -> bool:
    """Keep the L3 task open while its view can still ask the model something."""
    return composed.document is not None and any(a["kind"] == "ask_model" for a in composed.document.actions.values())


def view_write(rt: Runtime, composed: Composed, conversation_id: str, task_id: str) -> tuple[Callable[[Database, list[str]], None], str] | None:
    """(the write that keeps the turn's view with its commit, the view's id); None when the turn drew none."""
    if composed.document is None:
        return None
    from mol_local.genui.store import GenUIStore

    store = GenUIStore(rt.db)
    row = store.row(composed.document, conversation_id=conversation_id, task_id=task_id)
    return store.writer(row), row["id"]
