"""Tool calls from a remote engine: OpenAI `tool_calls` -> our ToolCall.

The local chat template's native format (`<tool_call>{...}</tool_call>`) is
parsed by `mol_local.turn.tasks.parse_tool_calls`; an OpenAI-compatible server
returns structured `tool_calls` instead (whole in a message, or in pieces in
streamed deltas). Both end up as the same ToolCall, so the harness and its
audit log do not care where a call came from. A call that cannot be read
becomes a ToolCall with `error` set, which the harness answers with the fix.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from mol_local.turn.tasks import ToolCall


def _one(item: Any) -> ToolCall:
    raw = json.dumps(item, ensure_ascii=False, default=str)
    if not isinstance(item, Mapping):
        return ToolCall("", {}, raw, error="malformed tool call: expected an object with a `function`")
    fn = item.get("function")
    if not isinstance(fn, Mapping) or not isinstance(fn.get("name"), str) or not fn["name"]:
        return ToolCall("", {}, raw, error="malformed tool call: `function.name` must be a non-empty string")
    args: Any = fn.get("arguments", {})
    if isinstance(args, str):
        try:
            args = json.loads(args) if args.strip() else {}
        except ValueError as exc:
            return ToolCall(fn["name"], {}, raw, error=f"malformed tool call: arguments of {fn['name']!r} are not valid JSON ({exc})")
    if not isinstance(args, dict):
        return ToolCall(fn["name"], {}, raw, error=f"malformed tool call: arguments of {fn['name']!r} must be a JSON object")
    return ToolCall(fn["name"], args, raw)


def from_openai_tool_calls(tool_calls: Iterable[Any] | None) -> list[ToolCall]:
    """Convert a chat-completion message's `tool_calls` list."""
    return [_one(item) for item in tool_calls or []]


def merge_tool_call_deltas(deltas: Iterable[Iterable[Mapping[str, Any]]]) -> list[dict]:
    """Join streamed `delta.tool_calls` fragments (keyed by `index`) into whole tool_calls."""
    merged: dict[int, dict] = {}
    for chunk in deltas:
        for part in chunk or []:
            slot = merged.setdefault(int(part.get("index", 0)), {"id": "", "type": "function", "function": {"name": "", "arguments": ""}})
            slot["id"] = part.get("id") or slot["id"]
            fn = part.get("function") or {}
            slot["function"]["name"] += fn.get("name") or ""
            slot["function"]["arguments"] += fn.get("arguments") or ""
    return [merged[i] for i in sorted(merged)]
