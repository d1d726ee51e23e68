"""The deterministic repair: one test per documented rule, each checked by the real validator."""

from __future__ import annotations

import json

import pytest

from mol_local.genui.document import parse_document, validate
from mol_local.genui.generate import check
from mol_local.genui.repair import coerce, repair


def fixed(obj: dict) -> tuple[dict, list[str]]:
    """Repair, and require the validator to accept the result and a second repair to change nothing."""
    out, fixes = repair(obj)
    assert validate(out) == [], validate(out)
    assert repair(out)[1] == []
    return out, fixes


def doc(components: list, state: dict | None = None, actions: dict | None = None) -> dict:
    return {"catalog": "1", "title": "T", "components": components, "state": state or {}, "actions": actions or {}}


def test_valid_document_is_left_alone(planner):
    out, fixes = repair(planner)
    assert fixes == [] and out == planner


def test_not_a_document_is_returned_unchanged():
    for bad in ([1, 2], {"components": "x", "state": {}, "actions": {}}, doc([{"id": 3, "type": "Text"}])):
        assert repair(bad) == (bad, [])


def test_props_a_type_does_not_take_are_dropped_and_a_label_is_added():
    out, fixes = fixed(doc([{"id": "t", "type": "Text", "text": "hi", "action": "go", "bind": "x", "children": []}]))
    assert out["components"] == [{"id": "t", "type": "Text", "text": "hi", "label": "t"}]
    assert "dropped action, bind, children from Text 't'" in fixes


def test_duplicate_ids_get_stable_suffixes_and_self_children_point_at_the_others():
    # what the 135M model writes: every component called "box", the card listing "box" as its children
    src = doc(
        [{"id": "box", "type": "Card", "label": "Trip", "children": ["box", "box"]},
         {"id": "box", "type": "Checklist", "label": "Pack", "bind": "items"},
         {"id": "box", "type": "Button", "label": "More", "action": "more"}],
        {"items": [{"label": "Passport", "done": False}]},
        {"more": {"kind": "ask_model", "target": "box", "payload": {}, "visibility": "model"}},
    )
    assert "used twice" in " ".join(validate(src))
    out, fixes = fixed(src)
    assert [c["id"] for c in out["components"]] == ["box", "box_2", "box_3"]
    assert out["components"][0]["children"] == ["box_2", "box_3"]
    assert out["actions"]["more"]["target"] == "box"  # ambiguous: stays with the first, which exists
    assert fixes[:2] == ["renamed the second 'box' to 'box_2'", "renamed the second 'box' to 'box_3'"]
    again, _ = repair(src)
    assert again == out  # stable: the same input always gets the same names


def test_suffix_avoids_existing_ids_and_long_ids_stay_within_the_pattern():
    long = "a" * 24
    out, _ = fixed(doc([{"id": "x", "type": "Text", "label": "1"}, {"id": "x_2", "type": "Text", "label": "2"},
                        {"id": "x", "type": "Text", "label": "3"}, {"id": long, "type": "Text", "label": "4"},
                        {"id": long, "type": "Text", "label": "5"}]))
    assert [c["id"] for c in out["components"]] == ["x", "x_2", "x_3", long, "a" * 22 + "_2"]


def test_missing_repeated_and_cyclic_children_are_dropped():
    src = doc([{"id": "a", "type": "Card", "label": "A", "children": ["b", "ghost", "b", "a"]},
               {"id": "b", "type": "Card", "label": "B", "children": ["a"]},
               {"id": "c", "type": "Grid", "label": "C", "children": ["b"]}])
    out, fixes = fixed(src)
    assert [c["children"] for c in out["components"]] == [["b"], [], []]
    assert "dropped child 'ghost' of 'a'" in fixes and "dropped child 'a' of 'b' (a cycle)" in fixes


