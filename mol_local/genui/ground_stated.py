"""What a request states, applied to a valid L3 document: numbers, columns and rows, a card's lines, switch
names, a picker's choices, a form's fields and the person's data a view shows.

The readers are in `genui.stated`; each applier here acts only on the one component of its kind (two
tables, two sliders: the model's call), keeps the document valid (a rebuilt part is re-validated, and
left as it was when it would not be), and returns phrases saying what it changed.
"""

from __future__ import annotations

import re

from mol_local.genui import stated
from mol_local.genui.document import UIDocument, parse_document
from mol_local.genui.errors import InvalidDocument

def _only(doc: UIDocument, kind: str, **where: object) -> dict | None:
    """The one component of `kind` (matching `where`), or None when there is none or several."""
    found = [c for c in doc.components if c.get("type") == kind and all(c.get(k) == v for k, v in where.items())]
    return found[0] if len(found) == 1 else None


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def ground_numbers(doc: UIDocument, request: str) -> list[str]:
    """The one progress bar shows the goal and the amount done the request states; the one slider has the
    range and starting value it states (a start outside a new range moves to its low end)."""
    fixes: list[str] = []
    if stated.progress(request)[1] is not None:
        fixes += _one_bar(doc)
    bar = _only(doc, "ProgressBar")
    value, high = stated.progress(request) if bar is not None else (None, None)
    if bar is not None and high is not None and bar.get("max") != high:
        bar["max"] = high
        fixes.append(f"progress bar {bar['id']!r} out of the {high} the request named")
    if bar is not None and value is not None and _is_number(doc.state.get(bar.get("bind"))) and doc.state[bar["bind"]] != value:
        doc.state[bar["bind"]] = value
        fixes.append(f"progress bar {bar['id']!r} at the {value} the request named")
    knob = _only(doc, "Slider")
    low, top, start = stated.slider(request) if knob is not None else (None, None, None)
    if knob is None:
        return fixes
    if low is not None and (knob.get("min"), knob.get("max")) != (low, top):
        knob["min"], knob["max"] = low, top
        fixes.append(f"slider {knob['id']!r} from {low} to {top} as the request named")
    key = knob.get("bind")
    if not _is_number(doc.state.get(key)):
        return fixes
    lo, hi = knob.get("min"), knob.get("max")
    want = start if start is not None else doc.state[key]
    if _is_number(lo) and _is_number(hi) and not lo <= want <= hi:
        want = lo
    if doc.state[key] != want:
        doc.state[key] = want
        fixes.append(f"slider {knob['id']!r} starts at {want}" + (" as the request named" if want == start else ""))
    return fixes


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def ground_table(doc: UIDocument, request: str) -> list[str]:
    """The one table of the document's own rows has the columns the request lists, and the rows it writes
    out ("rows: Lima, Peru; Oslo, Norway"), in the person's words. Rows written out are the table's own
    even when the model bound it to a source the request does not name (in the app, a table of cities
    after "what you know about me, as a table" copied that table's memories)."""
    table = _only(doc, "Table")
    cols, found = stated.table(request) if table is not None else ([], [])
    if table is None or len(cols) < 2 and not (cols and found):  # one column only for rows written out: "my three films: …"
        return []
    fixes: list[str] = []
    if table.get("source") is not None:
        if not found or stated.source(request) == table["source"]:
            return []
        key = _slug("rows", {c["id"] for c in doc.components} | set(doc.state))
        fixes.append(f"table {table['id']!r} shows the rows written out, not your {table.pop('source')}")
        table["bind"], doc.state[key] = key, []
    want = [_cap(c) for c in cols]
    if [str(c).lower() for c in table.get("columns") or []] != [c.lower() for c in cols]:
        table["columns"] = want
        fixes.append(f"table {table['id']!r} has the columns the request listed: {', '.join(want)}")
    key = table.get("bind")
    if found and isinstance(doc.state.get(key), list) and doc.state[key] != found:
        doc.state[key] = found
        fixes.append(f"table {table['id']!r} holds the {len(found)} rows the request wrote out")
    if found and str(table.get("label", "")).strip().lower() in _KIND_LABELS and doc.title:  # the app: a schedule labelled "Checklist"
        table["label"] = doc.title
        fixes.append(f"table {table['id']!r} labelled {doc.title!r}")
    return fixes


