"""A few meal ideas for "Suggest a dinner for me", fitted to what the person told about how they eat.

Tried with `mol chat` on the embedded default, right after "I'm vegetarian": "Suggest a dinner for me" got "You can
suggest a dinner for me."; "Give me some ideas for dinner tonight" got "pub lounge" twenty times. The 135M model
knows few meals and nothing of the person, so on it the ideas come from a short list written by hand
(`data/meals.toml`), kept to the diet the person told (vegan, vegetarian, pescatarian) and without anything they said
they are allergic to or do not eat. Which three rotates with the day. A larger model answers itself.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from functools import cache
from importlib import resources

from memory.store import said_words

_ASK = re.compile(r"^(?:(?:hi|hey|ok(?:ay)?|so)[,!]?\s+)?(?:(?:can|could) you\s+)?(?:please\s+)?"
                  r"(?:suggest|recommend|give me|any|what (?:should|shall|can|could) (?:i|we) (?:have|make|cook|eat))\b"
                  r"(?:\s+(?:me|us|some|a|an|few|good|quick|easy|healthy|idea|ideas|for|something|recipe|recipes))*\s+"
                  r"(?P<meal>dinner|supper|lunch|meal|meals|tea)\b(?:\s+(?:ideas?|recipes?|tonight|today|for (?:me|us|tonight|today)|to cook|to make|"
                  r"(?:that |which )?(?:i|we) (?:can|could) (?:eat|have|make|cook)))*[\s?.!]*$",
                  re.IGNORECASE)
_SUITS = {"vegan": {"vegan"}, "vegetarian": {"vegan", "vegetarian"}, "pescatarian": {"vegan", "vegetarian", "pescatarian"}}
_DIET = re.compile(r"\b(vegan|vegetarian|pescatarian)\b", re.IGNORECASE)
_AVOIDS = re.compile(r"\b(?:allergic to|(?:doesn't|does not|don't|do not|can't|cannot|never) eat)\s+(?P<what>[\w ,'-]+)", re.IGNORECASE)
SHOWN = 3


@dataclass(frozen=True)
class Meal:
    name: str
    diet: frozenset[str]
    has: frozenset[str]


@cache
def meals() -> tuple[Meal, ...]:
    data = tomllib.loads(resources.files("mol_local.turn").joinpath("data/meals.toml").read_text(encoding="utf-8"))
    return tuple(Meal(m["name"], frozenset(m["diet"]), frozenset(m["has"])) for m in data["meal"])


def stem(word: str) -> str:
    """One word's singular, so "tomatoes", "noodles" and "berries" meet "tomato", "noodle" and "berry"."""
    w = word.lower()
    if len(w) <= 3 or not w.endswith("s") or w.endswith(("ss", "us")):
        return w
    for tail, put in (("ies", "y"), ("oes", "o"), ("ches", "ch"), ("shes", "sh"), ("xes", "x")):
        if w.endswith(tail):
            return w[: -len(tail)] + put
    return w[:-1]


_OTHER = re.compile(r"^(?:The user's|[Mm]y|[Oo]ur) (?P<who>[a-z]+(?: [a-z]+)?)(?: (?P<name>[A-Z][a-z]+))? (?:is|are|'s)\b")


def _whose(fact: str) -> str:
    """Who a diet is said of: "you're", "Alex is" ("The user's partner Alex is vegetarian"), "your partner is"; `mol chat`
    had said "(you're vegetarian)" for the partner's."""
    m = _OTHER.match(said_words(fact).strip())  # a fact, or their words ('You said: "My partner Alex is vegetarian"')
    return "you're" if m is None else f"{m['name']} is" if m["name"] else f"your {m['who']} is"


def fitting(told: Sequence[str]) -> tuple[list[Meal], list[str]]:
    """The meals that fit what was `told` ("The user is vegetarian.", "The user is allergic to peanuts."), and why, in
    words ("you're vegetarian", "no peanuts")."""
    diets = [d.lower() for t in told for d in _DIET.findall(t)]
    whose = [_whose(t) for t in told if _DIET.search(t)]
    said_avoid = list(dict.fromkeys(w for t in told for a in _AVOIDS.finditer(t) for w in re.findall(r"[a-z]+", a["what"].lower())
                                    if w not in ("and", "or", "any", "anything", "with")))
    avoid = {stem(w) for w in said_avoid}
    suits = _SUITS.get(diets[-1]) if diets else None
    fit = [x for x in meals() if (suits is None or x.diet & suits) and not {stem(h) for h in x.has} & avoid]
    because = [f"{whose[-1]} {diets[-1]}"] if diets else []
    if said_avoid:
        because.append("no " + ", ".join(said_avoid))
    return fit, because


def meal_answer(text: str, told: Sequence[str], today: date) -> str | None:
    """Three ideas for the meal asked about, fitted to the memories `told`; None when the request is not only a request
    for meal ideas."""
    m = _ASK.match(" ".join(text.split()))
    if m is None:
        return None
    fit, because = fitting(told)
    if not fit:
        return None
    start = today.toordinal() % len(fit)
    picked = (fit[start:] + fit[:start])[:SHOWN]
    meal = "dinner" if m["meal"].lower() in ("dinner", "supper", "tea", "meal", "meals") else m["meal"].lower()
    head = f"Some ideas for {meal}" + (f" ({', '.join(because)})" if because else "") + ":"
    return head + "\n" + "\n".join(f"- {capital(x.name)}" for x in picked)


def capital(name: str) -> str:
    return f"{name[:1].upper()}{name[1:]}"
