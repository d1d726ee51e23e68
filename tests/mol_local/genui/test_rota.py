"""A chore chart is the week's table (mol_local/genui/rota.py): `mol chat "Make a weekly chore chart for Tom and Mia: dishes,
laundry, hoovering"` went to L1, which tried to tick a reminder off."""

from __future__ import annotations

import pytest

from mol_local.genui.asked import asked_kinds, names_a_view
from mol_local.genui.document import parse_document
from mol_local.genui.ground import ground
from mol_local.genui.rota import rota, week_rows

ASKED = "Make a weekly chore chart for Tom and Mia: dishes, laundry, hoovering"


def test_the_people_and_chores_are_read_and_the_request_names_a_table() -> None:
    assert rota(ASKED) == (["Tom", "Mia"], ["dishes", "laundry", "hoovering"])
    assert rota("a cleaning rota between me, Sam and Priya with bins, bathroom and kitchen") == \
        (["Me", "Sam", "Priya"], ["bins", "bathroom", "kitchen"])
    assert names_a_view(ASKED) and asked_kinds(ASKED) == ("Table",)


@pytest.mark.parametrize("request_", [
    "Make a chore chart",  # nobody named
    "Make a chore chart for Tom: dishes, laundry",  # one person: a checklist's job
    "What is a rota?",
])
def test_a_chart_without_two_people_and_two_chores_is_left_to_the_model(request_: str) -> None:
    assert rota(request_) is None


def test_every_chore_is_someones_each_day_and_nobody_keeps_one_two_days_running() -> None:
    rows = week_rows(["Tom", "Mia"], ["dishes", "laundry", "hoovering"])
    assert [r[0] for r in rows] == ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    assert rows[0] == ["Mon", "dishes, hoovering", "laundry"] and rows[1] == ["Tue", "laundry", "dishes, hoovering"]
    for row in rows:
        assert sorted(", ".join(row[1:]).split(", ")) == ["dishes", "hoovering", "laundry"]
    assert all(set(a[1].split(", ")).isdisjoint(b[1].split(", ")) for a, b in zip(rows, rows[1:]))


def test_whatever_the_model_drew_the_view_is_one_table_of_the_week() -> None:
    drawn = parse_document({"catalog": "1", "title": "Chores", "components": [
        {"id": "f", "type": "Form", "label": "Chores", "children": ["c"], "action": "go"},
        {"id": "c", "type": "Checklist", "label": "Chores", "bind": "items"}],
        "state": {"items": [{"label": "Passport", "done": False}]},
        "actions": {"go": {"kind": "submit", "target": "f", "payload": {}, "visibility": "noai"}}})
    fixes = ground(drawn, ASKED)
    assert fixes == ["a chore chart of the week: dishes, laundry, hoovering handed round Tom, Mia"]
    assert drawn.title == "Weekly chore chart" and [c["type"] for c in drawn.components] == ["Table"]
    assert drawn.components[0]["columns"] == ["Day", "Tom", "Mia"] and len(drawn.state["rows"]) == 7 and drawn.actions == {}
    parse_document(drawn.to_json())
