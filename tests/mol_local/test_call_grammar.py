"""Tool calls under a grammar: inside `<tool_call>` only the real tools and their own argument names parse."""

from __future__ import annotations

import json

import llama_cpp
import pytest

from mol_local.engine.sampling import CallGrammar
from mol_local.harness.spec import call_schema
from mol_local.structured import tool_call_grammar


@pytest.fixture
def grammar(runtime) -> str:
    return tool_call_grammar(call_schema(list(runtime.tool_hub.specs().values())))


def _accepts(engine, grammar: str, text: str, before: str = "Sure.<tool_call>") -> bool:
    """Does the grammar take `text` token by token after the answer so far (`before`), as the engine would decode it?"""
    calls = CallGrammar(engine.vocab, engine.n_vocab, grammar)
    calls.after(before)
    assert calls.active is not None
    try:
        for tok in engine._tok(text, False):
            if not calls.active._allows(tok, 0.0):
                return False
            llama_cpp.llama_sampler_accept(calls.active.grammar, tok)
        return True
    finally:
        calls.free()


def call(name: str, **arguments) -> str:
    return json.dumps({"name": name, "arguments": arguments}) + "</tool_call>"


def test_a_real_call_parses_and_a_made_up_argument_or_tool_does_not(engine, grammar) -> None:
    assert _accepts(engine, grammar, call("reminders.create", text="call the dentist", due="tomorrow 9am", before="30 minutes"))
    assert _accepts(engine, grammar, call("notes.create", title="Wifi", body="BlueHarbor42"))
    assert not _accepts(engine, grammar, call("reminders.list", title="haircut"))  # seen on the embedded base
    assert not _accepts(engine, grammar, call("reminders.create", title="the dentist"))
    assert not _accepts(engine, grammar, call("reminders.make", text="x"))
    assert not _accepts(engine, grammar, call("reminders.create", due="9am"))  # `text` is required


def test_the_grammar_follows_the_tags_of_the_answer(engine, grammar) -> None:
    calls = CallGrammar(engine.vocab, engine.n_vocab, grammar)
    calls.after("I'll set that.")
    assert calls.active is None
    calls.after("I'll set that.<tool_call>")
    assert calls.active is not None and calls.calls == 1
    calls.after('<tool_call>{"name": "notes.find", "arguments": {"query": "x"}}')
    assert calls.active is not None
    calls.after('{"query": "x"}}</tool_call><')  # the close tag as this tokenizer writes it before a second call
    assert calls.active is None
    calls.after("</tool_call><tool_call>")
    assert calls.active is not None and calls.calls == 2
    calls.free()


def test_ids_are_the_ones_that_exist_and_every_short_string_closes(engine, runtime) -> None:
    """The embedded base made up reminder ids ("day-01") or ran one on ("000…") to its token cap."""
    none_open = runtime.call_grammar()
    assert not _accepts(engine, none_open, call("reminders.complete", id="d2fe6a417878"))  # nothing to complete: not offered
    row = runtime.tool_hub.reminders.create("water the plants", "tomorrow 9am")
    one_open = runtime.call_grammar()
    assert _accepts(engine, one_open, call("reminders.complete", id=row["id"]))
    assert not _accepts(engine, one_open, call("reminders.complete", id="day-01"))
    assert _accepts(engine, one_open, call("reminders.create", text="x" * 200))
    assert not _accepts(engine, one_open, call("reminders.create", text="x" * 201))  # the argument must close
    assert _accepts(engine, one_open, call("notes.create", title="Plan", body="a long body " * 100))  # bodies are free


def test_an_answer_that_stops_at_the_open_tag_goes_on_with_a_call(engine, grammar) -> None:
    """Seen in the app: `<tool_call.create>` as the whole answer to "Remember that my dog is called Biscuit"."""
    def accepts(text: str) -> bool:
        return _accepts(engine, grammar, text, before="I'll remember that.<tool_call")

    assert accepts(">" + call("memory.remember", text="The user's dog is called Biscuit."))
    assert not accepts(".create>")
