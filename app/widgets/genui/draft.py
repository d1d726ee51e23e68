"""The L3 view while it is written: a plain sketch of its complete components (mol_local.genui.partial).

Only text, never live widgets: nothing in a draft can be ticked or pressed, because the document is
validated (and maybe repaired) only at the end; the live `GenUIView` replaces the sketch then.
"""

from __future__ import annotations

from typing import Any

from textual.content import Content
from textual.widgets import Static

from mol_local.genui.inert import inert

MAX_ROWS = 8  # of a bound list shown in the sketch


def _rows(value: Any) -> list[str]:
    if not isinstance(value, list):
        return []
    out = []
    for row in value[:MAX_ROWS]:
        if isinstance(row, dict):
            out.append(str(row.get("label") or " · ".join(str(v) for v in row.values())))
        else:
            out.append(str(row))
    return out


def _line(comp: dict[str, Any], state: dict[str, Any]) -> list[str]:
    kind, label = comp["type"], str(comp.get("label") or "")
    bound = state.get(comp.get("bind") or "")
    if kind == "Checklist":
        items = _rows(bound)
        return [f"{label}"] + ([f"  ☐ {i}" for i in items] if items else ["  …"])
    if kind == "Table":
        cols = comp.get("columns") if isinstance(comp.get("columns"), list) else []
        return [f"{label}  [{' | '.join(map(str, cols))}]"] + [f"  {r}" for r in _rows(bound)]
    if kind == "Button":
        return [f"[ {label} ]"]
    if kind in ("Text", "Markdown"):
        return [str(comp.get("text") or label)]
    if kind in ("Card", "Form", "Tabs", "Grid"):
        return [f"▸ {label}" if label else f"▸ {kind}"]
    return [f"{label}: {kind}" if label else kind]


def draft_text(draft: dict[str, Any]) -> str:
    """The sketch: the title, then each complete component in document order, bound lists once complete."""
    lines = [str(draft.get("title") or "")] if draft.get("title") else []
    for comp in draft.get("components", []):
        lines += _line(comp, draft.get("state", {}))
    lines.append("(being written…)")
    return "\n".join(lines)


class ViewDraft(Static):
    """The sketch under an L3 answer until the validated view or the error replaces it."""

    DEFAULT_CSS = "ViewDraft { border: round $panel; padding: 0 1; color: $text-muted; }"

    def show(self, draft: dict[str, Any]) -> None:
        self.update(Content(inert(draft_text(draft))))
