"""Gift ideas by what someone likes, and things to do by the kind of day, on the embedded model.

Tried with `mol chat` on the embedded default: "Gift ideas for my dad who likes gardening" got "Thanks for letting me
know: your dad likes gardening."; "Give me three ideas for a rainy Sunday at home" got "A backyard barbecue: set up a
backyard barbecue with friends and family"; "… for a rainy Sunday" got "A new shopping mall: Brandon's Little House".
The 135M model has few ideas and loses the one thing the request named, so on it the ideas come from short lists
written by hand (`data/ideas.toml`), found by what the request names (gardening, a rainy day, the kids), as many as
asked ("three ideas"), rotating with the day. A request naming nothing there is the model's, as is any on a larger
model.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from datetime import date
from functools import cache
from importlib import resources

from mol_local.number_words import number_word
from mol_local.turn.answer_check import asked_count
from mol_local.turn.meals import capital

SHOWN = 4
MAX_SHOWN = 8
_GIFT = re.compile(r"\b(?:gifts?|presents?|stocking fillers?)\b|\bwhat (?:should|could|can|shall) (?:i|we) (?:get|buy|give)\b", re.I)
_ASKS = re.compile(r"\b(?:ideas?|suggest\w*|recommend\w*|any|what (?:should|could|can|shall) (?:i|we)|help me (?:find|choose|pick)|"
                   r"give me|things to do|something to do|activities)\b", re.I)
_TO_DO = re.compile(r"\b(?:ideas?|things to do|something to do|activities|what (?:can|could|should|shall) (?:i|we) do)\b", re.I)
_DOING = re.compile(r"\b(?:things to do|something to do|activities|what (?:can|could|should|shall) (?:i|we) do)\b", re.I)
_WHO = (re.compile(r"\b(?:for|get|buy|give)\s+(?P<who>(?:my|our)\s+(?!birthday|anniversary|christmas)[a-z]+(?:[- ]in[- ]law)?)\b", re.I),
        re.compile(r"\bfor\s+(?P<who>him|her|them|(?:a|an)\s+(?:friend|colleague|neighbour|neighbor|teacher|boss))\b", re.I))
_BACK = {"my": "your", "our": "your"}


@dataclass(frozen=True)
class Ideas:
    name: str  # what they like ("gardening") or the kind of day ("a rainy day at home")
    words: tuple[str, ...]
    ideas: tuple[str, ...]


@cache
def _lists() -> dict[str, tuple[Ideas, ...]]:
    data = tomllib.loads(resources.files("mol_local.turn").joinpath("data/ideas.toml").read_text(encoding="utf-8"))
    return {kind: tuple(Ideas(x.get("likes") or x["kind"], tuple(x["words"]), tuple(x["ideas"])) for x in data[kind]) for kind in ("gift", "day")}


def _named(text: str, lists: tuple[Ideas, ...]) -> tuple[Ideas, str] | None:
    """The list whose word comes first in the request (a plural or "-s" form too), and the word as said."""
    found = []
    for x in lists:
        for word in x.words:
            if m := re.search(rf"\b{re.escape(word)}(?:s|es)?\b", text, re.I):
                found.append((m.start(), -len(word), x, m[0]))
    return min(found, key=lambda f: f[:2])[2:] if found else None


def _for_a_day(text: str, word: str) -> bool:
    """Whether the ideas asked are things to do on that day: "things to do on a rainy day", "ideas for a rainy
    Sunday", "date night ideas" — not "any ideas how to get my kids to sleep?"."""
    w = re.escape(word)
    return bool(_DOING.search(text) or re.search(rf"\bideas?\s+(?:for|on)\s+(?:[\w']+\s+){{0,3}}?{w}\b", text, re.I)
                or re.search(rf"\b{w}(?:\s+[\w']+)?\s+ideas?\b", text, re.I))


def ideas_answer(text: str, today: date) -> str | None:
    """Gift ideas for what the person named that someone likes, or things to do for the kind of day named; None when
    the request is neither or names nothing the lists know."""
    said = " ".join(text.split())
    if len(said) > 200 or not _ASKS.search(said):
        return None
    gift = _GIFT.search(said) is not None
    if not gift and not _TO_DO.search(said):
        return None
    named = _named(said, _lists()["gift" if gift else "day"])
    if named is None or not gift and not _for_a_day(said, named[1]):
        return None
    found = named[0]
    n = min(asked_count(said) or SHOWN, MAX_SHOWN, len(found.ideas))
    start = today.toordinal() % len(found.ideas)
    picked = (found.ideas[start:] + found.ideas[:start])[:n]
    if gift:
        who = next((m for p in _WHO if (m := p.search(said))), None)
        person = " ".join(_BACK.get(w.lower(), w) for w in who["who"].split()) if who else "someone"
        head = f"Some gift ideas for {person}{',' if person.startswith('your') else ''} who likes {found.name}:"
    else:
        head = f"{capital(number_word(n))} ideas for {found.name}:"
    return head + "\n" + "\n".join(f"- {capital(i)}" for i in picked)
