"""SQLite rows the harness owns: notes, reminders and the tool-call audit log.

Tables come from migration `m002_create_tool_tables`. Tool side effects are
durable when the tool returns (a note the model created stays even if the
user cancels the rest of the turn); the audit row records every call, also
the refused ones. Every write is a `memory.db.transaction`, which takes the
store's writer lock itself.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from sqlite_utils import Database

from memory.db import transaction
from memory.timeline import new_id, now_iso
from mol_local.harness.errors import BadArguments
from mol_local.harness.repeat import first_due, monthly_phrase, next_due, on_day_of_month, split_repeat
from mol_local.harness.when import due_at, human, parse_offset, parse_when


def _utc(when: datetime) -> str:
    return when.astimezone().astimezone(timezone.utc).isoformat(timespec="seconds")


def parse_due(text: str, before: str | None = None, *, now: datetime | None = None) -> str:
    """A natural phrase ("tomorrow 9am") or ISO date/time, minus `before` -> UTC ISO string.

    Naive times are local wall-clock time, as a person means it; see mol_local/harness/when.py.
    """
    return _utc(due_at(text, before, now=now))


def local_due(stamp: str | None) -> str:
    """A stored UTC due time as the person's local time, e.g. "Wed 2 Dec 2026, 09:00"."""
    if not stamp:
        return "no due time"
    return human(datetime.fromisoformat(stamp).astimezone().replace(tzinfo=None))


def _take(db: Database, table: str, row_id: str, missing: str) -> dict:
    """Deletes one row of `table` (notes, reminders) and returns it, in one transaction; `missing` is the error when
    no row has that id."""
    with transaction(db) as tx:
        rows = list(tx.query(f"select * from {table} where id = ?", [row_id]))
        if not rows:
            raise BadArguments(missing)
        tx.execute(f"delete from {table} where id = ?", [row_id])
    return rows[0]


class NotesStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    def create(self, title: str, body: str, *, conversation_id: str | None = None) -> dict:
        if not title.strip():
            raise BadArguments("a note needs a non-empty title — pass title and body")
        stamp = now_iso()
        row = {"id": new_id()[:12], "conversation_id": conversation_id, "title": title.strip(), "body": body,
               "created_at": stamp, "updated_at": stamp}
        with transaction(self.db) as db:
            db["notes"].insert(row)
        return row

    def find(self, query: str, *, limit: int = 10) -> list[dict]:
        """Notes whose title or body contain every word of the query (case-insensitive), newest first."""
        words = [w for w in query.lower().split() if w]
        where = " and ".join("(lower(title) like ? or lower(body) like ?)" for _ in words) or "1"
        params: list = [p for w in words for p in (f"%{w}%", f"%{w}%")]
        return list(self.db.query(
            f"select id, title, body, updated_at from notes where {where} order by updated_at desc limit ?",
            [*params, limit],
        ))

    def read(self, note_id: str) -> dict:
        rows = list(self.db.query("select id, title, body, created_at, updated_at from notes where id = ?", [note_id]))
        if not rows:
            raise BadArguments(f"no note with id {note_id!r} — find ids with notes.find")
        return rows[0]


    def delete(self, note_id: str) -> dict:
        """Removes a note the person asked to delete; the row it was is returned so the answer can name it."""
        return _take(self.db, "notes", note_id, f"no note with id {note_id!r} — find ids with notes.find")

    def list(self) -> list[dict]:
        return self.find("", limit=1000)


