"""The OpenAI chat-completions wire format: validate requests, shape responses and stream chunks.

Tool calls pass through in both directions: OpenAI `tools` are described to
the model in the system message, `tool_calls`/`tool` messages become our
Hermes-style `<tool_call>` text, and `<tool_call>` blocks the model writes go
back out as OpenAI `tool_calls` with finish_reason "tool_calls".
"""

from __future__ import annotations

import json
import re
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from mol_local.engine.base import Message
from mol_local.server.params import Options, ParamProblem, parse_options
from mol_local.turn.tasks import parse_tool_calls
from mol_local.textclean import clean_text

ROLES = ("system", "developer", "user", "assistant", "tool")
CONVERSATION_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what the store and the harness workspace folder accept
TOOL_OPEN = "<tool_call>"


class HTTPProblem(Exception):
    """An error answered as OpenAI error JSON with an HTTP status (converted only at the HTTP edge)."""

    def __init__(self, status: int, message: str, *, kind: str = "invalid_request_error", code: str | None = None, close: bool = False,
                 param: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.kind = kind
        self.code = code
        self.close = close  # the connection cannot be trusted for another request (bad framing, foreign Host)
        self.param = param  # the request parameter at fault, when one is

    def body(self) -> dict[str, Any]:
        return {"error": {"message": str(self), "type": self.kind, "code": self.code, "param": self.param}}


def bad(message: str, code: str | None = None, param: str | None = None) -> HTTPProblem:
    return HTTPProblem(400, message, code=code, param=param)


@dataclass
class ChatRequest:
    model: str
    messages: list[Message]
    stream: bool = False
    include_usage: bool = False
    max_tokens: int | None = None
    temperature: float | None = None
    seed: int = 0
    repeat_penalty: float | None = None
    ignore_eos: bool = False
    conversation_id: str | None = None
    tools: list[dict] = field(default_factory=list)
    options: Options = field(default_factory=Options)
    mol_memory: bool = False  # metadata.mol_memory: the client asks for the personal memory tail (HCP serve.api_memory decides)
    created: int = field(default_factory=lambda: int(time.time()))  # one `created` for the response and every chunk


def _number(body: dict, key: str, kind: type, lo: float, hi: float) -> Any:
    value = body.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (kind is int and not isinstance(value, int)):
        raise bad(f"`{key}` must be a {kind.__name__}, got {json.dumps(value)[:40]}")
    if not lo <= value <= hi:
        raise bad(f"`{key}` must be between {lo} and {hi}, got {value}")
    return kind(value)


def _content(message: dict, i: int) -> str:
    content = message.get("content")
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if not isinstance(part, dict) or part.get("type") != "text" or not isinstance(part.get("text"), str):
                raise bad(f"messages[{i}].content: only text parts ({{\"type\": \"text\", \"text\": ...}}) are supported")
            parts.append(part["text"])
        return "".join(parts)
    raise bad(f"messages[{i}].content must be a string or a list of text parts")


def _message(raw: Any, i: int) -> Message:
    if not isinstance(raw, dict):
        raise bad(f"messages[{i}] must be an object with `role` and `content`")
    role = raw.get("role")
    if role not in ROLES:
        raise bad(f"messages[{i}].role must be one of {', '.join(ROLES)}, got {json.dumps(role)[:40]}")
    if "content" not in raw and not raw.get("tool_calls"):
        raise bad(f"messages[{i}] has no `content`")
    text = _content(raw, i)
    calls = raw.get("tool_calls")
    if calls is not None:
        if not isinstance(calls, list):
            raise bad(f"messages[{i}].tool_calls must be a list")
        for call in calls:
            fn = call.get("function") if isinstance(call, dict) else None
            if not isinstance(fn, dict) or not isinstance(fn.get("name"), str):
                raise bad(f"messages[{i}].tool_calls entries need function.name")
            args = fn.get("arguments") or "{}"
            text += f'<tool_call>{{"name": {json.dumps(fn["name"])}, "arguments": {args if isinstance(args, str) else json.dumps(args)}}}</tool_call>'
    cleaned = clean_text(text)  # terminal escapes, NUL, BEL... stripped (mol_local/textclean.py)
    if role == "user" and text.strip() and not cleaned.strip():
        raise bad(f"messages[{i}].content holds only control characters or terminal escapes (ANSI, NUL, BEL) — write some text")
    return {"role": "system" if role == "developer" else role, "content": cleaned}


def parse_request(body: Any, header_conversation: str | None) -> ChatRequest:
    """Validate a decoded JSON body; every problem is a 400 that names the field and the fix."""
    if not isinstance(body, dict):
        raise bad("The request body must be a JSON object")
    model = body.get("model")
    if not isinstance(model, str) or not model:
        raise bad("`model` is required — list the names with GET /v1/models", code="model_not_found")
    raw_messages = body.get("messages")
    if not isinstance(raw_messages, list) or not raw_messages:
        raise bad("`messages` is required and must be a non-empty list")
    messages = [_message(m, i) for i, m in enumerate(raw_messages)]
    tools = body.get("tools") or []
    if not isinstance(tools, list) or not all(isinstance(t, dict) for t in tools):
        raise bad("`tools` must be a list of tool objects")
    stream = body.get("stream", False)
    if not isinstance(stream, bool):
        raise bad("`stream` must be true or false")
    options = body.get("stream_options") or {}
    metadata = body.get("metadata") or {}
    if not isinstance(options, dict) or not isinstance(metadata, dict):
        raise bad("`stream_options` and `metadata` must be objects")
    conversation = header_conversation or metadata.get("conversation_id") or body.get("user")
    if conversation is not None and (not isinstance(conversation, str) or not CONVERSATION_ID.fullmatch(conversation)):
        raise bad("The conversation id must be 1-64 letters, digits, _ or - (X-Mol-Conversation header, metadata.conversation_id or user)")
    try:
        params = parse_options(body, tools)
    except ParamProblem as exc:
        raise bad(str(exc), code="unsupported_parameter" if exc.param in ("n", "logprobs", "top_logprobs") else None, param=exc.param) from None
    if not isinstance(metadata.get("mol_memory", False), bool):
        raise bad("`metadata.mol_memory` must be true or false", param="metadata")
    max_tokens = _number(body, "max_completion_tokens", int, 1, 1 << 20)
    if max_tokens is None:
        max_tokens = _number(body, "max_tokens", int, 1, 1 << 20)
    return ChatRequest(
        model=model,
        messages=messages,
        stream=stream,
        include_usage=bool(options.get("include_usage")),
        max_tokens=max_tokens,
        temperature=_number(body, "temperature", float, 0.0, 2.0),
        seed=_number(body, "seed", int, -(1 << 63), (1 << 63) - 1) or 0,
        repeat_penalty=_number(body, "repetition_penalty", float, 1.0, 2.0),
        ignore_eos=bool(body.get("ignore_eos", False)),
        conversation_id=conversation,
        tools=tools,
        options=params,
        mol_memory=metadata.get("mol_memory", False),
    )


def with_tools(messages: list[Message], tools: list[dict], choice: str = "auto") -> list[Message]:
    """Describe the client's tools in the system message (Hermes style) so the model can call them
    (not with tool_choice = none: then the model is not told about them)."""
    if not tools or choice == "none":
        return messages
    specs = "\n".join(json.dumps(t.get("function", t), ensure_ascii=False) for t in tools)
    note = (
        "You may call these tools. To call one, answer with "
        '<tool_call>{"name": "<tool>", "arguments": {...}}</tool_call>\n<tools>\n' + specs + "\n</tools>"
    )
    if messages and messages[0]["role"] == "system":
        return [{"role": "system", "content": messages[0]["content"] + "\n\n" + note}, *messages[1:]]
    return [{"role": "system", "content": note}, *messages]


def split_tool_calls(text: str, parallel: bool = True) -> tuple[str, list[dict]]:
    """(content before the first tool call, OpenAI tool_calls) of a finished answer; only the first call
    when the client sent parallel_tool_calls = false."""
    if TOOL_OPEN not in text:
        return text, []
    calls = []
    for call in parse_tool_calls(text):
        if call.error:
            continue
        calls.append({
            "id": "call_" + uuid.uuid4().hex[:24],
            "type": "function",
            "function": {"name": call.name, "arguments": json.dumps(call.arguments, ensure_ascii=False)},
        })
    if not calls:
        return text, []
    return text.split(TOOL_OPEN, 1)[0].rstrip(), calls if parallel else calls[:1]


class ContentGate:
    """Streams text but holds back anything from a `<tool_call>` on (it is sent as tool_calls at the end)."""

    def __init__(self) -> None:
        self.text = ""
        self.sent = 0
        self.blocked = False

    def feed(self, piece: str) -> str:
        self.text += piece
        if self.blocked:
            return ""
        found = self.text.find(TOOL_OPEN, self.sent)
        if found >= 0:
            self.blocked = True
            out, self.sent = self.text[self.sent : found], found
            return out
        safe = len(self.text)
        for k in range(min(len(TOOL_OPEN) - 1, len(self.text)), 0, -1):  # a partial "<tool_c" may still grow
            if TOOL_OPEN.startswith(self.text[-k:]):
                safe = len(self.text) - k
                break
        safe = max(safe, self.sent)
        out, self.sent = self.text[self.sent : safe], safe
        return out

    def rest(self, final_text: str) -> str:
        """Text still owed when no tool call followed (the held-back partial marker)."""
        return "" if self.blocked else final_text[self.sent :]


@dataclass
class Completion:
    """What the service produced for one request."""

    text: str
    finish_reason: str
    prompt_tokens: int
    completion_tokens: int
    extra: dict[str, Any] = field(default_factory=dict)


def new_id() -> str:
    return "chatcmpl-" + uuid.uuid4().hex


def usage(c: Completion) -> dict[str, int]:
    return {"prompt_tokens": c.prompt_tokens, "completion_tokens": c.completion_tokens, "total_tokens": c.prompt_tokens + c.completion_tokens}


def finish_of(c: Completion, calls: list[dict]) -> str:
    if calls:
        return "tool_calls"
    return {"cancelled": "stop", "time": "length"}.get(c.finish_reason, c.finish_reason)


def completion_body(cid: str, req: ChatRequest, c: Completion) -> dict[str, Any]:
    model = req.model
    content, calls = split_tool_calls(c.text, req.options.parallel_tool_calls)
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = calls
    return {
        "id": cid,
        "object": "chat.completion",
        "created": req.created,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish_of(c, calls), "logprobs": None}],
        "usage": usage(c),
        **({"mol": c.extra} if c.extra else {}),
    }


def chunk(cid: str, req: ChatRequest, delta: dict[str, Any], finish: str | None = None, **extra: Any) -> dict[str, Any]:
    """One SSE chunk; with stream_options.include_usage every chunk carries `usage: null` until the last (as OpenAI's do)."""
    return {
        "id": cid,
        "object": "chat.completion.chunk",
        "created": req.created,
        "model": req.model,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}],
        **({"usage": None} if req.include_usage else {}),
        **extra,
    }
