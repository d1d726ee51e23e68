"""Notes the person asks about (mol_local/turn/notes_asked.py, read by turn/ground.py and answered by turn/read.py): a
search looks for what the request names, a question about what was noted reads the notes, and a note keeps and says
back the person's own words. Split from test_ground.py."""

from __future__ import annotations

from mol_local.turn.ground import grounded
from mol_local.turn.tasks import ToolCall


def test_a_notes_search_looks_for_what_the_request_names() -> None:
    """`mol chat "Find my notes about insurance"`: L0 searched for "milk" (its prompt's example) and said the notes matched."""
    made = grounded(ToolCall("notes.find", {"query": "milk"}, ""), "Find my notes about insurance")
    assert made.arguments == {"query": "insurance"}
    kept = ToolCall("notes.find", {"query": "car insurance"}, "")
    assert grounded(kept, "Do I have notes about the car insurance?") == kept  # its words are the request's: they stand


def test_a_question_about_what_was_noted_reads_the_notes_and_a_note_keeps_the_persons_words() -> None:
    """`mol chat`: "What did I note about the boiler?" saved a new note "The boiler is a boiler that makes steam"; "Note
    that the boiler was serviced on 2 November" was saved as "the boiler is serviced on 2 November"."""
    made = grounded(ToolCall("notes.create", {"title": "Boiler", "body": "The boiler is a boiler that makes steam"}, "raw"),
                    "What did I note about the boiler?")
    assert (made.name, made.arguments, made.answers) == ("notes.find", {"query": "boiler"}, True)
    kept = grounded(ToolCall("notes.create", {"title": "Boiler", "body": "the boiler is serviced on 2 November"}, "raw"),
                    "Note that the boiler was serviced on 2 November")
    assert kept.arguments == {"title": "Boiler", "body": "the boiler was serviced on 2 November"} and kept.answers
    same = ToolCall("notes.create", {"title": "Boiler", "body": "the boiler was serviced on 2 November"}, "raw")
    assert grounded(same, "Note that the boiler was serviced on 2 November") == same
    from mol_local.turn.ground import settled_call

    assert settled_call("What did I write down about the wifi?").arguments == {"query": "wifi"}  # type: ignore[union-attr]


def test_a_note_cut_short_keeps_the_persons_whole_words() -> None:
    """`mol chat`: "Add a note: the car's MOT is due in March" was saved as "the car's MOT"."""
    cut = ToolCall("notes.create", {"title": "The car's MOT", "body": "the car's MOT"}, "raw")
    assert grounded(cut, "Add a note: the car's MOT is due in March").arguments["body"] == "the car's MOT is due in March"
    whole = ToolCall("notes.create", {"title": "Gate", "body": "gate code is 4471"}, "raw")
    assert grounded(whole, "Add a note: gate code is 4471") == whole


def test_a_note_in_the_persons_words_is_said_back_to_them() -> None:
    """`mol chat "Note down that my passport number is X1234567"` answered "Noted: my passport number is X1234567."."""
    from mol_local.turn.read import read_answer

    mine = {"name": "notes.create", "arguments": {"title": "Passport", "body": "my passport number is X1234567"}, "result": "Saved note 1: Passport"}
    assert read_answer([mine]) == "Noted: your passport number is X1234567."
    plain = {**mine, "arguments": {"title": "Boiler", "body": "the boiler was serviced in October"}}
    assert read_answer([plain]) == "Noted: the boiler was serviced in October."


def test_a_notes_search_is_answered_by_its_result_and_none_found_is_not_no_notes() -> None:
    """The TUI, no note mentioning it: "Search my notes for key" got "Your note says: "Search my notes for key" but it doesn't
    show any details." (the model wrote the answer after its own search)."""
    from mol_local.turn.read import read_answer

    searched = grounded(ToolCall("notes.find", {"query": "key"}, "<raw>"), "Search my notes for key")
    assert searched.answers and searched.arguments == {"query": "key"}
    assert read_answer([{"name": "notes.find", "arguments": {"query": "key"}, "result": "No notes match 'key'."}]) == \
        "None of your notes mentions key."
    assert read_answer([{"name": "notes.find", "arguments": {"query": ""}, "result": "No notes match ''."}]) == "You have no notes yet."


def test_a_note_is_titled_by_the_words_before_its_verb() -> None:
    """`mol chat`: "Save a note: book club meets first Thursday of the month at Anna's" was titled "Book club meets first"."""
    from mol_local.turn.notes_asked import note_call

    titles = {t: note_call(t).arguments["title"] for t in (  # type: ignore[union-attr]
        "Save a note: book club meets first Thursday of the month at Anna's", "Note that the plumber's number is 07700 900456",
        "Write down that the bins go out on Tuesday", "Make a note: yoga class starts at 7 on Mondays")}
    assert list(titles.values()) == ["Book club", "Plumber's number", "Bins", "Yoga class"]


def test_a_note_of_a_thing_is_titled_up_to_its_colon() -> None:
    """`mol chat`: "Make a note of my car's registration: AB12 CDE" was saved as "Of my car's registration:"."""
    from mol_local.turn.notes_asked import note_call

    noted = note_call("Make a note of my car's registration: AB12 CDE")
    assert noted is not None and noted.arguments == {"title": "Car's registration", "body": "my car's registration: AB12 CDE"}
