"""Static HTML renderer: the same document as a self-contained file (`mol genui export`).

No scripts, no external resources: inline CSS only, every string from the
document or the data goes through `html.escape`, so markup or script in a
label is shown as text. Inputs show their saved values and are read-only.
"""

from __future__ import annotations

import html
import json
from typing import Any

from mol_local.genui.actions import Snapshot
from mol_local.genui.inert import inert

CSS = """body{font-family:sans-serif;max-width:52em;margin:2em auto;color:#222}
.card{border:1px solid #bbb;border-radius:6px;padding:.6em 1em;margin:.5em 0}
.grid{display:grid;gap:.5em}.tab{border-left:3px solid #88a;padding-left:.6em;margin:.4em 0}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em}
pre{white-space:pre-wrap}.noai{color:#a33;font-size:.8em}"""


def e(value: Any) -> str:
    return html.escape(inert(value), quote=True)


def render_html(snap: Snapshot) -> str:
    doc = snap.document
    body = "\n".join(_component(c, snap) for c in doc.top_level())
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">"
        f"<title>{e(doc.title)}</title><style>{CSS}</style></head>\n"
        f"<body><h1>{e(doc.title)}</h1>\n{body}\n"
        f"<p class=\"noai\">catalog {e(doc.catalog)} &middot; exported by mol-local</p></body></html>\n"
    )


def _children(comp: dict, snap: Snapshot) -> str:
    return "\n".join(_component(c, snap) for c in snap.document.children(comp))


def _component(comp: dict, snap: Snapshot) -> str:
    t, cid, label = comp["type"], e(comp["id"]), e(comp.get("label", ""))
    value = snap.state.get(comp.get("bind", ""), None)
    if t == "Card":
        return f'<section class="card" id="{cid}"><h2>{label}</h2>{_children(comp, snap)}</section>'
    if t in ("Text", "Markdown"):
        text = e(comp.get("text") or comp.get("label", ""))
        return f'<pre id="{cid}">{text}</pre>' if t == "Markdown" else f'<p id="{cid}">{text}</p>'
    if t == "Checklist":
        rows = snap.rows.get(comp["id"])
        items = [(r.label, r.done) for r in rows] if rows is not None else [(i["label"], i["done"]) for i in value or []]
        lis = "".join(f'<li><input type="checkbox" disabled{" checked" if d else ""}> {e(lbl)}</li>' for lbl, d in items)
        return f'<div id="{cid}"><h3>{label}</h3><ul>{lis}</ul></div>'
    if t == "Table":
        rows = snap.rows.get(comp["id"])
        cells = [list(r.cells) for r in rows] if rows is not None else (value or [])
        cols = comp.get("columns") if isinstance(comp.get("columns"), list) else []
        head = "".join(f"<th>{e(c)}</th>" for c in cols)
        trs = "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in r) + "</tr>" for r in cells)
        return f'<table id="{cid}"><caption>{label}</caption><tr>{head}</tr>{trs}</table>'
    if t == "Form":
        return f'<form id="{cid}"><fieldset><legend>{label}</legend>{_children(comp, snap)}</fieldset></form>'
    if t == "Input":
        return f'<label>{label} <input id="{cid}" type="text" readonly value="{e(value or "")}"></label><br>'
    if t == "Select":
        opts = "".join(f'<option{" selected" if o == value else ""}>{e(o)}</option>' for o in comp.get("options", []))
        return f'<label>{label} <select id="{cid}" disabled>{opts}</select></label><br>'
    if t == "Toggle":
        return f'<label><input id="{cid}" type="checkbox" disabled{" checked" if value else ""}> {label}</label><br>'
    if t == "Slider":
        lo, hi = comp.get("min", 0), comp.get("max", 100)
        return f'<label>{label} <input id="{cid}" type="range" disabled min="{e(lo)}" max="{e(hi)}" value="{e(value)}"> {e(value)}</label><br>'
    if t == "Button":
        return f'<button id="{cid}" type="button" disabled>{label}</button>'
    if t == "ProgressBar":
        return f'<label>{label} <progress id="{cid}" max="{e(comp.get("max", 100))}" value="{e(value or 0)}"></progress></label><br>'
    if t == "Timer":
        left = value if value is not None else comp.get("seconds", 0)
        return f'<p id="{cid}">{label}: <time>{e(left)}</time> s</p>'
    if t == "Tabs":
        return f'<div id="{cid}"><h3>{label}</h3>' + "".join(
            f'<div class="tab"><h4>{e(c.get("label", ""))}</h4>{_component(c, snap)}</div>'
            for c in snap.document.children(comp)) + "</div>"
    if t == "Grid":
        n = comp.get("columns") if isinstance(comp.get("columns"), int) and 0 < comp["columns"] <= 12 else 2
        return f'<div class="grid" id="{cid}" style="grid-template-columns:repeat({n},1fr)">{_children(comp, snap)}</div>'
    return f'<p id="{cid}">{e(json.dumps(comp))}</p>'
