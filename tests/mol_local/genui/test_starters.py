"""A list asked for without its items starts with the usual ones for its kind (mol_local/genui/starters.py)."""

from __future__ import annotations

import json

import pytest

from mol_local.genui.document import parse_document
from mol_local.genui.ground import ground
from mol_local.genui.starters import STARTER_LABEL, starter_for, starters


def checklist(title: str, label: str, *items: str) -> str:
    return json.dumps({"catalog": "1", "title": title, "components": [{"id": "checklist", "type": "Checklist", "label": label, "bind": "items"}],
                       "state": {"items": [{"label": i, "done": False} for i in items]}, "actions": {}})


@pytest.mark.parametrize(("request_text", "model", "first"), [
    ("Make a packing list for a beach holiday", checklist("Beach holiday", "To pack", "To pack", "Items"), "Swimsuit"),  # mol chat
    ("Make a checklist for my trip to Paris", checklist("My trip", "My trip", "Paris", "Monti", "Orange groves"), "Passport or ID"),
    ("Make a grocery list for a week of healthy meals", checklist("Healthy meals", "Ingredients", "Healthy meals", "Meal ideas"), "Bread"),
    ("Create a checklist for moving house", checklist("Moving", "Steps", "Moving"), "Book the removal van"),
    ("Make a cleaning checklist", checklist("Checklist", "Checklist", "Checklist"), "Vacuum the floors"),  # titled "Cleaning"
    ("Make a checklist for my morning routine", checklist("Morning routine", "Steps", "Start", "Eat breakfast", "Lunch", "Dinner"),
     "Drink a glass of water"),  # mol chat: lunch and dinner in a morning routine
])
def test_a_list_with_no_item_named_starts_with_its_kinds_usual_items(request_text: str, model: str, first: str) -> None:
    doc = parse_document(model)
    fixes = ground(doc, request_text)
    labels = [i["label"] for i in doc.state["items"]]
    assert labels[0] == first and len(labels) >= 7 and not {"Items", "Monti", "Meal ideas", "Moving", "Lunch"} & set(labels)
    assert doc.title != "Checklist" and doc.components[0]["label"] == STARTER_LABEL and any(f.startswith("started the list with the usual items") for f in fixes)


def test_a_named_item_means_no_starter_and_a_list_with_no_starter_only_loses_its_echoes() -> None:
    named = parse_document(checklist("Shopping list", "Items", "Eggs", "Flour", "Butter"))
    ground(named, "Make a shopping list with eggs, flour and butter")  # those three, not a week's shop
    assert [i["label"] for i in named.state["items"]] == ["Eggs", "Flour", "Butter"] and named.components[0]["label"] == "Items"
    habits = parse_document(checklist("Habits", "Habits", "Habits", "Read", "Items"))
    assert ground(habits, "Make a habit tracker checklist") == ["left out items that only repeat the list's name: 'Habits', 'Items'"]
    assert [i["label"] for i in habits.state["items"]] == ["Read"]


def test_every_starter_reads_and_the_specific_kind_wins() -> None:
    assert all(s.items and len(s.items) == len(set(s.items)) for s in starters())
    assert starter_for("a packing list for a beach holiday").name == "a beach holiday"  # not the general trip
    assert starter_for("a packing list for a ski trip").name == "a ski trip"
    assert starter_for("a checklist for my wedding speech") is None


def test_a_larger_model_keeps_its_own_items() -> None:
    """compose(starters=False) where the HCP is not the embedded default (turn/ui.py): only the echoes go."""
    doc = parse_document(checklist("Beach holiday", "To pack", "To pack", "Snorkel", "Reef-safe sunscreen"))
    assert ground(doc, "Make a packing list for a beach holiday", starters=False) == ["left out items that only repeat the list's name: 'To pack'"]
    assert [i["label"] for i in doc.state["items"]] == ["Snorkel", "Reef-safe sunscreen"] and doc.components[0]["label"] == "To pack"


def test_a_shopping_list_for_a_dish_starts_with_its_ingredients_not_the_weekly_shop() -> None:
    """`mol chat -c`: "Make a shopping list for a vegetarian lasagne" got bread, milk, eggs and toilet paper, titled "Theater"."""
    assert starter_for("Make a shopping list for a vegetarian lasagne").name == "a vegetarian lasagne"  # type: ignore[union-attr]
    assert "Minced beef" not in starter_for("shopping list for a veggie lasagna").items  # type: ignore[union-attr]
    assert starter_for("shopping list for lasagne").name == "a lasagne"  # type: ignore[union-attr]
    assert starter_for("Make a shopping list").name == "groceries"  # type: ignore[union-attr]
    doc = parse_document(checklist("Theater", "Items", "Bread", "Toilet paper"))
    ground(doc, "Make a shopping list for a vegetarian lasagne")
    assert doc.title == "Shopping list for vegetarian lasagne" and doc.state["items"][0]["label"] == "Lasagne sheets"
