"""A chore chart: "a weekly chore chart for Tom and Mia: dishes, laundry, hoovering" is a table of the week.

Tried with `mol chat`: the router sent it to L1, which listed the reminders and tried to tick one off ("I didn't do
that: the request does not say a reminder is done"). A chore chart names the people and the chores; the view is a
table with a row per day and a column per person, and each day every chore is someone's, handed round so that
nobody has the same one two days running (chore k goes to person (k + day) mod the number of people).
"""

from __future__ import annotations

import re
from datetime import datetime

from mol_local.genui.countdown import countdown_document
from mol_local.genui.document import UIDocument, parse_document
from mol_local.genui.errors import InvalidDocument
from mol_local.genui.stated import _parts

DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_ASKS = re.compile(r"\b(?:chore|chores|cleaning|housework|household)\s+(?:chart|rota|schedule|table|planner)s?\b|\brotas?\b", re.IGNORECASE)
_NAME = r"(?:[A-Z][\w'-]+|me)"
_PEOPLE = re.compile(rf"\b(?:for|between|among|with)\s+(?:the kids,?\s+)?(?P<p>{_NAME}(?:\s*,\s*{_NAME})*(?:,?\s+and\s+{_NAME}))\b")
_CHORES = re.compile(r"(?::|\bchores?\s+(?:are|like|such as)|\bwith\s+(?=[a-z]))\s*(?P<c>[^:]+?)[\s.!?]*$")


def rota(request: str) -> tuple[list[str], list[str]] | None:
    """(the people, the chores) of a chore chart request that names at least two of each, else None."""
    if not _ASKS.search(request) or (people := _PEOPLE.search(request)) is None:
        return None
    names = [p.strip() for p in re.split(r",|\band\b", people["p"]) if p.strip()]
    names = ["Me" if n.lower() == "me" else n for n in names]
    rest = request[people.end():]
    chores = _CHORES.search(rest)
    items = [c.lower() for c in _parts(chores["c"])] if chores else []
    return (names, items) if len(names) >= 2 and len(items) >= 2 else None


def week_rows(people: list[str], chores: list[str]) -> list[list[str]]:
    """A row per day: the day, then each person's chores that day."""
    rows = []
    for day, name in enumerate(DAYS):
        mine: list[list[str]] = [[] for _ in people]
        for k, chore in enumerate(chores):
            mine[(k + day) % len(people)].append(chore)
        rows.append([name, *(", ".join(m) or "—" for m in mine)])
    return rows


def rota_document(request: str) -> tuple[UIDocument, str] | None:
    """The week's table for a chore chart request, and what it holds; None when the request is not one."""
    found = rota(request)
    if found is None:
        return None
    people, chores = found
    title = "Weekly chore chart" if re.search(r"\bweek", request, re.IGNORECASE) else "Chore chart"
    table = {"id": "rota", "type": "Table", "label": title, "bind": "rows", "columns": ["Day", *people]}
    try:
        doc = parse_document({"catalog": "1", "title": title, "components": [table], "state": {"rows": week_rows(people, chores)},
                              "actions": {}})
    except InvalidDocument:
        return None
    return doc, f"a chore chart of the week: {', '.join(chores)} handed round {', '.join(people)}"


def whole_view(request: str, now: datetime | None = None) -> tuple[UIDocument, str] | None:
    """The view a request states in full, whatever the model drew: a chore chart, or (given the clock) a countdown to a
    day (genui/countdown.py); with what it holds. None for any other request."""
    return rota_document(request) or (countdown_document(request, now) if now is not None else None)


def ground_whole(doc: UIDocument, request: str, now: datetime | None = None) -> list[str]:
    """The document becomes `whole_view`'s when the request states one."""
    made = whole_view(request, now)
    if made is None:
        return []
    new, fix = made
    doc.title, doc.components[:], doc.state, doc.actions = new.title, new.components, new.state, new.actions
    doc.parents.clear()
    doc.parents.update(new.parents)
    return [fix]
