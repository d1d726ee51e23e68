"""Tables a request lays out without their contents (mol_local/genui/grid.py): `mol chat "Create a table comparing iPhone
and Pixel: price, battery, camera"` got the title "iPhone" and no rows; "a weekly meal plan table for Monday to
Friday" got the days as columns and no rows."""

from __future__ import annotations

import pytest

from mol_local.genui.document import parse_document
from mol_local.genui.grid import comparison, grid_document, week_days
from mol_local.genui.ground import ground

PHONES = "Create a table comparing iPhone and Pixel: price, battery, camera"
MEALS = "Make a weekly meal plan table for Monday to Friday"


def test_the_things_compared_and_the_features_are_read() -> None:
    assert comparison(PHONES) == (["iPhone", "Pixel"], ["price", "battery", "camera"])
    assert comparison("compare Python, Go and Rust in a table: speed, safety") == (["Python", "Go", "Rust"], ["speed", "safety"])
    assert comparison("a chart comparing tea vs coffee on caffeine and price") == (["tea", "coffee"], ["caffeine", "price"])


@pytest.mark.parametrize("request_", [
    "Make a table comparing three laptops",  # nothing named
    "Compare iPhone and Pixel",  # no table asked for, no features
    "Make a table of my weekly budget: rent 800, food 300",
])
def test_a_request_that_does_not_lay_a_grid_out_is_left_to_the_model(request_: str) -> None:
    assert grid_document(request_) is None


def test_the_days_a_plan_covers() -> None:
    assert week_days(MEALS) == ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
    assert week_days("a study timetable for the weekdays") == ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
    assert week_days("weekly workout plan table") == ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    assert week_days("a plan from Wed to Sat") == ["Wednesday", "Thursday", "Friday", "Saturday"]


def _drawn(columns: list[str], rows: list[list[str]]) -> object:
    return parse_document({"catalog": "1", "title": "iPhone", "components": [
        {"id": "table", "type": "Table", "label": "Phone", "bind": "rows", "columns": columns}], "state": {"rows": rows}, "actions": {}})


def test_the_model_table_without_the_things_named_becomes_the_laid_out_one() -> None:
    drawn = _drawn(["Price", "Battery", "Camera"], [])  # L3, mol chat
    assert ground(drawn, PHONES) == ["a table comparing iPhone and Pixel on price, battery and camera, its cells empty: I have no facts to put in them"]
    assert drawn.title == "iPhone vs Pixel" and drawn.components[0]["columns"] == ["Feature", "iPhone", "Pixel"]
    assert drawn.state["rows"] == [["Price", "", ""], ["Battery", "", ""], ["Camera", "", ""]]
    parse_document(drawn.to_json())
    meals = _drawn(["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"], [])
    assert ground(meals, MEALS) == ["a meal plan from Monday to Friday, its cells empty for your plan"]
    assert meals.components[0]["columns"] == ["Day", "Breakfast", "Lunch", "Dinner"] and [r[0] for r in meals.state["rows"]][-1] == "Friday"


def test_a_filled_table_that_holds_everything_named_stands() -> None:
    known = _drawn(["Feature", "iPhone", "Pixel"], [["Price", "$799", "$699"], ["Battery", "20h", "24h"], ["Camera", "48MP", "50MP"]])
    assert ground(known, PHONES) == [] and known.title == "iPhone"  # a larger model's values are kept


def test_a_budget_drawn_as_a_checklist_becomes_its_table_with_the_total() -> None:
    """`mol chat`, once routed to L3: "Make a budget: rent 900, …" was drawn as a checklist "Rent 900", "Food 300" to tick."""
    drawn = parse_document({"catalog": "1", "title": "Budget", "components": [{"id": "b", "type": "Checklist", "label": "Get budget", "bind": "items"}],
                            "state": {"items": [{"label": "Rent 900", "done": False}, {"label": "Food 300", "done": False}]}, "actions": {}})
    assert ground(drawn, "Make a budget: rent 900, food 300, transport 120, fun 100") == ["a budget of 4 amounts and their total, 1,420"]
    assert drawn.components[0]["type"] == "Table" and drawn.components[0]["columns"] == ["Item", "Amount"]
    assert drawn.state["rows"] == [["Rent", "900"], ["Food", "300"], ["Transport", "120"], ["Fun", "100"], ["Total", "1,420"]]
    parse_document(drawn.to_json())
    assert grid_document("Make a budget for my trip") is None and grid_document("a table of my scores: maths 90, art 70") is None
