"""Applying user actions to a view, and the one place `noai` is enforced.

Renderers call a `ViewController`; it persists state, runs bindable tools and,
for `ask_model`, writes the event text that goes to L3. That text is built
only from `model_state()`, which drops every noai key, so a noai form's values
can reach SQLite but never any engine, whatever the prompt says.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mol_local.genui.binding import BoundRow, DataPort
from mol_local.genui.document import UIDocument, kind_fits, state_kind
from mol_local.genui.errors import BadAction
from mol_local.genui.store import GenUIStore

if TYPE_CHECKING:
    from mol_local.runtime import Runtime


@dataclass
class Outcome:
    kind: str
    ask: str | None = None  # ask_model: the event for the sticky L3 turn (noai-free)
    result: dict | None = None  # call_tool: the tool's result row
    saved: dict[str, Any] = field(default_factory=dict)  # state written


@dataclass
class Snapshot:
    document: UIDocument
    state: dict[str, Any]
    rows: dict[str, list[BoundRow]]  # component id -> bound rows (components with a source)


class ViewController:
    def __init__(self, store: GenUIStore, data: DataPort | None, view_id: str) -> None:
        self.store = store
        self.data = data
        self.view_id = view_id
        self.doc = store.document(view_id)

    def snapshot(self) -> Snapshot:
        rows = {}
        for comp in self.doc.components:
            if comp.get("source") and self.data is not None:
                rows[comp["id"]] = self.data.rows(comp["source"])
        return Snapshot(self.doc, self.store.state(self.view_id), rows)

    def set_value(self, key: str, value: Any) -> None:
        """A bound input changed (typing, toggling, sliding): check the kind, persist."""
        current = self.doc.state.get(key)
        if key not in self.doc.state:
            raise BadAction(f"this view has no state {key!r} — only bound keys can change")
        wanted = state_kind(current)
        if not kind_fits(state_kind(value), wanted if wanted != "list" else "items"):
            raise BadAction(f"state {key!r} holds {wanted}, not {state_kind(value)}")
        self.store.set_state(self.view_id, {key: value})

    def tick(self, component_id: str, index: int, done: bool) -> None:
        """Tick item `index` of a Checklist: a bound reminder is completed; a state item is saved."""
        comp = self._component(component_id, "Checklist")
        if comp.get("source"):
            rows = self.data.rows(comp["source"]) if self.data else []
            if not 0 <= index < len(rows):
                raise BadAction(f"{component_id!r} has no item {index}")
            self.data.tick(comp["source"], rows[index].id, done)  # type: ignore[union-attr]
            return
        items = [dict(i) for i in self.store.state(self.view_id)[comp["bind"]]]
        if not 0 <= index < len(items):
            raise BadAction(f"{component_id!r} has no item {index}")
        items[index]["done"] = bool(done)
        self.store.set_state(self.view_id, {comp["bind"]: items})

    def run(self, action_id: str, values: dict[str, Any] | None = None) -> Outcome:
        """Run an action; `values` are the current input values a renderer holds (persisted first)."""
        act = self.doc.actions.get(action_id)
        if act is None:
            raise BadAction(f"this view has no action {action_id!r}")
        for key, value in (values or {}).items():
            self.set_value(key, value)
        kind = act["kind"]
        out = Outcome(kind)
        if kind == "set_state":
            self.set_value(act["target"], act["payload"]["value"])
            out.saved = {act["target"]: act["payload"]["value"]}
        elif kind == "submit":
            state = self.store.state(self.view_id)
            out.saved = {d["bind"]: state[d["bind"]] for d in self.doc.descendants(act["target"]) if "bind" in d}
        elif kind == "call_tool":
            if self.data is None:
                raise BadAction("this view is not connected to your data — open it from the app")
            state = self.store.state(self.view_id)
            args = {k: state.get(v[1:], "") if isinstance(v, str) and v.startswith("$") else v
                    for k, v in act["payload"].items()}
            out.result = self.data.call(act["target"], args)
        elif kind == "ask_model":
            out.ask = self.describe(action_id)
        self.store.log(self.view_id, action_id, kind, act["visibility"],
                       {"saved": out.saved, "result": out.result} if act["visibility"] == "model" else {"private": True})
        return out

    def model_state(self) -> dict[str, Any]:
        """The state a model may see: every key except the noai ones."""
        hidden = self.doc.noai_keys()
        return {k: v for k, v in self.store.state(self.view_id).items() if k not in hidden}

    def describe(self, action_id: str) -> str:
        """The ask_model event as L3 reads it in its tail. Built only from model-visible data."""
        act = self.doc.actions[action_id]
        label = next((c["label"] for c in self.doc.components if c.get("action") == action_id), action_id)
        if act["visibility"] == "noai":
            return f"[UI event] In the view \"{self.doc.title}\" the user pressed \"{label}\" (a private action)."
        state = json.dumps(self.model_state(), ensure_ascii=False)
        payload = json.dumps(act["payload"], ensure_ascii=False)
        hidden = sorted(self.doc.noai_keys())
        note = f" Private fields not shown: {', '.join(hidden)}." if hidden else ""
        return (f"[UI event] In the view \"{self.doc.title}\" the user pressed \"{label}\" (action {action_id}, "
                f"about {act['target']}, payload {payload}). Current values: {state}.{note} "
                "Answer with the updated UI document.")

    def _component(self, cid: str, ctype: str) -> dict[str, Any]:
        comp = next((c for c in self.doc.components if c["id"] == cid), None)
        if comp is None or comp["type"] != ctype:
            raise BadAction(f"this view has no {ctype} {cid!r}")
        return comp


def view_for_task(rt: Runtime, task_id: str) -> ViewController | None:
    """The newest view an L3 task produced, ready for a renderer; None when the answer was text."""
    store = GenUIStore(rt.db)
    view_id = store.for_task(task_id)
    return ViewController(store, DataPort(rt.db), view_id) if view_id else None
