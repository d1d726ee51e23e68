"""Memory in the turn loop: recall before the answer, `/remember`, and automatic extraction after it.

Extraction runs on the entry slot's stack in the router's sequence (its
prefix is short, so the slots' own KV is left alone) and must answer with
one JSON object under a GBNF grammar: add a memory, update a known one, or
none. An add that is a near-duplicate of a stored memory is dropped, so the
store does not fill with rephrasings.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memory.bank import MemoryBank, Recalled
from memory.store import KINDS, MemoryRow, MemoryStore, insert_rows, new_memory
from mol_local.engine.base import GenerationRequest

if TYPE_CHECKING:
    from sqlite_utils import Database

    from mol_local.runtime import Runtime

REMEMBER = "/remember"
DUPLICATE_SIMILARITY = 0.85  # cosine; rephrasings of one fact score ~0.85-0.95 with MiniLM, distinct facts < 0.7
RECALL_MIN_SIMILARITY = 0.25
EXTRACT_INPUT_CHARS = 1200  # an enormous message is cut before it reaches the extraction prompt
EXTRACT_MAX_TOKENS = 80
_FIRST_PERSON = re.compile(r"\b(i|i'm|i've|i'd|i'll|my|me|mine|we|our|us)\b", re.IGNORECASE)

EXTRACT_INSTRUCTION = (
    "You keep the user's long-term memory. Read the exchange below. If the user stated a lasting fact about "
    "themselves, a preference, or an upcoming event, write it as one short sentence about the user. "
    "If a known memory says the same thing differently or is now outdated, update it by its number. "
    'Otherwise answer {"op": "none"}. Answer with JSON only.'
)


def remember_text(text: str) -> str | None:
    """The text after `/remember`, or None when the message is not that command."""
    stripped = text.strip()
    if stripped == REMEMBER or stripped.startswith(REMEMBER + " "):
        return stripped[len(REMEMBER) :].strip()
    return None


def extraction_grammar(known: int) -> str:
    """GBNF for one proposal (the shared schema->grammar path); `update` only exists when there are known memories."""
    from mol_local.structured import json_grammar

    def op(name: str, **props: dict) -> dict:
        return {"type": "object", "properties": {"op": {"const": name}, **props}, "required": ["op", *props], "additionalProperties": False}

    text = {"type": "string", "minLength": 3, "maxLength": 160}
    ops = [op("none"), op("add", kind={"enum": list(KINDS)}, text=text)]
    if known:
        ops.append(op("update", id={"enum": list(range(1, known + 1))}, text=text))
    return json_grammar({"oneOf": ops})


@dataclass(frozen=True)
class Proposal:
    op: str  # add | update | none
    text: str = ""
    kind: str = "fact"
    target: str | None = None  # memory id for update


def parse_proposal(raw: str, known: Sequence[Recalled]) -> Proposal:
    """Read the model's JSON; anything malformed counts as `none` (the grammar makes that rare)."""
    try:
        obj = json.loads(raw)
    except json.JSONDecodeError:
        return Proposal("none")
    if not isinstance(obj, dict) or obj.get("op") not in ("add", "update"):
        return Proposal("none")
    text = str(obj.get("text", "")).strip()
    if not text:
        return Proposal("none")
    if obj["op"] == "update":
        idx = obj.get("id")
        if not isinstance(idx, int) or not 1 <= idx <= len(known):
            return Proposal("none")
        return Proposal("update", text, known[idx - 1].memory.kind, known[idx - 1].memory.id)
    kind = obj.get("kind") if obj.get("kind") in KINDS else "fact"
    return Proposal("add", text, kind)


def extraction_messages(user: str, answer: str, known: Sequence[Recalled]) -> list[dict[str, str]]:
    listing = "\n".join(f"{i}. {r.memory.text}" for i, r in enumerate(known, 1)) or "(none)"
    exchange = f"User: {user[:EXTRACT_INPUT_CHARS]}\nAssistant: {answer[:EXTRACT_INPUT_CHARS // 2]}"
    return [
        {"role": "system", "content": EXTRACT_INSTRUCTION},
        {"role": "user", "content": f"Known memories:\n{listing}\n\nExchange:\n{exchange}"},
    ]


def recall(runtime: Runtime, text: str, conversation_id: str | None = None) -> list[Recalled]:
    """Pinned memories first, then the top-k (HCP memory.top_k) others for this turn; free when there are none.

    With `conversation_id` they start that conversation's turn's list of memories in view
    (`MemoryBank.viewing`), which the commit records and a tool's `memory.remember` inherits sources from.

    Pinned memories (at most memory.store.PINNED_MAX) are always in the view,
    whatever the message, on top of the k: pinning says "this always matters".
    Their score is their similarity when the search reached them, else 0.0.
    Unpinned memories below RECALL_MIN_SIMILARITY are unrelated to the message
    and would only spend context; they are left out even if fewer than k remain.
    """
    pinned = runtime.memory.store.pinned()
    k = runtime.hcp.memory.top_k
    found = runtime.memory.search(text, k + len(pinned), min_score=RECALL_MIN_SIMILARITY)
    scores = {r.memory.id: r.score for r in found}
    first = [Recalled(row, scores.get(row.id, 0.0)) for row in pinned]
    out = first + [r for r in found if not r.memory.pinned][:k]
    if conversation_id is not None:
        runtime.memory.viewing(conversation_id, out, fresh=True)
    return out


