"""Forgetting for real: SQLite rows, Chroma vectors, and the adapters trained on them.

Rows go first, in one transaction (SQLite is the truth: a vector without a
row is never returned, and the next index open drops it). Then the vectors.
Then every adapter revision under `adapters_root` whose manifest lists an
affected turn gets a `retrain_marks` row, so the next consolidation retrains
without it. The adapter files themselves belong to the trainer.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sqlite_utils import Database

from memory.bank import MemoryBank
from memory.consent import FORGOTTEN, training_id
from memory.db import transaction
from memory.errors import NotFound
from memory.timeline import now_iso


@dataclass
class ForgetReport:
    memories: list[dict] = field(default_factory=list)  # [{id, text}] that were deleted
    tasks: int = 0  # turns removed or redacted
    conversations: int = 0
    marked_revisions: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {
            "memories": self.memories,
            "tasks": self.tasks,
            "conversations": self.conversations,
            "marked_revisions": self.marked_revisions,
        }


def _in(column: str, values: Sequence[str]) -> tuple[str, list[str]]:
    return f"{column} in ({','.join('?' * len(values))})", list(values)


def _ids(db: Database, sql: str, args: Sequence = ()) -> list[str]:
    return [r[0] for r in db.execute(sql, list(args)).fetchall()]


def forget_memories(bank: MemoryBank, ids: Iterable[str], adapters_root: Path) -> ForgetReport:
    """Delete memories; redact the turn each came from and keep every turn that used them out of training."""
    db = bank.store.db
    ids = list(dict.fromkeys(ids))
    rows = bank.store.by_ids(ids)
    missing = [i for i in ids if i not in rows]
    if missing:
        raise NotFound(f"No memory {missing[0]!r} — list them with `mol memory list`")
    if not ids:
        return ForgetReport()
    where, args = _in("id", ids)
    sources = _ids(db, f"select m.task_id from messages m join memories x on x.source_message_id = m.id where x.{where}", args)
    users = _ids(db, f"select task_id from memory_uses where {_in('memory_id', ids)[0]}", ids)
    tasks = sorted(set(sources) | set(users))
    db.execute("PRAGMA secure_delete = ON")
    with transaction(db) as tx:
        tx.execute(f"delete from memory_uses where {_in('memory_id', ids)[0]}", ids)
        tx.execute(f"delete from memories where {where}", args)
        if sources:
            w, a = _in("task_id", sources)
            tx.execute(f"update messages set content = ? where {w}", [FORGOTTEN, *a])
            tx.execute(f"update summaries set text = ? where {w}", [FORGOTTEN, *a])
            tx.execute(
                f"update conversations set title = ? where id in (select conversation_id from tasks where {_in('id', sources)[0]})",
                [FORGOTTEN, *sources],
            )
        stamp = now_iso()
        tx["forgotten_tasks"].insert_all(({"task_id": t, "reason": "memory forgotten", "forgotten_at": stamp} for t in tasks), replace=True)
    bank.drop_vectors(ids)
    marked = mark_revisions(db, adapters_root, tasks, "memory forgotten")
    return ForgetReport([{"id": i, "text": rows[i].text} for i in ids], len(sources), 0, marked)


def forget_conversation(bank: MemoryBank, conversation_id: str, adapters_root: Path) -> ForgetReport:
    """Delete a conversation: its turns, its memories, notes, reminders and tool-call log rows."""
    db = bank.store.db
    if not _ids(db, "select id from conversations where id = ?", [conversation_id]):
        raise NotFound(f"No conversation {conversation_id!r} — list them with `mol chat --list`")
    return _forget_conversations(bank, [conversation_id], adapters_root, "conversation forgotten")


def forget_everything(bank: MemoryBank, adapters_root: Path) -> ForgetReport:
    """Every conversation and every memory; the vector index is wiped."""
    db = bank.store.db
    report = _forget_conversations(bank, _ids(db, "select id from conversations"), adapters_root, "everything forgotten")
    rest = bank.store.list()
    db.execute("PRAGMA secure_delete = ON")
    with transaction(db) as tx:
        for table in ("memory_uses", "memories", "notes", "reminders", "tool_calls"):
            if tx[table].exists():
                tx.execute(f"delete from {table}")
    report.memories += [{"id": r.id, "text": r.text} for r in rest]
    bank.reindex()
    return report


def _forget_conversations(bank: MemoryBank, conversations: Sequence[str], adapters_root: Path, reason: str) -> ForgetReport:
    db = bank.store.db
    if not conversations:
        return ForgetReport()
    cw, ca = _in("conversation_id", conversations)
    tasks = _ids(db, f"select id from tasks where {cw}", ca)
    mems = db.execute(
        f"select id, text from memories where {cw} or source_message_id in (select id from messages where {cw})", ca + ca
    ).fetchall()
    mem_ids = [m[0] for m in mems]
    db.execute("PRAGMA secure_delete = ON")
    with transaction(db) as tx:
        if mem_ids:
            tx.execute(f"delete from memory_uses where {_in('memory_id', mem_ids)[0]}", mem_ids)
            tx.execute(f"delete from memories where {_in('id', mem_ids)[0]}", mem_ids)
        if tasks:
            tw, ta = _in("task_id", tasks)
            for table in ("memory_uses", "route_decisions", "summaries", "forgotten_tasks"):
                tx.execute(f"delete from {table} where {tw}", ta)
        for table in ("messages", "tasks", "consent_records", "notes", "reminders", "tool_calls"):
            if tx[table].exists():
                tx.execute(f"delete from {table} where {cw}", ca)
        tx.execute(f"delete from conversations where {_in('id', conversations)[0]}", list(conversations))
    if mem_ids:
        bank.drop_vectors(mem_ids)
    marked = mark_revisions(db, adapters_root, tasks, reason)
    return ForgetReport([{"id": i, "text": t} for i, t in mems], len(tasks), len(conversations), marked)


def mark_revisions(db: Database, adapters_root: Path, task_ids: Sequence[str], reason: str) -> list[str]:
    """Mark every adapter revision whose manifest lists one of these tasks (hashed, raw or `task:<id>`) for retraining.

    A manifest that cannot be read is marked too: we cannot prove it is clean.
    """
    if not task_ids or not Path(adapters_root).is_dir():
        return []
    wanted = {training_id(t) for t in task_ids} | set(task_ids) | {f"task:{t}" for t in task_ids}
    hits: dict[str, list[str]] = {}
    for manifest in sorted(Path(adapters_root).glob("*/*/*/manifest.json")):
        try:
            listed = json.loads(manifest.read_text(encoding="utf-8")).get("training_data_ids") or []
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, AttributeError):
            hits[str(manifest.parent)] = ["(unreadable manifest)"]
            continue
        found = sorted(wanted.intersection(map(str, listed)))
        if found:
            hits[str(manifest.parent)] = found
    stamp = now_iso()
    with transaction(db) as tx:
        for path, found in hits.items():
            old = list(tx.query("select training_ids from retrain_marks where revision_path = ?", [path]))
            merged = sorted(set(found) | set(json.loads(old[0]["training_ids"]) if old else set()))
            tx["retrain_marks"].upsert(
                {"revision_path": path, "reason": reason, "training_ids": json.dumps(merged), "marked_at": stamp}, pk="revision_path"
            )
    return sorted(hits)


def retrain_marks(db: Database) -> list[dict]:
    return list(db.query("select * from retrain_marks order by revision_path"))
