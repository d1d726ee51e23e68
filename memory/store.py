"""Memory rows in SQLite: the source of truth the vector index is rebuilt from."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from sqlite_utils import Database

from memory.db import transaction
from memory.errors import InvalidMemory, NotFound, TooManyPinned
from memory.text import memory_text
from memory.timeline import new_id, now_iso

SAID = "said"  # a person's own message, kept so it can be found later (mol_local/recall.said_row); not a fact
_SAID_OPEN = 'You said: "'


def said_text(words: str) -> str:
    """A said memory's text, as the tail shows it (and the L0 recipe trains on it)."""
    return f'{_SAID_OPEN}{words}"'


def said_words(text: str) -> str:
    """The person's own words inside a said memory's text."""
    return text.removeprefix(_SAID_OPEN).removesuffix('"')
FACT_KINDS = ("fact", "preference", "event")  # what extraction and the memory tools may write
KINDS = (*FACT_KINDS, SAID)
PINNED_MAX = 8  # pinned memories ride in every answer's tail: the cap keeps that tail small (see mol_local/turn/recall.py)
ORDER = "order by pinned desc, pinned_at, created_at, rowid"  # pinned first, in the order they were pinned
UNATTRIBUTED = "(none)"  # the source of a memory from no conversation (`mol memory add`); no conversation id can be this


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
    pinned_at: str | None = None
    said_at: str | None = None  # when it was said (the conversation's clock); None: when it was stored

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
            "pinned_at": self.pinned_at,
            "said_at": self.said_at or self.created_at,
        }


def _row(r: dict) -> MemoryRow:
    return MemoryRow(
        r["id"], r["text"], r["kind"], r["origin"], r["conversation_id"], r["source_message_id"],
        bool(r["pinned"]), r["created_at"], r["updated_at"], r.get("pinned_at"), r.get("said_at"),
    )


def new_memory(
    text: str | bytes,
    *,
    kind: str = "fact",
    origin: str = "cli",
    conversation_id: str | None = None,
    source_message_id: str | None = None,
    pinned: bool = False,
    said_at: str | None = None,
) -> MemoryRow:
    """A validated, not yet stored memory (raises InvalidMemory naming the problem).

    `said_at`: when it was said, ISO 8601 ("2023-05-18" or "2023-05-18T13:56"); default now.
    """
    if kind not in KINDS:
        raise InvalidMemory(f"Unknown memory kind {kind!r} — use one of: {', '.join(KINDS)}")
    stamp = now_iso()
    return MemoryRow(new_id(), memory_text(text), kind, origin, conversation_id, source_message_id, pinned, stamp, stamp,
                     stamp if pinned else None, said_when(said_at) if said_at is not None else stamp)


def said_when(value: object) -> str:
    """An "at" as stored: ISO 8601, validated; refused in one line that shows the form."""
    if not isinstance(value, str) or len(value) > 40:
        raise InvalidMemory(f"'at' must be a date like 2023-05-18 or 2023-05-18T13:56 — got {str(value)[:40]!r}")
    try:
        when = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        raise InvalidMemory(f"'at' must be a date like 2023-05-18 or 2023-05-18T13:56 — got {value[:40]!r}") from None
    return when.isoformat(timespec="seconds")


def insert_rows(db: Database, rows: Sequence[MemoryRow], sources: Iterable[str] = ()) -> None:
    """Insert inside the caller's transaction; each row's sources are its conversation plus `sources`."""
    db["memories"].insert_all((dict(r.as_dict(), pinned=int(r.pinned)) for r in rows), batch_size=500)
    extra = [c for c in sources if c]
    for r in rows:
        add_sources(db, r.id, [r.conversation_id or UNATTRIBUTED, *extra])


def add_sources(db: Database, memory_id: str, conversation_ids: Iterable[str]) -> None:
    """Record that `memory_id` holds words from these conversations (inside the caller's transaction).

    A memory's consent is that of all its sources (memory.consent), so a source is never dropped.
    """
    stamp = now_iso()
    db["memory_sources"].insert_all(
        ({"memory_id": memory_id, "conversation_id": c, "added_at": stamp} for c in dict.fromkeys(conversation_ids) if c),
        ignore=True,
    )


def _pin_stamp(db: Database) -> str:
    """Now, in microseconds, and strictly after the last pin: pin order must never be a tie."""
    stamp = datetime.now(timezone.utc)
    last = db.execute("select max(pinned_at) from memories where pinned = 1").fetchone()[0]
    if last:
        prev = datetime.fromisoformat(last)
        prev = prev if prev.tzinfo else prev.replace(tzinfo=timezone.utc)  # a pre-m006 row's stamp may lack one
        stamp = max(stamp, prev + timedelta(microseconds=1))
    return stamp.isoformat(timespec="microseconds")


class MemoryStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    def add_many(self, rows: Sequence[MemoryRow], sources: Iterable[str] = ()) -> None:
        """`sources`: conversations whose words the rows also hold (an extraction from a turn that recalled them)."""
        sources = list(sources)
        with transaction(self.db) as db:
            insert_rows(db, rows, sources)

    def update_text(self, memory_id: str, text: str, sources: Iterable[str] = ()) -> MemoryRow:
        """New text for a memory; `sources` are the conversations the new words came from (added to its own)."""
        clean = memory_text(text)
        sources = list(sources)
        with transaction(self.db) as db:
            if not list(db.query("select 1 from memories where id = ?", [memory_id])):
                raise NotFound(f"No memory {memory_id!r} — list them with `mol memory list`")
            db["memories"].update(memory_id, {"text": clean, "updated_at": now_iso()})
            add_sources(db, memory_id, sources)
        return self.get(memory_id)

    def merge(self, target_id: str, text: str, others: Sequence[str], sources: Iterable[str] = ()) -> MemoryRow:
        """One memory where there were several saying different things about one attribute ("lives in York",
        "lives in Leeds"): `target_id` gets `text`, every source of the others, and their uses; the others go.

        Uses and sources move rather than vanish: a turn that viewed a merged memory without training
        consent stays out of training (memory.consent.tainted_tasks reads both).
        """
        clean = memory_text(text)
        others = [o for o in dict.fromkeys(others) if o != target_id]
        with transaction(self.db) as db:
            self._get(db, target_id)
            merged = self.sources(others) | set(sources)
            db["memories"].update(target_id, {"text": clean, "updated_at": now_iso()})
            add_sources(db, target_id, merged)
            for other in others:
                db.execute("update or ignore memory_uses set memory_id = ? where memory_id = ?", [target_id, other])
                db.execute("delete from memory_uses where memory_id = ?", [other])
                db.execute("delete from memories where id = ?", [other])
        return self.get(target_id)

    def discard(self, memory_id: str) -> bool:
        """Delete a memory no turn has viewed yet (an extraction taken back at once); False if one has.

        A viewed memory must go through forget instead: its uses keep those turns out of training.
        """
        with transaction(self.db) as db:
            self._get(db, memory_id)
            if db.execute("select 1 from memory_uses where memory_id = ? limit 1", [memory_id]).fetchone():
                return False
            db.execute("delete from memories where id = ?", [memory_id])
        return True

    def view_sources(self, conversation_id: str) -> set[str]:
        """Sources of every memory a committed view of this conversation held (`memory_uses`): its history
        may repeat their words, so whatever is written from it carries them too (memory.consent)."""
        return {r[0] for r in self.db.execute(
            "select distinct s.conversation_id from memory_uses u join tasks t on t.id = u.task_id "
            "join memory_sources s on s.memory_id = u.memory_id where t.conversation_id = ?", [conversation_id])}

    def sources(self, memory_ids: Iterable[str]) -> set[str]:
        """Every source conversation of these memories."""
        ids = list(memory_ids)
        out: set[str] = set()
        for i in range(0, len(ids), 500):
            chunk = ids[i : i + 500]
            marks = ",".join("?" * len(chunk))
            out |= {r[0] for r in self.db.execute(f"select conversation_id from memory_sources where memory_id in ({marks})", chunk)}
        return out

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

    def list(self, *, limit: int | None = None, conversation_id: str | None = None, said: bool = False) -> list[MemoryRow]:
        """Memories in display order; what the person said (kind "said") only with `said`."""
        where, args = ([] if said else [f"kind != '{SAID}'"]), []
        if conversation_id:
            where.append("conversation_id = ?")
            args.append(conversation_id)
        sql = "select * from memories" + (" where " + " and ".join(where) if where else "") + " " + ORDER
        if limit:
            sql += " limit ?"
            args.append(limit)
        return [_row(r) for r in self.db.query(sql, args)]

    def latest_said(self, limit: int = 500) -> list[MemoryRow]:
        """Every kind of memory, the most recently said first (a question about a time: memory/timewords.py)."""
        return [_row(r) for r in self.db.query("select * from memories order by coalesce(said_at, created_at) desc limit ?", [limit])]

    def versions(self) -> dict[str, str]:
        """id -> updated_at for every memory: what the index must hold."""
        return {r["id"]: r["updated_at"] for r in self.db.query("select id, updated_at from memories")}

    def count(self, *, said: bool = True) -> int:
        """Every stored row (what the index must hold); without `said`, only the facts a person sees listed."""
        where = "" if said else f" where kind != '{SAID}'"
        return self.db.execute("select count(*) from memories" + where).fetchone()[0]

    def containing(self, needle: str, *, said: bool = True) -> list[MemoryRow]:
        """Memories whose text contains `needle` (case-insensitive); what the person said only with `said`."""
        pattern = "%" + needle.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        kind = "" if said else f" and kind != '{SAID}'"
        return [_row(r) for r in self.db.query(f"select * from memories where text like ? escape '\\'{kind} {ORDER}", [pattern])]

    def pinned(self) -> list[MemoryRow]:
        """Pinned memories in the order they were pinned."""
        return [_row(r) for r in self.db.query(f"select * from memories where pinned = 1 {ORDER}")]

    def pin(self, memory_id: str) -> MemoryRow:
        """Pin a memory (idempotent: an already pinned one keeps its place). Refuses beyond PINNED_MAX.

        updated_at is left alone on purpose: it is the vector's version, and the text did not change.
        """
        with transaction(self.db) as db:
            row = self._get(db, memory_id)
            if not row["pinned"]:
                count = db.execute("select count(*) from memories where pinned = 1").fetchone()[0]
                if count >= PINNED_MAX:
                    raise TooManyPinned(
                        f"{count} memories are pinned already (at most {PINNED_MAX}: each one goes into every answer) — unpin one first"
                    )
                db["memories"].update(memory_id, {"pinned": 1, "pinned_at": _pin_stamp(db)})
        return self.get(memory_id)

    def unpin(self, memory_id: str) -> MemoryRow:
        """Unpin a memory (idempotent); it stays stored and is recalled by similarity like any other."""
        with transaction(self.db) as db:
            self._get(db, memory_id)
            db["memories"].update(memory_id, {"pinned": 0, "pinned_at": None})
        return self.get(memory_id)

    @staticmethod
    def _get(db: Database, memory_id: str) -> dict:
        rows = list(db.query("select * from memories where id = ?", [memory_id]))
        if not rows:
            raise NotFound(f"No memory {memory_id!r} — list them with `mol memory list`")
        return rows[0]

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