def uses_writer(bank: MemoryBank, task_id: str, used: Sequence[Recalled]):
    """A commit-time write recording which memories this turn's view held: `used` (recall's tail) and every
    other the bank noted for the task's conversation meanwhile (a tool's `memory.search` result is in the view
    too). Training eligibility is decided from these (memory.consent.tainted_tasks)."""

    def write(db: Database, _message_ids: list[str]) -> None:
        held = {r.memory.id: r.score for r in used}
        row = db.execute("select conversation_id from tasks where id = ?", [task_id]).fetchone()
        for memory_id, score in bank.take_viewing(row[0]) if row else []:
            held.setdefault(memory_id, score)
        bank.store.record_uses(db, task_id, list(held.items()))

    return write


def remember_writer(row: MemoryRow, user_index: int):
    """A commit-time write storing `row`, linked to the turn's user message; it carries the sources of what
    the conversation's earlier views held (the words may be copied from an answer that recalled them)."""

    def write(db: Database, message_ids: list[str]) -> None:
        linked = MemoryRow(**{**row.__dict__, "source_message_id": message_ids[user_index]})
        insert_rows(db, [linked], MemoryStore(db).view_sources(row.conversation_id) if row.conversation_id else ())

    return write


def propose(runtime: Runtime, user: str, answer: str, known: Sequence[Recalled]) -> Proposal:
    rt = runtime
    result = rt.engine.generate(
        GenerationRequest(
            seq="route",
            messages=extraction_messages(user, answer, known[:3]),
            stack=rt.slot_stack(rt.hcp.entry_slot),
            max_tokens=EXTRACT_MAX_TOKENS,
            temperature=0.0,
            grammar=extraction_grammar(len(known[:3])),
        )
    )
    return parse_proposal(result.text, known[:3])


def extract_after_turn(
    runtime: Runtime, *, user: str, answer: str, conversation_id: str, message_id: str | None, known: Sequence[Recalled]
) -> MemoryRow | None:
    """Propose and store at most one memory from a committed turn; returns what was written."""
    if not _FIRST_PERSON.search(user):
        return None  # memories are about the user; a turn with no first person has none to offer
    proposal = propose(runtime, user, answer, known)
    return store_proposal(
        runtime.memory, proposal, conversation_id=conversation_id, message_id=message_id, recalled=[r.memory.id for r in known]
    )


def store_proposal(
    bank: MemoryBank, proposal: Proposal, *, conversation_id: str, message_id: str | None, recalled: Sequence[str] = ()
) -> MemoryRow | None:
    """Apply add/update unless it is a near-duplicate of a stored memory.

    The answer it was read from saw the `recalled` memories (and the conversation's history saw
    others), so their source conversations become sources of what is written too
    (`MemoryBank.write_sources`): a fact from a conversation without training consent never
    turns into a consented memory by being repeated in one that has it.
    """
    if proposal.op == "none":
        return None
    if bank.nearest(proposal.text, threshold=DUPLICATE_SIMILARITY) is not None:
        return None
    sources = bank.write_sources(conversation_id, recalled)
    if proposal.op == "update" and proposal.target:
        return bank.update(proposal.target, proposal.text, sources=sources)
    row = new_memory(proposal.text, kind=proposal.kind, origin="auto", conversation_id=conversation_id, source_message_id=message_id)
    bank.add([row], sources=sources)
    return row


def remember_turn(session, fact: str, text: str):
    """`/remember FACT`: one committed turn on the entry slot that stores the memory in the same transaction."""
    from memory.timeline import MessageRecord, RouteRecord, TaskRecord, TurnRecord, new_id
    from mol_local.turn import TurnResult

    rt = session.runtime
    row = new_memory(fact, origin="explicit", conversation_id=session.conversation_id)  # validates before anything is written
    slot = rt.hcp.entry_slot
    task = TaskRecord(new_id(), session.conversation_id, len(session.tasks), slot, status="closed")
    reply = f"I'll remember that: {row.text}"
    summary = f"The user asked me to remember: {row.text}"
    route = RouteRecord(slot, "command", REMEMBER, False, 0.0)
    new = [MessageRecord("user", text), MessageRecord("assistant", reply)]
    session.commit(
        TurnRecord(
            conversation_id=session.conversation_id,
            conversation_title=text[:80],
            task=task,
            task_is_new=True,
            new_messages=new,
            first_message_seq=0,
            route=route,
            summary=summary,
            extra_writes=[remember_writer(row, 0)],
        ),
        list(session.tasks),
    )
    rt.memory.index_rows([rt.memory.store.get(row.id)], index_now=False)
    return TurnResult(session.conversation_id, task.id, slot, reply, route, summary, memories_written=[row.id])
