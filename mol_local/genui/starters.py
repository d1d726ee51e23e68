"""Starter items for a list asked for without naming what goes on it ("Make a packing list for a beach holiday").

Tried with `mol chat` on the embedded default: that request drew a checklist of "To pack" and "Items"; "a
grocery list for a week of healthy meals" drew "Healthy meals", "Meal ideas", "Ingredients"; "a checklist for my
trip to Paris" drew "Paris", "Monti", "Orange groves". The 135M model cannot know what goes on such a list, so
for the common kinds (`data/starters.toml`, written by hand) the checklist starts with their usual items,
labelled as a start for the person to add to or cut. A list with any item named gets no starter items, and what
the model put beside the named ones stays only when that kind of list holds something like it ("a packing list for a
beach holiday with sunscreen, a hat and my kindle" came back with "Mavericks"; for a gym bag, "Tofu"). A kind with
no starter only loses the items that echo its own title.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from mol_local.genui.document import UIDocument

STARTER_LABEL = "To start with — add or remove any"
_GENERIC = frozenset({"items", "item", "list", "to do", "todo", "to-do", "tasks", "task", "things", "checklist", "to pack", "steps"})


@dataclass(frozen=True)
class Starter:
    """A kind of list and its usual items."""

    name: str
    when: re.Pattern[str]
    items: tuple[str, ...]
    packing: bool = False  # what to take along, not steps to do


@cache
def starters() -> tuple[Starter, ...]:
    data = tomllib.loads(resources.files("mol_local.genui").joinpath("data/starters.toml").read_text(encoding="utf-8"))
    return tuple(Starter(s["name"], re.compile(s["when"], re.IGNORECASE), tuple(s["items"]), s.get("packing", False)) for s in data["list"])


def starter_for(request: str) -> Starter | None:
    """The first starter whose words the request uses, or None."""
    return next((s for s in starters() if s.when.search(request)), None)


def _key(text: object) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", str(text).lower()).split())


def ground_starter(doc: UIDocument, request: str, named: list[str], whole: bool, starters_too: bool = True) -> list[str]:
    """The one checklist of a request that named no item: a matching starter's items in place of the model's,
    labelled as a start ("a shopping list with eggs, flour and butter" is those three, not a week's shop); else,
    unless the list was written out whole, less the items that echo the document's title or the checklist's label
    or only say "Items". `starters_too` False (a larger model, which knows what goes on it): only the echoes go.
    Returns what changed."""
    lists = [c for c in doc.components if c.get("type") == "Checklist" and isinstance(doc.state.get(c.get("bind")), list)]
    if whole or len(lists) != 1:
        return []
    checklist, items = lists[0], doc.state[lists[0]["bind"]]
    kept = [i for i in items if any(_key(i.get("label")) == _key(n) for n in named)]
    if starters_too and not named and (start := starter_for(request)) is not None:
        items[:] = [{"label": s, "done": False} for s in start.items]
        checklist["label"] = STARTER_LABEL
        if _key(doc.title) in _GENERIC:  # "Make a cleaning checklist" was titled "Checklist"
            name = re.sub(r"^an?\s+", "", start.name)
            doc.title = name[:1].upper() + name[1:]
        return [f"started the list with the usual items for {start.name}"]
    echoes = {_key(doc.title), _key(checklist.get("label")), *_GENERIC}
    dropped = [i for i in items if i not in kept and _key(i.get("label")) in echoes]
    odd = [i for i in items if i not in kept and i not in dropped and starters_too and named and (start := starter_for(request)) is not None
           and not _prefixes(i.get("label")) & _prefixes(" ".join(start.items))]
    items[:] = [i for i in items if i not in dropped and i not in odd]
    return (["left out items that only repeat the list's name: " + ", ".join(repr(str(i.get("label"))) for i in dropped)] if dropped else []) \
        + (["left out items nobody named that such a list does not hold: " + ", ".join(repr(str(i.get("label"))) for i in odd)] if odd else [])


_PREFIX = 5


def _prefixes(text: object) -> set[str]:
    """The first letters of each word of four or more ("Clothing" and "Clothes for each day" share "cloth")."""
    return {w[:_PREFIX] for w in _key(text).split() if len(w) >= 4}
