"""Check the hidden summary before other slots see it.

The summary is what every other slot learns about a task, so a wrong one misleads
them for the rest of the conversation. Measured on the embedded 135M base
(`mol bench runtime --turns 9`, rows carry the summary text): from the second
turn on, it often copied the first task's summary, which every view shows as
"[Chat (L0) handled this] The user asked …", instead of writing this task's,
and it loops, repeating one line until the budget runs out.

So: repeated lines are dropped (order kept), and a summary that is empty or
copies an earlier task's is replaced by an extractive one built from this
task's own request and answer. The turn records which it was
(`summary_fallback` in its timings).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from memory.timeline import MessageRecord, TaskRecord
from mol_local.engine.base import GenerationRequest

if TYPE_CHECKING:
    from mol_local.runtime import Runtime
    from mol_local.turn.session import Session

REQUEST_CHARS = 160
ANSWER_CHARS = 200
_SPACE = re.compile(r"\s+")


def _norm(text: str) -> str:
    return _SPACE.sub(" ", text).strip().lower()


def drop_repeated_lines(text: str) -> str:
    """Each distinct non-empty line once, in order of first appearance."""
    seen: set[str] = set()
    kept = []
    for line in text.strip().splitlines():
        key = _norm(line)
        if key and key in seen:
            continue
        seen.add(key)
        kept.append(line.rstrip())
    return "\n".join(kept).strip()


def copies_earlier(summary: str, earlier: Iterable[str]) -> bool:
    """True when the summary is (a prefix of, or equal to) an earlier task's summary."""
    mine = _norm(summary)
    return bool(mine) and any(e and (_norm(e) == mine or _norm(e).startswith(mine)) for e in earlier)


def extractive_summary(request: str, answer: str) -> str:
    """The request and the first line of the answer, cut short: never wrong, if plain."""
    first = next((line.strip() for line in answer.splitlines() if line.strip()), "")
    asked = _SPACE.sub(" ", request).strip()
    asked = asked if len(asked) <= REQUEST_CHARS else asked[: REQUEST_CHARS - 1] + "…"
    said = first if len(first) <= ANSWER_CHARS else first[: ANSWER_CHARS - 1] + "…"
    return f'Asked: "{asked}". Answered: {said}' if said else f'Asked: "{asked}". No answer was given.'


def checked_summary(text: str, *, request: str, answer: str, earlier: Iterable[str]) -> tuple[str, bool]:
    """(summary to store, whether the extractive fallback replaced the model's)."""
    cleaned = drop_repeated_lines(text)
    if not cleaned or copies_earlier(cleaned, earlier):
        return extractive_summary(request, answer), True
    return cleaned, False


def summarize(
    session: Session,
    rt: Runtime,
    slot: str,
    task: TaskRecord,
    new: list[MessageRecord],
    history: list[TaskRecord],
    cancel: threading.Event | None,
    notes: Sequence[str],
    now: datetime,
) -> tuple[str, int, float, int, bool]:
    """The hidden summary hop; its scaffold is trimmed from the slot's KV afterwards.
    It sees the answer's own view (same tail), so only the instruction is evaluated.
    Returns (summary, its tokens, ms, prompt tokens evaluated, whether the extractive fallback
    replaced a copied or empty one: `checked_summary`)."""
    done = [{"role": m.role, "content": m.content} for m in task.messages + new]
    view = session.view_for(slot, done, history, notes, now, rt)
    ask = view + [{"role": "user", "content": rt.pack.summary}]
    result = rt.engine.generate(
        GenerationRequest(
            seq=slot,
            messages=ask,
            stack=rt.slot_stack(slot),
            max_tokens=rt.hcp.summary_max_tokens,
            temperature=0.0,
            repeat_penalty=rt.hcp.repeat_penalty,
            keep_prefix_of=view,
            cancel=cancel,
        )
    )
    session._check(cancel)
    request = next((m["content"] for m in done if m["role"] == "user"), "")
    answer = next((m["content"] for m in reversed(done) if m["role"] == "assistant"), "")
    text, fell_back = checked_summary(result.text, request=request, answer=answer, earlier=(t.summary or "" for t in history))
    return text, result.completion_tokens, result.timings_ms["total"], result.prefill_tokens, fell_back
