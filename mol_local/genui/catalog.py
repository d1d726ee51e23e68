"""The component catalog (versioned) and the JSON Schema of a UI document.

A document is flat: `components` is a list; containers name their children by
id. That keeps the grammar small and lets validation name cycles and orphans
precisely. Components that are nobody's child are drawn top level, in order.

State values have one of five kinds, and a component that binds state says
which kind it needs (`STATE_KINDS`, `ComponentSpec.binds`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

CATALOG_VERSION = "1"
ID_PATTERN = "^[a-z][a-z0-9_]{0,23}$"
ACTION_KINDS = ("set_state", "submit", "call_tool", "ask_model")
VISIBILITIES = ("model", "noai")
SOURCES = ("reminders", "notes", "memories")
STATE_KINDS = ("text", "number", "flag", "items", "rows")

# Validation limits (documents from anywhere) and tighter generation limits (the grammar).
MAX_COMPONENTS = 200
MAX_DEPTH = 16
MAX_TEXT = 4000
GEN_MAX_COMPONENTS = 8
GEN_MAX_TEXT = 48


@dataclass(frozen=True)
class ComponentSpec:
    name: str
    doc: str
    binds: str | None = None  # the state kind its `bind` must have; None: takes no bind
    container: bool = False  # may have `children`
    props: tuple[str, ...] = ()  # optional props beyond id/type/label
    needs_action: bool = False


COMPONENTS: dict[str, ComponentSpec] = {
    s.name: s
    for s in (
        ComponentSpec("Card", "a titled box around its children", container=True),
        ComponentSpec("Text", "one line of plain text", props=("text",)),
        ComponentSpec("Markdown", "a block of markdown text, shown as plain text in HTML", props=("text",)),
        ComponentSpec("Checklist", "tickable items; binds an items list", binds="items", props=("source",)),
        ComponentSpec("Table", "rows of cells under column headers; binds a rows list", binds="rows",
                      props=("columns", "source")),
        ComponentSpec("Form", "groups inputs; its `action` is a submit of their values", container=True,
                      props=("action",), needs_action=True),
        ComponentSpec("Input", "a one-line text field; binds text", binds="text"),
        ComponentSpec("Select", "pick one of `options`; binds text", binds="text", props=("options",)),
        ComponentSpec("Toggle", "on/off switch; binds a flag", binds="flag"),
        ComponentSpec("Slider", "a number between min and max; binds a number", binds="number", props=("min", "max")),
        ComponentSpec("Button", "runs its `action` when pressed", props=("action",), needs_action=True),
        ComponentSpec("ProgressBar", "shows a number out of `max`; binds a number", binds="number", props=("max",)),
        ComponentSpec("Timer", "counts down `seconds`; binds the seconds left", binds="number", props=("seconds",)),
        ComponentSpec("Tabs", "one tab per child, titled by the child's label", container=True),
        ComponentSpec("Grid", "children in `columns` columns", container=True, props=("columns",)),
    )
}
ALL_PROPS = ("text", "source", "columns", "action", "options", "min", "max", "seconds")


def _str(max_len: int) -> dict:
    return {"type": "string", "maxLength": max_len}


def _id() -> dict:
    return {"type": "string", "pattern": ID_PATTERN}


def state_value_schema(gen: bool) -> dict:
    text = _str(GEN_MAX_TEXT if gen else MAX_TEXT)
    n = 6 if gen else 1000
    item = {"type": "object", "properties": {"label": text, "done": {"type": "boolean"}},
            "required": ["label", "done"], "additionalProperties": False}
    return {"anyOf": [
        text,
        {"type": "number"},
        {"type": "boolean"},
        {"type": "array", "items": item, "maxItems": n},
        {"type": "array", "items": {"type": "array", "items": text, "maxItems": n}, "maxItems": n},
    ]}


def component_schema(gen: bool) -> dict:
    text = _str(GEN_MAX_TEXT if gen else MAX_TEXT)
    n = GEN_MAX_COMPONENTS if gen else MAX_COMPONENTS
    return {
        "type": "object",
        "properties": {
            "id": _id(),
            "type": {"type": "string", "enum": list(COMPONENTS)},
            "label": text,
            "bind": _id(),
            "children": {"type": "array", "items": _id(), "maxItems": n},
            "text": text,
            "action": _id(),
            "options": {"type": "array", "items": text, "maxItems": 8 if gen else 100},
            "columns": {"anyOf": [{"type": "integer"}, {"type": "array", "items": text, "maxItems": 8 if gen else 50}]},
            "min": {"type": "number"},
            "max": {"type": "number"},
            "seconds": {"type": "integer"},
            "source": {"type": "string", "enum": list(SOURCES)},
        },
        "required": ["id", "type", "label"],
        "additionalProperties": False,
    }


def action_schema(gen: bool) -> dict:
    scalar = {"anyOf": [_str(GEN_MAX_TEXT if gen else MAX_TEXT), {"type": "number"}, {"type": "boolean"}]}
    return {
        "type": "object",
        "properties": {
            "kind": {"type": "string", "enum": list(ACTION_KINDS)},
            "target": _str(64),
            "payload": {"type": "object", "additionalProperties": scalar},
            "visibility": {"type": "string", "enum": list(VISIBILITIES)},
        },
        "required": ["kind", "target", "payload", "visibility"],
        "additionalProperties": False,
    }


def document_schema(*, generation: bool = False) -> dict:
    """The JSON Schema of a UI document; `generation=True` gives the tighter bounds the grammar uses."""
    n = GEN_MAX_COMPONENTS if generation else MAX_COMPONENTS
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"mol-local UI document, catalog {CATALOG_VERSION}",
        "type": "object",
        "properties": {
            "catalog": {"type": "string", "enum": [CATALOG_VERSION]},
            "title": _str(GEN_MAX_TEXT if generation else 200),
            "components": {"type": "array", "items": component_schema(generation), "minItems": 1, "maxItems": n},
            "state": {"type": "object", "additionalProperties": state_value_schema(generation)},
            "actions": {"type": "object", "additionalProperties": action_schema(generation)},
        },
        "required": ["catalog", "title", "components", "state", "actions"],
        "additionalProperties": False,
    }


def catalog_prompt() -> str:
    """The catalog in words, for L3's instruction."""
    lines = [f"- {s.name}: {s.doc}" for s in COMPONENTS.values()]
    return "\n".join(lines)


def schema_json(*, generation: bool = False) -> str:
    return json.dumps(document_schema(generation=generation), indent=2)
