"""An L3 document while it is written: a draft holds only what is complete, and only grows."""

from __future__ import annotations

import json

import pytest

from mol_local.genui.generate import EXAMPLE
from mol_local.genui.partial import DraftReader
from mol_local.turn.result import TurnHooks

TRICKY = json.dumps({  # brackets, commas, braces and escaped quotes inside strings must not cut the document
    "catalog": "1", "title": 'Plan [v2], "final" {draft}',
    "components": [{"id": "note", "type": "Text", "label": "x", "text": "a, b] } { [c\\\"]"},
                   {"id": "list", "type": "Checklist", "label": "Pack, then go", "bind": "items"}],
    "state": {"items": [{"label": "Gloves, warm", "done": False}, {"label": "Goggles", "done": False}]},
    "actions": {},
})


@pytest.mark.parametrize("doc", [EXAMPLE, TRICKY])
@pytest.mark.parametrize("step", [1, 3, 7])
def test_a_draft_holds_only_complete_components_and_state_and_only_grows(doc: str, step: int) -> None:
    final = json.loads(doc)
    reader = DraftReader()
    drafts = [d for i in range(0, len(doc), step) if (d := reader.feed(doc[i : i + step])) is not None]
    assert drafts, "nothing drawn"
    for d in drafts:
        n = len(d["components"])
        assert d["components"] == final["components"][:n]  # each one whole, in order, none half-written
        assert all(d["state"][k] == final["state"][k] for k in d["state"])  # a state value only once it has closed
        assert d["title"] in ("", final["title"])
    sizes = [(len(d["components"]), len(d["state"])) for d in drafts]
    assert sizes == sorted(sizes) and len(set(sizes)) == len(sizes)  # a new draft only when more is complete
    assert drafts[-1]["components"] == final["components"] and drafts[-1]["state"] == final["state"]


def test_nothing_is_drawn_before_the_document_has_a_title_or_a_component() -> None:
    reader = DraftReader()
    assert reader.feed('{"catalog":"1","ti') is None
    assert reader.feed('tle":"Ski trip","components":[{"id":"a","type":"Checklist","lab') == {
        "title": "Ski trip", "components": [], "state": {}}
    assert reader.feed('el":"Pack"') is None  # the component is still open
    assert reader.feed(',"bind":"items"},')["components"] == [{"id": "a", "type": "Checklist", "label": "Pack", "bind": "items"}]


def test_text_that_is_not_a_document_never_gives_a_draft() -> None:
    reader = DraftReader()
    for piece in ["I could not", " build [this] view", ", sorry}"]:
        assert reader.feed(piece) is None


@pytest.mark.slow
def test_an_l3_turn_draws_its_view_as_it_is_written_and_times_the_first_component(runtime) -> None:
    drafts: list[dict] = []
    result = runtime.session().run_turn("Make me a checklist for a ski trip: gloves, goggles, helmet", slot="L3",
                                        hooks=TurnHooks(on_draft=drafts.append))
    assert result.slot == "L3" and drafts
    assert 0 < result.timings_ms["answer_first_component_ms"] < result.timings_ms["answer_ms"]
    for before, after in zip(drafts, drafts[1:]):
        assert after["components"][: len(before["components"])] == before["components"]