def test_bound_state_that_is_missing_is_created_empty_for_its_kind():
    out, fixes = fixed(doc([{"id": "l", "type": "Checklist", "label": "L", "bind": "items"},
                            {"id": "t", "type": "Timer", "label": "T", "bind": "left", "seconds": 300},
                            {"id": "s", "type": "Toggle", "label": "S"}]))
    assert out["state"] == {"items": [], "left": 300, "s": False}
    assert "bound 's' to new state 's'" in fixes


@pytest.mark.parametrize(("value", "kind", "want"), [
    ("5", "number", 5), ("2.5", "number", 2.5), (" true", "flag", True), ("False", "flag", False),
    (7, "text", "7"), (["milk", "eggs"], "items", [{"label": "milk", "done": False}, {"label": "eggs", "done": False}]),
    (["a", "b"], "rows", [["a"], ["b"]]), ([{"label": "x"}], "items", [{"label": "x", "done": False}]),
    ([{"label": "Running", "done": False}], "rows", [["Running"]]),  # the app: a Table bound to checklist items
])
def test_state_of_the_wrong_kind_is_coerced_when_nothing_is_lost(value, kind, want):
    assert coerce(value, kind) == (True, want)


@pytest.mark.parametrize(("value", "kind"), [
    ("five", "number"), ("yes", "flag"), (True, "text"), ([1, 2], "items"), ([{"label": "x", "note": "y"}], "items"),
    ({"a": 1}, "rows"), ([{"label": "Running", "done": True}], "rows"),  # a tick would be lost
])
def test_lossy_coercions_are_refused_and_left_for_the_validator(value, kind):
    assert coerce(value, kind) == (False, None)


def test_coercion_inside_a_document_and_what_stays_invalid():
    out, fixes = fixed(doc([{"id": "p", "type": "ProgressBar", "label": "P", "bind": "done", "max": 10}], {"done": "3"}))
    assert out["state"]["done"] == 3 and "converted state 'done' to number" in fixes
    left, _ = repair(doc([{"id": "p", "type": "ProgressBar", "label": "P", "bind": "done"}], {"done": "most"}))
    assert "needs number state but 'done' holds text" in " ".join(validate(left))


def test_a_table_or_checklist_on_a_count_gets_its_own_state_and_the_count_stays():
    """The app, "Create a reading tracker with title, author and pages read": a Title | Author | Pages read table bound
    to 'rows_read': 0 was "I could not build this view"."""
    out, fixes = fixed(doc([{"id": "books", "type": "Table", "label": "Books", "bind": "rows_read", "columns": ["Title", "Author"]}],
                           {"rows_read": 0}))
    assert out["components"][0]["bind"] == "books" and out["state"] == {"rows_read": 0, "books": []}
    assert fixes == ["gave 'books' its own rows state 'books' ('rows_read' holds number)"]
    taken, _ = fixed(doc([{"id": "done", "type": "Checklist", "label": "C", "bind": "done"}], {"done": True}))
    assert taken["components"][0]["bind"] == "done_2" and taken["state"] == {"done": True, "done_2": []}


def test_missing_actions_are_added_a_form_submit_stays_private():
    out, fixes = fixed(doc([{"id": "f", "type": "Form", "label": "F", "children": ["n"]},
                            {"id": "n", "type": "Input", "label": "Name", "bind": "name"},
                            {"id": "b", "type": "Button", "label": "Go", "action": "go"}], {"name": ""}))
    assert out["actions"]["f_action"] == {"kind": "submit", "target": "f", "payload": {}, "visibility": "noai"}
    assert out["actions"]["go"] == {"kind": "ask_model", "target": "b", "payload": {}, "visibility": "model"}
    assert parse_document(out).noai_keys() == {"name"}
    assert "added submit action 'f_action' for 'f'" in fixes


