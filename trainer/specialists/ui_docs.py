"""What an L3 request asks for (`Spec`), and the one minimal document that answers it.

A template turns a request into a `Spec`: the parts the user asked for with
the content they named. `build` writes the document the way the generation
grammar forces it (component keys in the schema's order, compact JSON as
`UIDocument.dumps` stores it) and `check_of` derives what the verifier needs.
Ids follow one plain scheme (a checklist is `checklist` bound to `items`, a
form's fields are named after their labels) so the specialist learns one way
to write each kind.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from mol_local.genui.catalog import GEN_MAX_COMPONENTS, GEN_MAX_TEXT
from mol_local.genui.generate import MAX_KEYS

# the order generate.document_grammar() forces on a component's keys
PROP_ORDER = ("id", "type", "label", "bind", "children", "text", "action", "options", "columns", "min", "max",
              "seconds", "source")
KEY_LEN = 16  # state keys and action ids: the grammar's `key` rule
ID_LEN = 24
BASE_ID = {"checklist": "checklist", "table": "table", "form": "form", "timer": "timer", "progress": "progress",
           "slider": "slider", "select": "picker", "card": "card", "markdown": "card", "switches": "card", "ask": "more"}
CARD_KINDS = ("card", "markdown", "switches")
_SLUG = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True)
class Field:
    kind: str  # Input | Select | Toggle
    label: str  # as the user said it
    options: tuple[str, ...] = ()


@dataclass(frozen=True)
class Part:
    """One thing the user asked for. `items` are the strings they named for it (checklist items, options,
    card lines, switches); `value` is a starting number only when they said one."""

    kind: str  # a key of BASE_ID
    label: str
    items: tuple[str, ...] = ()
    columns: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    fields: tuple[Field, ...] = ()
    seconds: int | None = None
    low: int | None = None
    high: int | None = None
    value: int | None = None
    source: str | None = None
    private: bool = False
    named_label: bool = False  # the label itself came from the user (a tab's name, a card's title)


@dataclass(frozen=True)
class Spec:
    title: str
    parts: tuple[Part, ...]
    container: str | None = None  # "Grid" or "Tabs" around the parts
    container_label: str = ""
    container_asked: bool = False  # the request named the container ("tabs for …", "a grid of …")


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def slug(text: str, limit: int = KEY_LEN) -> str:
    s = _SLUG.sub("_", text.lower()).strip("_") or "x"
    s = s if s[0].isalpha() else f"x_{s}"
    return s[:limit].rstrip("_")


class _Names:
    """Unique ids (or state keys) from a preferred name: the second `work` becomes `work_2`."""

    def __init__(self, limit: int) -> None:
        self.limit, self.used = limit, set()

    def new(self, name: str) -> str:
        base = slug(name, self.limit)
        out, n = base, 2
        while out in self.used:
            out = f"{base[: self.limit - 1 - len(str(n))]}_{n}"
            n += 1
        self.used.add(out)
        return out


def component(**props: Any) -> dict[str, Any]:
    """A component with its keys in the grammar's order (None values left out)."""
    return {k: props[k] for k in PROP_ORDER if props.get(k) is not None}


def markdown_text(lines: tuple[str, ...]) -> str:
    return "\n".join(f"- {cap(line)}" for line in lines)


def build(spec: Spec) -> dict[str, Any]:
    """The minimal catalog document for `spec`, keys in the order the grammar writes them."""
    ids, keys, actions_ids = _Names(ID_LEN), _Names(KEY_LEN), _Names(KEY_LEN)
    comps: list[dict[str, Any]] = []
    state: dict[str, Any] = {}
    actions: dict[str, Any] = {}
    kinds = [BASE_ID[p.kind] for p in spec.parts]
    container_id = ids.new(spec.container.lower()) if spec.container else None
    tops: list[str] = []
    for part in spec.parts:
        shared = kinds.count(BASE_ID[part.kind]) > 1
        cid = ids.new(part.label if shared else BASE_ID[part.kind])
        tops.append(cid)
        comps += _part(part, cid, shared, ids, keys, actions_ids, state, actions, tops)
    if spec.container:
        comps.insert(0, component(id=container_id, type=spec.container, label=spec.container_label, children=tops,
                                  columns=min(len(tops), 3) if spec.container == "Grid" else None))
    doc = {"catalog": "1", "title": spec.title, "components": comps, "state": state, "actions": actions}
    _check_bounds(doc)
    return doc


