"""Memories from a committed turn: what the person said about themselves, as ADD / UPDATE / DELETE / NONE.

Two readers, rules first (mol_local/statements.py): "my name is Ada", "I moved
to Leeds", "my dog is called Biscuit" are read directly and get a key, and the
nearest stored memories decide what happens — the same key with the same value
is NONE, with another value an UPDATE of that memory ("lives in York" becomes
"lives in Leeds"; several that disagree are merged into one), "I don't live in
York any more" turns it into a past fact (DELETE of the current one), and
anything else is an ADD unless a near-duplicate is stored. Only a first-person
message that no rule reads, and that is not a question or a request, goes to
the model: the entry slot's stack in the router's sequence (its prefix is
short, so the slots' own KV is left alone), one JSON object under a GBNF
grammar. Never from the assistant's words.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memory.bank import MemoryBank, Recalled
from memory.store import FACT_KINDS, MemoryRow, new_memory
from mol_local.engine.base import GenerationRequest
from mol_local.statements import Statement, is_request, key_of, same_value, statements

if TYPE_CHECKING:
    from mol_local.runtime import Runtime

DUPLICATE_SIMILARITY = 0.85  # cosine; rephrasings of one fact score ~0.85-0.95 with MiniLM, distinct facts < 0.7
NEAREST = 8  # stored memories a statement is compared with
EXTRACT_INPUT_CHARS = 1200  # an enormous message is cut before it reaches the extraction prompt
EXTRACT_MAX_TOKENS = 80
_FIRST_PERSON = re.compile(r"\b(i|i'm|i've|i'd|i'll|my|me|mine|we|our|us)\b", re.IGNORECASE)


@dataclass(frozen=True)
class MemoryChange:
    """One change extraction made, for the "remembered: …" line and its undo."""

    op: str  # add | update | delete
    memory_id: str
    text: str  # the memory as it is now
    before: str | None = None  # what an update or delete replaced

    def line(self) -> str:
        if self.op == "add":
            return f"remembered: {self.text}"
        if self.op == "update":
            return f"updated memory: {self.before} → {self.text}"
        return f"memory now says: {self.text}"


EXTRACT_INSTRUCTION = (
    "You keep the user's long-term memory. Read the exchange below. If the user stated a lasting fact about "
    "themselves, a preference, or an upcoming event, write it as one short sentence about the user. "
    "If a known memory says the same thing differently or is now outdated, update it by its number. "
    'Otherwise answer {"op": "none"}. Answer with JSON only.'
)


def extraction_grammar(known: int) -> str:
    """GBNF for one proposal (the shared schema->grammar path); `update` only exists when there are known memories."""
    from mol_local.structured import json_grammar

    def op(name: str, **props: dict) -> dict:
        return {"type": "object", "properties": {"op": {"const": name}, **props}, "required": ["op", *props], "additionalProperties": False}

    text = {"type": "string", "minLength": 3, "maxLength": 160}
    ops = [op("none"), op("add", kind={"enum": list(FACT_KINDS)}, text=text)]
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
    kind = obj.get("kind") if obj.get("kind") in FACT_KINDS else "fact"
    return Proposal("add", text, kind)


def extraction_messages(user: str, answer: str, known: Sequence[Recalled]) -> list[dict[str, str]]:
    listing = "\n".join(f"{i}. {r.memory.text}" for i, r in enumerate(known, 1)) or "(none)"
    exchange = f"User: {user[:EXTRACT_INPUT_CHARS]}\nAssistant: {answer[:EXTRACT_INPUT_CHARS // 2]}"
    return [
        {"role": "system", "content": EXTRACT_INSTRUCTION},
        {"role": "user", "content": f"Known memories:\n{listing}\n\nExchange:\n{exchange}"},
    ]


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


def store_proposal(
    bank: MemoryBank, proposal: Proposal, *, conversation_id: str, message_id: str | None, recalled: Sequence[str] = (),
    said_at: str | None = None,
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
    row = new_memory(proposal.text, kind=proposal.kind, origin="auto", conversation_id=conversation_id, source_message_id=message_id,
                     said_at=said_at)
    bank.add([row], sources=sources)
    return row


def extract_after_turn(
    runtime: Runtime, *, user: str, answer: str, conversation_id: str, message_id: str | None, known: Sequence[Recalled],
    said_at: str | None = None, before: str = "",
) -> list[MemoryChange]:
    """Read the person's message and apply what it says about them; returns the changes made.

    `said_at` is when the message was said (the turn's clock); a new memory keeps it, so "when did I tell
    you …" and time-worded questions date it by the conversation, not by when extraction ran. `before` is their
    previous message: "Her birthday is on the 2nd of February" after "My wife's name is Elena" is about the wife."""
    found = statements(user, before)
    recalled = [r.memory.id for r in known]
    if found:
        return apply_statements(runtime.memory, found, conversation_id=conversation_id, message_id=message_id, recalled=recalled,
                                said_at=said_at)
    if not _FIRST_PERSON.search(user) or is_request(user):
        return []  # memories are about the user, from what they state: never from a question or a request
    proposal = propose(runtime, user, answer, known)
    before = runtime.memory.store.by_ids([proposal.target]).get(proposal.target or "") if proposal.target else None
    row = store_proposal(runtime.memory, proposal, conversation_id=conversation_id, message_id=message_id, recalled=recalled,
                         said_at=said_at)
    if row is None:
        return []
    return [MemoryChange("update", row.id, row.text, before.text) if before else MemoryChange("add", row.id, row.text)]


def apply_statements(
    bank: MemoryBank, found: Sequence[Statement], *, conversation_id: str | None, message_id: str | None, recalled: Sequence[str] = (),
    said_at: str | None = None,
) -> list[MemoryChange]:
    """Each statement against its nearest stored memories: ADD, UPDATE (merging any that disagree), DELETE or NONE."""
    changes: list[MemoryChange] = []
    for st in found:
        near = [r.memory for r in bank.search(st.text or f"The user {st.value}", NEAREST, said=False)]
        same_key = [m for m in near if st.key and (key_of(m.text)[0] or "").lower() == st.key.lower()]
        sources = bank.write_sources(conversation_id, recalled)
        if st.op == "delete":
            for m in same_key:
                if same_value(key_of(m.text)[1], st.value):
                    row = bank.update(m.id, past_tense(m.text), sources=sources)
                    changes.append(MemoryChange("delete", row.id, row.text, m.text))
            continue
        agreeing = [m for m in same_key if same_value(key_of(m.text)[1], st.value)]
        others = [m for m in same_key if m not in agreeing]
        if same_key:
            target = (agreeing or others)[0]
            if not others:
                continue  # NONE: already known, in these words or others
            row = bank.merge(target.id, st.text, [m.id for m in same_key if m.id != target.id], sources=sources)
            changes.append(MemoryChange("update", row.id, row.text, others[0].text))
            continue
        if bank.nearest(st.text, threshold=DUPLICATE_SIMILARITY) is not None:
            continue  # NONE: a rephrasing of something stored
        row = new_memory(st.text, kind=st.kind, origin="auto", conversation_id=conversation_id, source_message_id=message_id,
                         said_at=said_at)
        bank.add([row], sources=sources)
        changes.append(MemoryChange("add", row.id, row.text))
    return changes


def supersede(bank: MemoryBank, row: MemoryRow) -> list[MemoryChange]:
    """After a memory is stored as said (`/remember`, the memory.remember tool): stored memories with the same
    key say something else about the same attribute, so they are merged into it (no contradiction is left)."""
    key = key_of(row.text)[0]
    if key is None:
        return []
    others = [r.memory for r in bank.search(row.text, NEAREST, said=False) if r.memory.id != row.id and key_of(r.memory.text)[0] == key]
    if not others:
        return []
    merged = bank.merge(row.id, row.text, [m.id for m in others])
    return [MemoryChange("update", merged.id, merged.text, others[0].text)]


def past_tense(text: str) -> str:
    """ "The user lives in York." -> "The user used to live in York." (the memory of a fact that stopped being true)."""
    body = text.strip().rstrip(".")
    for now, then in (("The user lives in", "The user used to live in"), ("The user works at", "The user used to work at")):
        if body.startswith(now):
            return then + body[len(now):] + "."
    return f"No longer true: {body}."


def undo_change(runtime: Runtime, change: MemoryChange) -> None:
    """Take back what extraction did: a new memory goes (forgotten, if a turn has viewed it since);
    an updated one gets its old text back."""
    from mol_local.forget import forget_memories

    if change.op == "add":
        if not runtime.memory.discard(change.memory_id):
            forget_memories(runtime, [change.memory_id])
    elif change.before is not None:
        runtime.memory.update(change.memory_id, change.before)
