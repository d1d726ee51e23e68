"""Deterministic repair of a parsed UI document, tried before asking the model again.

Small models break the same few semantic rules the grammar cannot express;
each rule here fixes one of them without guessing content, and returns a
phrase saying what it changed (recorded with the turn, shown by the bench).
Documented repairs, in order:

1. **Props a type does not take** are dropped (the grammar allows every prop
   on every component); a missing label becomes the component's id.
2. **Duplicate component ids** get stable suffixes: the first keeps the id,
   later ones become `id_2`, `id_3`, … A container's child reference to a
   duplicated id claims the next occurrence that is not the container itself,
   so `Card box -> [box]` points at the other `box`.
3. **Children that do not exist**, repeated children, a second parent and an
   edge that closes a cycle are dropped (the child is drawn top level instead).
4. **Bindings**: a state key bound by components that need different kinds
   stays with the first whose kind fits its value, the others get their own
   keys; a bound state key that is missing is created empty for the
   kind the component needs; a value of the wrong kind is coerced where no
   information is lost (`"5"` -> 5, `"true"` -> true, 5 -> `"5"`, a list of
   strings -> checklist items or one-cell rows, items none of which is done
   -> one-cell rows, items without `done` -> not done). An input with neither bind nor source binds a new key named
   after its id.
5. **Actions**: a component naming a missing action gets one — a Form a
   `noai` submit of itself (private by default), anything else an
   `ask_model` about itself. An action whose target does not resolve is
   retargeted where exactly one candidate exists (the enclosing or only Form
   for `submit`, the component running it for `ask_model`, the single
   bindable tool with that prefix for `call_tool`); a `set_state` on a missing
   key creates the key from `payload.value`. An `ask_model` action that no
   component runs and whose target does not resolve is dropped: nothing can
   trigger it (a small model copies the example's action into unrelated
   documents). Otherwise it is left for the validator (and the model's one
   repair attempt) to report.

Nothing here makes a document valid that the validator would not accept on
its own: `compose` always re-validates the result.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from mol_local.genui.catalog import COMPONENTS, ID_PATTERN
from mol_local.genui.document import TOOL_TARGETS, kind_fits, state_kind

_ID = re.compile(ID_PATTERN)
EMPTY = {"items": [], "rows": [], "text": "", "number": 0, "flag": False}


def repair(obj: Any) -> tuple[Any, list[str]]:
    """A repaired deep copy of `obj` and the list of fixes applied; `obj` unchanged when not a document."""
    if not (isinstance(obj, dict) and isinstance(obj.get("components"), list) and isinstance(obj.get("state"), dict)
            and isinstance(obj.get("actions"), dict)):
        return obj, []
    doc = copy.deepcopy(obj)
    if not all(isinstance(c, dict) and isinstance(c.get("id"), str) and isinstance(c.get("type"), str)
               for c in doc["components"]):
        return obj, []
    fixes: list[str] = []
    _drop_foreign_props(doc, fixes)
    _dedupe_ids(doc, fixes)
    _fix_tree(doc, fixes)
    _fix_bindings(doc, fixes)
    _fix_actions(doc, fixes)
    return doc, fixes


def _drop_foreign_props(doc: dict, fixes: list[str]) -> None:
    for comp in doc["components"]:
        spec = COMPONENTS.get(comp["type"])
        if spec is None:
            continue
        allowed = {"id", "type", "label"} | set(spec.props) | ({"bind"} if spec.binds else set()) | (
            {"children"} if spec.container else set())
        extra = [k for k in comp if k not in allowed]
        for key in extra:
            del comp[key]
        if extra:
            fixes.append(f"dropped {', '.join(extra)} from {spec.name} {comp['id']!r}")
        if not isinstance(comp.get("label"), str):
            comp["label"] = comp["id"]
            fixes.append(f"labelled {comp['id']!r}")


def _fresh(base: str, taken: set[str]) -> str:
    n = 2
    while True:
        suffix = f"_{n}"
        cand = base[: 24 - len(suffix)] + suffix
        if cand not in taken:
            return cand
        n += 1


def _dedupe_ids(doc: dict, fixes: list[str]) -> None:
    comps = doc["components"]
    taken = {c["id"] for c in comps}
    seen: set[str] = set()
    occurrences: dict[str, list[dict]] = {}
    for comp in comps:
        old = comp["id"]
        occurrences.setdefault(old, []).append(comp)
        if old in seen:
            comp["id"] = _fresh(old, taken)
            taken.add(comp["id"])
            fixes.append(f"renamed the second {old!r} to {comp['id']!r}")
        seen.add(old)
    dup = {k: v for k, v in occurrences.items() if len(v) > 1}
    if not dup:
        return
    claimed: set[int] = set()
    for comp in comps:
        kids = comp.get("children")
        if not isinstance(kids, list):
            continue
        new = []
        for kid in kids:
            if isinstance(kid, str) and kid in dup:
                pick = next((o for o in dup[kid] if o is not comp and id(o) not in claimed), None)
                if pick is not None:
                    claimed.add(id(pick))
                    kid = pick["id"]
            new.append(kid)
        comp["children"] = new


def _fix_tree(doc: dict, fixes: list[str]) -> None:
    comps = doc["components"]
    known = {c["id"] for c in comps}
    parent: dict[str, str] = {}
    for comp in comps:
        if "children" not in comp:
            continue
        kids = comp["children"] if isinstance(comp["children"], list) else []
        keep = []
        for kid in kids:
            if not isinstance(kid, str) or kid not in known or kid == comp["id"] or kid in parent:
                fixes.append(f"dropped child {str(kid)[:24]!r} of {comp['id']!r}")
                continue
            if _is_ancestor(kid, comp["id"], parent):
                fixes.append(f"dropped child {kid!r} of {comp['id']!r} (a cycle)")
                continue
            parent[kid] = comp["id"]
            keep.append(kid)
        comp["children"] = keep


def _is_ancestor(node: str, of: str, parent: dict[str, str]) -> bool:
    """True if `node` is `of` or above it in the parent chain built so far."""
    cur: str | None = of
    hops = 0
    while cur is not None and hops <= len(parent):
        if cur == node:
            return True
        cur = parent.get(cur)
        hops += 1
    return False


def coerce(value: Any, wanted: str) -> tuple[bool, Any]:
    """(True, value as `wanted`) when converting loses nothing, else (False, None)."""
    if kind_fits(state_kind(value), wanted):
        return True, value
    if wanted == "number" and isinstance(value, str):
        try:
            num = float(value.strip())
        except ValueError:
            return False, None
        return True, int(num) if num.is_integer() else num
    if wanted == "flag" and isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return True, value.strip().lower() == "true"
    if wanted == "text" and isinstance(value, (int, float)) and not isinstance(value, bool):
        return True, str(value)
    if wanted == "text" and (value is False or value is None):  # an unset field written as false: "how I felt" (mol chat)
        return True, ""
    if wanted == "flag" and (value == "" or value is None):
        return True, False
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        if wanted == "items":
            return True, [{"label": v, "done": False} for v in value]
        if wanted == "rows":
            return True, [[v] for v in value]
    items = isinstance(value, list) and all(isinstance(v, dict) and isinstance(v.get("label"), str) and set(v) <= {"label", "done"}
                                            and isinstance(v.get("done", False), bool) for v in value)
    if wanted == "items" and items:
        return True, [{"label": v["label"], "done": v.get("done", False)} for v in value]
    if wanted == "rows" and items and not any(v.get("done") for v in value):  # a Table bound to checklist items (the app)
        return True, [[v["label"]] for v in value]
    return False, None


def _split_shared_keys(doc: dict, fixes: list[str]) -> None:
    """One state key bound by components that need different kinds (a Select and a Toggle both on
    'on_switch'): the first whose kind fits the value keeps it, the others get keys of their own."""
    state, comps = doc["state"], doc["components"]
    wanted: dict[str, list[tuple[dict, str]]] = {}
    for comp in comps:
        spec = COMPONENTS.get(comp["type"])
        if spec is not None and spec.binds is not None and isinstance(comp.get("bind"), str):
            wanted.setdefault(comp["bind"], []).append((comp, spec.binds))
    taken = set(state)
    for key, users in wanted.items():
        if len({kind for _, kind in users}) < 2:
            continue
        fits = [kind for _, kind in users if key in state and kind_fits(state_kind(state[key]), kind)]
        keep = fits[0] if fits else users[0][1]
        for comp, kind in users:
            if kind == keep:
                continue
            new = comp["id"] if comp["id"] not in taken and _ID.match(comp["id"]) else _fresh(key, taken)
            taken.add(new)
            comp["bind"] = new
            state[new] = _empty(comp, kind)
            fixes.append(f"gave {comp['id']!r} its own {kind} state {new!r} ({key!r} holds {keep})")


def _fix_bindings(doc: dict, fixes: list[str]) -> None:
    _split_shared_keys(doc, fixes)
    state = doc["state"]
    for comp in doc["components"]:
        spec = COMPONENTS.get(comp["type"])
        if spec is None or spec.binds is None:
            continue
        key = comp.get("bind")
        if key is None:
            if comp.get("source") is not None:
                continue
            key = comp["bind"] = comp["id"]
            fixes.append(f"bound {comp['id']!r} to new state {key!r}")
        if not isinstance(key, str) or not _ID.match(key):
            continue
        if key not in state:
            state[key] = _empty(comp, spec.binds)
            fixes.append(f"added {spec.binds} state {key!r} for {comp['id']!r}")
        elif not kind_fits(state_kind(state[key]), spec.binds):
            ok, value = coerce(state[key], spec.binds)
            if ok:
                state[key] = value
                fixes.append(f"converted state {key!r} to {spec.binds}")
            elif spec.binds in ("rows", "items") and state_kind(state[key]) in ("number", "flag"):
                held = state_kind(state[key])  # a Table on a progress count ('rows_read': 0): the count stays, unbound
                new = comp["bind"] = comp["id"] if comp["id"] not in state and _ID.match(comp["id"]) else _fresh(key, set(state))
                state[new] = _empty(comp, spec.binds)
                fixes.append(f"gave {comp['id']!r} its own {spec.binds} state {new!r} ({key!r} holds {held})")


def _empty(comp: dict, kind: str) -> Any:
    if kind == "number":
        for prop in ("seconds", "min"):
            if isinstance(comp.get(prop), (int, float)) and not isinstance(comp.get(prop), bool):
                return comp[prop]
    return copy.deepcopy(EMPTY[kind])


def _fix_actions(doc: dict, fixes: list[str]) -> None:
    comps, actions, state = doc["components"], doc["actions"], doc["state"]
    by_id = {c["id"]: c for c in comps}
    parent = {kid: c["id"] for c in comps for kid in c.get("children", []) if isinstance(kid, str)}
    runners: dict[str, list[str]] = {}
    for comp in comps:
        spec = COMPONENTS.get(comp["type"])
        if spec is None or not spec.needs_action:
            continue
        aid = comp.get("action")
        if not isinstance(aid, str) or aid not in actions:
            aid = aid if isinstance(aid, str) and _ID.match(aid) and aid not in actions else _fresh_action(comp["id"], actions)
            if comp["type"] == "Form":
                actions[aid] = {"kind": "submit", "target": comp["id"], "payload": {}, "visibility": "noai"}
            else:
                actions[aid] = {"kind": "ask_model", "target": comp["id"], "payload": {}, "visibility": "model"}
            comp["action"] = aid
            fixes.append(f"added {actions[aid]['kind']} action {aid!r} for {comp['id']!r}")
        runners.setdefault(aid, []).append(comp["id"])
    forms = [c["id"] for c in comps if c["type"] == "Form"]
    for aid in [a for a, act in actions.items() if isinstance(act, dict) and act.get("kind") == "ask_model"
                and act.get("target") not in by_id and not runners.get(a)]:
        del actions[aid]
        fixes.append(f"dropped action {aid!r}: nothing runs it and its target does not exist")
    for aid, act in actions.items():
        if not isinstance(act, dict) or not isinstance(act.get("payload"), dict):
            continue
        kind, target = act.get("kind"), act.get("target")
        new = None
        if kind == "submit" and (target not in by_id or by_id[target]["type"] != "Form"):
            enclosing = {_enclosing_form(r, by_id, parent) for r in runners.get(aid, [])} - {None}
            cands = sorted(enclosing) if enclosing else forms
            new = cands[0] if len(cands) == 1 else None
        elif kind == "ask_model" and target not in by_id:
            run = runners.get(aid, [])
            new = run[0] if len(run) == 1 else None
        elif kind == "call_tool" and target not in TOOL_TARGETS and isinstance(target, str):
            cands = [t for t in TOOL_TARGETS if t.startswith(target.split(".")[0] + ".")]
            new = cands[0] if len(cands) == 1 else None
        elif kind == "set_state" and isinstance(target, str) and target not in state and _ID.match(target):
            value = act["payload"].get("value")
            if state_kind(value) is not None:
                state[target] = value if state_kind(value) != "list" else []
                fixes.append(f"added state {target!r} that action {aid!r} sets")
        if new is not None:
            act["target"] = new
            fixes.append(f"retargeted action {aid!r} to {new!r}")


def _enclosing_form(cid: str, by_id: dict[str, dict], parent: dict[str, str]) -> str | None:
    cur = cid
    for _ in range(len(by_id)):
        if by_id.get(cur, {}).get("type") == "Form":
            return cur
        if cur not in parent:
            return None
        cur = parent[cur]
    return None


def _fresh_action(cid: str, actions: dict) -> str:
    base = f"{cid[:17]}_action"
    return base if base not in actions else _fresh(base, set(actions))
