"""The route a request's own words settle after the router picked one: the coder for a change to the code just written
(turn/code_follow.py: "Now make it ignore case"), the entry slot for a note read by its title (turn/notes_gone.py:
"What's the boiler code?" had gone to L2 for "code") or one written ("Write down that the boiler code is 4471", the TUI),
the view slot for a budget laid out by its amounts ("Make a budget: rent 900, food 300, …" had gone to L1, which tried to
set a reminder "rent 900") and for a list whose items are named ("Make a grocery list: oat milk, bananas, …", L1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from memory.timeline import RouteRecord, TaskRecord
from mol_local.genui.grid import budget_rows
from mol_local.genui.ground import asks_for_a_list
from mol_local.turn.code_follow import CODE_SLOT, code_before
from mol_local.turn.notes_asked import note_call
from mol_local.turn.notes_gone import noted_value
from mol_local.turn.ui import UI_SLOT

if TYPE_CHECKING:
    from mol_local.runtime import Runtime


def rerouted(rt: Runtime, text: str, history: Sequence[TaskRecord], route: RouteRecord) -> RouteRecord:
    """`route`, or the rule's route when one of the cases above holds and its slot is loaded."""
    if code_before(text, history) is not None and CODE_SLOT in rt.hcp.slots:
        return RouteRecord(CODE_SLOT, "rule", "changes the code before it", False, route.latency_ms)
    if route.slot != rt.hcp.entry_slot and rt.hcp.entry_slot in rt.hcp.slots and noted_value(text, rt.tool_hub) is not None:
        return RouteRecord(rt.hcp.entry_slot, "rule", "reads a note", False, route.latency_ms)
    if route.slot == CODE_SLOT and rt.hcp.entry_slot in rt.hcp.slots and note_call(text) is not None:  # "Write down that the boiler code is …"
        return RouteRecord(rt.hcp.entry_slot, "rule", "writes a note", False, route.latency_ms)
    if route.slot != UI_SLOT and UI_SLOT in rt.hcp.slots and budget_rows(text) is not None:
        return RouteRecord(UI_SLOT, "rule", "lays out a budget", False, route.latency_ms)
    if route.slot != UI_SLOT and UI_SLOT in rt.hcp.slots and asks_for_a_list(text):
        return RouteRecord(UI_SLOT, "rule", "makes a list of the items named", False, route.latency_ms)
    return route
