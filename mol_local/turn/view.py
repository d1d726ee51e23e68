"""Own views: what slot Lk sees when it answers.

System head (intro + the slot's persona), then the timeline in order — Lk's own
past tasks verbatim, every other slot's past task as its user text plus its
summary — then the current turn. Retrieved notes go in the tail, inside the
current turn, never in the stable prefix, with the clock (date, weekday, time). The view is a pure function of the
timeline, so a slot's prefix is byte-identical every time it is re-entered.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from memory.timeline import TaskRecord
from mol_local.engine.base import Message
from mol_local.errors import ContextOverflow

TRIM_BLOCK = 8  # tasks are dropped from the front in blocks, so the prefix changes rarely


@dataclass(frozen=True)
class ViewSpec:
    slot: str
    head: str  # intro + persona; identical for every visit of this slot
    slot_names: dict[str, str]


def system_head(intro: str, persona: str) -> str:
    return f"{intro}\n\n{persona}".strip()


def task_messages(task: TaskRecord, spec: ViewSpec) -> list[Message]:
    """A past task as this slot sees it: verbatim if its own, else user text + summary."""
    if task.slot == spec.slot:
        return [{"role": m.role, "content": m.content} for m in task.messages]
    user = next((m.content for m in task.messages if m.role == "user"), "")
    name = spec.slot_names.get(task.slot, task.slot)
    summary = task.summary or "(no summary recorded)"
    return [
        {"role": "user", "content": user},
        {"role": "assistant", "content": f"[{name} ({task.slot}) handled this] {summary}"},
    ]


def now_line(now: datetime) -> str:
    """The clock line every slot's tail starts with, e.g. "Now: Tue 1 Dec 2026, 20:53"."""
    return f"Now: {now:%a} {now.day} {now:%b %Y}, {now:%H:%M}"


def with_tail(current: Sequence[Message], notes: Sequence[str], now: datetime | None = None) -> list[Message]:
    """Put the clock and retrieved notes in front of the newest user message of the current turn.

    Both belong to this turn only: a past task is shown without them, so they never
    enter the stable prefix (the prewarm after the turn re-evaluates that message bare).
    """
    out = [dict(m) for m in current]
    parts = [now_line(now)] if now is not None else []
    if notes:
        joined = "\n".join(f"- {n}" for n in notes)
        parts.append(f"Things you know that may help:\n{joined}")
    if parts:
        for m in reversed(out):
            if m["role"] == "user":
                m["content"] = "\n".join(parts) + f"\n\n{m['content']}"
                break
    return out


def build_view(
    spec: ViewSpec,
    history: Sequence[TaskRecord],
    current: Sequence[Message],
    *,
    notes: Sequence[str] = (),
    now: datetime | None = None,
    budget: int | None = None,
    count_tokens: Callable[[list[Message]], int] | None = None,
) -> list[Message]:
    """The slot's view. With a budget, drop the oldest tasks in blocks until it fits."""
    head = [{"role": "system", "content": spec.head}]
    tail = with_tail(current, notes, now)
    start = 0
    while True:
        body = [m for task in history[start:] for m in task_messages(task, spec)]
        view = head + body + tail
        if budget is None or count_tokens is None or count_tokens(view) <= budget:
            return view
        if start >= len(history):
            raise ContextOverflow(
                f"This message needs more than the {budget}-token context even on its own — shorten it"
            )
        start = min(len(history), (start // TRIM_BLOCK + 1) * TRIM_BLOCK)
