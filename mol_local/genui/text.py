"""A UI document (or the draft of one) as plain text: the title, then each component in document order.

Used where no live view can be drawn: the TUI while L3 is still writing (app/widgets/genui/draft.py)
and `mol chat` in a terminal. Text only, so nothing here can be ticked or pressed; the live view is in
the app (`mol`), the exact document in `mol chat --json` and `mol genui export`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

MAX_ROWS = 12  # of a bound list
SourceRows = Callable[[str], Sequence[tuple[str, bool]]]  # a data source's rows as (text, done), e.g. DataPort-backed


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


def _more(value: Any) -> list[str]:
    """"… and N more" under a bound list cut at MAX_ROWS (`mol chat` had shown 12 of 13 items without a word)."""
    return [f"  … and {len(value) - MAX_ROWS} more"] if isinstance(value, list) and len(value) > MAX_ROWS else []


def _lines(comp: dict[str, Any], state: dict[str, Any], source_rows: SourceRows | None) -> list[str]:
    kind, label = comp["type"], str(comp.get("label") or "")
    bound = state.get(comp.get("bind") or "")
    source = comp.get("source")
    if isinstance(source, str) and source_rows is not None and kind in ("Checklist", "Table"):
        rows = list(source_rows(source))
        shown = [f"  {'☑' if done else '☐'} {text}" if kind == "Checklist" else f"  {text}" for text, done in rows[:MAX_ROWS]]
        more = [f"  … and {len(rows) - MAX_ROWS} more"] if len(rows) > MAX_ROWS else []
        return [label] + (shown + more if rows else [f"  (no {source} yet)"])
    if kind == "Checklist":
        items = bound if isinstance(bound, list) else []
        ticks = ["☑" if isinstance(i, dict) and i.get("done") else "☐" for i in items[:MAX_ROWS]]
        rows = _rows(items)
        return [label] + ([f"  {t} {r}" for t, r in zip(ticks, rows)] + _more(items) if rows else ["  …"])
    if kind == "Table":
        cols = comp.get("columns") if isinstance(comp.get("columns"), list) else []
        return [f"{label}  [{' | '.join(map(str, cols))}]"] + [f"  {r}" for r in _rows(bound)] + _more(bound)
    if kind == "Button":
        return [f"[ {label} ]"]
    if kind in ("Text", "Markdown"):
        return [str(comp.get("text") or label)]
    if kind in ("Card", "Form", "Tabs", "Grid"):
        return [f"▸ {label}" if label else f"▸ {kind}"]
    if kind == "Timer" and comp.get("seconds") is not None:
        return [f"{label}: timer, {clock(comp['seconds'])}"]
    value = f" = {bound}" if isinstance(bound, (str, int, float, bool)) and bound != "" else ""
    return [f"{label}: {kind}{value}" if label else f"{kind}{value}"]


def clock(seconds: float) -> str:
    """A countdown as a person reads it: 1200 -> "20:00", 3600 -> "1:00:00", 45 -> "0:45", and with the days once
    there is more than one: 1_720_800 -> "19 days 22:00:00" (a countdown to Christmas)."""
    whole = max(0, round(seconds))
    days, whole = divmod(whole, 86400) if whole >= 2 * 86400 else (0, whole)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    time_left = f"{hours}:{minutes:02d}:{secs:02d}" if hours or days else f"{minutes}:{secs:02d}"
    return f"{days} days {time_left}" if days else time_left


def document_text(doc: dict[str, Any], source_rows: SourceRows | None = None) -> str:
    """Title, then every component (bound lists shown once their state is there). With `source_rows`, a
    component bound to the person's reminders, notes or memories shows their rows as they are now."""
    lines = [str(doc["title"])] if doc.get("title") else []
    state = doc.get("state") if isinstance(doc.get("state"), dict) else {}
    for comp in doc.get("components") or []:
        if isinstance(comp, dict) and isinstance(comp.get("type"), str):
            lines += _lines(comp, state, source_rows)
    return "\n".join(lines)
