"""Tool calls in each family's syntax become the same internal ToolCall (mol_local.turn.tasks.parse_tool_calls)."""

from __future__ import annotations

import pytest

from mol_local.turn.tasks import ToolCall, parse_tool_calls, strip_tool_calls

FIND = ToolCall("notes.find", {"query": "milk"}, "")


@pytest.mark.parametrize("text", [
    'Let me look.<tool_call>{"name": "notes.find", "arguments": {"query": "milk"}}</tool_call>',  # Hermes / Qwen
    '[TOOL_CALLS][{"name": "notes.find", "arguments": {"query": "milk"}}]',  # Mistral v3
    '[TOOL_CALLS]notes.find[ARGS]{"query": "milk"}',  # Mistral, newer tokenizers
    '<|python_tag|>{"name": "notes.find", "parameters": {"query": "milk"}}',  # Llama 3.x, tagged
    '{"name": "notes.find", "parameters": {"query": "milk"}}',  # Llama 3.x, the whole answer
])
def test_each_family_parses_to_one_call(text: str) -> None:
    (call,) = parse_tool_calls(text)
    assert (call.name, call.arguments, call.error) == (FIND.name, FIND.arguments, None)


def test_several_mistral_calls() -> None:
    calls = parse_tool_calls('[TOOL_CALLS][{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"x": 1}}]')
    assert [(c.name, c.arguments) for c in calls] == [("a", {}), ("b", {"x": 1})]


@pytest.mark.parametrize("text", [
    '{"name": "Ada", "parameters": {"age": 36}, "city": "London"}',  # JSON that mentions parameters is an answer
    'The JSON key "parameters" holds the arguments.',
    "Plain words.",
])
def test_ordinary_answers_are_not_calls(text: str) -> None:
    assert parse_tool_calls(text) == []


def test_broken_calls_are_reported_not_dropped() -> None:
    (bad,) = parse_tool_calls("[TOOL_CALLS]notes.find[ARGS]{not json")
    assert bad.name == "" and bad.error and bad.error.startswith("malformed tool call")
    (bad,) = parse_tool_calls('<|python_tag|>{"name": "x", "parameters": [1]}')
    assert bad.error == "malformed tool call: `parameters` must be an object"


def test_strip_removes_a_mistral_tail() -> None:
    assert strip_tool_calls('Checking.[TOOL_CALLS][{"name": "a", "arguments": {}}]') == "Checking."
