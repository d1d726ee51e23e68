"""F9 memory: list, filter, semantic search, edit, pin and forget the memories the assistant keeps about you.

Pinned memories (📌) are listed first and go into every answer's view.

Filtering is a substring match in SQLite (instant); Enter in the search box
runs a semantic search (the embedder loads on first use, on a worker thread).
Forgetting goes through memory.forget: rows, vectors, and retrain marks on
adapters that were trained with the turns the memory came from.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Footer, Header, Input, Static

from app.backend import user_errors
from app.messages import MemoriesChanged
from app.screens.base import MolScreen
from app.screens.modals import Confirm, TextPrompt

if TYPE_CHECKING:
    from mol_local.services import MemoryRow


class MemoryScreen(MolScreen[None]):
    BINDINGS = [
        Binding("ctrl+f", "focus_search", "Search"),
        Binding("e", "edit", "Edit"),
        Binding("p", "pin", "Pin/unpin"),
        Binding("x", "forget", "Forget"),
        Binding("escape", "app.pop_screen", "Back"),
    ]

    def __init__(self) -> None:
        super().__init__(id="memory-screen")
        self.shown: list[MemoryRow] = []

    def compose(self) -> ComposeResult:
        yield Header(icon="◆")
        with Vertical(id="memory-body"):
            yield Input(placeholder="filter (Enter: search by meaning)", id="memory-search")
            yield Static("", id="memory-note")
            yield DataTable(id="memory-table", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(DataTable).add_columns("📌", "memory", "kind", "from", "updated")
        self.show_rows(None)
        self.query_one(DataTable).focus()

    def show_rows(self, rows: list[MemoryRow] | None, note: str | None = None) -> None:
        runtime = self.mol.runtime
        table = self.query_one(DataTable)
        table.clear()
        if runtime is None:
            self.query_one("#memory-note", Static).update("Your data is still opening — press Esc and come back in a moment.")
            return
        store = runtime.memory.store
        if rows is None:
            needle = self.query_one("#memory-search", Input).value.strip()
            rows = store.containing(needle, said=False) if needle else store.list()
        self.shown = rows
        for row in rows:
            table.add_row("📌" if row.pinned else "", " ".join(row.text.split())[:80], row.kind, row.origin, row.updated_at[:16])
        total = store.count(said=False)
        self.query_one("#memory-note", Static).update(note or f"{len(rows)} of {total} memories  ·  e edit · p pin · x forget · Enter in the box searches by meaning")

    def selected(self) -> MemoryRow | None:
        table = self.query_one(DataTable)
        if not self.shown or table.cursor_row >= len(self.shown):
            self.notify("No memory selected — there are none here yet", severity="warning")
            return None
        return self.shown[table.cursor_row]

    def action_focus_search(self) -> None:
        self.query_one("#memory-search", Input).focus()

    @on(Input.Changed, "#memory-search")
    def filter_changed(self) -> None:
        self.show_rows(None)

    @on(Input.Submitted, "#memory-search")
    def search_submitted(self, event: Input.Submitted) -> None:
        if event.value.strip():
            self.query_one("#memory-note", Static).update("searching by meaning… (the embedder loads on first use)")
            self.semantic_search(event.value.strip())

    @work(thread=True, exclusive=True, group="memory", exit_on_error=False)
    def semantic_search(self, query: str) -> None:
        runtime = self.mol.runtime
        assert runtime is not None
        try:
            found = runtime.memory.search(query, k=20, said=False)
        except user_errors() as exc:
            self.worker_failed(str(exc))
            return
        rows = [r.row for r in found]
        self.post_message(MemoriesChanged(rows, f"{len(rows)} nearest to {query!r} (by meaning)"))

    def action_edit(self) -> None:
        row = self.selected()
        if row is None:
            return

        def done(text: str | None) -> None:
            if text and text != row.text:
                self.update_memory(row.id, text)

        self.app.push_screen(TextPrompt("Edit memory", row.text, max_length=2000), done)

    @work(thread=True, exclusive=True, group="memory", exit_on_error=False)
    def update_memory(self, memory_id: str, text: str) -> None:
        runtime = self.mol.runtime
        assert runtime is not None
        try:
            runtime.memory.update(memory_id, text)
        except user_errors() as exc:
            self.worker_failed(str(exc))
            return
        self.post_message(MemoriesChanged(None, "Memory updated."))

    def action_pin(self) -> None:
        """Toggle the pin of the selected memory (SQLite only: instant, on the UI thread)."""
        row = self.selected()
        runtime = self.mol.runtime
        if row is None or runtime is None:
            return
        store = runtime.memory.store
        try:
            changed = store.unpin(row.id) if row.pinned else store.pin(row.id)
        except user_errors() as exc:
            self.notify(str(exc), title="Pin failed", severity="error", timeout=10)
            return
        note = "Pinned: it goes into every answer." if changed.pinned else "Unpinned: recalled by similarity again."
        self.show_rows(None, note)
        table = self.query_one(DataTable)
        table.move_cursor(row=next((i for i, r in enumerate(self.shown) if r.id == row.id), 0))

    def action_forget(self) -> None:
        row = self.selected()
        if row is None:
            return

        def go(yes: bool | None) -> None:
            if yes:
                self.forget(row.id)

        preview = " ".join(row.text.split())[:80]
        self.app.push_screen(Confirm(f"Forget {preview!r}? It is deleted for good, and turns it came from are kept out of training."), go)

    @work(thread=True, exclusive=True, group="memory", exit_on_error=False)
    def forget(self, memory_id: str) -> None:
        from mol_local.forget import forget_memories

        runtime = self.mol.runtime
        assert runtime is not None
        try:
            report = forget_memories(runtime, [memory_id])
        except user_errors() as exc:
            self.worker_failed(str(exc))
            return
        marked = f"; {len(report.marked_revisions)} adapter revisions marked for retraining" if report.marked_revisions else ""
        self.post_message(MemoriesChanged(None, f"Forgotten{marked}."))
        self.worker_noted(f"Memory forgotten{marked}")

    def on_memories_changed(self, event: MemoriesChanged) -> None:
        self.show_rows(event.rows, event.note)

    def on_worker_state_changed(self, event) -> None:
        """Edge for bugs: an unexpected exception in a memory action is reported, not a crash."""
        from textual.worker import WorkerState

        if event.worker.group == "memory" and event.state == WorkerState.ERROR:
            self.notify(f"Memory action failed unexpectedly: {event.worker.error!r}", severity="error")
