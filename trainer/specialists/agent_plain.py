"""L1 plans answered in words alone: every constraint the person stated must show in the answer, and nothing it ruled out.

- meals: an N-day vegetarian or vegan plan leaving one ingredient out (said in the
  request, or only in a memory in the tail); checked: every day is there, no
  ruled-out word (the ingredient, meat, for vegans animal products), no tool call.
- packing: what to pack for N days of a trip; checked: every item the person
  named, the clothes counted for N days.
- budget: what is left per day after the room and the travel; checked: the three
  sums, each written so that no checked sum is part of another number.
"""

from __future__ import annotations

import random
import re

from trainer.specialists.agent_words import ANIMAL, BUDGET_PLACES, CURRENCIES, DISHES, EXCLUSIONS, MEALS, MEAT, NAMED_ITEMS, TRIPS
from trainer.specialists.phrases import WEEKDAYS, random_now
from trainer.specialists.toolrun import Plan
from trainer.specialists.words import PERSON_FACTS

SLOT = "L1"
MEAL = {
    "meal_plan": "Make me a {n}-day {diet} meal plan {excl}",
    "meal_days": "Plan {diet} meals for {span}: breakfast, lunch and dinner, {excl}",
    "meal_cook": "I need {diet} breakfasts, lunches and dinners for the next {n} days, {excl}. What should I cook?",
    "meal_tail": "Plan my meals for {span} — I'm {diet}. Keep in mind what I can't eat.",
    "meal_sketch": "Could you sketch out {n} days of {diet} food for me, {excl}?",
}
PACK = {
    "pack_what": "I'm going on {trip} to {place} for {n} days. What should I pack? I must not forget {items}.",
    "pack_help": "Help me plan what to pack for {n} days in {place} ({trip}) — {items} have to come with me",
    "pack_need": "What do I need for {trip} in {place}, {n} days? Definitely {items}.",
    "pack_bring": "{n} days in {place} for {trip}: tell me what to bring, and make sure {items} are in there",
}
BUDGET = {
    "budget_left": "I have {c}{total} for {n} days in {place}. The hotel is {c}{rate} a night for {n} nights and the travel costs {c}{travel}. How much can I spend per day on everything else?",
    "budget_split": "Help me budget {n} days in {place}: {c}{total} in total, {c}{rate} per night for {n} nights, {c}{travel} for the train. What's left per day?",
    "budget_plan": "My budget for {n} days in {place} is {c}{total}; flights are {c}{travel} and the flat is {c}{rate} a night for {n} nights. Plan the spending per day.",
    "budget_each": "{place}, {n} days, {c}{total} to spend. Room {c}{rate} a night for {n} nights, getting there {c}{travel}. What does that leave me each day?",
}
HELDOUT_PLAIN = frozenset({"meal_sketch", "pack_bring", "budget_each"})
NUMBERS = ("two", "three", "four", "five")


def yours(text: str) -> str:
    """The person's words as the answer says them back: "my manager" -> "your manager"."""
    return re.sub(r"\bmy\b", "your", re.sub(r"\bMy\b", "Your", text))


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def meal_plans(rng: random.Random, templates: list[str], n_plans: int) -> list[Plan]:
    plans = []
    for _ in range(n_plans):
        template = rng.choice(templates)
        n = rng.randint(2, 4)
        vegan = rng.random() < 0.3
        diet = "vegan" if vegan else "vegetarian"
        word, said, memory, plural = rng.choice(EXCLUSIONS)
        ruled_out = [word, *MEAT, *(ANIMAL if vegan else ())]
        start = rng.randrange(7)
        days = [WEEKDAYS[(start + i) % 7] for i in range(n)]
        named_days = "{span}" in MEAL[template]
        labels = days if named_days else [f"Day {i + 1}" for i in range(n)]
        menu = {meal: rng.sample([d for d, m, v, tags in DISHES if m == meal and (v or not vegan) and word not in tags
                                  and not any(r in d.lower() for r in ruled_out)], n) for meal in MEALS}
        lines = [f"{label} — breakfast: {menu['breakfast'][i]}; lunch: {menu['lunch'][i]}; dinner: {menu['dinner'][i]}"
                 for i, label in enumerate(labels)]
        from_tail = template == "meal_tail"
        request = MEAL[template].format(n=n, diet=diet, excl=said, span=f"{days[0]} to {days[-1]}")
        intro = rng.choice((f"Here's a {n}-day {diet} plan, leaving out what you asked:",
                            f"{n} days of {diet} meals, none of them with what you ruled out:",
                            f"A {diet} plan for {n} days, keeping to what you can eat:"))
        answer = intro + "\n" + "\n".join(lines)
        summary = rng.choice((f"Made a {n}-day {diet} meal plan without {plural}.",
                              f"Planned {n} days of {diet} breakfasts, lunches and dinners, none with {plural}."))
        others = [f"The user's {s[3:].format(v=v)}" for _w, _q, v, s in rng.sample(PERSON_FACTS, 4) if s.startswith("my ")][:2]
        notes = tuple(rng.sample([memory, *others], len(others) + 1)) if from_tail else ()
        plans.append(Plan(
            SLOT, template, request, random_now(rng), rounds=[], answer=lambda _o, a=answer: a, summary=lambda _o, s=summary: s,
            check={"calls": "none", "answer": {"has": labels, "not": ruled_out}}, notes=notes,
        ))
    return plans


