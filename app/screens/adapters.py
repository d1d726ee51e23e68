"""F5 adapters: every slot's specialist and personal revisions, which is active, eval evidence;
activate, roll back, export and import (with confirmation for the ones that change what answers).
Export and import pick their file in a keyboard-driven DirectoryTree modal (app/screens/file_picker.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import DataTable, Footer, Header, Static

from app.backend import user_errors
from app.screens.base import MolScreen
from app.screens.file_picker import FilePicker
from app.screens.modals import Confirm

if TYPE_CHECKING:
    from mol_local.adapters.registry import Registry

COLUMNS = ("slot", "layer", "revision", "active", "created", "parent", "eval")


def eval_summary(evidence: dict) -> str:
    """One short line of a manifest's eval evidence (gate verdict first when there is one)."""
    if not evidence:
        return "—"
    if "specialists_heldout_pass" in evidence:  # a shipped specialist: its held-out pass rate against the bare base
        e = evidence
        return (f"pass {e['specialists_heldout_pass']:.2f} vs bare {e.get('bare_heldout_pass', 0):.2f}"
                f" · conv {e.get('specialists_conversation_pass', 0):.2f}")
    parts = [f"{k}={v}" for k, v in evidence.items() if not isinstance(v, (dict, list)) and k != "source"]
    return ", ".join(parts)[:60] or json.dumps(evidence)[:60]


