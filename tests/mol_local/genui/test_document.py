"""Document parsing and semantic validation, including every bad input the issue names."""

from __future__ import annotations

import json

import jsonschema
import pytest

from mol_local.genui.catalog import MAX_COMPONENTS, document_schema
from mol_local.genui.document import parse_document, validate
from mol_local.genui.errors import InvalidDocument


def problems(obj) -> str:
    return " | ".join(validate(obj))


def test_valid_document_parses_and_matches_the_json_schema(planner):
    jsonschema.validate(planner, document_schema())
    doc = parse_document(json.dumps(planner))
    assert [c["id"] for c in doc.top_level()] == ["main"]
    assert [c["id"] for c in doc.children(doc.component("main"))] == ["todo", "journal", "more", "mood"]
    assert parse_document(doc.dumps()).to_json() == planner


def test_noai_keys_are_the_inputs_inside_a_noai_form(planner):
    assert parse_document(planner).noai_keys() == {"entry", "tired"}


def test_not_json_names_the_problem():
    with pytest.raises(InvalidDocument, match="not valid JSON"):
        parse_document('{"catalog": "1", "title": ')


def test_duplicate_ids(planner):
    planner["components"][2]["id"] = "todo"
    assert "'todo' is used twice" in problems(planner)


def test_unknown_component_type_suggests_the_nearest(planner):
    planner["components"][1]["type"] = "CheckList"
    assert "unknown type 'CheckList' — did you mean 'Checklist'?" in problems(planner)
    planner["components"][1]["type"] = "Marquee"
    assert "unknown type 'Marquee' — use one of Card" in problems(planner)


def test_cycle_is_reported(planner):
    planner["components"][2]["children"].append("main")  # journal -> main -> journal
    text = problems(planner)
    assert "cycle" in text


def test_self_cycle_and_two_parents(planner):
    planner["components"][0]["children"].append("main")
    assert "cycle through 'main'" in problems(planner)
    planner["components"][0]["children"] = ["todo", "journal", "more", "mood", "entry"]
    assert "'entry' has two parents" in problems(planner)


def test_ten_thousand_components_fail_fast_with_a_clear_message(planner):
    planner["components"] = [{"id": f"t{i}", "type": "Text", "label": "x"} for i in range(10_000)]
    with pytest.raises(InvalidDocument, match=f"10000 components is more than the {MAX_COMPONENTS} allowed"):
        parse_document(planner)


def test_deep_nesting_is_refused(planner):
    comps = [{"id": f"c{i}", "type": "Card", "label": "x", "children": [f"c{i + 1}"]} for i in range(30)]
    comps.append({"id": "c30", "type": "Text", "label": "leaf"})
    planner["components"] = comps
    planner["actions"] = {}
    assert "nest deeper than" in problems(planner)


def test_missing_targets(planner):
    planner["components"][1]["bind"] = "nothing"
    planner["components"][5]["action"] = "vanished"
    planner["components"][0]["children"].append("ghost")
    planner["actions"]["save"]["target"] = "main"
    planner["actions"]["ask"]["target"] = "nobody"
    planner["actions"]["tool"] = {"kind": "call_tool", "target": "os.system", "payload": {}, "visibility": "model"}
    planner["actions"]["set"] = {"kind": "set_state", "target": "missing", "payload": {"value": 1}, "visibility": "model"}
    text = problems(planner)
    for phrase in ("binds state 'nothing', which does not exist", "runs action 'vanished', which does not exist",
                   "child 'ghost', which does not exist", "submits 'main', which is not a Form",
                   "asks about 'nobody'", "calls 'os.system'", "sets state 'missing', which does not exist"):
        assert phrase in text


def test_state_types_must_match_the_bound_component(planner):
    planner["state"]["mood"] = "happy"
    planner["state"]["tired"] = 3
    planner["actions"]["set"] = {"kind": "set_state", "target": "tired", "payload": {"value": "yes"}, "visibility": "model"}
    text = problems(planner)
    assert "Slider 'mood' needs number state but 'mood' holds text" in text
    assert "Toggle 'tired' needs flag state but 'tired' holds number" in text
    assert "sets number state 'tired' to a text" in text


def test_actions_have_exactly_four_fields(planner):
    planner["actions"]["ask"]["extra"] = 1
    del planner["actions"]["save"]["visibility"]
    text = problems(planner)
    assert "action 'ask' must have exactly kind, target, payload, visibility" in text
    assert "action 'save' must have exactly" in text


def test_wrong_top_level_and_props(planner):
    assert problems([1, 2]).startswith("the document must be a JSON object")
    bad = dict(planner, catalog="9", extra=True)
    assert "unknown top-level key 'extra'" in problems(bad)
    planner["catalog"] = "9"
    planner["components"][5]["onclick"] = "alert(1)"
    text = problems(planner)
    assert "catalog '9' is not supported" in text
    assert "Button 'more' does not take 'onclick' (not in the catalog)" in text


def test_a_bind_that_is_not_a_string_is_a_problem_not_a_crash(planner):
    planner["components"][1]["bind"] = ["items"]
    assert "`bind` must be one state key (a string), not list" in problems(planner)
