"""A row added to a table by a follow-up (mol_local/turn/table_edit.py)."""

from __future__ import annotations

import pytest

from mol_local.genui.document import parse_document
from mol_local.genui.store import GenUIStore
from mol_local.turn.list_edit import LIST_EDIT
from mol_local.turn.table_edit import asked_row, with_row

READING = {"catalog": "1", "title": "Reading tracker",
           "components": [{"id": "books", "type": "Table", "label": "Books", "bind": "rows", "columns": ["Title", "Author", "Pages read"]}],
           "state": {"rows": []}, "actions": {}}
TODO = {"catalog": "1", "title": "To do", "components": [{"id": "checklist", "type": "Checklist", "label": "To do", "bind": "items"}],
        "state": {"items": [{"label": "Call mom", "done": False}]}, "actions": {}}


@pytest.mark.parametrize(("text", "shown_last", "asked"), [
    ("Add Dune, Frank Herbert, 412 to my reading tracker", False, (["Dune", "Frank Herbert", "412"], True)),
    ("Log a new entry: 6 Dec, coffee, 3.20", False, (["6 Dec", "coffee", "3.20"], True)),
    ("please add another row: Emma; Jane Austen; 120 thanks", False, (["Emma", "Jane Austen", "120"], True)),
    ("Add Dune, Frank Herbert, 412", True, (["Dune", "Frank Herbert", "412"], False)),
    ("Add Dune, Frank Herbert, 412", False, None),  # no table just shown, none named: not sure enough
    ("Add buy stamps to the list", False, None), ("Put the kettle on", True, None), ("Add 5 and 7", True, None),
])
def test_which_requests_add_a_row(text: str, shown_last: bool, asked: tuple[list[str], bool] | None) -> None:
    assert asked_row(text, shown_last) == asked


def test_a_row_must_fit_the_table() -> None:
    doc = parse_document(READING)
    assert with_row(doc, doc.state, ["Dune", "Frank Herbert", "412"], False) == ({"rows": [["Dune", "Frank Herbert", "412"]]},
                                                                                  ["Dune", "Frank Herbert", "412"])
    assert with_row(doc, doc.state, ["dune", "Frank Herbert"], True) == ({"rows": [["Dune", "Frank Herbert", ""]]}, ["Dune", "Frank Herbert", ""])
    assert with_row(doc, doc.state, ["Dune", "Frank Herbert"], False) is None  # bare: the row is not whole
    assert with_row(doc, doc.state, ["milk"], True) is None and with_row(doc, doc.state, ["a", "b", "c", "d"], True) is None
    assert with_row(parse_document(TODO), TODO["state"], ["Dune", "Frank Herbert", "412"], True) is None  # no table


def test_rows_added_from_the_chat_fill_the_newest_table_with_no_model(scripted_runtime) -> None:
    """`mol chat -c`: "Create a reading tracker with title, author and pages read" draws an empty table the app shows
    read-only; "Add Dune, Frank Herbert, 412" had been answered "There's no list in this conversation to add …"."""
    rt, scripted = scripted_runtime(["never read"])
    session = rt.session()
    store = GenUIStore(rt.db)
    first = store.save(parse_document(READING), conversation_id=session.conversation_id)
    added = session.run_turn("Add Dune, Frank Herbert, 412 to the tracker")
    assert added.slot == "L3" and added.route is not None and added.route.raw_output == LIST_EDIT
    assert added.document["state"]["rows"] == [["Dune", "Frank Herbert", "412"]]  # type: ignore[index]
    assert added.notices == ["Added a row: Dune | Frank Herbert | 412."] and store.state(first)["rows"] == []  # the first view stays
    bare = session.run_turn("Add Emma, Jane Austen, 120")  # right after the table
    assert bare.document["state"]["rows"] == [["Dune", "Frank Herbert", "412"], ["Emma", "Jane Austen", "120"]]  # type: ignore[index]
    store.save(parse_document(TODO), conversation_id=session.conversation_id)  # a newer view that is no table
    listed = session.run_turn("Add eggs, milk")
    assert listed.document["components"][0]["type"] == "Checklist"  # type: ignore[index]
    assert scripted.outputs == ["never read"]
    kept = rt.timeline.load_tasks(session.conversation_id)
    assert [t.slot for t in kept] == ["L3"] * 3 and kept[1].messages[-1].content == bare.answer
