"""F7 models: every GGUF the catalog knows (the same facts as `mol models list`) with a "fits in memory?"
column; `u` makes the highlighted one the base (confirmed; checks first, one new HCP version, the runtime
reopens on it), `s` scans Ollama, LM Studio and the Hugging Face cache. Reads and writes run in workers
and come back as Messages (ModelsListed, ModelUsed)."""

from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Footer, Header, Static

from app.backend import user_errors
from app.screens.base import MolScreen
from app.messages import ModelsListed, ModelUsed, SettingsSaved
from app.screens.modals import Confirm

COLUMNS = ("", "name", "arch", "params", "quant", "size", "context", "template", "fits in memory?", "source")


class ModelsScreen(MolScreen[None]):
    BINDINGS = [
        Binding("u", "use", "Use"),
        Binding("s", "scan", "Scan"),
        Binding("escape", "app.pop_screen", "Back"),
    ]

    def __init__(self) -> None:
        super().__init__(id="models-screen")
        self.names: list[str] = []
        self.busy = False

    def compose(self) -> ComposeResult:
        yield Header(icon="◆")
        with Vertical(id="models-body"):
            yield Static("reading the model catalog…", id="models-note")
            yield DataTable(id="models-table", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns(*COLUMNS)
        table.focus()
        self.load()

    def _hcp(self):
        runtime = self.mol.runtime
        if runtime is not None:
            return runtime.hcp
        from mol_local.runtime import load_default_hcp

        return load_default_hcp(self.mol.hcp_path)

    @work(thread=True, exclusive=True, group="models", exit_on_error=False)
    def load(self, scan: bool = False) -> None:
        from mol_local.catalog.service import catalog, rows

        try:
            problems: list[str] = []
            if scan:
                from mol_local.catalog.sources import scan_known

                problems = catalog().add_found(scan_known()).problems
            available, listed = rows(self._hcp())
        except user_errors() as exc:
            self.post_message(ModelsListed(0, [], str(exc)))
            return
        self.post_message(ModelsListed(available, listed, "; ".join(problems) or None))

    @on(ModelsListed)
    def listed(self, event: ModelsListed) -> None:
        from mol_local.catalog.facts import human_bytes, human_count

        if event.error:
            self.notify(event.error, title="Models", severity="warning" if event.rows else "error", timeout=15)
        table = self.query_one(DataTable)
        table.clear()
        self.names = []
        for r in event.rows:
            mark = "● in use" if r.in_use else ("file missing" if r.state == "missing" else "")
            table.add_row(mark, r.name, r.architecture, human_count(r.parameters), r.quant, human_bytes(r.file_size),
                          str(r.context_length or "?"), "yes" if r.template else "NO", r.fits, r.source)
            self.names.append(r.name)
        self.query_one("#models-note", Static).update(
            f"{len(self.names)} models · {human_bytes(event.available)} of RAM free · u use · s scan Ollama, LM Studio, Hugging Face"
            if event.rows else "No catalog yet — press s to scan, or run `mol models add PATH`."
        )

    def selected(self) -> str | None:
        table = self.query_one(DataTable)
        if not self.names or table.cursor_row is None or table.cursor_row >= len(self.names):
            self.notify("No model selected — press s to scan for some", severity="warning")
            return None
        return self.names[table.cursor_row]

    def action_scan(self) -> None:
        self.query_one("#models-note", Static).update("scanning…")
        self.load(scan=True)

    def action_use(self) -> None:
        name = self.selected()
        if name is None or self.busy:
            return

        def go(yes: bool | None) -> None:
            if yes:
                self.busy = True
                self.use(name)

        self.app.push_screen(Confirm(f"Use {name} as the base model? It is checked first; the app then reloads on it.",
                                     yes="Yes, use it (y)"), go)

    @work(thread=True, exclusive=True, group="models-use", exit_on_error=False)
    def use(self, name: str) -> None:
        from mol_local.catalog.service import use_model

        try:
            version, plan = use_model(name, self._hcp())
        except user_errors() as exc:
            self.post_message(ModelUsed(name, error=str(exc)))
            return
        self.post_message(ModelUsed(name, version.reason, plan.notes))

    @on(ModelUsed)
    def used(self, event: ModelUsed) -> None:
        from mol_local.paths import mol_home

        self.busy = False
        if event.error:
            self.notify(event.error, title=f"{event.name} was not made the base", severity="error", timeout=20)
            return
        for note in event.notes:
            self.notify(note, title=event.name, severity="warning", timeout=20)
        self.mol.post_message(SettingsSaved(mol_home() / "hcp.toml", event.reason))
        self.load()
