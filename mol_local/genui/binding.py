"""Data binding: components with a `source` show the user's own reminders, notes or memories.

Rows come from the harness's stores (reminders, notes) and the memory store,
read fresh on every snapshot, so the view shows the real data. Ticking a
reminder in a bound Checklist completes it through the same store the
`reminders.complete` tool uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from memory.store import MemoryStore
from mol_local.genui.errors import BadAction
from mol_local.harness.errors import BadArguments
from mol_local.harness.store import NotesStore, RemindersStore, local_due


@dataclass(frozen=True)
class BoundRow:
    id: str
    label: str
    done: bool
    cells: tuple[str, ...]


class DataPort:
    """The user's data as components see it; one per database handle."""

    def __init__(self, db: Database) -> None:
        self.reminders = RemindersStore(db)
        self.notes = NotesStore(db)
        self.memories = MemoryStore(db)

    def rows(self, source: str) -> list[BoundRow]:
        if source == "reminders":
            return [BoundRow(r["id"], r["text"], r["completed_at"] is not None, (r["text"], r["due_at"] or ""))
                    for r in self.reminders.list(include_done=True)]
        if source == "notes":
            return [BoundRow(r["id"], r["title"], False, (r["title"], r["body"])) for r in self.notes.find("", limit=50)]
        if source == "memories":
            return [BoundRow(m.id, m.text, False, (m.text, m.kind)) for m in self.memories.list(limit=50)]
        raise BadAction(f"unknown data source {source!r} — use reminders, notes or memories")

    def text_rows(self, source: str) -> list[tuple[str, bool]]:
        """A source's rows as a terminal shows them (genui.text): open reminders first, each with its due time."""
        if source != "reminders":
            return [(r.label, r.done) for r in self.rows(source)]
        rows = sorted(self.reminders.list(include_done=True), key=lambda r: r["completed_at"] is not None)
        return [(f"{r['text']} · {local_due(r['due_at'])}", r["completed_at"] is not None) for r in rows]

    def tick(self, source: str, row_id: str, done: bool) -> None:
        """Ticking a bound item: a reminder is completed; notes and memories have no done state."""
        if source != "reminders":
            raise BadAction(f"items from {source} cannot be ticked — bind a Checklist to reminders or to state")
        if not done:
            raise BadAction("a completed reminder cannot be reopened — add it again with reminders.add")
        try:
            self.reminders.complete(row_id)
        except BadArguments as exc:
            raise BadAction(str(exc)) from exc

    def call(self, tool: str, args: dict[str, Any]) -> dict:
        """A call_tool action: only the bindable tools, with their stores' own argument checks."""
        try:
            if tool == "reminders.add":
                return self.reminders.create(str(args.get("text", "")), args.get("due") or None)
            if tool == "reminders.complete":
                return self.reminders.complete(str(args.get("id", "")))
            if tool == "notes.create":
                return self.notes.create(str(args.get("title", "")), str(args.get("body", "")))
        except BadArguments as exc:
            raise BadAction(f"{tool}: {exc}") from exc
        raise BadAction(f"{tool!r} is not a bindable tool — use reminders.add, reminders.complete or notes.create")
