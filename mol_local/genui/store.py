"""SQLite persistence of views: the document, its live state, and the action log.

Tables come from migration `m005_create_genui_tables`. The document row is
written in the turn's commit transaction (`writer`); state changes are
durable as soon as `set_state` returns, so a ticked checklist is still
ticked tomorrow.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from sqlite_utils import Database

from memory.db import transaction
from memory.timeline import new_id, now_iso
from mol_local.genui.document import UIDocument, parse_document
from mol_local.genui.errors import UnknownView


class GenUIStore:
    """Views in the store; every write is a `memory.db.transaction` (which takes the store's writer lock)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def row(self, doc: UIDocument, *, conversation_id: str | None, task_id: str | None, view_id: str | None = None) -> dict:
        return {"id": view_id or new_id()[:12], "conversation_id": conversation_id, "task_id": task_id,
                "title": doc.title, "document": doc.dumps(), "created_at": now_iso()}

    def writer(self, row: dict) -> Callable[[Database, list[str]], None]:
        """An extra write for the turn's commit (TurnRecord.extra_writes): the view lands with the turn."""
        return lambda db, _ids: db["genui_views"].insert(row)

    def save(self, doc: UIDocument, *, conversation_id: str | None = None, task_id: str | None = None) -> str:
        row = self.row(doc, conversation_id=conversation_id, task_id=task_id)
        with transaction(self.db):
            self.db["genui_views"].insert(row)
        return row["id"]

    def meta(self, view_id: str) -> dict:
        rows = list(self.db.query("select * from genui_views where id = ?", [view_id]))
        if not rows:
            raise UnknownView(f"no UI view with id {view_id!r} — list them with `mol genui list`")
        return rows[0]

    def document(self, view_id: str) -> UIDocument:
        return parse_document(self.meta(view_id)["document"])

    def for_task(self, task_id: str) -> str | None:
        rows = list(self.db.query(
            "select id from genui_views where task_id = ? order by created_at desc, rowid desc limit 1", [task_id]))
        return rows[0]["id"] if rows else None

    def view_for_answer(self, task_id: str, answer: str) -> str | None:
        """The view of `task_id` whose document is exactly `answer` (the stored L3 answer text), if any."""
        rows = list(self.db.query(
            "select id from genui_views where task_id = ? and document = ? order by created_at desc, rowid desc limit 1",
            [task_id, answer.strip()]))
        return rows[0]["id"] if rows else None

    def list(self, *, conversation_id: str | None = None, limit: int = 50) -> list[dict]:
        where, params = ("where conversation_id = ?", [conversation_id]) if conversation_id else ("", [])
        return list(self.db.query(
            f"select id, conversation_id, task_id, title, created_at from genui_views {where} "
            "order by created_at desc, rowid desc limit ?", [*params, limit]))

    def state(self, view_id: str) -> dict[str, Any]:
        """The live state: the document's initial state overlaid with every stored change."""
        state = dict(self.document(view_id).state)
        for r in self.db.query("select key, value from genui_state where view_id = ?", [view_id]):
            state[r["key"]] = json.loads(r["value"])
        return state

    def set_state(self, view_id: str, values: dict[str, Any]) -> None:
        self.meta(view_id)
        stamp = now_iso()
        with transaction(self.db):
            for key, value in values.items():
                self.db["genui_state"].upsert(
                    {"view_id": view_id, "key": key, "value": json.dumps(value, ensure_ascii=False), "updated_at": stamp},
                    pk=("view_id", "key"))

    def log(self, view_id: str, action: str, kind: str, visibility: str, detail: dict) -> str:
        event_id = new_id()
        with transaction(self.db):
            self.db["genui_events"].insert({"id": event_id, "view_id": view_id, "action": action, "kind": kind,
                                            "visibility": visibility, "detail": json.dumps(detail, ensure_ascii=False),
                                            "created_at": now_iso()})
        return event_id

    def events(self, view_id: str) -> list[dict]:
        return list(self.db.query(
            "select action, kind, visibility, detail, created_at from genui_events where view_id = ? "
            "order by created_at, rowid", [view_id]))
