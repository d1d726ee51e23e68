"""Parse and semantically validate a UI document.

The grammar guarantees the shape of generated documents; this module checks
what no grammar can (ids unique, every reference resolves, state kinds match
the components bound to them, the component graph is a forest) and also
guards documents from anywhere else (files, tests, a misbehaving remote), so
it never assumes the shape either. Every problem found is reported, not just
the first.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass, field
from typing import Any

from mol_local.genui.catalog import (
    ACTION_KINDS, ALL_PROPS, CATALOG_VERSION, COMPONENTS, ID_PATTERN, MAX_COMPONENTS, MAX_DEPTH, MAX_TEXT,
    SOURCES, VISIBILITIES,
)
from mol_local.genui.errors import InvalidDocument

TOOL_TARGETS = ("reminders.add", "reminders.complete", "notes.create")
_ID = re.compile(ID_PATTERN)
_TOP = ("catalog", "title", "components", "state", "actions")
_ACTION_FIELDS = ("kind", "target", "payload", "visibility")
MAX_PROBLEMS = 12


def state_kind(value: Any) -> str | None:
    """The kind of a state value, "list" for an empty list (fits items and rows), None if no kind fits."""
    if isinstance(value, bool):
        return "flag"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "text" if len(value) <= MAX_TEXT else None
    if isinstance(value, list):
        if not value:
            return "list"
        if all(isinstance(v, dict) and set(v) == {"label", "done"} and isinstance(v["label"], str)
               and isinstance(v["done"], bool) for v in value):
            return "items"
        if all(isinstance(r, list) and all(isinstance(c, str) for c in r) for r in value):
            return "rows"
    return None


def kind_fits(kind: str | None, wanted: str) -> bool:
    return kind == wanted or (kind == "list" and wanted in ("items", "rows"))


@dataclass
class UIDocument:
    """A validated document. `state` is the initial state; live state lives in the store."""

    title: str
    components: list[dict[str, Any]]
    state: dict[str, Any]
    actions: dict[str, dict[str, Any]]
    catalog: str = CATALOG_VERSION
    parents: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"catalog": self.catalog, "title": self.title, "components": self.components,
                "state": self.state, "actions": self.actions}

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"))

    def component(self, cid: str) -> dict[str, Any]:
        return next(c for c in self.components if c["id"] == cid)

    def top_level(self) -> list[dict[str, Any]]:
        return [c for c in self.components if c["id"] not in self.parents]

    def children(self, comp: dict[str, Any]) -> list[dict[str, Any]]:
        return [self.component(cid) for cid in comp.get("children", [])]

    def descendants(self, cid: str) -> list[dict[str, Any]]:
        out, todo = [], list(self.component(cid).get("children", []))
        while todo:
            comp = self.component(todo.pop(0))
            out.append(comp)
            todo.extend(comp.get("children", []))
        return out

    def noai_keys(self) -> set[str]:
        """State keys whose values must never reach a model.

        A key is noai when a noai set_state action targets it, or a component
        binding it sits inside a Form whose submit action is noai.
        """
        keys = {a["target"] for a in self.actions.values() if a["visibility"] == "noai" and a["kind"] == "set_state"}
        for comp in self.components:
            act = self.actions.get(comp.get("action", ""))
            if comp["type"] == "Form" and act is not None and act["visibility"] == "noai":
                keys |= {d["bind"] for d in self.descendants(comp["id"]) if "bind" in d}
        return keys


def parse_document(source: str | dict[str, Any]) -> UIDocument:
    """JSON text or an object -> a validated UIDocument, or InvalidDocument listing every problem."""
    if isinstance(source, str):
        try:
            obj = json.loads(source)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise InvalidDocument(f"the UI document is not valid JSON ({exc}) — regenerate it or fix the JSON") from exc
    else:
        obj = source
    problems = validate(obj)
    if problems:
        shown = "; ".join(problems[:MAX_PROBLEMS]) + (f"; and {len(problems) - MAX_PROBLEMS} more" if len(problems) > MAX_PROBLEMS else "")
        raise InvalidDocument(f"the UI document is invalid: {shown}", problems)
    doc = UIDocument(obj["title"], obj["components"], obj["state"], obj["actions"], obj["catalog"])
    doc.parents = {child: c["id"] for c in doc.components for child in c.get("children", [])}
    return doc


def validate(obj: Any) -> list[str]:
    """Every rule the object breaks, as short phrases that say what to change; [] when valid."""
    if not isinstance(obj, dict):
        return ["the document must be a JSON object with catalog, title, components, state, actions"]
    problems = [f"missing top-level key {k!r}" for k in _TOP if k not in obj]
    problems += [f"unknown top-level key {k!r} (allowed: {', '.join(_TOP)})" for k in obj if k not in _TOP]
    if problems:
        return problems
    if obj["catalog"] != CATALOG_VERSION:
        problems.append(f"catalog {obj['catalog']!r} is not supported (this version reads catalog {CATALOG_VERSION!r})")
    if not isinstance(obj["title"], str):
        problems.append("title must be a string")
    comps, state, actions = obj["components"], obj["state"], obj["actions"]
    if not isinstance(comps, list) or not comps:
        return problems + ["components must be a non-empty list"]
    if len(comps) > MAX_COMPONENTS:
        return problems + [f"{len(comps)} components is more than the {MAX_COMPONENTS} allowed — split the view"]
    if not isinstance(state, dict):
        return problems + ["state must be an object of key -> value"]
    if not isinstance(actions, dict):
        return problems + ["actions must be an object of id -> action"]
    kinds = _check_state(state, problems)
    ids = _check_components(comps, kinds, actions, problems)
    if ids is not None:
        _check_tree(comps, problems)
        _check_actions(actions, kinds, ids, problems)
    return problems


def _check_state(state: dict[str, Any], problems: list[str]) -> dict[str, str | None]:
    kinds: dict[str, str | None] = {}
    for key, value in state.items():
        if not _ID.match(key):
            problems.append(f"state key {key!r} must match {ID_PATTERN}")
        kinds[key] = state_kind(value)
        if kinds[key] is None:
            problems.append(f"state {key!r} has a value of no known kind (text, number, flag, items, rows)")
    return kinds


def _check_components(comps: list, kinds: dict[str, str | None], actions: dict, problems: list[str]) -> dict[str, str] | None:
    ids: dict[str, str] = {}
    for i, comp in enumerate(comps):
        if not isinstance(comp, dict) or not isinstance(comp.get("id"), str) or not isinstance(comp.get("type"), str):
            problems.append(f"component #{i} must be an object with string id and type")
            continue
        cid, ctype = comp["id"], comp["type"]
        if not _ID.match(cid):
            problems.append(f"component id {cid[:40]!r} must match {ID_PATTERN}")
        if cid in ids:
            problems.append(f"component id {cid!r} is used twice — ids must be unique")
        ids[cid] = ctype
        spec = COMPONENTS.get(ctype)
        if spec is None:
            near = difflib.get_close_matches(ctype, list(COMPONENTS), n=1)
            hint = f" — did you mean {near[0]!r}?" if near else f" — use one of {', '.join(COMPONENTS)}"
            problems.append(f"component {cid!r} has unknown type {ctype[:40]!r}{hint}")
            continue
        _check_props(comp, spec, kinds, actions, problems)
    if problems:
        return ids if all(isinstance(c, dict) and isinstance(c.get("id"), str) for c in comps) else None
    return ids


def _check_props(comp: dict, spec, kinds: dict[str, str | None], actions: dict, problems: list[str]) -> None:
    cid = comp["id"]
    allowed = {"id", "type", "label"} | set(spec.props) | ({"bind"} if spec.binds else set()) | (
        {"children"} if spec.container else set())
    for key, value in comp.items():
        if key not in allowed:
            where = "" if key in ALL_PROPS or key in ("bind", "children") else " (not in the catalog)"
            problems.append(f"{spec.name} {cid!r} does not take {key!r}{where}")
        elif key in ("label", "text") and (not isinstance(value, str) or len(value) > MAX_TEXT):
            problems.append(f"{spec.name} {cid!r}: {key} must be a string of at most {MAX_TEXT} characters")
    if "label" not in comp:
        problems.append(f"{spec.name} {cid!r} needs a label")
    if spec.binds:
        key = comp.get("bind")
        source = comp.get("source")
        if source is not None and source not in SOURCES:
            problems.append(f"{spec.name} {cid!r}: source {source!r} is not one of {', '.join(SOURCES)}")
        if key is None and source is None:
            problems.append(f"{spec.name} {cid!r} needs `bind` naming a {spec.binds} state key")
        elif key is not None and not isinstance(key, str):
            problems.append(f"{spec.name} {cid!r}: `bind` must be one state key (a string), not {type(key).__name__}")
        elif key is not None and key not in kinds:
            problems.append(f"{spec.name} {cid!r} binds state {key!r}, which does not exist — add it to state")
        elif key is not None and not kind_fits(kinds[key], spec.binds):
            problems.append(f"{spec.name} {cid!r} needs {spec.binds} state but {key!r} holds {kinds[key]}")
    if spec.needs_action:
        act = comp.get("action")
        if act is None:
            problems.append(f"{spec.name} {cid!r} needs an `action`")
        elif act not in actions:
            problems.append(f"{spec.name} {cid!r} runs action {act!r}, which does not exist — add it to actions")
    for key in ("options",):
        if key in comp and not (isinstance(comp[key], list) and all(isinstance(o, str) for o in comp[key])):
            problems.append(f"{spec.name} {cid!r}: {key} must be a list of strings")
    for key in ("min", "max", "seconds"):
        if key in comp and (isinstance(comp[key], bool) or not isinstance(comp[key], (int, float))):
            problems.append(f"{spec.name} {cid!r}: {key} must be a number")
    if "children" in comp and not (isinstance(comp["children"], list) and all(isinstance(c, str) for c in comp["children"])):
        problems.append(f"{spec.name} {cid!r}: children must be a list of component ids")


def _check_tree(comps: list[dict], problems: list[str]) -> None:
    """Children exist, each has one parent, no cycles, depth bounded."""
    known = {c["id"] for c in comps}
    children = {c["id"]: [x for x in c.get("children", []) if isinstance(x, str)] for c in comps
                if isinstance(c.get("children", []), list)}
    parent: dict[str, str] = {}
    for cid, kids in children.items():
        for kid in kids:
            if kid not in known:
                problems.append(f"{cid!r} lists child {kid!r}, which does not exist")
            elif kid in parent:
                problems.append(f"component {kid!r} has two parents ({parent[kid]!r}, {cid!r}) — give it one")
            else:
                parent[kid] = cid
    state: dict[str, int] = {}  # 1 visiting, 2 done
    for start in children:
        if state.get(start):
            continue
        stack = [(start, iter(children.get(start, [])), 1)]
        state[start] = 1
        while stack:
            node, it, depth = stack[-1]
            kid = next(it, None)
            if kid is None:
                state[node] = 2
                stack.pop()
                continue
            if kid not in children:
                continue
            if state.get(kid) == 1:
                problems.append(f"components form a cycle through {kid!r} — a child cannot contain its ancestor")
                return
            if depth + 1 > MAX_DEPTH:
                problems.append(f"components nest deeper than {MAX_DEPTH} levels — flatten the view")
                return
            if not state.get(kid):
                state[kid] = 1
                stack.append((kid, iter(children[kid]), depth + 1))


def _check_actions(actions: dict, kinds: dict[str, str | None], ids: dict[str, str], problems: list[str]) -> None:
    for aid, act in actions.items():
        if not _ID.match(aid):
            problems.append(f"action id {aid!r} must match {ID_PATTERN}")
        if not isinstance(act, dict) or set(act) != set(_ACTION_FIELDS):
            got = sorted(act) if isinstance(act, dict) else type(act).__name__
            problems.append(f"action {aid!r} must have exactly kind, target, payload, visibility (got {got})")
            continue
        kind, target, payload = act["kind"], act["target"], act["payload"]
        if act["visibility"] not in VISIBILITIES:
            problems.append(f"action {aid!r}: visibility must be 'model' or 'noai'")
        if not isinstance(payload, dict) or not all(
                isinstance(v, (str, int, float, bool)) for v in payload.values()):
            problems.append(f"action {aid!r}: payload must be an object of strings, numbers or booleans")
            continue
        if kind not in ACTION_KINDS:
            problems.append(f"action {aid!r}: kind {kind!r} is not one of {', '.join(ACTION_KINDS)}")
        elif kind == "set_state":
            if target not in kinds:
                problems.append(f"action {aid!r} sets state {target!r}, which does not exist")
            elif "value" not in payload:
                problems.append(f"action {aid!r}: set_state needs payload.value")
            elif not kind_fits(state_kind(payload["value"]), kinds[target] or ""):
                problems.append(f"action {aid!r} sets {kinds[target]} state {target!r} to a {state_kind(payload['value'])}")
        elif kind == "submit" and ids.get(target) != "Form":
            problems.append(f"action {aid!r} submits {target!r}, which is not a Form in this document")
        elif kind == "call_tool" and target not in TOOL_TARGETS:
            problems.append(f"action {aid!r} calls {target!r}; bindable tools are {', '.join(TOOL_TARGETS)}")
        elif kind == "ask_model" and target not in ids:
            problems.append(f"action {aid!r} asks about {target!r}, which is not a component in this document")
