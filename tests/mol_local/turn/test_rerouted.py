"""The route a request's own words settle (mol_local/turn/rerouted.py): a budget laid out by its amounts is a view."""

from __future__ import annotations

from memory.timeline import RouteRecord
from mol_local.genui.grid import budget_rows
from mol_local.turn.rerouted import rerouted


def test_a_budget_of_named_amounts_is_routed_to_the_view_slot(scripted_runtime) -> None:
    """`mol chat`: "Make a budget: rent 900, food 300, transport 120, fun 100" went to L1, which tried to set a reminder
    "rent 900" (refused) and answered "I didn't do that: the request asks for no reminder"."""
    rt, _ = scripted_runtime([])
    asked = "Make a budget: rent 900, food 300, transport 120, fun 100"
    routed = rerouted(rt, asked, [], RouteRecord("L1", "grammar", "L1", False, 1.0))
    assert (routed.slot, routed.raw_output) == ("L3", "lays out a budget")
    assert budget_rows("Can you make me a budget for December: gifts 200, food 150 and travel 80") is not None
    kept = "I have a budget of 900 for 3 days, how much can I spend per day?"  # a sum to work out: L1's
    assert budget_rows(kept) is None and rerouted(rt, kept, [], RouteRecord("L1", "grammar", "L1", False, 1.0)).slot == "L1"
    assert budget_rows("Make a budget for my trip") is None  # no amounts to lay out


def test_a_list_whose_items_are_named_is_routed_to_the_view_slot(scripted_runtime) -> None:
    """`mol chat "Make a grocery list: oat milk, bananas, rice, frozen peas, dish soap"` went to L1: "All the orders are
    ready, so no reminders needed." and no list."""
    rt, _ = scripted_runtime([])
    asked = "Make a grocery list: oat milk, bananas, rice, frozen peas, dish soap"
    routed = rerouted(rt, asked, [], RouteRecord("L1", "grammar", "L1", False, 1.0))
    assert (routed.slot, routed.raw_output) == ("L3", "makes a list of the items named")
    for kept in ("Remind me to buy oat milk and bananas", "Give me a list of ideas: cheap, quick", "Make a list"):
        assert rerouted(rt, kept, [], RouteRecord("L1", "grammar", "L1", False, 1.0)).slot == "L1"
