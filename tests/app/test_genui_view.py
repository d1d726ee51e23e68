"""GenUIView: Pilot ticks, types, submits and presses; state is checked in SQLite; snapshots of the drawing."""

from __future__ import annotations

import copy

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Checkbox, Input, Static

from app.widgets.genui import GenUIView, controller_handler
from mol_local.genui.actions import ViewController
from mol_local.genui.binding import DataPort
from mol_local.genui.document import parse_document
from mol_local.genui.store import GenUIStore
from tests.mol_local.genui.conftest import PLANNER

EVIL = "[bold red]markup[/] <script>x</script> \x1b[2J\x1b]0;t\x07"


class ViewApp(App):
    def __init__(self, controller: ViewController) -> None:
        super().__init__()
        self.controller = controller
        self.asked: list[str] = []
        self.errors: list[str] = []

    def compose(self) -> ComposeResult:
        yield GenUIView(self.controller.snapshot(),
                        controller_handler(self.controller, on_ask=self.asked.append, on_error=self.errors.append))


@pytest.fixture
def db(mol_home):
    from memory.db import open_db
    from mol_local.paths import db_path

    db = open_db(db_path())
    yield db
    db.close()


def controller(db, doc: dict | None = None) -> ViewController:
    store = GenUIStore(db)
    return ViewController(store, DataPort(db), store.save(parse_document(doc or copy.deepcopy(PLANNER))))


def fresh_state(ctl: ViewController) -> dict:
    from memory.db import open_db
    from mol_local.paths import db_path

    other = open_db(db_path())
    try:
        return GenUIStore(other).state(ctl.view_id)
    finally:
        other.close()


@pytest.mark.asyncio
async def test_tick_type_submit_and_ask(db):
    ctl = controller(db)
    app = ViewApp(ctl)
    async with app.run_test(size=(100, 60)) as pilot:
        assert app.query_one("#ui-todo-1", Checkbox).render().plain.startswith("▐ ▌")  # open: an empty box
        await pilot.click("#ui-todo-1")
        await pilot.pause()
        assert app.query_one("#ui-todo-1", Checkbox).value is True
        assert app.query_one("#ui-todo-1", Checkbox).render().plain.startswith("▐✓▌")  # ticked: seen without colour too
        app.query_one("#ui-entry", Input).focus()
        await pilot.press(*"dear diary")
        await pilot.click("#ui-tired")
        await pilot.click("#ui-journal-submit")
        await pilot.pause()
        await pilot.click("#ui-more")
        await pilot.pause()
    state = fresh_state(ctl)
    assert state["items"][1] == {"label": "Call mum", "done": True}
    assert state["entry"] == "dear diary" and state["tired"] is True
    assert [e["action"] for e in ctl.store.events(ctl.view_id)] == ["save", "ask"]
    assert len(app.asked) == 1 and "dear diary" not in app.asked[0] and "Suggest more" in app.asked[0]
    assert app.errors == []


@pytest.mark.asyncio
async def test_bound_reminders_tick_completes_the_reminder(db):
    from mol_local.harness.store import RemindersStore

    RemindersStore(db).create("Pay rent")
    doc = copy.deepcopy(PLANNER)
    doc["components"][1] = {"id": "todo", "type": "Checklist", "label": "Reminders", "source": "reminders"}
    ctl = controller(db, doc)
    app = ViewApp(ctl)
    async with app.run_test(size=(100, 60)) as pilot:
        await pilot.click("#ui-todo-0")
        await pilot.pause()
        await pilot.click("#ui-todo-0")  # un-ticking a completed reminder is refused, shown as an error
        await pilot.pause()
    assert RemindersStore(db).list() == []
    assert app.errors and "cannot be reopened" in app.errors[0]


@pytest.mark.asyncio
async def test_markup_and_escape_sequences_are_drawn_inert(db):
    doc = copy.deepcopy(PLANNER)
    doc["components"].append({"id": "evil", "type": "Text", "label": "t", "text": EVIL})
    doc["components"][0]["children"].append("evil")
    doc["title"] = EVIL
    app = ViewApp(controller(db, doc))
    async with app.run_test(size=(100, 60)) as pilot:
        await pilot.pause()
        shown = str(app.query_one("#ui-evil", Static).render())
        assert "[bold red]markup[/]" in shown and "\\x1b[2J" in shown and "\x1b" not in shown
        assert "\x1b" not in app.query_one(GenUIView).border_title


