"""Tool declarations: name, parameters, handler; argument checking; the text the model reads.

The description block goes into every slot's system head, so it must be a pure
function of the enabled tools (sorted, no timestamps): the slot's prefix stays
byte-identical between visits and its KV cache stays valid.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mol_local.harness.errors import BadArguments

if TYPE_CHECKING:
    from mol_local.harness.runner import ToolContext

TOOLS_HEADER = (
    "# Tools",
    'To use a tool, write <tool_call>{"name": "notes.find", "arguments": {"query": "milk"}}</tool_call> and wait for its result.',
)
_TYPE_NAMES = {str: "string", int: "integer", float: "number", bool: "boolean", dict: "object", list: "array", object: "any"}


@dataclass(frozen=True)
class Param:
    name: str
    type: type
    doc: str
    required: bool = True
    max_chars: int | None = None  # a string's bound under the call grammar: a greedy loop ("000…") must still close


@dataclass
class ToolOutcome:
    text: str
    status: str = "ok"  # ok | error | timeout | crashed | denied | bad_arguments | unknown_tool


@dataclass(frozen=True)
class ToolSpec:
    name: str
    doc: str
    params: tuple[Param, ...]
    handler: Callable[[ToolContext, dict[str, Any]], ToolOutcome]
    listed: bool = True  # in the system head and the call grammar; an unlisted tool runs only when the turn settles a call

    def signature(self) -> str:
        parts = [f"{p.name}: {_TYPE_NAMES.get(p.type, p.type.__name__)}{'' if p.required else ' (optional)'}" for p in self.params]
        return f"{self.name}({', '.join(parts)})"


def validate_args(spec: ToolSpec, args: dict[str, Any]) -> dict[str, Any]:
    """Check names, presence and JSON types; raise BadArguments that says how to call it right."""
    known = {p.name: p for p in spec.params}
    usage = f"call it as {spec.signature()}"
    for key in args:
        if key not in known:
            guess = difflib.get_close_matches(key, list(known), n=1, cutoff=0.5)
            hint = f"did you mean {guess[0]!r}? " if guess else ""
            raise BadArguments(f"{spec.name} has no argument {key!r} — {hint}{usage}")
    out: dict[str, Any] = {}
    for p in spec.params:
        if p.name not in args or args[p.name] is None:
            if p.required:
                what = f" ({p.doc})" if p.doc else ""
                raise BadArguments(f"{spec.name} needs the argument {p.name!r}{what} — {usage}")
            continue
        value = args[p.name]
        if p.type is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, p.type) or (p.type is int and isinstance(value, bool)):
            raise BadArguments(
                f"{spec.name} argument {p.name!r} must be a {_TYPE_NAMES.get(p.type, p.type.__name__)}, "
                f"not {type(value).__name__} — {usage}"
            )
        out[p.name] = value
    return out


def compact_signature(spec: ToolSpec) -> str:
    """`notes.find(query, limit?)`: what the system head shows (types come back in errors when wrong)."""
    return f"{spec.name}({', '.join(p.name + ('' if p.required else '?') for p in spec.params)})"


def describe_tools(specs: Sequence[ToolSpec], family_docs: Mapping[str, str] | None = None) -> str:
    """The system-head block telling the model which tools exist and how to call them.

    Kept short (every slot's prefix carries it): dotted tools of one family share
    a line and the family's doc; other tools get their own doc.
    """
    specs = [s for s in specs if s.listed]
    if not specs:
        return ""
    family_docs = family_docs or {}
    lines = list(TOOLS_HEADER)
    families: dict[str, list[ToolSpec]] = {}
    for spec in sorted(specs, key=lambda s: s.name):
        families.setdefault(spec.name.split(".")[0] if "." in spec.name else spec.name, []).append(spec)
    for family, members in families.items():
        sigs = " · ".join(compact_signature(m) for m in members)
        doc = family_docs.get(family) or members[0].doc
        lines.append(f"- {sigs}: {doc}")
    return "\n".join(lines)


def call_schema(specs: Sequence[ToolSpec], choices: Mapping[str, Mapping[str, Sequence[str]]] | None = None) -> dict[str, Any]:
    """JSON Schema of one call `{"name": ..., "arguments": {...}}` to any of `specs`: the real names, each
    tool's own argument names and types (in the order the tool lists them), nothing else.

    `choices` (tool -> argument -> values) holds an argument to the values that exist now, e.g. the ids of the
    open reminders for `reminders.complete`; a tool with an argument that has none is left out."""
    json_type = {str: "string", int: "integer", float: "number", bool: "boolean", dict: "object", list: "array"}
    choices = choices or {}

    def value(spec: ToolSpec, p: Param) -> dict[str, Any]:
        if p.name in choices.get(spec.name, {}):
            return {"enum": list(choices[spec.name][p.name])}
        out: dict[str, Any] = {"type": json_type[p.type]} if p.type in json_type else {}
        return out | ({"maxLength": p.max_chars} if p.max_chars else {})

    def one(spec: ToolSpec) -> dict[str, Any]:
        props = {p.name: value(spec, p) for p in spec.params}
        args = {"type": "object", "properties": props, "required": [p.name for p in spec.params if p.required],
                "additionalProperties": False}
        return {"type": "object", "properties": {"name": {"const": spec.name}, "arguments": args},
                "required": ["name", "arguments"], "additionalProperties": False}

    usable = [s for s in specs if all(values for values in choices.get(s.name, {}).values())]
    return {"oneOf": [one(s) for s in sorted(usable, key=lambda s: s.name)]}
