"""OpenAI `tool_calls` (remote engines) -> ToolCall, including streamed fragments."""

from __future__ import annotations

from mol_local.harness.calls import from_openai_tool_calls, merge_tool_call_deltas


def test_whole_tool_calls() -> None:
    calls = from_openai_tool_calls([
        {"id": "c1", "type": "function", "function": {"name": "python", "arguments": '{"code": "1+1"}'}},
        {"id": "c2", "type": "function", "function": {"name": "notes.find", "arguments": {"query": "milk"}}},
        {"id": "c3", "type": "function", "function": {"name": "reminders.list", "arguments": ""}},
    ])
    assert [(c.name, c.arguments, c.error) for c in calls] == [
        ("python", {"code": "1+1"}, None), ("notes.find", {"query": "milk"}, None), ("reminders.list", {}, None),
    ]
    assert from_openai_tool_calls(None) == []


def test_malformed_tool_calls_carry_an_error() -> None:
    bad = from_openai_tool_calls([
        {"function": {"name": "python", "arguments": '{"code": '}},
        {"function": {"name": "python", "arguments": "[1, 2]"}},
        {"function": {"arguments": "{}"}},
        "not an object",
    ])
    assert all(c.error and c.error.startswith("malformed tool call") for c in bad)
    assert "not valid JSON" in bad[0].error and "must be a JSON object" in bad[1].error
    assert "function.name" in bad[2].error


def test_streamed_fragments_are_joined() -> None:
    deltas = [
        [{"index": 0, "id": "a", "function": {"name": "pyth", "arguments": '{"co'}}],
        [{"index": 0, "function": {"name": "on", "arguments": 'de": "2"}'}}, {"index": 1, "function": {"name": "notes.read", "arguments": '{"id": "x"}'}}],
    ]
    calls = from_openai_tool_calls(merge_tool_call_deltas(deltas))
    assert [(c.name, c.arguments) for c in calls] == [("python", {"code": "2"}), ("notes.read", {"id": "x"})]
