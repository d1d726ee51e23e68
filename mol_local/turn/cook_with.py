"""Meal ideas from what the person has: "What can I make with chicken, rice and peppers?".

Tried with `mol chat` on the embedded default: that question got "You can make chicken, rice and peppers with salt and
pepper.", and "What should I cook tonight? I have rice, eggs and spinach" got "You should cook dinner tonight." The
135M model knows few dishes, so on it the ideas come from the hand-written meals (`data/meals.toml`), ranked by how
many of the named ingredients each uses, kept to the diet and allergies the person told (`meals.fitting`), each with
which of their ingredients it uses. A request naming nothing the meals know ("What can I make with Python?", "… with
a slow cooker") is left to the model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date
from functools import cache

from mol_local.number_words import number_word
from mol_local.turn.meals import Meal, capital, fitting, meals, stem

SHOWN = 3
MAX_ITEMS = 8
MAX_ITEM_WORDS = 4
_ASK = re.compile(r"\b(?:what|which|any|suggest|recommend|give me|ideas?|recipes?|help me)\b.*"
                  r"\b(?:make|cook|eat|recipes?|dish(?:es)?|meals?|dinner|lunch|supper|tea|breakfast)\b", re.IGNORECASE)
_WITH = re.compile(r"\b(?:make|cook|eat|have|recipes?|dish(?:es)?|meals?|dinner|lunch|supper|breakfast|ideas?)\b"
                   r"(?:\s+(?:tonight|today|for (?:dinner|lunch|supper|tea|breakfast)))?\s+(?:with|using|from|out of)\s+(?P<items>.+)$",
                   re.IGNORECASE)
_HAVE = re.compile(r"^(?:(?:but|and|well|so)\s+)?(?:i|we)(?:'ve| have)?(?:\s+(?:only|just))?\s+(?:got|have)\s+(?:only\s+)?(?P<items>.+)$|"
                   r"^all (?:i|we)(?:'ve got| have) (?:is|are)\s+(?P<all>.+)$|^there(?:'s| is| are)\s+(?:only\s+)?(?P<there>.+?)\s+in the (?:fridge|cupboard)$",
                   re.IGNORECASE)
_PARTS = re.compile(r"[?.!;]+|,\s*(?=(?:what|which|any|can|could|should|suggest|ideas?)\b)", re.IGNORECASE)
_SPLIT = re.compile(r"\s*(?:,|&|\band\b|\bor\b|\bplus\b)\s*", re.IGNORECASE)
_LEAD = re.compile(r"^(?:(?:some|a|an|the|a bit of|a few|a couple of|a tin of|a can of|a bag of|half an?|leftover|\d+)\s+)+", re.IGNORECASE)
_TAIL = re.compile(r"\s+(?:in the (?:fridge|cupboard|freezer)|left(?: over)?|at home|tonight|today|for (?:dinner|lunch|tea))$|"
                   r"\s+(?:that i|which i|i)\b.*$", re.IGNORECASE)
_THEM = frozenset({"them", "it", "that", "those", "these", "this"})


def cook_with_answer(text: str, told: Sequence[str], today: date) -> str | None:
    """Up to three meals using the most of the named ingredients, or None when this is not a request for meal ideas
    from named ingredients the meals know."""
    parts = [p.strip() for p in _PARTS.split(" ".join(text.split())) if p.strip()]
    if not any(_ASK.search(p) for p in parts):
        return None
    items = _named(parts)
    known = {s for m in meals() for s in _stems(m)}
    if not items or not any(_uses(i, known) for i in items):
        return None
    fit, because = fitting(told)
    start = today.toordinal() % max(len(fit), 1)
    ranked = sorted(enumerate(fit[start:] + fit[:start]), key=lambda p: (-len(_used(items, p[1])), p[0]))
    picked = [m for _, m in ranked if _used(items, m)][:SHOWN]
    why = f" ({', '.join(because)})" if because else ""
    if not picked:
        return f"Nothing I know made with {_listed(items)} fits{why}."
    lines = [f"- {capital(m.name)} ({_uses_line(items, m)})" for m in picked]
    unknown = [i for i in items if not _uses(i, known)]
    tail = [f"(I know no everyday meal with {_listed(unknown)}.)"] if unknown else []
    return "\n".join([f"With {_listed(items)} you could make{why}:", *lines, *tail])


def _named(parts: list[str]) -> list[str]:
    """The ingredients named after "with …" or in "I have …", in the person's words; [] when a piece is too long to be
    a list of ingredients."""
    found = next((m["items"] for p in parts if (m := _WITH.search(p))), None)
    if found is None or found.lower().strip() in _THEM:
        found = next((m["items"] or m["all"] or m["there"] for p in parts if (m := _HAVE.match(p))), None)
    if found is None:
        return []
    items = [_TAIL.sub("", _LEAD.sub("", i.strip())).strip() for i in _SPLIT.split(found)]
    items = [i for i in items if i]
    if not items or len(items) > MAX_ITEMS or any(len(i.split()) > MAX_ITEM_WORDS for i in items):
        return []
    return list(dict.fromkeys(items))


@cache
def _stems(meal: Meal) -> frozenset[str]:
    return frozenset(stem(h) for h in meal.has)


def _uses(item: str, stems: set[str] | frozenset[str]) -> bool:
    return any(stem(w) in stems for w in re.findall(r"[a-z]+", item.lower()))


def _used(items: list[str], meal: Meal) -> list[str]:
    return [i for i in items if _uses(i, _stems(meal))]


def _uses_line(items: list[str], meal: Meal) -> str:
    used = _used(items, meal)
    if len(used) == len(items) > 1:
        return "uses both" if len(items) == 2 else f"uses all {number_word(len(items))}"
    return "uses " + ", ".join(used)


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"
