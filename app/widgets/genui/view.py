"""`GenUIView(document, on_action)`: a UI document drawn as live Textual widgets.

The widget draws a `Snapshot` (document + live state + bound rows) and
reports what the user does as `UIEvent`s to `on_action`; it never writes
anything itself. `controller_handler` connects those events to a
`mol_local.genui.actions.ViewController`, which persists them. All document
text is shown through `Content` (no markup) after `inert`, so markup and
escape sequences in a label are drawn as plain characters.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Grid, Vertical
from textual.timer import Timer
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Button, Checkbox, DataTable, Input, ProgressBar, Select, Static, Switch, TabbedContent, TabPane

from app.widgets.genui.item_box import ItemBox
from mol_local.genui.actions import Outcome, Snapshot, ViewController
from mol_local.genui.inert import inert
from mol_local.genui.text import clock


@dataclass
class UIEvent:
    kind: str  # "value" (an input changed), "tick" (a checklist item), "action" (a button or form submit)
    component: str
    key: str | None = None
    value: Any = None
    index: int | None = None
    action: str | None = None
    values: dict[str, Any] = field(default_factory=dict)  # every bound input's current value


def text(value: object) -> Content:
    return Content(inert(value))


def cell(value: object) -> Text:
    """A table cell or header: DataTable measures a rich Text, but takes a Content as one cell wide (every
    header and cell was cut to its first letter: "C  C" over "m  f")."""
    return Text(inert(value))


class GenUIView(Vertical):
    """One document, inline. `on_action(event)` may return an Outcome (ask_model events carry `ask`)."""

    DEFAULT_CSS = """
    GenUIView { height: auto; border: round $accent; padding: 0 1; }
    GenUIView Vertical, GenUIView Grid, GenUIView TabbedContent, GenUIView TabPane { height: auto; }
    GenUIView .card, GenUIView .form { border: round $panel; padding: 0 1; }
    GenUIView Input, GenUIView Select { width: 40; }
    GenUIView DataTable { height: auto; max-height: 12; }
    """

    def __init__(self, document: Snapshot, on_action: Callable[[UIEvent], Outcome | None], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.snap = document
        self.on_action = on_action
        self.values: dict[str, Any] = {}
        self.border_title = inert(document.document.title)
        self._by_widget: dict[str, dict[str, Any]] = {}  # widget id -> component
        self._countdowns: dict[str, Timer] = {}
        self.last_outcome: Outcome | None = None

    def compose(self) -> ComposeResult:
        for comp in self.snap.document.top_level():
            yield self._build(comp)

    def _wid(self, comp: dict[str, Any], suffix: str = "") -> str:
        wid = f"ui-{comp['id']}{suffix}"
        self._by_widget[wid] = comp
        return wid

    def _kids(self, comp: dict[str, Any]) -> list[Widget]:
        return [self._build(c) for c in self.snap.document.children(comp)]

    def _build(self, comp: dict[str, Any]) -> Widget:
        t, label = comp["type"], comp.get("label", "")
        value = self.snap.state.get(comp.get("bind", ""))
        if t in ("Card", "Form"):
            kids = self._kids(comp)
            if t == "Form":  # a form's own action runs from its submit button
                kids.append(Button(text("Submit"), id=self._wid(comp, "-submit")))
            box = Vertical(*kids, id=self._wid(comp), classes=t.lower())
            box.border_title = inert(label)
            return box
        if t in ("Text", "Markdown"):
            return Static(text(comp.get("text") or label), id=self._wid(comp))
        if t == "Checklist":
            rows = self.snap.rows.get(comp["id"])
            items = [(r.label, r.done) for r in rows] if rows is not None else [(i["label"], i["done"]) for i in value or []]
            boxes = [ItemBox(text(lbl), done, id=self._wid(comp, f"-{n}")) for n, (lbl, done) in enumerate(items)]
            return Vertical(Static(text(label)), *boxes, id=self._wid(comp))
        if t == "Table":
            table: DataTable = DataTable(id=self._wid(comp))
            rows = self.snap.rows.get(comp["id"])
            cells = [list(r.cells) for r in rows] if rows is not None else [list(r) for r in value or []]
            width = max([len(r) for r in cells] + [len(comp["columns"]) if isinstance(comp.get("columns"), list) else 0])
            cols = comp["columns"] if isinstance(comp.get("columns"), list) else []
            table.add_columns(*[cell(c) for c in cols] + [cell("") for _ in range(width - len(cols))])
            for r in cells:
                table.add_row(*[cell(c) for c in r] + [cell("")] * (width - len(r)))
            return Vertical(Static(text(label)), table)
        if t == "Input":
            self.values[comp["bind"]] = value or ""
            return Vertical(Static(text(label)), Input(value=inert(value or ""), id=self._wid(comp)))
        if t == "Select":
            self.values[comp["bind"]] = value
            opts = [(text(o), o) for o in comp.get("options", [])]
            chosen = value if value in comp.get("options", []) else Select.NULL
            return Vertical(Static(text(label)), Select(opts, value=chosen, id=self._wid(comp)))
        if t == "Toggle":
            self.values[comp["bind"]] = bool(value)
            return Vertical(Static(text(label)), Switch(bool(value), id=self._wid(comp)))
        if t == "Slider":
            self.values[comp["bind"]] = value
            return Vertical(Static(text(f"{label} ({comp.get('min', 0)}–{comp.get('max', 100)})")),
                            Input(value=str(value), type="number", id=self._wid(comp)))
        if t == "Button":
            return Button(text(label), id=self._wid(comp))
        if t == "ProgressBar":
            bar = ProgressBar(total=float(comp.get("max", 100)), show_eta=False, id=self._wid(comp))
            bar.progress = float(value or 0)
            return Vertical(Static(text(label)), bar)
        if t == "Timer":
            left = value if value is not None else comp.get("seconds", 0)
            if "bind" in comp:
                self.values[comp["bind"]] = left
            return Vertical(Static(text(f"{label}: {clock(float(left or 0))}"), id=self._wid(comp)),
                            Button(text("Start"), id=self._wid(comp, "-start")))
        if t == "Tabs":
            tabs = TabbedContent(id=self._wid(comp))
            for c in self.snap.document.children(comp):
                tabs.compose_add_child(TabPane(text(c.get("label", c["id"])), self._build(c)))
            return tabs
        n = comp.get("columns") if isinstance(comp.get("columns"), int) and 0 < comp["columns"] <= 12 else 2
        grid = Grid(*self._kids(comp), id=self._wid(comp))
        grid.styles.grid_size_columns = n
        grid.styles.height = "auto"
        return grid

    # -- events -> on_action -------------------------------------------------
    def _comp(self, widget: Widget) -> tuple[dict[str, Any] | None, str]:
        wid = widget.id or ""
        return self._by_widget.get(wid), wid

    def _value(self, widget: Widget, value: Any) -> None:
        comp, _ = self._comp(widget)
        if comp is None or "bind" not in comp:
            return
        if comp["type"] == "Slider":
            try:
                value = float(value)
            except ValueError:
                return  # half-typed number: keep the last good value
        self.values[comp["bind"]] = value
        self.on_action(UIEvent("value", comp["id"], key=comp["bind"], value=value, values=dict(self.values)))

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._value(event.input, event.value)

    def on_switch_changed(self, event: Switch.Changed) -> None:
        event.stop()
        self._value(event.switch, event.value)

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        if event.value is not Select.NULL:
            self._value(event.select, event.value)

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        event.stop()
        comp, wid = self._comp(event.checkbox)
        if comp is not None:
            index = int(wid.rsplit("-", 1)[1])
            self.on_action(UIEvent("tick", comp["id"], index=index, value=event.value, values=dict(self.values)))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        comp, _ = self._comp(event.button)
        if comp is not None and comp["type"] == "Timer":
            self._toggle_timer(comp, event.button)
        elif comp is not None and comp.get("action"):
            self.last_outcome = self.on_action(
                UIEvent("action", comp["id"], action=comp["action"], values=dict(self.values)))


    def _toggle_timer(self, comp: dict[str, Any], button: Button) -> None:
        """Start/pause a countdown; each second left is reported (and so persisted) as the bound value."""
        running = self._countdowns.pop(comp["id"], None)
        if running is not None:
            running.stop()
            button.label = text("Start")
            return
        key = comp.get("bind")
        left = [float(self.values.get(key, comp.get("seconds", 0)) if key else comp.get("seconds", 0))]

        def tick() -> None:
            left[0] = max(0.0, left[0] - 1)
            self.query_one(f"#ui-{comp['id']}", Static).update(text(f"{comp.get('label', '')}: {clock(left[0])}"))
            if key:
                self.values[key] = left[0]
                self.on_action(UIEvent("value", comp["id"], key=key, value=left[0], values=dict(self.values)))
            if left[0] <= 0:
                self._countdowns.pop(comp["id"]).stop()
                button.label = text("Start")

        self._countdowns[comp["id"]] = self.set_interval(1.0, tick)
        button.label = text("Pause")


def controller_handler(controller: ViewController, on_ask: Callable[[str], None] | None = None,
                       on_error: Callable[[str], None] | None = None) -> Callable[[UIEvent], Outcome | None]:
    """Connect a GenUIView to a ViewController: values and ticks persist; ask_model events go to `on_ask`."""
    from mol_local.genui.errors import GenUIError

    def handle(event: UIEvent) -> Outcome | None:
        try:
            if event.kind == "value":
                controller.set_value(event.key or "", event.value)
                return None
            if event.kind == "tick":
                controller.tick(event.component, event.index or 0, bool(event.value))
                return None
            out = controller.run(event.action or "", event.values)
        except GenUIError as exc:  # a user-facing problem: show it, keep the view alive
            if on_error is not None:
                on_error(str(exc))
            return None
        if out.ask and on_ask is not None:
            on_ask(out.ask)
        return out

    return handle
