"""Memory rows in SQLite: the source of truth the vector index is rebuilt from."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlite_utils import Database

from memory.db import transaction
from memory.errors import InvalidMemory, NotFound
from memory.text import memory_text
from memory.timeline import new_id, now_iso

KINDS = ("fact", "preference", "event")


@dataclass(frozen=True)
class MemoryRow:
    id: str
    text: str
    kind: str = "fact"
    origin: str = "cli"
    conversation_id: str | None = None
    source_message_id: str | None = None
    pinned: bool = False
    created_at: str = ""
    updated_at: str = ""

    def as_dict(self) -> dict:
        return {
            "id": self.id,
            "text": self.text,
            "kind": self.kind,
            "origin": self.origin,
            "conversation_id": self.conversation_id,
            "source_message_id": self.source_message_id,
            "pinned": self.pinned,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
        }


def _row(r: dict) -> MemoryRow:
    return MemoryRow(
        r["id"], r["text"], r["kind"], r["origin"], r["conversation_id"], r["source_message_id"],
        bool(r["pinned"]), r["created_at"], r["updated_at"],
    )


def new_memory(
    text: str | bytes,
    *,
    kind: str = "fact",
    origin: str = "cli",
    conversation_id: str | None = None,
    source_message_id: str | None = None,
    pinned: bool = False,
) -> MemoryRow:
    """A validated, not yet stored memory (raises InvalidMemory naming the problem)."""
    if kind not in KINDS:
        raise InvalidMemory(f"Unknown memory kind {kind!r} — use one of: {', '.join(KINDS)}")
    stamp = now_iso()
    return MemoryRow(new_id(), memory_text(text), kind, origin, conversation_id, source_message_id, pinned, stamp, stamp)


def insert_rows(db: Database, rows: Sequence[MemoryRow]) -> None:
    """Insert inside the caller's transaction."""
    db["memories"].insert_all((dict(r.as_dict(), pinned=int(r.pinned)) for r in rows), batch_size=500)


class MemoryStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    def add_many(self, rows: Sequence[MemoryRow]) -> None:
        with transaction(self.db) as db:
            insert_rows(db, rows)

    def update_text(self, memory_id: str, text: str) -> MemoryRow:
        clean = memory_text(text)
        with transaction(self.db) as db:
            if not list(db.query("select 1 from memories where id = ?", [memory_id])):
                raise NotFound(f"No memory {memory_id!r} — list them with `mol memory list`")
            db["memories"].update(memory_id, {"text": clean, "updated_at": now_iso()})
        return self.get(memory_id)

    def get(self, memory_id: str) -> MemoryRow:
        rows = list(self.db.query("select * from memories where id = ?", [memory_id]))
        if not rows:
            raise NotFound(f"No memory {memory_id!r} — list them with `mol memory list`")
        return _row(rows[0])

    def by_ids(self, ids: Iterable[str]) -> dict[str, MemoryRow]:
        ids = list(ids)
        out: dict[str, MemoryRow] = {}
        for i in range(0, len(ids), 500):
            chunk = ids[i : i + 500]
            marks = ",".join("?" * len(chunk))
            for r in self.db.query(f"select * from memories where id in ({marks})", chunk):
                out[r["id"]] = _row(r)
        return out

    def list(self, *, limit: int | None = None, conversation_id: str | None = None) -> list[MemoryRow]:
        sql = "select * from memories"
        args: list = []
        if conversation_id:
            sql += " where conversation_id = ?"
            args.append(conversation_id)
        sql += " order by created_at, rowid"
        if limit:
            sql += " limit ?"
            args.append(limit)
        return [_row(r) for r in self.db.query(sql, args)]

    def versions(self) -> dict[str, str]:
        """id -> updated_at for every memory: what the index must hold."""
        return {r["id"]: r["updated_at"] for r in self.db.query("select id, updated_at from memories")}

    def count(self) -> int:
        return self.db.execute("select count(*) from memories").fetchone()[0]

    def containing(self, needle: str) -> list[MemoryRow]:
        """Memories whose text contains `needle` (case-insensitive)."""
        pattern = "%" + needle.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        return [_row(r) for r in self.db.query("select * from memories where text like ? escape '\\'", [pattern])]

    def record_uses(self, db: Database, task_id: str, used: Sequence[tuple[str, float]]) -> None:
        """Inside the turn's commit transaction: which memories this turn's view held."""
        stamp = now_iso()
        db["memory_uses"].insert_all(
            (
                {"task_id": task_id, "memory_id": mid, "rank": i, "score": score, "created_at": stamp}
                for i, (mid, score) in enumerate(used)
                if list(db.query("select 1 from memories where id = ?", [mid]))
            ),
            replace=True,
        )

    def uses(self, task_id: str) -> list[str]:
        return [r["memory_id"] for r in self.db.query("select memory_id from memory_uses where task_id = ? order by rank", [task_id])]
