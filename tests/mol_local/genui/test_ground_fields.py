"""A form has the fields the request names, in its words, and none it does not speak of (mol_local/genui/ground_stated.py
`ground_fields`; mol_local/genui/repair.py for a field's state). Split from test_ground_stated.py."""

from __future__ import annotations

import pytest

from mol_local.genui import stated
from mol_local.genui.document import parse_document
from mol_local.genui.ground import ground
from tests.mol_local.genui.test_ground_stated import _doc


@pytest.mark.parametrize(("text", "want"), [
    ("Build me a guest book form with name, hometown, message fields please", ["name", "hometown", "message"]),
    ("Give me a feedback form with fields for comment, suggestion, name", ["comment", "suggestion", "name"]),
    ("a pet profile form with vet and breed, department (billing, sales) and a toggle for remember me", ["vet", "breed"]),
    ("a journal form that stays private (you must not see it): entry; mood; date please", ["entry", "mood", "date"]),
    ("contact form - email, company, phone", ["email", "company", "phone"]),
])
def test_the_fields_a_form_request_names(text: str, want: list[str]) -> None:
    assert stated.fields(text) == want


def test_a_named_field_the_form_lacks_is_added_empty() -> None:
    doc = _doc([{"id": "form", "type": "Form", "label": "Guests", "children": ["name"], "action": "save"},
                {"id": "name", "type": "Input", "label": "Name", "bind": "name"}], {"name": ""},
               {"save": {"kind": "submit", "target": "form", "payload": {}, "visibility": "noai"}})
    fixes = ground(doc, "a guest book form with name, hometown, message fields")
    assert doc.component("form")["children"] == ["name", "hometown", "message"]
    assert doc.state == {"name": "", "hometown": "", "message": ""} and fixes == ["added the named fields 'Hometown', 'Message'"]
    assert ground(doc, "a guest book form with name, hometown, message fields") == []


def test_a_text_field_written_with_a_flag_for_empty_is_repaired_to_empty_text() -> None:
    """`mol chat "Make a form to log my runs with distance, time and how I felt"`: "I could not build this view; what failed:
    Input 'felt' needs text state but 'felt' holds flag"."""
    from mol_local.genui.repair import coerce

    assert coerce(False, "text") == (True, "") and coerce(None, "text") == (True, "") and coerce("", "flag") == (True, False)
    assert coerce(True, "text") == (False, None) and coerce(0, "text") == (True, "0")  # a number stays its number


def test_a_text_field_nothing_in_the_request_speaks_of_is_dropped() -> None:
    """`mol chat "Make a sign-up form for a book club with name, email and favourite genre"`: a "Favicon" field too."""
    doc = _doc([{"id": "form", "type": "Form", "label": "Book club sign-up", "children": ["name", "email", "genre"], "action": "save"},
                {"id": "name", "type": "Input", "label": "Name", "bind": "name"},
                {"id": "email", "type": "Input", "label": "Email", "bind": "email"},
                {"id": "favicon", "type": "Input", "label": "Favicon", "bind": "favicon"},
                {"id": "genre", "type": "Input", "label": "Favourite genre", "bind": "genre"}],
               {"name": "", "email": "", "favicon": "", "genre": ""},
               {"save": {"kind": "submit", "target": "form", "payload": {}, "visibility": "noai"}})
    fixes = ground(doc, "Make a sign-up form for a book club with name, email and favourite genre")
    assert [c["id"] for c in doc.components] == ["form", "name", "email", "genre"] and "favicon" not in doc.state
    assert fixes == ["dropped the field nobody asked for: 'Favicon'"]
    parse_document(doc.to_json())


def test_a_field_labelled_with_part_of_a_named_field_is_that_field() -> None:
    """`mol chat "Make a form to log my runs with distance, time and how I felt"`: a "Felt" field and "How I felt" beside it."""
    doc = _doc([{"id": "form", "type": "Form", "label": "Run log", "children": ["distance", "time", "felt"], "action": "save"},
                {"id": "distance", "type": "Input", "label": "Distance", "bind": "distance"},
                {"id": "time", "type": "Input", "label": "Time", "bind": "time"},
                {"id": "felt", "type": "Input", "label": "Felt", "bind": "felt"}], {"distance": "", "time": "", "felt": ""},
               {"save": {"kind": "submit", "target": "form", "payload": {}, "visibility": "noai"}})
    fixes = ground(doc, "Make a form to log my runs with distance, time and how I felt")
    assert [c["label"] for c in doc.components[1:]] == ["Distance", "Time", "How I felt"] and fixes == ["field 'felt' labelled 'How I felt'"]
