"""Forgetting for real: SQLite rows (and their bytes), Chroma vectors, and the adapters trained on them.

Rows go first, in one transaction (SQLite is the truth: a vector without a
row is never returned). The store runs with `secure_delete`, so a deleted
row's bytes are zeroed in the page, and the WAL is checkpointed and truncated
afterwards, so no old copy of a page stays in the log. Then the vectors: the
index is rebuilt without them (`MemoryBank.drop_vectors`), because Chroma's
own delete keeps every write, full vector included, in its `embeddings_queue`
table. Then every adapter revision whose manifest lists an affected turn gets
a `retrain_marks` row, so the next consolidation retrains without it. The
manifests are read by the caller's `ManifestSource` (the adapter registry);
this package imports nothing of the runtime. `mol_local.forget` adds the
files outside this package (trainer staging, KV, tool workspaces).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from sqlite_utils import Database

from memory import fts
from memory.bank import MemoryBank
from memory.consent import FORGOTTEN, task_id_forms
from memory.db import Store, transaction
from memory.errors import NotFound
from memory.timeline import now_iso

CHECKPOINT_TRIES = 20  # another process's read holds the log for milliseconds at a time


class ManifestSource(Protocol):
    def training_ids(self) -> Iterable[tuple[str, list[str] | None]]:
        """(revision folder, the ids its manifest lists), None for a manifest that cannot be read."""


@dataclass
class ForgetReport:
    memories: list[dict] = field(default_factory=list)  # [{id, text}] that were deleted
    tasks: int = 0  # turns removed or redacted
    conversations: int = 0
    marked_revisions: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)  # e.g. the WAL could not be truncated yet

    def as_dict(self) -> dict:
        return {
            "memories": self.memories,
            "tasks": self.tasks,
            "conversations": self.conversations,
            "marked_revisions": self.marked_revisions,
            "notices": self.notices,
        }


def _in(column: str, values: Sequence[str]) -> tuple[str, list[str]]:
    return f"{column} in ({','.join('?' * len(values))})", list(values)


def _ids(db: Database, sql: str, args: Sequence = ()) -> list[str]:
    return [r[0] for r in db.execute(sql, list(args)).fetchall()]


def _drop_views(tx: Database, where: str, args: list[str]) -> None:
    """Generative-UI views (an L3 answer's document), their state and events, selected by `where` on genui_views."""
    views = _ids(tx, f"select id from genui_views where {where}", args)
    if views:
        vw, va = _in("view_id", views)
        tx.execute(f"delete from genui_state where {vw}", va)
        tx.execute(f"delete from genui_events where {vw}", va)
        tx.execute(f"delete from genui_views where {_in('id', views)[0]}", views)


def forget_memories(bank: MemoryBank, ids: Iterable[str], manifests: ManifestSource) -> ForgetReport:
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
    with transaction(db) as tx:
        mw = _in("memory_id", ids)[0]
        tx.execute(f"delete from memory_uses where {mw}", ids)
        tx.execute(f"delete from memory_sources where {mw}", ids)
        tx.execute(f"delete from memories where {where}", args)
        if sources:
            w, a = _in("task_id", sources)
            tx.execute(f"update messages set content = ? where {w}", [FORGOTTEN, *a])
            tx.execute(f"update summaries set text = ? where {w}", [FORGOTTEN, *a])
            _drop_views(tx, w, a)
            tx.execute(  # the revision moves: a session holding this history rereads it (mol_local.turn.Session.refresh)
                f"update conversations set title = ?, revision = revision + 1 where id in (select conversation_id from tasks where {_in('id', sources)[0]})",
                [FORGOTTEN, *sources],
            )
        stamp = now_iso()
        tx["forgotten_tasks"].insert_all(({"task_id": t, "reason": "memory forgotten", "forgotten_at": stamp} for t in tasks), replace=True)
    report = ForgetReport([{"id": i, "text": rows[i].text} for i in ids], len(sources), 0)
    _scrub(bank, report, rebuild_index=True)
    report.marked_revisions = mark_revisions(db, manifests, tasks, "memory forgotten")
    return report


def redact_tasks(bank: MemoryBank, task_ids: Sequence[str], manifests: ManifestSource) -> ForgetReport:
    """Redact whole turns (every message and summary, stored views dropped) and keep them out of training: the
    turns that say what the person asked, in the chat, to be forgotten (mol_local/turn/forgetting.py)."""
    if not task_ids:
        return ForgetReport()
    db = bank.store.db
    w, a = _in("task_id", task_ids)
    with transaction(db) as tx:
        tx.execute(f"update messages set content = ? where {w}", [FORGOTTEN, *a])
        tx.execute(f"update summaries set text = ? where {w}", [FORGOTTEN, *a])
        _drop_views(tx, w, a)
        tx.execute(f"update conversations set revision = revision + 1 where id in (select conversation_id from tasks where "
                   f"{_in('id', task_ids)[0]})", list(task_ids))
        stamp = now_iso()
        tx["forgotten_tasks"].insert_all(({"task_id": t, "reason": "asked to forget", "forgotten_at": stamp} for t in task_ids),
                                         replace=True)
    report = ForgetReport([], len(task_ids), 0)
    _scrub(bank, report, rebuild_index=False)
    report.marked_revisions = mark_revisions(db, manifests, list(task_ids), "asked to forget")
    return report


def forget_conversation(bank: MemoryBank, conversation_id: str, manifests: ManifestSource) -> ForgetReport:
    """Delete a conversation: its turns, its memories (and any holding its words), notes, reminders, tool-call rows, UI views."""
    db = bank.store.db
    if not _ids(db, "select id from conversations where id = ?", [conversation_id]):
        raise NotFound(f"No conversation {conversation_id!r} — list them with `mol chat --list`")
    return _forget_conversations(bank, [conversation_id], manifests, "conversation forgotten")


def forget_everything(bank: MemoryBank, manifests: ManifestSource) -> ForgetReport:
    """Every conversation and every memory; the vector index is rebuilt empty."""
    db = bank.store.db
    report = _forget_conversations(bank, _ids(db, "select id from conversations"), manifests, "everything forgotten")
    rest = bank.store.list(said=True)
    with transaction(db) as tx:
        for table in ("memory_uses", "memory_sources", "memories", "notes", "reminders", "tool_calls", "genui_state", "genui_events", "genui_views"):
            if tx[table].exists():
                tx.execute(f"delete from {table}")
    report.memories += [{"id": r.id, "text": r.text} for r in rest]
    bank.reindex()
    _scrub(bank, report, rebuild_index=False)
    return report


def _forget_conversations(bank: MemoryBank, conversations: Sequence[str], manifests: ManifestSource, reason: str) -> ForgetReport:
    db = bank.store.db
    if not conversations:
        return ForgetReport()
    cw, ca = _in("conversation_id", conversations)
    tasks = _ids(db, f"select id from tasks where {cw}", ca)
    mems = db.execute(
        f"select id, text from memories where {cw} or source_message_id in (select id from messages where {cw}) "
        f"or id in (select memory_id from memory_sources where {cw})",
        ca * 3,
    ).fetchall()
    mem_ids = [m[0] for m in mems]
    with transaction(db) as tx:
        if mem_ids:
            mw, ma = _in("memory_id", mem_ids)
            tx.execute(f"delete from memory_uses where {mw}", ma)
            tx.execute(f"delete from memory_sources where {mw}", ma)
            tx.execute(f"delete from memories where {_in('id', mem_ids)[0]}", mem_ids)
        tx.execute(f"delete from memory_sources where {cw}", ca)
        if tasks:
            tw, ta = _in("task_id", tasks)
            for table in ("memory_uses", "route_decisions", "summaries", "forgotten_tasks"):
                tx.execute(f"delete from {table} where {tw}", ta)
        _drop_views(tx, cw, ca)
        for table in ("messages", "tasks", "consent_records", "notes", "reminders", "tool_calls"):
            if tx[table].exists():
                tx.execute(f"delete from {table} where {cw}", ca)
        tx.execute(f"delete from conversations where {_in('id', conversations)[0]}", list(conversations))
    report = ForgetReport([{"id": i, "text": t} for i, t in mems], len(tasks), len(conversations))
    _scrub(bank, report, rebuild_index=bool(mem_ids))
    report.marked_revisions = mark_revisions(db, manifests, tasks, reason)
    return report


def _scrub(bank: MemoryBank, report: ForgetReport, *, rebuild_index: bool) -> None:
    """After the rows are gone: the index without their vectors, and the WAL folded in and truncated."""
    if rebuild_index:
        bank.drop_vectors([m["id"] for m in report.memories])
    db = bank.store.db
    with transaction(db) as tx:
        fts.purge(tx)  # the triggers deleted the rows; merging the segments drops their tokens
    if isinstance(db, Store):
        for _ in range(CHECKPOINT_TRIES):
            if db.checkpoint():
                return
            time.sleep(0.05)
        report.notices.append(
            "Another mol process is reading the store, so its write-ahead log still holds old pages until its next checkpoint "
            "— close other mol windows, or run `mol memory forget` again to be sure"
        )


def mark_revisions(db: Database, manifests: ManifestSource, task_ids: Sequence[str], reason: str) -> list[str]:
    """Mark every adapter revision whose manifest lists one of these tasks (in any form: see
    `memory.consent.task_id_forms`) for retraining. A manifest that cannot be read is marked too:
    we cannot prove it is clean."""
    if not task_ids:
        return []
    wanted = set().union(*(task_id_forms(t) for t in task_ids))
    hits: dict[str, list[str]] = {}
    for path, listed in manifests.training_ids():
        if listed is None:
            hits[path] = ["(unreadable manifest)"]
        elif found := sorted(wanted.intersection(listed)):
            hits[path] = found
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