class RemindersStore:
    def __init__(self, db: Database) -> None:
        self.db = db
        self.clock: Callable[[], datetime] = datetime.now  # local "now" that relative phrases count from

    def create(self, text: str, due: str | None = None, *, before: str | None = None, conversation_id: str | None = None) -> dict:
        if not text.strip():
            raise BadArguments("a reminder needs text — say what to remind about")
        if before and not due:
            raise BadArguments("before needs a due time to count back from — pass due too, e.g. 'tomorrow 2pm'")
        phrase, rule = split_repeat(due) if due else (due, None)
        if rule is None:
            stamp = parse_due(due, before, now=self.clock()) if due else None
        else:
            stamp = _utc(self._first(phrase, before, rule))
        row = {"id": new_id()[:12], "conversation_id": conversation_id, "text": text.strip(),
               "due_at": stamp, "created_at": now_iso(), "completed_at": None, "repeat": rule}
        with transaction(self.db) as db:
            db["reminders"].insert(row)
        return row

    def _first(self, phrase: str, before: str | None, rule: str) -> datetime:
        now = self.clock().replace(microsecond=0)
        phrase, day = monthly_phrase(phrase, now) if rule == "monthly" else (phrase, None)
        when = parse_when(phrase, now=now)
        when = on_day_of_month(when, day) if day else when
        return first_due(when - (parse_offset(before) if before else timedelta(0)), rule, now)

    def list(self, *, include_done: bool = False) -> list[dict]:
        done = "" if include_done else "where completed_at is null"
        return list(self.db.query(
            f"select id, text, due_at, completed_at, repeat from reminders {done} order by due_at is null, due_at, created_at"
        ))

    def latest(self, conversation_id: str) -> dict | None:
        """The newest open reminder set in a conversation: what "make it 3pm instead" is about."""
        rows = list(self.db.query("select * from reminders where conversation_id = ? and completed_at is null "
                                  "order by created_at desc, rowid desc limit 1", [conversation_id]))
        return rows[0] if rows else None

    def complete(self, reminder_id: str) -> dict:
        """Ticks a reminder off; one that repeats opens its next occurrence in the same transaction (`next`)."""
        following = None
        with transaction(self.db) as db:
            rows = list(db.query("select * from reminders where id = ?", [reminder_id]))
            if not rows:
                raise BadArguments(f"no reminder with id {reminder_id!r} — list them with reminders.list")
            row = rows[0]
            if row["completed_at"] is None:
                db["reminders"].update(reminder_id, {"completed_at": now_iso()})
                if row.get("repeat") and row["due_at"]:
                    now = self.clock().replace(microsecond=0)
                    local = datetime.fromisoformat(row["due_at"]).astimezone().replace(tzinfo=None)
                    following = {**row, "id": new_id()[:12], "created_at": now_iso(), "completed_at": None,
                                 "due_at": _utc(first_due(next_due(local, row["repeat"]), row["repeat"], now))}
                    db["reminders"].insert(following)
        return {"id": row["id"], "text": row["text"], "completed_at": row["completed_at"] or "now", "next": following}

    def cancel(self, reminder_id: str) -> dict:
        """Removes a reminder the person no longer wants, done or not; one that repeats stops repeating (ticking it
        off would open its next time, which is why "Delete my stretch reminder" needs this and not `complete`)."""
        return _take(self.db, "reminders", reminder_id, f"no reminder with id {reminder_id!r} — list them with reminders.list")

    def due(self, now: datetime | None = None) -> list[dict]:
        """Open reminders whose time has come: what the app surfaces."""
        stamp = (now or datetime.now(timezone.utc)).astimezone(timezone.utc).isoformat(timespec="seconds")
        return list(self.db.query(
            "select id, text, due_at from reminders where completed_at is null and due_at is not null and due_at <= ? "
            "order by due_at",
            [stamp],
        ))


@dataclass(frozen=True)
class AuditEntry:
    conversation_id: str | None
    slot: str
    tool: str
    arguments: str
    status: str
    result_chars: int
    duration_ms: float


class AuditLog:
    def __init__(self, db: Database) -> None:
        self.db = db

    def record(self, entry: AuditEntry) -> str:
        row_id = new_id()
        with transaction(self.db) as db:
            db["tool_calls"].insert({"id": row_id, **entry.__dict__, "created_at": now_iso()})
        return row_id

    def list(self, *, conversation_id: str | None = None, limit: int = 50) -> list[dict]:
        where, params = ("where conversation_id = ?", [conversation_id]) if conversation_id else ("", [])
        return list(self.db.query(
            f"select id, conversation_id, slot, tool, arguments, status, result_chars, duration_ms, created_at "
            f"from tool_calls {where} order by created_at desc, rowid desc limit ?",
            [*params, limit],
        ))


def dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)
