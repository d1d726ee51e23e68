"""Score real turns on held-out cases: the state in the real stores, the code's tests, the document's content.

`Suite` runs a case as a person's turn on one runtime: the stores are reset
and seeded as the case says (reminders to tick off, notes to find, memories
the recall step will put in the tail), the clock is set to the case's "now",
the turn runs forced onto the case's slot (no route: this scores the slot),
and the verdict comes from the slot's own verifier. In a multi-turn run the
cases of all four slots follow each other in one conversation, and each
answer is also checked for copying an earlier view entry (a summary or an
earlier answer), the trap the bare base fell into.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from hcp.schema import SLOT_LABELS
from mol_local.engine.base import Stack
from mol_local.runtime import Runtime
from trainer.specialists.cases import Case, Verdict
from trainer.specialists.toolrun import apply_seed, reset_state, score_state, seed_of

if TYPE_CHECKING:
    from mol_local.turn import Session, TurnResult

COPY_MIN_CHARS = 40


class ArmRuntime(Runtime):
    """A runtime whose answer stacks are set from outside (an arm of a bench, a gate's candidate);
    the route stack stays the registry's."""

    arm_stacks: dict[str, Stack] = {}

    def slot_stack(self, slot: str) -> Stack:
        return self.arm_stacks.get(slot, ())

    def close_stores(self) -> None:
        """Close what this runtime opened, but not an engine it was handed (another runtime owns that)."""
        if self.__dict__.get("tool_hub") is not None:
            self.__dict__["tool_hub"].close()
        self.db.close()


@dataclass
class Row:
    slot: str
    template: str
    request: str
    ok: bool
    score: float
    reason: str
    answer: str
    turn: int = 0
    copied: bool = False
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.lower()).strip()


def copies_entry(answer: str, entries: Sequence[str]) -> bool:
    """Does the answer repeat an earlier view entry (a summary or an earlier answer) of at least COPY_MIN_CHARS?"""
    a = _norm(answer)
    if a.startswith("[") and "handled this]" in a:
        return True
    if a.startswith("{"):  # documents share their opening keys; only a whole earlier document counts
        return any(_norm(e) == a for e in entries)
    for entry in entries:
        e = _norm(entry)
        if len(e) < COPY_MIN_CHARS:
            continue
        if e[:COPY_MIN_CHARS] in a or (len(a) >= COPY_MIN_CHARS and a[:COPY_MIN_CHARS] in e):
            return True
    return False


def clear_memories(rt: Runtime, conversation_id: str | None = None) -> None:
    """Every memory but what was said in `conversation_id` (forgetting that would forget the turns it came from)."""
    from mol_local.forget import forget_memories

    ids = [r["id"] for r in rt.db.query("select id from memories where kind != 'said' or conversation_id is not ?", [conversation_id])]
    if ids:
        forget_memories(rt, ids)


def prepare(rt: Runtime, case: Case, conversation_id: str) -> None:
    """Fresh stores seeded as the case says, and the case's clock."""
    reset_state(rt)
    clear_memories(rt, conversation_id)
    stamp = case.check.get("now")
    now = datetime.fromisoformat(stamp) if stamp else datetime(2026, 12, 1, 9, 30)
    rt.clock = lambda: now
    apply_seed(rt, seed_of(case.check), conversation_id)
    if case.notes:
        from memory.store import new_memory

        rt.memory.add([new_memory(text, kind="fact", origin="explicit", conversation_id="earlier") for text in case.notes])


def verdict_for(rt: Runtime, case: Case, session: Session, result: TurnResult) -> tuple[Verdict, dict]:
    if case.slot in ("L0", "L1"):
        return score_state(rt, case.check, session.conversation_id, result.answer, result.tool_calls), {}
    if case.slot == "L2":
        from trainer.specialists import code_data

        return code_data.score(case, result.answer, tool_calls=result.tool_calls), {}
    from trainer.specialists import ui_data

    first = ui_data.score(case, result.ui_raw_first or result.answer)
    final = ui_data.score(case, result.answer)
    return first, {"valid_first": bool(result.ui_raw_first) and _valid(result.ui_raw_first), "final_ok": final.ok}