_KIND_LABELS = frozenset({"checklist", "list", "table", "items", "rows", "grid"})


SOURCE_COLUMNS = {"reminders": ("Reminder", "Due"), "notes": ("Title", "Body"), "memories": ("Memory", "Kind")}


def ground_source(doc: UIDocument, request: str) -> list[str]:
    """A view of the person's own notes, memories or reminders shows them (a `source`), not rows the model
    made up: "what you know about me, as a table" came back as an empty table of its own. Tables take any
    source; a checklist only reminders (the only items that can be ticked)."""
    src = stated.source(request)
    if src is None:
        return []
    kinds = ("Table", "Checklist") if src == "reminders" else ("Table",)
    views = [c for c in doc.components if c.get("type") in kinds]
    if len(views) != 1:
        return []
    view, fixes = views[0], []
    if view.get("source") != src:
        view["source"] = src
        key = view.pop("bind", None)
        if key is not None and not any(c.get("bind") == key for c in doc.components):
            doc.state.pop(key, None)
        fixes.append(f"{view['type'].lower()} {view['id']!r} shows your {src}")
    cols = view.get("columns")
    wrong = not (isinstance(cols, list) and len(cols) == len(SOURCE_COLUMNS[src]))
    if view["type"] == "Table" and (wrong or cols != list(SOURCE_COLUMNS[src]) and len(stated.columns(request)) < 2):  # reminders as "Title", "Body"
        view["columns"] = list(SOURCE_COLUMNS[src])  # a bound row has exactly these cells (genui.binding)
        fixes.append(f"table {view['id']!r} headed {', '.join(SOURCE_COLUMNS[src])}")
    return fixes


def _replace(doc: UIDocument, components: list[dict], state: dict | None = None) -> bool:
    """Swap in `components` (and `state`) when the document stays valid with them, else leave it as it was."""
    try:
        new = parse_document({**doc.to_json(), "components": components, "state": doc.state if state is None else state})
    except InvalidDocument:
        return False
    doc.components[:] = new.components
    doc.parents.clear()
    doc.parents.update(new.parents)
    if state is not None:
        doc.state.clear()
        doc.state.update(new.state)
    return True


def ground_card(doc: UIDocument, request: str) -> list[str]:
    """A card whose lines the request writes out ("a card for Today with these lines: pick up Leo at 4;
    dentist at 3pm; call Mum") is one Card of one Text per line: the model nested empty Cards in Cards and
    wrote none of the lines. Only a document of cards and text is rebuilt; anything else is left as it is."""
    title, lines = stated.card_lines(request)
    if not lines or any(c.get("type") not in ("Card", "Text", "Markdown") for c in doc.components):
        return []
    cards = [c for c in doc.components if c.get("type") == "Card"]
    texts = [str(c.get("text", "")) for c in doc.components if c.get("type") == "Text"]
    top = next((c for c in cards if c["id"] not in doc.parents), None)
    label = str(top["label"]) if top is not None else ""
    if title and title.lower() != label.lower():
        label = _cap(title)  # the person's word: "a card for Reminder" is not "Reminders"
    if len(cards) == 1 and top is not None and texts == lines and label == top["label"]:
        return []
    card_id = top["id"] if top is not None else "card"
    ids = [f"line_{i}" for i in range(1, len(lines) + 1)]
    if card_id in ids:
        card_id = "card"
    components = [{"id": card_id, "type": "Card", "label": label or "Card", "children": ids}]
    components += [{"id": i, "type": "Text", "label": f"Line {n}", "text": line}
                   for n, (i, line) in enumerate(zip(ids, lines), start=1)]
    if not _replace(doc, components):
        return []
    return [f"card {label!r} holds the {len(lines)} lines the request wrote out"]


