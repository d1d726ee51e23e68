"""OpenAI chat-completion parameters: each one is honoured or refused with a 400 that names it.

Nothing a client sends is dropped without a word: a parameter we do not know
is refused like OpenAI refuses it ("Unrecognized request argument"), and one we
know but cannot do (n > 1, logprobs, logit_bias, penalties we do not run) is
refused with what to send instead. What we honour: `stop` (up to 4 strings),
`seed`, `temperature`, `top_p`, `max_tokens` / `max_completion_tokens`,
`response_format` (text, json_object, json_schema: compiled to a GBNF grammar
by mol_local/structured.py), `tool_choice` (none, auto, required, a named
function: the last two are a grammar over `<tool_call>` blocks),
`parallel_tool_calls`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from mol_local.errors import SchemaProblem
from mol_local.structured import ANY_OBJECT, check_schema, json_grammar, object_grammar, wrapped_grammar

MAX_STOPS = 4
MAX_STOP_CHARS = 256
KNOWN = {
    "model", "messages", "stream", "stream_options", "metadata", "user", "tools", "tool_choice", "parallel_tool_calls",
    "max_tokens", "max_completion_tokens", "temperature", "top_p", "seed", "stop", "n", "response_format", "logprobs",
    "top_logprobs", "frequency_penalty", "presence_penalty", "logit_bias", "store", "service_tier",
    "repetition_penalty", "ignore_eos",  # vLLM/SGLang extensions our RemoteEngine sends
}
# Known, harmless at their default, refused otherwise: (default, why and what to send instead).
ONLY_DEFAULT: dict[str, tuple[Any, str]] = {
    "n": (1, "one choice per request is all this server makes — send n = 1 (or leave it out) and repeat the request"),
    "logprobs": (False, "this engine does not report token log-probabilities — leave logprobs out"),
    "top_logprobs": (0, "this engine does not report token log-probabilities — leave top_logprobs out"),
    "frequency_penalty": (0, "not supported — leave it out (repetition_penalty is ours)"),
    "presence_penalty": (0, "not supported — leave it out (repetition_penalty is ours)"),
    "logit_bias": ({}, "not supported — leave it out"),
    "store": (False, "this server does not store completions for later retrieval — leave it out"),
    "service_tier": ("auto", "there is one tier here — leave it out"),
}


class ParamProblem(Exception):
    """A parameter that cannot be honoured; `param` is its name (the 400's `param` field)."""

    def __init__(self, param: str, message: str) -> None:
        super().__init__(message)
        self.param = param


@dataclass
class Options:
    stop: tuple[str, ...] = ()
    top_p: float | None = None
    grammar: str | None = None  # response_format or tool_choice, as GBNF
    schema: dict[str, Any] | None = None  # response_format json_schema: answers are validated against it too
    json_mode: bool = False
    tool_choice: str = "auto"  # none | auto | required | function
    parallel_tool_calls: bool = True


def _refuse_unknown(body: dict[str, Any]) -> None:
    for key in body:
        if key not in KNOWN:
            raise ParamProblem(key, f"Unrecognized request argument supplied: {key} — this server does not know it; leave it out")
    for key, (default, why) in ONLY_DEFAULT.items():
        value = body.get(key)
        if value is not None and value != default and not (key == "service_tier" and value == "default"):
            raise ParamProblem(key, f"`{key}` = {json.dumps(value)[:40]} cannot be honoured: {why}")


def _stop(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    stops = [value] if isinstance(value, str) else value
    if not isinstance(stops, list) or not all(isinstance(s, str) for s in stops):
        raise ParamProblem("stop", "`stop` must be a string or a list of strings")
    if len(stops) > MAX_STOPS:
        raise ParamProblem("stop", f"`stop` has {len(stops)} entries; at most {MAX_STOPS} are allowed — keep the ones that matter")
    for s in stops:
        if not s:
            raise ParamProblem("stop", "`stop` entries must not be empty strings")
        if len(s) > MAX_STOP_CHARS:
            raise ParamProblem("stop", f"a `stop` entry is {len(s)} characters; the limit is {MAX_STOP_CHARS} — send a shorter one")
    return tuple(stops)


def _response_format(value: Any, opts: Options) -> None:
    if value is None:
        return
    if not isinstance(value, dict) or value.get("type") not in ("text", "json_object", "json_schema"):
        raise ParamProblem("response_format", "`response_format.type` must be text, json_object or json_schema")
    if value["type"] == "json_object":
        opts.grammar, opts.json_mode, opts.schema = object_grammar(), True, ANY_OBJECT
    elif value["type"] == "json_schema":
        spec = value.get("json_schema")
        if not isinstance(spec, dict) or "schema" not in spec:
            raise ParamProblem("response_format", "`response_format.json_schema` needs `name` and `schema` (a JSON Schema object)")
        try:
            opts.grammar = json_grammar(spec["schema"], what="response_format.json_schema.schema")
        except SchemaProblem as exc:
            raise ParamProblem("response_format", str(exc)) from None
        opts.schema, opts.json_mode = spec["schema"], True


def _tool_names(tools: list[dict]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for i, tool in enumerate(tools):
        fn = tool.get("function") if tool.get("type", "function") == "function" else None
        if not isinstance(fn, dict) or not isinstance(fn.get("name"), str) or not fn["name"]:
            raise ParamProblem("tools", f"tools[{i}] must be {{\"type\": \"function\", \"function\": {{\"name\": ..., \"parameters\": {{...}}}}}}")
        params = fn.get("parameters") or ANY_OBJECT
        try:
            check_schema(params, what=f"tools[{i}].function.parameters")
        except SchemaProblem as exc:
            raise ParamProblem("tools", str(exc)) from None
        out[fn["name"]] = params
    return out


def _tool_choice(value: Any, tools: list[dict], opts: Options) -> None:
    names = _tool_names(tools)
    if value is None:
        value = "auto"
    if isinstance(value, dict):
        fn = value.get("function") if value.get("type") == "function" else None
        name = fn.get("name") if isinstance(fn, dict) else None
        if name not in names:
            raise ParamProblem("tool_choice", f"`tool_choice` names {json.dumps(name)} which is not in `tools` — use one of: {', '.join(names) or '(no tools sent)'}")
        chosen = {name: names[name]}
        opts.tool_choice = "function"
    elif value in ("none", "auto", "required"):
        opts.tool_choice = value
        if value != "required":
            return
        if not names:
            raise ParamProblem("tool_choice", "`tool_choice` = required needs `tools` — send the tools it may call")
        chosen = names
    else:
        raise ParamProblem("tool_choice", '`tool_choice` must be "none", "auto", "required" or {"type": "function", "function": {"name": ...}}')
    calls = [{"type": "object", "properties": {"name": {"const": n}, "arguments": p}, "required": ["name", "arguments"],
              "additionalProperties": False} for n, p in chosen.items()]
    schema = calls[0] if len(calls) == 1 else {"oneOf": calls}
    try:
        opts.grammar = wrapped_grammar(schema, "<tool_call>", "</tool_call>", what="the tools' parameters")
    except SchemaProblem as exc:
        raise ParamProblem("tools", str(exc)) from None


def parse_options(body: dict[str, Any], tools: list[dict]) -> Options:
    """The parameters beyond messages/model/stream, checked; ParamProblem names the first that cannot be honoured."""
    _refuse_unknown(body)
    opts = Options(stop=_stop(body.get("stop")))
    top_p = body.get("top_p")
    if top_p is not None:
        if isinstance(top_p, bool) or not isinstance(top_p, (int, float)) or not 0 < top_p <= 1:
            raise ParamProblem("top_p", f"`top_p` must be a number in (0, 1], got {json.dumps(top_p)[:40]}")
        opts.top_p = float(top_p)
    ptc = body.get("parallel_tool_calls", True)
    if not isinstance(ptc, bool):
        raise ParamProblem("parallel_tool_calls", "`parallel_tool_calls` must be true or false")
    opts.parallel_tool_calls = ptc
    _response_format(body.get("response_format"), opts)
    json_grammar_set = opts.grammar is not None
    _tool_choice(body.get("tool_choice"), tools, opts)
    if json_grammar_set and opts.tool_choice in ("required", "function"):
        raise ParamProblem("response_format", "`response_format` and a forced `tool_choice` cannot both shape one answer — send one of them")
    if json_grammar_set and tools and opts.tool_choice == "auto":
        raise ParamProblem("response_format", "`response_format` with `tools` cannot both shape one answer here — "
                           "send tool_choice = none to get JSON, or leave response_format out to let the model call tools")
    return opts
