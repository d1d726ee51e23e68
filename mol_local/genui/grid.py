"""Tables a request lays out without their contents: "a table comparing iPhone and Pixel: price, battery, camera" and
"a weekly meal plan table for Monday to Friday".

Tried with `mol chat` on the embedded default: the comparison got the title "iPhone", the columns Price, Battery,
Camera and no rows, so neither phone was in it; the meal plan got the five days as columns and no rows. The request
names the rows and columns; the embedded model has no facts to fill them with, so the cells are left empty and the
turn says so, rather than inventing specifications. A model's table that holds everything named and fills a cell stands.
"""

from __future__ import annotations

import re

from mol_local.genui.document import UIDocument, parse_document
from mol_local.genui.errors import InvalidDocument
from mol_local.genui.stated import _parts, keyed_rows, table as stated_table

_COMPARE = re.compile(r"\b(?:table|chart|grid|matrix)\b.{0,25}?\bcompar(?:e|es|ing|ison of)\s+(?P<things>.+?)"
                      r"(?:\s*:\s*|\s+(?:on|by|for|across|in terms of|with columns?(?: for)?)\s+)(?P<features>[^:]+?)[\s.!?]*$"
                      r"|\bcompar(?:e|ing)\s+(?P<t2>.+?)\s+in\s+an?\s+(?:table|chart|grid)"
                      r"(?:\s*:\s*|\s+(?:on|by|for|across|in terms of)\s+)(?P<f2>[^:]+?)[\s.!?]*$", re.IGNORECASE)
_VERSUS = re.compile(r"\s*(?:,|\band\b|\bvs\.?|\bversus\b|\bwith\b)\s*", re.IGNORECASE)
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_WEEK = re.compile(r"\b(?P<what>meal|food|dinner|menu|workout|exercise|training|study|revision|homework)\s+"
                   r"(?:plan|planner|schedule|table|timetable|rota)\b", re.IGNORECASE)
_RANGE = re.compile(r"\b(?P<a>mon|tue|wed|thu|fri|sat|sun)[a-z]*\s*(?:to|-|–|through|until|till)\s*(?P<b>mon|tue|wed|thu|fri|sat|sun)[a-z]*\b",
                    re.IGNORECASE)
_WEEKDAYS = re.compile(r"\b(?:weekdays?|working days?|school days?|work ?week)\b", re.IGNORECASE)
_TABLE = re.compile(r"\b(?:table|grid|planner|timetable|schedule|chart)\b", re.IGNORECASE)
_MEALS = ("Breakfast", "Lunch", "Dinner")
MAX = 6  # things or features past this are not a table someone listed by hand
_MAKE_BUDGET = re.compile(r"^(?:(?:please|can you|could you)\s+)*(?:make|create|build|draw|show|give|set up|put together|do)\b.{0,30}?\bbudget\b",
                          re.IGNORECASE)


def budget_rows(request: str) -> list[list[str]] | None:
    """The rows of "Make a budget: rent 900, food 300, transport 120": each amount, then their total (genui/stated.py);
    None for any other request. `mol chat` had routed it to L1, which tried to set a reminder "rent 900", and L3 drew
    the amounts as a checklist to tick."""
    if not _MAKE_BUDGET.search(request.strip()):
        return None
    columns, rows = keyed_rows(request)
    return rows if columns == ["Item", "Amount"] and rows and rows[-1][0] == "Total" else None


def comparison(request: str) -> tuple[list[str], list[str]] | None:
    """(the things compared, the features) of "a table comparing A and B: x, y, z"; None when it names fewer than two of
    either."""
    m = _COMPARE.search(request)
    if m is None:
        return None
    things = [t for t in _VERSUS.split(m["things"] or m["t2"]) if t.strip()]
    things = [re.sub(r"^(?:the|a|an)\s+", "", t.strip(" '\""), flags=re.I) for t in things]
    features = _parts(m["features"] or m["f2"])
    if not 2 <= len(things) <= MAX or not 2 <= len(features) <= MAX or any(len(t.split()) > 4 for t in things + features):
        return None
    return things, features


def week_days(request: str) -> list[str]:
    """The days a day-by-day plan table covers: a named range ("Monday to Friday"), the weekdays, or the week."""
    if (m := _RANGE.search(request)) is not None:
        first = next(i for i, d in enumerate(_DAYS) if d.lower().startswith(m["a"].lower()))
        last = next(i for i, d in enumerate(_DAYS) if d.lower().startswith(m["b"].lower()))
        return list(_DAYS[first:last + 1]) if first <= last else []
    return list(_DAYS[:5]) if _WEEKDAYS.search(request) else list(_DAYS)


def grid_document(request: str) -> tuple[UIDocument, str] | None:
    """The table a comparison or a day-by-day plan request lays out, its cells empty, or a budget's amounts and total; with
    what it holds. None when the request is none of these."""
    if (compared := comparison(request)) is not None:
        things, features = compared
        title = " vs ".join(things)
        columns, rows = ["Feature", *things], [[f[:1].upper() + f[1:], *("" for _ in things)] for f in features]
        held = f"a table comparing {_listed(things)} on {_listed(features)}, its cells empty: I have no facts to put in them"
    elif (week := _WEEK.search(request)) is not None and _TABLE.search(request) and not any(stated_table(request)) \
            and (days := week_days(request)):  # "… with running on Monday, …" writes its rows out (genui/stated.py)
        what = week["what"].lower()
        meal = what in ("meal", "food", "dinner", "menu")
        title = f"{'Meal' if meal else what.capitalize()} plan"
        columns = ["Day", *(_MEALS if meal and what != "dinner" else ("Dinner",) if meal else ("Plan",))]
        rows = [[d, *("" for _ in columns[1:])] for d in days]
        held = f"a {title.lower()} from {days[0]} to {days[-1]}, its cells empty for your plan"
    elif (budget := budget_rows(request)) is not None:
        title, columns, rows = "Budget", ["Item", "Amount"], [[r[0][:1].upper() + r[0][1:], r[1]] for r in budget]
        held = f"a budget of {len(rows) - 1} amounts and their total, {rows[-1][1]}"
    else:
        return None
    table = {"id": "grid", "type": "Table", "label": title, "bind": "rows", "columns": columns}
    try:
        doc = parse_document({"catalog": "1", "title": title, "components": [table], "state": {"rows": rows}, "actions": {}})
    except InvalidDocument:
        return None
    return doc, held


def _listed(parts: list[str]) -> str:
    return f"{', '.join(parts[:-1])} and {parts[-1]}"


def _words(text: object) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", str(text).lower()))


def ground_grid(doc: UIDocument, request: str) -> list[str] | None:
    """The document becomes `grid_document`'s when the request lays one out and the model's table leaves out a thing,
    feature or day it names, or fills no cell; a table that holds them all with something in it stands (a larger
    model may know the values). None when the request lays out no grid (the other grounders' turn)."""
    made = grid_document(request)
    if made is None:
        return None
    new, held = made
    wanted = [_words(c) for c in new.components[0]["columns"][1:]] + [_words(r[0]) for r in new.state["rows"]]
    for comp in doc.components:
        if comp.get("type") != "Table" or not isinstance(rows := doc.state.get(str(comp.get("bind"))), list):
            continue
        said = f" {_words(comp.get('columns'))} {_words(rows)} "
        filled = any(_words(cell) for row in rows if isinstance(row, list) for cell in row[1:])
        if filled and all(f" {w} " in said for w in wanted):
            return []
    doc.title, doc.components[:], doc.state, doc.actions = new.title, new.components, new.state, new.actions
    doc.parents.clear()
    doc.parents.update(new.parents)
    return [held]
