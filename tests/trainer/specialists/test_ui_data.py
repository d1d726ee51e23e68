"""L3 cases: templates, hold-out, gold documents checked against the real grammar sampler, and the verifier."""

from __future__ import annotations

import json
import random

import pytest

from mol_local.genui.generate import EXAMPLE, check
from mol_local.genui.document import parse_document
from trainer.specialists import ui_data
from trainer.specialists.ui_docs import Field, Part, Spec
from trainer.specialists.ui_grammar import GrammarCheck

SKI = "a packing checklist for a ski trip with gloves, goggles and a helmet"


@pytest.fixture(scope="module")
def grammar():
    with GrammarCheck() as g:
        yield g


def make(request: str, *parts: Part, title: str = "View", **spec) -> ui_data.Case:
    return ui_data.case_for("test", request, Spec(title, parts, **spec), random.Random(0))


def doc_of(case) -> dict:
    return json.loads(case.answer)


@pytest.fixture
def ski():
    return make(SKI, Part("checklist", "To pack", ("gloves", "goggles", "helmet")), title="Ski trip")


def test_templates_are_many_and_every_one_yields_cases() -> None:
    names = list(ui_data.templates())
    assert len(names) >= 40 and ui_data.HELDOUT <= set(names)
    assert 0.15 <= len(ui_data.HELDOUT) / len(names) <= 0.25
    made = {c.template for split in ("train", "heldout") for c in ui_data.cases(split, per_template=3)}
    assert made == set(names)


def test_train_and_heldout_share_no_template_and_no_request() -> None:
    train, held = ui_data.cases("train"), ui_data.cases("heldout")
    assert len(train) >= 600 and len(held) >= 100
    assert {c.template for c in train}.isdisjoint({c.template for c in held})
    assert {c.template for c in held} == set(ui_data.HELDOUT)
    assert {c.request.casefold() for c in train}.isdisjoint({c.request.casefold() for c in held})


def test_cases_are_fixed_by_the_seed() -> None:
    a, b = ui_data.cases("heldout", seed=3, per_template=4), ui_data.cases("heldout", seed=3, per_template=4)
    assert [(c.request, c.answer, c.summary) for c in a] == [(c.request, c.answer, c.summary) for c in b]
    assert [c.request for c in a] != [c.request for c in ui_data.cases("heldout", seed=4, per_template=4)]


def test_an_unknown_split_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="unknown split 'test' — use one of train, heldout"):
        ui_data.cases("test")


def test_a_sample_of_gold_verifies_against_catalog_grammar_and_score(grammar) -> None:
    sample = ui_data.cases("train", seed=1, per_template=2) + ui_data.cases("heldout", seed=1, per_template=2)
    budget = ui_data.answer_budget()
    assert {c.slot for c in sample} == {"L3"}
    for case in sample:
        assert ui_data.gold_problems(case, grammar, budget) == [], case.request
        assert ui_data.score(case, case.answer).score == 1.0
        assert len(case.gold) == 1 and case.gold[0]["role"] == "assistant"
    assert len(ui_data.verify_gold(sample, grammar=grammar)) == len(sample)


def test_gold_is_what_the_user_named_and_no_more(ski) -> None:
    doc = doc_of(ski)
    assert [c["type"] for c in doc["components"]] == ["Checklist"]
    assert [i["label"] for i in doc["state"]["items"]] == ["Gloves", "Goggles", "Helmet"]
    assert ski.check == {"types": ["Checklist"], "named": ["gloves", "goggles", "helmet"], "numbers": {}}
    assert parse_document(ski.answer).dumps() == ski.answer  # the stored form is the generated form


def test_requests_name_their_content_and_summaries_say_it() -> None:
    for case in ui_data.cases("train", per_template=3) + ui_data.cases("heldout", per_template=3):
        assert all(n.casefold() in case.request.casefold() for n in case.check["named"]), case.request
        assert len(case.summary.split()) <= ui_data.SUMMARY_WORDS and case.summary.endswith(".")
        if case.check["named"]:
            assert any(n.casefold() in case.summary.casefold() for n in case.check["named"]), case.summary
    summaries = {c.summary.split()[0] for c in ui_data.cases("train", per_template=3)}
    assert len(summaries) >= 4  # the openings vary


def test_timer_durations_become_seconds() -> None:
    timers = [c for c in ui_data.cases("train") if c.template == "tm_minute"]
    for case in timers:
        minutes = int(next(w for w in case.request.replace("-", " ").split() if w.isdigit()))
        assert case.check["numbers"] == {"seconds": minutes * 60}
        assert doc_of(case)["components"][0]["seconds"] == minutes * 60


def test_the_grammar_check_refuses_what_decoding_could_not_write(grammar, ski) -> None:
    assert grammar.accepts(ski.answer) == (True, "")
    pretty = json.dumps(doc_of(ski), indent=2)  # valid JSON, but the grammar allows no newlines
    assert parse_document(pretty) and not grammar.accepts(pretty)[0]
    ok, why = grammar.accepts(ski.answer[:-1])
    assert not ok and "incomplete document" in why
    comp = doc_of(ski)
    comp["components"][0] = {"type": "Checklist", "id": "checklist", "label": "To pack", "bind": "items"}
    swapped = json.dumps(comp, separators=(",", ":"))  # the schema's key order is id, type, label
    assert parse_document(swapped) and not grammar.accepts(swapped)[0]