class AdaptersScreen(MolScreen[None]):
    BINDINGS = [
        Binding("a", "activate", "Activate"),
        Binding("r", "rollback", "Roll back"),
        Binding("e", "export", "Export"),
        Binding("i", "import_bundle", "Import"),
        Binding("escape", "app.pop_screen", "Back"),
    ]

    def __init__(self) -> None:
        super().__init__(id="adapters-screen")
        self.rows: list[tuple[str, str, str]] = []
        self.last_folder: Path | None = None  # where the last export/import was: the picker starts there

    def compose(self) -> ComposeResult:
        yield Header(icon="◆")
        with Vertical(id="adapters-body"):
            yield Static("", id="adapters-note")
            yield DataTable(id="adapters-table", cursor_type="row", zebra_stripes=True)
            yield Static("", id="adapters-detail")
        yield Footer()

    def registry(self) -> Registry | None:
        runtime = self.mol.runtime
        if runtime is None:
            return None
        from mol_local.adapters.registry import Registry

        return Registry(runtime.adapters_root())

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns(*COLUMNS)
        self.reload()
        table.focus()

    def reload(self, keep: tuple[str, str, str] | None = None) -> None:
        from mol_local.adapters.manifest import LAYERS
        from mol_local.adapters.registry import SLOTS

        table = self.query_one(DataTable)
        table.clear()
        self.rows = []
        registry = self.registry()
        note = self.query_one("#adapters-note", Static)
        if registry is None:
            note.update("Your data is still opening — press Esc and come back in a moment.")
            return
        names = self.mol.runtime.slot_names() if self.mol.runtime else {}
        try:
            for slot in SLOTS:
                for layer in LAYERS:
                    active = registry.pointer(slot, layer)["revision"]
                    for rev in registry.revisions(slot, layer):
                        m = rev.manifest
                        table.add_row(
                            f"{slot} {names.get(slot, '')}".strip(), layer, rev.revision, "● active" if rev.revision == active else "",
                            str(m.get("created_at", ""))[:16], str(m.get("parent_revision") or "—"), eval_summary(m.get("eval") or {}),
                        )
                        self.rows.append((slot, layer, rev.revision))
        except user_errors() as exc:
            self.notify(str(exc), severity="error")
        note.update(
            f"{len(self.rows)} revisions  ·  a activate · r roll back · e export · i import"
            if self.rows else "No adapter revisions yet — the nightly trainer adds personal ones; `i` imports a bundle."
        )
        if keep in self.rows:
            table.move_cursor(row=self.rows.index(keep))

    def selected(self) -> tuple[str, str, str] | None:
        table = self.query_one(DataTable)
        if not self.rows or table.cursor_row is None or table.cursor_row >= len(self.rows):
            self.notify("No revision selected — there are none yet, or move the cursor onto one", severity="warning")
            return None
        return self.rows[table.cursor_row]

    @on(DataTable.RowHighlighted)
    def highlighted(self, event: DataTable.RowHighlighted) -> None:
        registry = self.registry()
        if registry is None or event.cursor_row >= len(self.rows):
            return
        slot, layer, revision = self.rows[event.cursor_row]
        manifest = registry.revision(slot, layer, revision).manifest
        keep = ("rank", "alpha", "target_modules", "eval", "training_data_ids")
        shown = {k: (len(manifest[k]) if k == "training_data_ids" else manifest[k]) for k in keep if k in manifest}
        self.query_one("#adapters-detail", Static).update(Content(json.dumps(shown, indent=1)[:1200]))

    def _run(self, what: str, action, keep: tuple[str, str, str] | None = None) -> None:
        try:
            message = action()
        except user_errors() as exc:
            self.notify(str(exc), title=f"{what} failed", severity="error", timeout=10)
            return
        self.notify(message)
        self.reload(keep)

    def action_activate(self) -> None:
        target, registry = self.selected(), self.registry()
        if target is None or registry is None:
            return
        slot, layer, revision = target

        def go(yes: bool | None) -> None:
            if yes:
                self._run("Activate", lambda: f"{slot}/{layer} now answers with {registry.activate(slot, layer, revision).revision}", target)

        self.app.push_screen(Confirm(f"Activate {slot}/{layer} {revision}? The next turn uses it."), go)

    def action_rollback(self) -> None:
        target, registry = self.selected(), self.registry()
        if target is None or registry is None:
            return
        slot, layer, _ = target

        def go(yes: bool | None) -> None:
            if yes:
                def back() -> str:
                    rev = registry.rollback(slot, layer)
                    return f"{slot}/{layer} rolled back to {rev.revision if rev else 'no adapter'}"

                self._run("Roll back", back, target)

        self.app.push_screen(Confirm(f"Roll {slot}/{layer} back to the revision active before? The next turn uses it."), go)

    def start_folder(self) -> Path:
        from mol_local.paths import mol_home

        for folder in (self.last_folder, mol_home() / "exports"):
            if folder is not None and folder.is_dir():
                return folder
        return Path.home()

    def action_export(self) -> None:
        target, registry = self.selected(), self.registry()
        if target is None or registry is None:
            return
        slot, layer, revision = target
        from mol_local.adapters.bundle import SUFFIX, export_bundle

        def write(out: Path) -> None:
            self.last_folder = out.parent
            self._run("Export", lambda: f"Exported to {export_bundle(registry, f'{slot}/{layer}', out, revision=revision)}", target)

        def go(out: Path | None) -> None:
            if out is None:
                return
            if out.exists():
                self.app.push_screen(Confirm(f"{out} exists. Replace it?", yes="Yes, replace (y)"), lambda yes: write(out) if yes else None)
                return
            write(out)

        picker = FilePicker(f"Export {slot}/{layer} {revision}: choose a folder and a file name", start=self.start_folder(), suffix=SUFFIX,
                            save=True, filename=f"{slot}-{layer}-{revision}{SUFFIX}")
        self.app.push_screen(picker, go)

    def action_import_bundle(self) -> None:
        registry, runtime = self.registry(), self.mol.runtime
        if registry is None or runtime is None:
            return
        from mol_local.adapters.bundle import SUFFIX, import_bundle

        def go(bundle: Path | None) -> None:
            if bundle is None:
                return
            if not bundle.is_file():
                self.notify(f"No file at {bundle} — pick an exported {SUFFIX} bundle", severity="error")
                return
            self.last_folder = bundle.parent
            self._run("Import", lambda: f"Imported as {import_bundle(registry, bundle, base=runtime.model_path()).revision} (not active yet)")

        self.app.push_screen(FilePicker(f"Import an adapter bundle ({SUFFIX})", start=self.start_folder(), suffix=SUFFIX), go)