def ground_switches(doc: UIDocument, request: str) -> list[str]:
    """Each on/off switch is labelled with what the request named it for ("a toggle for gift wrap" came back
    as "On switch"); a named switch with no Toggle gets one beside the others, off."""
    names = stated.switch_names(request)
    toggles = [c for c in doc.components if c.get("type") == "Toggle"]
    fixes: list[str] = []
    if names and len(toggles) > len(names):
        fixes = _drop_repeated(doc, "Toggle")
        toggles = [c for c in doc.components if c.get("type") == "Toggle"]
    if not names or not toggles or len(toggles) > len(names):
        return fixes
    left = list(names)
    free = []
    for t in toggles:
        hit = next((n for n in left if n.lower() in str(t["label"]).lower()), None)
        if hit is None:
            free.append(t)
        else:
            left.remove(hit)
    for t, name in zip(free, list(left)):
        fixes.append(f"switch {t['id']!r} labelled {_cap(name)!r} as the request named it")
        t["label"] = _cap(name)
        left.remove(name)
    parents = {doc.parents.get(t["id"]) for t in toggles}
    if not left or len(parents) != 1:
        return fixes
    parent = parents.pop()
    taken = {c["id"] for c in doc.components} | set(doc.state)
    components, state = [dict(c) for c in doc.components], dict(doc.state)
    for name in left:
        cid = _slug(name, taken, prefix="switch")
        taken.add(cid)
        components.append({"id": cid, "type": "Toggle", "label": _cap(name), "bind": cid})
        state[cid] = False
        if parent is not None:
            holder = next(c for c in components if c["id"] == parent)
            holder["children"] = list(holder.get("children", [])) + [cid]
    if _replace(doc, components, state):
        fixes.append("added the named switch" + ("es " if len(left) > 1 else " ") + ", ".join(map(repr, map(_cap, left))))
    return fixes


def _drop(doc: UIDocument, ids: set[str]) -> bool:
    """Drop the components `ids` and every reference to them as a child (when the document stays valid)."""
    components = [{**c, "children": [k for k in c["children"] if k not in ids]} if "children" in c else dict(c)
                  for c in doc.components if c["id"] not in ids]
    return _replace(doc, components)


def _drop_repeated(doc: UIDocument, kind: str) -> list[str]:
    """A component of `kind` bound to the same state as an earlier one is dropped: asked for one switch or
    one progress bar, the model wrote it twice (the copy drawing the same value)."""
    seen: set[str] = set()
    repeats: set[str] = set()
    for c in doc.components:
        if c.get("type") != kind or not isinstance(c.get("bind"), str):
            continue
        if c["bind"] in seen:
            repeats.add(c["id"])
        seen.add(c["bind"])
    if not repeats or not _drop(doc, repeats):
        return []
    return [f"dropped the repeated {kind} {', '.join(sorted(map(repr, repeats)))}"]


def ground_options(doc: UIDocument, request: str) -> list[str]:
    """A picker offers the choices the request lists, in its words and order ("choose a weekend activity
    from museum; hiking; cinema; picnic" came back without the museum, and "Hike" for hiking). Only a lone
    Select outside a form: a form's dropdowns list their options beside each field."""
    picker = _only(doc, "Select")
    if picker is None or any(c.get("type") == "Form" for c in doc.components):
        return []
    named = stated.options(request)
    want = [_cap(o) for o in named]
    if not named or [str(o).lower() for o in picker.get("options") or []] == [o.lower() for o in named]:
        return []
    picker["options"] = want
    key = picker.get("bind")
    if isinstance(doc.state.get(key), str) and doc.state[key] not in want:
        doc.state[key] = ""
    return [f"picker {picker['id']!r} offers the {len(want)} choices the request listed"]


def _slug(name: str, taken: set[str], prefix: str = "field") -> str:
    """A fresh component id / state key for `name` ("party size" -> party_size, then party_size_2 …)."""
    base = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")[:20]
    base = base if base[:1].isalpha() else f"{prefix}_{base}".rstrip("_")[:20]
    cid, n = base, 2
    while cid in taken:
        cid, n = f"{base}_{n}", n + 1
    return cid


