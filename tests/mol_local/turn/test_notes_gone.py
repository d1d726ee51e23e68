"""A note deleted by asking (mol_local/turn/notes_gone.py): the one named goes, the rest stay, nothing goes when the
request names several or none."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from memory.db import open_db
from mol_local.harness.store import NotesStore
from mol_local.turn.notes_gone import named_note_delete


@pytest.fixture()
def hub(tmp_path: Path) -> SimpleNamespace:
    notes = NotesStore(open_db(tmp_path / "m.db"))
    notes.create("Car's MOT", "the car's MOT is due in March")
    notes.create("Gate code", "gate code is 4471")
    notes.create("Car wash", "the car wash opens at 8")
    return SimpleNamespace(notes=notes)


def _titles(hub: SimpleNamespace) -> list[str]:
    return sorted(r["title"] for r in hub.notes.list())


@pytest.mark.parametrize(("request_text", "gone"), [
    ("Delete the note about the MOT", "Car's MOT"),  # mol chat -c: "You told me the gate code is 4471." and it stayed
    ("remove my gate code note", "Gate code"),
    ("Please delete the note that says the car wash opens at 8", "Car wash"),
])
def test_the_named_note_is_the_one_deleted(hub: SimpleNamespace, request_text: str, gone: str) -> None:
    calls = named_note_delete(request_text, hub)
    assert len(calls) == 1 and calls[0].name == "notes.delete" and calls[0].answers and not calls[0].refused
    assert hub.notes.read(calls[0].arguments["id"])["title"] == gone


def test_several_or_none_named_deletes_nothing_and_says_why(hub: SimpleNamespace) -> None:
    several = named_note_delete("Delete the note about the car", hub)
    assert several[0].refused and "2 notes mention the car" in several[0].refused and not several[0].arguments["id"]
    none = named_note_delete("Delete the note about the boiler", hub)
    assert none[0].refused and "no note mentions the boiler" in none[0].refused
    assert named_note_delete("Delete the dentist reminder", hub) == [] and named_note_delete("What notes do I have?", hub) == []
    assert len(named_note_delete("Delete all my notes", hub)) == 3 and _titles(hub) == ["Car wash", "Car's MOT", "Gate code"]


def test_deleting_in_a_turn_says_what_went_and_what_is_left(scripted_runtime) -> None:
    rt, scripted = scripted_runtime([])
    session = rt.session()
    rt.tool_hub.notes.create("Car's MOT", "the car's MOT is due in March")
    rt.tool_hub.notes.create("Gate code", "gate code is 4471")
    result = session.run_turn("Delete the note about the MOT")
    assert result.answer == 'Deleted the note "Car\'s MOT" — the car\'s MOT is due in March.\nNotes left: Gate code.'
    assert scripted.outputs == [] and [r["title"] for r in rt.tool_hub.notes.list()] == ["Gate code"]
    refused = session.run_turn("Delete the note about the boiler")
    assert refused.answer.startswith("I didn't do that: no note mentions the boiler") and len(rt.tool_hub.notes.list()) == 1


def test_a_value_asked_of_a_notes_title_reads_that_note(hub: SimpleNamespace) -> None:
    """`mol chat -c` after "Write down that the boiler code is 4471": "What's the boiler code?" went to L2 and got "The
    Python code 4471 is 4471 that writes a line to a file in Python."."""
    from mol_local.turn.notes_gone import noted_value

    hub.notes.create("Boiler code", "the boiler code is 4471")
    asked = noted_value("What's the boiler code?", hub)
    assert asked is not None and asked.name == "notes.find" and asked.arguments == {"query": "boiler code"} and asked.answers
    assert noted_value("What is my gate code again?", hub) is not None
    assert noted_value("What's the capital of France?", hub) is None  # no note titled so
    assert noted_value("What's the code?", hub) is None  # two notes titled "… code": not guessed


def test_the_turn_reads_the_note_on_the_entry_slot(scripted_runtime) -> None:
    rt, scripted = scripted_runtime(["The Python code 4471 is 4471.", "The Python code 4471 is 4471."])
    rt.tool_hub.notes.create("Boiler code", "the boiler code is 4471")
    result = rt.session().run_turn("What's the boiler code?")
    assert result.answer == "Your note says: the boiler code is 4471." and result.slot == "L0"
    from memory.timeline import RouteRecord
    from mol_local.turn.rerouted import rerouted

    coded = rerouted(rt, "What's the boiler code?", [], RouteRecord("L2", "grammar", "L2", False, 1.0))  # the router's pick in mol chat
    assert (coded.slot, coded.raw_output) == ("L0", "reads a note")
    kept = rerouted(rt, "Write a function that adds two numbers", [], RouteRecord("L2", "grammar", "L2", False, 1.0))
    assert kept.slot == "L2"
    noted = rerouted(rt, "Write down that the gate code is 1234", [], RouteRecord("L2", "grammar", "L2", False, 1.0))  # the TUI: "L2 · Coding"
    assert (noted.slot, noted.raw_output) == ("L0", "writes a note")