def drawn(*selectors: str):
    """A run_before hook that fails the snapshot if the view did not compose (a crash draws nothing)."""

    async def check(pilot) -> None:
        await pilot.pause()
        for sel in selectors:
            pilot.app.query_one(sel)

    return check


def test_snapshot_planner(snap_compare, tmp_path, monkeypatch):
    monkeypatch.setenv("MOL_HOME", str(tmp_path / "snap"))
    from memory.db import open_db
    from mol_local.paths import db_path

    db = open_db(db_path())
    app = ViewApp(controller(db))
    assert snap_compare(app, terminal_size=(90, 48), run_before=drawn("#ui-main", "#ui-mood"))
    db.close()


def test_snapshot_every_component(snap_compare, tmp_path, monkeypatch):
    monkeypatch.setenv("MOL_HOME", str(tmp_path / "snap"))
    from memory.db import open_db
    from mol_local.paths import db_path

    doc = {
        "catalog": "1", "title": "All components",
        "components": [
            {"id": "tabs", "type": "Tabs", "label": "tabs", "children": ["grid", "tbl"]},
            {"id": "grid", "type": "Grid", "label": "Overview", "columns": 2, "children": ["txt", "md", "bar", "timer", "sel", "btn"]},
            {"id": "txt", "type": "Text", "label": "t", "text": "Plain text"},
            {"id": "md", "type": "Markdown", "label": "m", "text": "**bold** stays literal"},
            {"id": "bar", "type": "ProgressBar", "label": "Water", "bind": "water", "max": 8},
            {"id": "timer", "type": "Timer", "label": "Tea", "bind": "tea", "seconds": 300},
            {"id": "sel", "type": "Select", "label": "Dinner", "bind": "dinner", "options": ["pizza", "curry"]},
            {"id": "btn", "type": "Button", "label": "More", "action": "more"},
            {"id": "tbl", "type": "Table", "label": "Budget", "bind": "rows", "columns": ["what", "amount"]},
        ],
        "state": {"water": 3, "tea": 300, "dinner": "curry", "rows": [["rent", "900"], ["food", "300"]]},
        "actions": {"more": {"kind": "ask_model", "target": "grid", "payload": {}, "visibility": "model"}},
    }
    db = open_db(db_path())
    app = ViewApp(controller(db, doc))
    assert snap_compare(app, terminal_size=(90, 40), run_before=drawn("#ui-tabs", "#ui-grid", "#ui-btn", "#ui-tbl"))
    db.close()


@pytest.mark.asyncio
async def test_timer_counts_down_and_persists(db):
    doc = {"catalog": "1", "title": "Tea", "components": [{"id": "tea", "type": "Timer", "label": "Tea", "bind": "left", "seconds": 3}],
           "state": {"left": 3}, "actions": {}}
    ctl = controller(db, doc)
    app = ViewApp(ctl)
    async with app.run_test(size=(60, 12)) as pilot:
        await pilot.click("#ui-tea-start")
        await pilot.pause(2.5)
        await pilot.click("#ui-tea-start")  # pause
        await pilot.pause()
    assert fresh_state(ctl)["left"] in (1.0, 2.0)


@pytest.mark.asyncio
async def test_a_table_shows_whole_headers_and_cells(db):
    """Seen under tmux: a table of cities drew "C  C" over "m  f" — each header and cell cut to one letter."""
    from textual.widgets import DataTable

    doc = {"catalog": "1", "title": "Cities", "components": [
        {"id": "tbl", "type": "Table", "label": "Cities", "bind": "rows", "columns": ["City", "Country"]}],
        "state": {"rows": [["Lima", "Peru"], ["Oslo", EVIL]]}, "actions": {}}
    app = ViewApp(controller(db, doc))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        table = app.query_one(DataTable)
        city, country = table.columns.values()
        assert city.content_width == len("City") and country.content_width >= len("Country")
        assert str(table.get_row_at(0)[0]) == "Lima" and "[bold red]" in str(table.get_row_at(1)[1])