def _part(part: Part, cid: str, shared: bool, ids: _Names, keys: _Names, action_ids: _Names,
          state: dict[str, Any], actions: dict[str, Any], tops: list[str]) -> list[dict[str, Any]]:
    k, label = part.kind, cap(part.label)
    if k == "checklist":
        if part.source:
            return [component(id=cid, type="Checklist", label=label, source=part.source)]
        key = keys.new(f"{slug(part.label, 10)}_items" if shared else "items")
        state[key] = [{"label": cap(i), "done": False} for i in part.items]
        return [component(id=cid, type="Checklist", label=label, bind=key)]
    if k == "table":
        cols = [cap(c) for c in part.columns]
        if part.source:
            return [component(id=cid, type="Table", label=label, columns=cols, source=part.source)]
        key = keys.new("rows")
        state[key] = [[cap(c) for c in row] for row in part.rows]
        return [component(id=cid, type="Table", label=label, bind=key, columns=cols)]
    if k == "form":
        fields = []
        for f in part.fields:
            fid, key = ids.new(f.label), keys.new(f.label)
            state[key] = False if f.kind == "Toggle" else ""
            fields.append(component(id=fid, type=f.kind, label=cap(f.label), bind=key,
                                    options=[cap(o) for o in f.options] if f.kind == "Select" else None))
        act = action_ids.new("save")
        actions[act] = {"kind": "submit", "target": cid, "payload": {}, "visibility": "noai" if part.private else "model"}
        return [component(id=cid, type="Form", label=label, children=[f["id"] for f in fields], action=act)] + fields
    if k == "timer":
        key = keys.new("seconds")
        state[key] = part.seconds
        return [component(id=cid, type="Timer", label=label, bind=key, seconds=part.seconds)]
    if k in ("progress", "slider"):
        key = keys.new(part.label)
        start = part.value if part.value is not None else (0 if k == "progress" else part.low)
        state[key] = start
        if k == "progress":
            return [component(id=cid, type="ProgressBar", label=label, bind=key, max=part.high)]
        return [component(id=cid, type="Slider", label=label, bind=key, min=part.low, max=part.high)]
    if k == "select":
        key = keys.new("choice")
        state[key] = ""
        return [component(id=cid, type="Select", label=label, bind=key, options=[cap(o) for o in part.items])]
    if k == "card":
        lines = [component(id=ids.new(f"line_{i}"), type="Text", label=f"Line {i}", text=cap(t))
                 for i, t in enumerate(part.items, 1)]
        return [component(id=cid, type="Card", label=label, children=[c["id"] for c in lines] or None)] + lines
    if k == "markdown":
        body = component(id=ids.new("notes"), type="Markdown", label="Notes", text=markdown_text(part.items))
        return [component(id=cid, type="Card", label=label, children=[body["id"]]), body]
    if k == "switches":
        toggles = []
        for name in part.items:
            key = keys.new(name)
            state[key] = False
            toggles.append(component(id=ids.new(name), type="Toggle", label=cap(name), bind=key))
        return [component(id=cid, type="Card", label=label, children=[t["id"] for t in toggles])] + toggles
    if k == "ask":
        act = action_ids.new("more")
        actions[act] = {"kind": "ask_model", "target": tops[-2], "payload": {}, "visibility": "model"}
        return [component(id=cid, type="Button", label=label, action=act)]
    raise ValueError(f"unknown part kind {k!r}")


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _check_bounds(doc: dict[str, Any]) -> None:
    """A template that outgrows the grammar is a bug here, not a case to drop silently."""
    too_long = [s for s in _strings(doc) if len(s) > GEN_MAX_TEXT]
    if len(doc["components"]) > GEN_MAX_COMPONENTS or len(doc["state"]) > MAX_KEYS or len(doc["actions"]) > MAX_KEYS \
            or too_long:
        raise ValueError(f"document outgrows the generation grammar: {doc['title']!r} {too_long[:2]}")


PART_TYPES = {"checklist": ("Checklist",), "table": ("Table",), "timer": ("Timer",), "progress": ("ProgressBar",),
              "slider": ("Slider",), "select": ("Select",), "markdown": ("Card", "Markdown"),
              "switches": ("Card", "Toggle"), "ask": ("Button",)}


def check_of(spec: Spec) -> dict[str, Any]:
    """What the verifier needs: requested types, the strings the user named, the numbers they named."""
    types: list[str] = [spec.container] if spec.container and spec.container_asked else []
    named: list[str] = []
    numbers: dict[str, int] = {}
    check: dict[str, Any] = {}
    for p in spec.parts:
        if p.kind == "form":
            types += ["Form"] + [f.kind for f in p.fields]
            for f in p.fields:
                named += [f.label, *f.options]
        elif p.kind == "card":
            types += ["Card"] + (["Text"] if p.items else [])
        else:
            types += PART_TYPES[p.kind]
        named += list(p.items) + ([] if p.source else list(p.columns)) + [c for row in p.rows for c in row]
        named += [p.label] if p.named_label else []
        for key, value in (("seconds", p.seconds), ("min", p.low if p.kind == "slider" else None),
                           ("max", p.high), ("value", p.value)):
            if value is not None:
                if key in numbers:
                    raise ValueError(f"two parts name a {key} number in {spec.title!r}")
                numbers[key] = value
        if p.source:
            check.setdefault("sources", []).append(p.source)
        if p.private:
            check["private"] = True
    seen: set[str] = set()
    named = [n for n in named if not (n.casefold() in seen or seen.add(n.casefold()))]
    return {"types": list(dict.fromkeys(types)), "named": named, "numbers": numbers, **check}