def test_the_guide_example_copy_fails(ski) -> None:
    verdict = ui_data.score(ski, EXAMPLE)  # what the bare base writes: Passport and Charger
    assert not verdict.ok and "missing 'gloves'" in verdict.reason and verdict.score < 0.6


def test_seven_identical_checklists_fail(ski) -> None:
    doc = doc_of(ski)
    doc["components"] = [dict(doc["components"][0], id=f"list{i}") for i in range(7)]
    verdict = ui_data.score(ski, json.dumps(doc))
    assert parse_document(doc)  # valid and has every item: only the repetition is wrong
    assert not verdict.ok and verdict.reason.startswith("repeated Checklist 'To pack'")
    assert 0.5 < verdict.score < 1.0


def test_invalid_json_and_non_documents_fail(ski) -> None:
    assert ui_data.score(ski, ski.answer[:-3]) == ui_data.Verdict(False, "not JSON", 0.0)
    assert ui_data.score(ski, "I could not build this view; what failed:\n- x").score == 0.0
    assert ui_data.score(ski, "[1, 2]").reason == "not a JSON object"
    weird = doc_of(ski)
    weird["components"][0]["bind"] = ["items"]  # a shape the catalog validator itself trips on
    verdict = ui_data.score(ski, json.dumps(weird))
    assert not verdict.ok and "invalid before repair" in verdict.reason


def test_a_missing_item_fails_with_partial_credit(ski) -> None:
    doc = doc_of(ski)
    doc["state"]["items"] = doc["state"]["items"][:2]
    verdict = ui_data.score(ski, json.dumps(doc))
    assert not verdict.ok and verdict.reason == "missing 'helmet'"
    assert verdict.score == pytest.approx(5 / 6)  # valid, Checklist, gloves, goggles, (not helmet), no repeats


def test_all_items_in_one_string_count_once(ski) -> None:
    doc = doc_of(ski)
    doc["state"]["items"] = [{"label": "Gloves, goggles and helmet", "done": False}]
    verdict = ui_data.score(ski, json.dumps(doc))
    assert not verdict.ok and "missing 'goggles'" in verdict.reason and "missing 'helmet'" in verdict.reason


def test_a_document_valid_only_after_repair_fails(ski) -> None:
    doc = doc_of(ski)
    doc["components"][0]["bind"] = "things"  # binds a key that does not exist: the repair would add it
    text = json.dumps(doc)
    assert check(text)[0] is not None  # compose would have shown a view
    verdict = ui_data.score(ski, text)
    assert not verdict.ok and verdict.reason.startswith("invalid before repair")


def test_another_valid_way_to_write_it_passes(ski) -> None:
    """The verifier checks the content, not the gold's exact ids, labels, casing or layout."""
    other = {"catalog": "1", "title": "Ski", "components": [
        {"id": "box", "type": "Card", "label": "Trip", "children": ["pack"]},
        {"id": "pack", "type": "Checklist", "label": "Bring", "bind": "gear"}],
        "state": {"gear": [{"label": "GLOVES", "done": False}, {"label": "ski goggles", "done": True},
                           {"label": "Helmet.", "done": False}]}, "actions": {}}
    verdict = ui_data.score(ski, json.dumps(other, indent=2))
    assert verdict.ok and verdict.score == 1.0


def test_wrong_numbers_kinds_and_privacy_fail() -> None:
    tea = make("a 25 minute pomodoro timer", Part("timer", "Pomodoro", seconds=1500))
    doc = doc_of(tea)
    doc["components"][0]["seconds"] = 25
    assert ui_data.score(tea, json.dumps(doc)).reason == "no seconds 1500"
    as_table = {"catalog": "1", "title": "Ski", "components": [{"id": "t", "type": "Table", "label": "Pack", "bind": "r"}],
                "state": {"r": [["gloves"], ["goggles"], ["helmet"]]}, "actions": {}}
    ski = make(SKI, Part("checklist", "To pack", ("gloves", "goggles", "helmet")))
    assert ui_data.score(ski, json.dumps(as_table)).reason == "no Checklist"
    journal = make("a private journal form with date and entry",
                   Part("form", "Journal", fields=(Field("Input", "date"), Field("Input", "entry")), private=True))
    assert journal.check["private"] is True and ui_data.score(journal, journal.answer).ok
    leaky = doc_of(journal)
    leaky["actions"]["save"]["visibility"] = "model"
    assert ui_data.score(journal, json.dumps(leaky)).reason == "the form's submit is not private (noai)"


def test_a_dashboard_needs_both_kinds_and_their_numbers(grammar) -> None:
    case = make("a study dashboard with a 50 minute timer and a checklist of algebra and vectors",
                Part("timer", "Study", seconds=3000), Part("checklist", "Topics", ("algebra", "vectors")),
                container="Grid", container_label="Dashboard")
    assert case.check["types"] == ["Timer", "Checklist"] and case.check["numbers"] == {"seconds": 3000}
    assert grammar.accepts(case.answer)[0] and ui_data.score(case, case.answer).ok
    doc = doc_of(case)
    doc["components"] = [c for c in doc["components"] if c["type"] != "Timer"]
    doc["components"][0]["children"] = ["checklist"]
    verdict = ui_data.score(case, json.dumps(doc))
    assert not verdict.ok and verdict.reason == "no Timer; no seconds 3000"
