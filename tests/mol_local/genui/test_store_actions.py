"""Persisted view state, actions, data binding, and the noai boundary of the event text."""

from __future__ import annotations

import pytest

from mol_local.genui.actions import ViewController
from mol_local.genui.binding import DataPort
from mol_local.genui.document import parse_document
from mol_local.genui.errors import BadAction, UnknownView

from .conftest import SECRET


@pytest.fixture
def view(ui_store, ui_db, planner):
    view_id = ui_store.save(parse_document(planner), conversation_id="c1")
    return ViewController(ui_store, DataPort(ui_db), view_id)


def reopen(view: ViewController) -> ViewController:
    """A fresh connection to the same file: what the app sees tomorrow."""
    from memory.db import open_db
    from mol_local.genui.store import GenUIStore
    from mol_local.paths import db_path

    db = open_db(db_path())
    return ViewController(GenUIStore(db), DataPort(db), view.view_id)


def test_tick_persists_across_connections(view):
    view.tick("todo", 1, True)
    again = reopen(view)
    assert again.snapshot().state["items"] == [{"label": "Buy bread", "done": False}, {"label": "Call mum", "done": True}]
    again.store.db.close()


def test_set_value_checks_the_kind(view):
    view.set_value("mood", 8)
    with pytest.raises(BadAction, match="holds number, not text"):
        view.set_value("mood", "eight")
    with pytest.raises(BadAction, match="no state 'nope'"):
        view.set_value("nope", 1)
    with pytest.raises(BadAction, match="no Checklist 'more'"):
        view.tick("more", 0, True)
    with pytest.raises(BadAction, match="no item 7"):
        view.tick("todo", 7, True)
    assert view.snapshot().state["mood"] == 8


def test_unknown_view_and_action(ui_store, view):
    with pytest.raises(UnknownView, match="mol genui list"):
        ui_store.document("zzz")
    with pytest.raises(BadAction, match="no action 'fly'"):
        view.run("fly")


def test_noai_submit_persists_but_never_enters_the_event_text(view):
    out = view.run("save", {"entry": SECRET, "tired": True})
    assert out.saved == {"entry": SECRET, "tired": True}
    assert reopen(view).snapshot().state["entry"] == SECRET
    ask = view.run("ask").ask
    assert ask is not None and "Suggest more" in ask and "mood" in ask
    assert SECRET not in ask and "Private fields not shown: entry, tired" in ask
    events = view.store.events(view.view_id)
    assert [e["action"] for e in events] == ["save", "ask"]
    assert SECRET not in events[0]["detail"]


def test_reminders_bound_checklist_shows_real_rows_and_ticking_completes(ui_store, ui_db, planner):
    from mol_local.harness.store import RemindersStore

    reminders = RemindersStore(ui_db)
    first = reminders.create("Renew passport")
    reminders.create("Water plants")
    planner["components"][1] = {"id": "todo", "type": "Checklist", "label": "Reminders", "source": "reminders"}
    ctl = ViewController(ui_store, DataPort(ui_db), ui_store.save(parse_document(planner)))
    rows = ctl.snapshot().rows["todo"]
    assert [r.label for r in rows] == ["Renew passport", "Water plants"]
    ctl.tick("todo", 0, True)
    assert [r["id"] for r in reminders.list()] != [first["id"]] and first["id"] not in [r["id"] for r in reminders.list()]
    assert ctl.snapshot().rows["todo"][0].done is True
    with pytest.raises(BadAction, match="cannot be reopened"):
        ctl.tick("todo", 0, False)


def test_call_tool_reads_state_references(ui_store, ui_db, planner):
    from mol_local.harness.store import NotesStore

    planner["actions"]["note"] = {"kind": "call_tool", "target": "notes.create",
                                  "payload": {"title": "Mood", "body": "$mood"}, "visibility": "model"}
    planner["components"].append({"id": "keep", "type": "Button", "label": "Keep", "action": "note"})
    planner["components"][0]["children"].append("keep")
    ctl = ViewController(ui_store, DataPort(ui_db), ui_store.save(parse_document(planner)))
    out = ctl.run("note", {"mood": 9})
    assert out.result is not None and NotesStore(ui_db).read(out.result["id"])["body"] == "9"
    planner["actions"]["note"]["payload"] = {"title": ""}
    ctl2 = ViewController(ui_store, DataPort(ui_db), ui_store.save(parse_document(planner)))
    with pytest.raises(BadAction, match="notes.create: a note needs a non-empty title"):
        ctl2.run("note")