def ground_fields(doc: UIDocument, request: str) -> list[str]:
    """The one form has a text field for every field the request names ("a guest book form with name,
    hometown, message fields" came back with name and hometown): a named field no child of the form is
    labelled with is added, empty, after the others."""
    form = _only(doc, "Form")
    named = stated.fields(request) if form is not None else []
    if form is None or not named:
        return []
    fixes = _drop_unasked_fields(doc, request, named)
    form = _only(doc, "Form") or form
    kids = [c for c in doc.components if c["id"] in form.get("children", [])]
    missing = [n for n in named if not any(n.lower() in str(k.get("label", "")).lower() for k in kids)]
    for name in list(missing):  # "Felt" for "how I felt": that field, in the person's words (it had been added again beside it)
        part = next((k for k in kids if len(str(k.get("label", ""))) >= 3 and k.get("type") == "Input"
                     and re.search(rf"\b{re.escape(str(k['label']).lower())}\b", name.lower())
                     and not any(str(k["label"]).lower() in n.lower() for n in named if n != name)), None)
        if part is not None:
            fixes.append(f"field {part['id']!r} labelled {_cap(name)!r}")
            part["label"] = _cap(name)
            missing.remove(name)
    if not missing:
        return fixes
    taken = {c["id"] for c in doc.components} | set(doc.state)
    components, state = [dict(c) for c in doc.components], dict(doc.state)
    holder = next(c for c in components if c["id"] == form["id"])
    added: list[str] = []
    for name in missing:
        cid = _slug(name, taken)
        taken.add(cid)
        components.append({"id": cid, "type": "Input", "label": _cap(name), "bind": cid})
        state[cid] = ""
        holder["children"] = list(holder.get("children", [])) + [cid]
        added.append(_cap(name))
    if not _replace(doc, components, state):
        return fixes
    return fixes + ["added the named field" + ("s " if len(added) > 1 else " ") + ", ".join(map(repr, added))]


def _drop_unasked_fields(doc: UIDocument, request: str, named: list[str]) -> list[str]:
    """A text field nothing in the request speaks of is dropped when the request names the form's fields: "a sign-up
    form for a book club with name, email and favourite genre" came back with a "Favicon" field as well (`mol chat`)."""
    said = {w[:4] for w in re.findall(r"[a-z]{3,}", request.lower())}
    targets = {str(a.get("target")) for a in doc.actions.values() if isinstance(a, dict)}
    unasked = {c["id"] for c in doc.components if c.get("type") == "Input" and c["id"] not in targets
               and not {w[:4] for w in re.findall(r"[a-z]{3,}", str(c.get("label", "")).lower())} & said}
    left = [c for c in doc.components if c.get("type") == "Input" and c["id"] not in unasked]
    labels = [str(c.get("label") or c["id"]) for c in doc.components if c["id"] in unasked]
    binds = {c.get("bind") for c in doc.components if c["id"] in unasked}
    if not unasked or not left or not _drop(doc, unasked):
        return []
    doc.state = {k: v for k, v in doc.state.items() if k not in binds or any(c.get("bind") == k for c in doc.components)}
    return [f"dropped the field{'s' if len(unasked) > 1 else ''} nobody asked for: {', '.join(map(repr, labels))}"]


def _one_bar(doc: UIDocument) -> list[str]:
    """A request that states one goal is about one bar: the first is kept, the others dropped (the app drew
    "Items" at 0 % and "Dollars saved" at 100 % for "how far am I: 2,715/5000 dollars of savings")."""
    bars = [c["id"] for c in doc.components if c.get("type") == "ProgressBar"]
    extra = set(bars[1:])
    if not extra or not _drop(doc, extra):
        return []
    return [f"dropped the other progress bar{'s' if len(extra) > 1 else ''} {', '.join(sorted(map(repr, extra)))}: "
            "the request states one goal"]