def _valid(text: str | None) -> bool:
    from mol_local.genui.document import parse_document
    from mol_local.genui.errors import InvalidDocument

    try:
        parse_document(text or "")
        return True
    except (InvalidDocument, ValueError):
        return False


def run_case(rt: Runtime, case: Case, session: Session | None = None, *, turn: int = 0) -> Row:
    session = session or rt.session()
    prepare(rt, case, session.conversation_id)
    # what the slot's view shows of earlier work: every task's summary, and its own earlier answers verbatim
    earlier = [t.summary or "" for t in session.tasks]
    earlier += [m.content for t in session.tasks if t.slot == case.slot for m in t.messages if m.role == "assistant"]
    t0 = time.perf_counter()
    try:
        result = session.run_turn(case.request, slot=case.slot)
    except Exception as exc:  # a bench row says why a turn failed; it never stops the run
        return Row(case.slot, case.template, case.request, False, 0.0, f"turn failed: {exc}", "", turn, False, time.perf_counter() - t0)
    seconds = time.perf_counter() - t0
    verdict, extra = verdict_for(rt, case, session, result)
    copied = copies_entry(result.answer, earlier) if earlier else False
    extra["tool_calls"] = [c["name"] for c in result.tool_calls]
    extra["summary_fallback"] = int(result.timings_ms.get("summary_fallback", 0))
    return Row(case.slot, case.template, case.request, verdict.ok and not copied, verdict.score, verdict.reason or ("copied an earlier entry" if copied else ""),
               result.answer[:400], turn, copied, round(seconds, 2), extra)


def run_single(rt: Runtime, cases: Sequence[Case]) -> list[Row]:
    """Every case as the first turn of a fresh conversation."""
    return [run_case(rt, case) for case in cases]


def interleave(by_slot: dict[str, list[Case]], turns: int, conversations: int) -> list[list[Case]]:
    """`conversations` scripts of `turns` turns each, cycling L0 -> L1 -> L2 -> L3 and taking cases in order."""
    cursor = {slot: 0 for slot in by_slot}
    slots = [s for s in SLOT_LABELS if by_slot.get(s)]
    scripts = []
    for _ in range(conversations):
        script = []
        for i in range(turns):
            slot = slots[i % len(slots)]
            pool = by_slot[slot]
            script.append(pool[cursor[slot] % len(pool)])
            cursor[slot] += 1
        scripts.append(script)
    return scripts


def run_conversations(rt: Runtime, scripts: Sequence[Sequence[Case]]) -> list[Row]:
    rows = []
    for script in scripts:
        session = rt.session()
        for i, case in enumerate(script):
            rows.append(run_case(rt, case, session, turn=i + 1))
    return rows


def summarize(rows: Sequence[Row]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for slot in SLOT_LABELS:
        mine = [r for r in rows if r.slot == slot]
        if not mine:
            continue
        entry = {"n": len(mine), "pass": round(sum(r.ok for r in mine) / len(mine), 4),
                 "score": round(sum(r.score for r in mine) / len(mine), 4), "copied": sum(r.copied for r in mine),
                 "seconds_mean": round(sum(r.seconds for r in mine) / len(mine), 2)}
        if slot == "L3":
            entry["valid_first"] = round(sum(bool(r.extra.get("valid_first")) for r in mine) / len(mine), 4)
            entry["final_ok"] = round(sum(bool(r.extra.get("final_ok")) for r in mine) / len(mine), 4)
        out[slot] = entry
    if rows:
        out["copied_total"] = sum(r.copied for r in rows)
        out["summary_fallbacks"] = sum(r.extra.get("summary_fallback", 0) for r in rows)
    return out