def test_submit_is_retargeted_to_the_enclosing_form_keeping_its_visibility():
    src = doc([{"id": "f", "type": "Form", "label": "F", "action": "save", "children": ["w"]},
               {"id": "w", "type": "Input", "label": "Weight", "bind": "w"}],
              {"w": ""}, {"save": {"kind": "submit", "target": "weight", "payload": {}, "visibility": "noai"}})
    out, fixes = fixed(src)
    assert out["actions"]["save"]["target"] == "f" and out["actions"]["save"]["visibility"] == "noai"
    assert "retargeted action 'save' to 'f'" in fixes


def test_ambiguous_targets_are_not_guessed():
    src = doc([{"id": "f1", "type": "Form", "label": "A", "action": "a1"}, {"id": "f2", "type": "Form", "label": "B", "action": "a2"},
               {"id": "b", "type": "Button", "label": "Go", "action": "save"}],
              {}, {"a1": {"kind": "submit", "target": "f1", "payload": {}, "visibility": "model"},
                   "a2": {"kind": "submit", "target": "f2", "payload": {}, "visibility": "model"},
                   "save": {"kind": "submit", "target": "nowhere", "payload": {}, "visibility": "model"}})
    out, _ = repair(src)
    assert out["actions"]["save"]["target"] == "nowhere"
    assert "submits 'nowhere', which is not a Form" in " ".join(validate(out))


def test_ask_model_and_call_tool_targets_resolve_when_unique():
    src = doc([{"id": "b", "type": "Button", "label": "More", "action": "more"},
               {"id": "n", "type": "Button", "label": "Note", "action": "note"},
               {"id": "r", "type": "Button", "label": "Remind", "action": "rem"}],
              {}, {"more": {"kind": "ask_model", "target": "list", "payload": {}, "visibility": "model"},
                   "note": {"kind": "call_tool", "target": "notes", "payload": {"text": "x"}, "visibility": "model"},
                   "rem": {"kind": "call_tool", "target": "reminders", "payload": {}, "visibility": "model"}})
    out, _ = repair(src)
    assert out["actions"]["more"]["target"] == "b" and out["actions"]["note"]["target"] == "notes.create"
    assert out["actions"]["rem"]["target"] == "reminders"  # reminders.add or .complete: not guessed
    assert validate(out) == ["action 'rem' calls 'reminders'; bindable tools are reminders.add, reminders.complete, notes.create"]


def test_an_ask_model_action_nothing_runs_and_aiming_nowhere_is_dropped():
    """The 135M model copies the guide's example action ("more" -> "list") into unrelated documents."""
    src = doc([{"id": "t", "type": "Timer", "label": "Egg", "bind": "secs", "seconds": 300}], {"secs": 300},
              {"more": {"kind": "ask_model", "target": "list", "payload": {}, "visibility": "model"},
               "keep": {"kind": "ask_model", "target": "t", "payload": {}, "visibility": "model"}})
    out, fixes = fixed(src)
    assert set(out["actions"]) == {"keep"} and fixes == ["dropped action 'more': nothing runs it and its target does not exist"]


def test_set_state_on_a_missing_key_creates_it_from_the_payload():
    src = doc([{"id": "b", "type": "Button", "label": "Reset", "action": "reset"}], {},
              {"reset": {"kind": "set_state", "target": "count", "payload": {"value": 0}, "visibility": "model"}})
    out, fixes = fixed(src)
    assert out["state"] == {"count": 0} and "added state 'count' that action 'reset' sets" in fixes


def test_check_reports_fixes_and_what_is_left():
    valid, problems, fixes = check(json.dumps(doc([{"id": "x", "type": "Text", "label": "a"}, {"id": "x", "type": "Text", "label": "b"}])))
    assert valid is not None and problems == [] and fixes == ["renamed the second 'x' to 'x_2'"]
    none, problems, fixes = check(json.dumps(doc([{"id": "x", "type": "Marquee", "label": "a"}])))
    assert none is None and fixes == [] and "unknown type 'Marquee'" in problems[0]
    none, problems, fixes = check('{"catalog": "1", "title": ')
    assert none is None and "not valid JSON" in problems[0] and fixes == []
