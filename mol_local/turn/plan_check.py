"""A day-by-day plan in an answer has the days that were asked, each once, before the person gets it.

Tried with `mol chat` on the embedded default: "Plan a 2 day trip to Paris" got Day 1, Day 2 *and* Day 3,
"Make a 3 day meal plan" got "Here's a 3-day meal plan, leaving out what you asked:" (nothing was ruled out)
with a bean burrito bowl at six of nine meals, and the held-out L1 sketches stopped after Day 1. A request
that asks for N days of meals or of a trip gets its answer's day lines counted ("Day 2 — …" or a weekday)
and read, like code is run (turn/code_check.py): a draft is kept when it has exactly the N days, no two
alike, and — for meals — no dish at more than two meals. Otherwise up to `TRIES` drafts are sampled (none
started after `REDRAFT_BUDGET_S`) and the first that passes is the answer; failing that, the first draft
with the most right days is shown, cut to the days asked. An intro that claims to leave out what was
asked, when nothing was, loses the claim.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable

from mol_local.turn.code_check import REDRAFT_BUDGET_S, TRIES, Checked

_NUMBER = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "a": 1}
_ASKS = re.compile(r"\b(?P<n>[1-7]|one|two|three|four|five|six|seven)[- ](?:days?|nights?)\b(?=.*\b(?:meals?|food|menu|eat|cook|trip|itinerary|"
                   r"visit|holiday|vacation|stay|plan|days? in)\b)|\b(?:meals?|food|trip|itinerary|plan)\b.{0,40}?(?:\bfor\s+|[:,]\s*)(?P<m>[1-7]|two|three|"
                   r"four|five|six|seven)\s+days\b", re.IGNORECASE)
_DAY = re.compile(r"^\s*(?:[-*•]\s*)?\**(?P<label>day\s+(?P<k>\d{1,2})|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b\**"
                  r"\s*[—:–-]+\s*(?P<body>.+)$", re.IGNORECASE | re.MULTILINE)
_MEALS = re.compile(r"\b(?:meals?|food|menu|eat|cook|breakfasts?|lunch(?:es)?|dinners?)\b", re.IGNORECASE)
_DISH = re.compile(r"\b(?:breakfast|lunch|dinner|snack)\s*:\s*(?P<dish>[^;\n]+)", re.IGNORECASE)
_RULED_OUT = re.compile(r"\b(?:without|no|not|never|can'?t|cannot|don'?t|allergic|avoid|except|skip|leave out|leaving out|hate|vegan|"
                        r"vegetarian)\b", re.IGNORECASE)
_FALSE_CLAIM = re.compile(r",?\s*(?:leaving out what you asked|none of them with what you ruled out|keeping to what you can eat)", re.I)


def asked_days(request: str) -> int | None:
    """How many days of meals or of a trip the request asks for, or None when it asks for no such plan."""
    m = _ASKS.search(request)
    if m is None:
        return None
    said = (m["n"] or m["m"]).lower()
    return int(said) if said.isdigit() else _NUMBER[said]


def plan_fault(answer: str, request: str, days: int) -> str:
    """Why the answer is not a plan of `days` days ('' when it is)."""
    lines = list(_DAY.finditer(answer))
    if len(lines) != days:
        return f"it has {len(lines)} day{'s' if len(lines) != 1 else ''}, not the {days} asked"
    bodies = [" ".join(m["body"].lower().split()) for m in lines]
    if len(set(bodies)) != len(bodies):
        return "two days are the same"
    numbered = [int(m["k"]) for m in lines if m["k"]]
    if numbered and numbered != list(range(1, days + 1)):
        return "its days are out of order"
    if _MEALS.search(request) and (out := next((w for w in ruled_out(request) if re.search(rf"\b{re.escape(w)}", answer, re.I)), None)):
        return f"it has {out}, which you ruled out"
    if _MEALS.search(request):
        dishes = Counter(" ".join(d["dish"].lower().split()).rstrip(".") for d in _DISH.finditer(answer))
        if dishes and (top := dishes.most_common(1)[0])[1] > 2:
            return f"{top[0]} is at {top[1]} meals"
    return ""


_NO = re.compile(r"\b(?:no|without|not|never|can'?t eat|cannot eat|don'?t eat|allergic to|avoid(?:ing)?|skip|leave out|hate)\s+"
                 r"(?P<what>[a-z]+(?:\s+(?:or|and|,)\s*[a-z]+)*)", re.IGNORECASE)
_NOT_FOOD = frozenset("more than the a an any too much meat fish dairy".split())


_MEAT = ("beef", "chicken", "pork", "lamb", "bacon", "ham", "turkey", "sausage", "steak", "salmon", "tuna", "fish", "prawn", "shrimp", "anchov")
_ANIMAL = ("egg", "cheese", "milk", "butter", "yoghurt", "yogurt", "honey", "cream")


def ruled_out(request: str) -> list[str]:
    """The foods the request rules out ("no mushrooms" -> "mushroom"), each cut to a stem a plural still matches,
    and meat and fish for a vegetarian or vegan plan (animal products too for a vegan one); other words that name a
    group ("no dairy") are left to the model."""
    diet = re.search(r"\b(vegetarian|vegan)\b", request, re.I)
    out = [*(_MEAT if diet else ()), *(_ANIMAL if diet and diet[1].lower() == "vegan" else ())]
    for m in _NO.finditer(request):
        for word in re.split(r"\s*(?:or|and|,)\s*", m["what"].lower()):
            if word and word not in _NOT_FOOD and len(word) > 2:
                out.append(word[:-1] if word.endswith("s") and not word.endswith("ss") else word)
    return out


def _honest(answer: str, request: str) -> str:
    """The answer without "leaving out what you asked" when the request ruled nothing out."""
    return answer if _RULED_OUT.search(request) else _FALSE_CLAIM.sub("", answer, count=1)


def _cut(answer: str, days: int) -> str:
    """The answer with the day lines after the `days`-th taken out (the rest stays)."""
    lines = list(_DAY.finditer(answer))
    for m in reversed(lines[days:]):
        answer = answer[: m.start()].rstrip("\n") + answer[m.end():]
    return answer


def checked_plan(answer: str, request: str, again: Callable[[int], str], tries: int = TRIES) -> Checked:
    """The first of `answer` and up to `tries - 1` samples (`again(seed)`) that is a plan of the days asked; failing
    that, the draft with the most of them, cut to the days asked. Checked('…') with no report when the request asks
    for no day plan or the answer writes none (a question back, a refusal)."""
    days = asked_days(request)
    if days is None:
        return Checked(answer)
    fault = plan_fault(answer, request, days)
    if not fault:
        return Checked(_honest(answer, request), f"read: a plan of {days} days")
    drafts, began = [(answer, fault)], time.monotonic()
    for seed in range(1, tries):
        if time.monotonic() - began > REDRAFT_BUDGET_S:
            break
        sampled = again(seed).strip()
        why = plan_fault(sampled, request, days)
        if not why:
            return Checked(_honest(sampled, request), f"read: the first draft failed ({fault}); draft {seed + 1} is a plan of {days} days",
                           redrafted=True)
        drafts.append((sampled, why))
    best = max(drafts, key=lambda d: ("ruled out" not in d[1], min(len(_DAY.findall(d[0])), days)))  # the first on a tie
    return Checked(_honest(_cut(best[0], days), request), f"read: {len(drafts)} drafts, none passes ({fault})", redrafted=best[0] != answer)