def _bare(item: str) -> str:
    """ "my passport" -> "passport": what a right answer must name, whoever's it is."""
    return re.sub(r"^(my|the|a|an) ", "", item)


def pack_plans(rng: random.Random, templates: list[str], n_plans: int) -> list[Plan]:
    plans = []
    for _ in range(n_plans):
        template = rng.choice(templates)
        trip = rng.choice(list(TRIPS))
        essentials, places = TRIPS[trip]
        place = rng.choice(places)
        n = rng.randint(2, 9)
        named = rng.sample(NAMED_ITEMS, rng.randint(2, 4))
        request = PACK[template].format(trip=trip, place=place, n=n, items=join(named))
        clothes = f"{n} T-shirts, {n} pairs of socks, {n} sets of underwear, a jumper and something to sleep in"
        basics = [b for b in ("a toothbrush and toothpaste", "a phone charger", "your keys and wallet") if _bare(b) not in map(_bare, named)]
        answer = "\n".join((
            rng.choice((f"For your {n} days in {place} ({trip}):", f"What to pack for {place}, {n} days:")),
            f"- The ones you named: {join([yours(i) for i in named])}",
            f"- Clothes: {clothes}",
            f"- For {trip}: {join(list(essentials))}",
            f"- Also: {join(basics)}",
        ))
        summary = f"Planned what to pack for {n} days of {trip} in {place}, including {join([_bare(i) for i in named])}."
        plans.append(Plan(
            SLOT, template, request, random_now(rng), rounds=[], answer=lambda _o, a=answer: a, summary=lambda _o, s=summary: s,
            check={"calls": "none", "answer": {"has": [_bare(i) for i in named] + [f"{n} pairs of socks"]}},
        ))
    return plans


def _separate(amounts: list[str]) -> bool:
    """No amount is part of another ("€60" inside "€600" would let a wrong answer pass a `has` check)."""
    return all(a not in b for a in amounts for b in amounts if a != b) and len(set(amounts)) == len(amounts)


def budget_plans(rng: random.Random, templates: list[str], n_plans: int) -> list[Plan]:
    plans = []
    while len(plans) < n_plans:
        template = rng.choice(templates)
        n = rng.randint(2, 7)
        c = rng.choice(CURRENCIES)
        rate, travel, per_day = rng.randrange(60, 181, 5), rng.randrange(40, 401, 10), rng.randrange(25, 121, 5)
        room, left = n * rate, n * per_day
        total = room + travel + left
        amounts = [f"{c}{x:,}" for x in (room, room + travel, left, per_day, total, rate, travel)]
        if not _separate(amounts):
            continue
        place = rng.choice(BUDGET_PLACES)
        request = BUDGET[template].format(c=c, total=f"{total:,}", n=n, place=place, rate=rate, travel=travel)
        m = {x: f"{c}{x:,}" for x in (room, travel, left, per_day, total, rate)}
        answer = rng.choice((
            f"Room: {n} × {m[rate]} = {m[room]}. With travel ({m[travel]}) that's {c}{room + travel:,}, "
            f"which leaves {m[left]} of your {m[total]}: {m[per_day]} per day for {n} days.",
            f"- Hotel: {n} nights × {m[rate]} = {m[room]}\n- Travel: {m[travel]}\n- Fixed costs: {c}{room + travel:,}\n"
            f"- Left for everything else: {m[left]}, so {m[per_day]} a day over {n} days",
        ))
        summary = f"Budgeted {n} days in {place}: {m[left]} left after room and travel, {m[per_day]} per day."
        plans.append(Plan(
            SLOT, template, request, random_now(rng), rounds=[], answer=lambda _o, a=answer: a, summary=lambda _o, s=summary: s,
            check={"calls": "reads only", "answer": {"has": [m[room], m[left], m[per_day]]}},  # computing the sums (python) changes nothing
        ))
    return plans
