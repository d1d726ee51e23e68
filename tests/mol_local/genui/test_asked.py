"""The component kinds a request names are the kinds the document gets (mol_local.genui.asked + the grammar)."""

from __future__ import annotations

import re

import pytest
from llama_cpp import LlamaGrammar

from mol_local.genui.asked import asked_kinds
from mol_local.genui.generate import document_grammar


@pytest.mark.parametrize(("request_text", "kinds"), [
    ("count down an hour for my study", ("Timer",)),
    ("a 20 minute timer for the tea", ("Timer",)),
    ("A pet profile form: age and a toggle for gift wrap", ("Form", "Toggle")),
    ("I've done 3 of 10 books, show it as a progress bar", ("ProgressBar",)),
    ("a pain level slider between 0 and 10, starting at 9", ("Slider",)),
    ("I need a poll for a colour for the bedroom", ("Select",)),
    ("Give me a table of cities and their countries", ("Table",)),
    ("a timer and a checklist for my workout", ("Timer", "Checklist")),
    ("a packing checklist for a ski trip with gloves, goggles and a helmet", ("Checklist",)),
    ("a checklist for sending the tax form", ("Checklist",)),  # the form is the content, not a second view
    ("how far am I: 2,715/5000 dollars of savings", ("ProgressBar",)),  # how far: a progress view
    ("What's the capital of Peru?", ()),
    ("can I get a table booking form: date and name?", ("Form",)),  # "table" qualifies the form
    ("a prep list for the school trip with raincoat, consent form and bus money", ()),  # a listed item
    ("a checklist with timer batteries, tape and glue", ("Checklist",)),
    ("Create a habit tracker for drinking water, exercise and reading", ("Checklist",)),  # mol chat: a 0/100 progress bar
    ("a progress tracker for my savings: 300 of 1000", ("ProgressBar",)),
    ("Create a reading tracker with title, author and pages read", ("Table",)),  # mol chat: one "Pages read" bar of 100
    ("Make an expense tracker with date, item and amount", ("Table",)), ("a workout log with exercise, sets and reps", ("Table",)),
    ("a reading tracker with a progress bar", ("ProgressBar",)), ("a tracker for my reading progress", ("ProgressBar",)),
    ("Track my water intake: 3 of 8 glasses", ("ProgressBar",)),
])
def test_the_kinds_a_request_names(request_text: str, kinds: tuple[str, ...]) -> None:
    assert asked_kinds(request_text) == kinds


def test_a_container_named_later_still_comes_first() -> None:
    assert asked_kinds("a button and a card for the wifi") == ("Card", "Button")


def test_the_grammar_puts_the_named_kinds_first_and_still_compiles() -> None:
    timer = document_grammar(("Timer",))
    line = next(l for l in timer.splitlines() if l.startswith("components ::="))
    assert line.startswith('components ::= "[" space (kind-card "," space)? kind-timer ("," space components-item){0,6}')
    assert '"\\"Timer\\""' in next(l for l in timer.splitlines() if l.startswith("kind-timer ::="))
    form = document_grammar(("Form", "Toggle"))
    assert 'components ::= "[" space kind-form ("," space components-item){0,3} "," space kind-toggle ("," space components-item){0,6} "]"' in form
    assert "kind-card" not in form  # a container named first needs no Card around it
    for g in (timer, form, document_grammar()):
        LlamaGrammar.from_string(g, verbose=False)


@pytest.mark.slow
def test_asked_for_a_timer_the_document_has_one(runtime) -> None:
    """On the embedded L3 specialist a timer request came back as a Checklist before the kinds were required."""
    session = runtime.session()
    for request, wanted in (("count down an hour for my study", ["Timer"]),  # a Checklist without the kinds
                            ("a shopping checklist and a timer for the oven", ["Checklist", "Timer"])):  # no Timer without
        result = session.run_turn(request, slot="L3")
        types = re.findall(r'"type" ?: ?"(\w+)"', result.ui_raw_first or "")  # the test profile's budget may cut the end
        assert [t for t in types if t != "Card"][:len(wanted)] == wanted, result.ui_raw_first
