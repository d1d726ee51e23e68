"""L1 trip plans: N days in a city around what the person likes, in words alone.

Seen from a new user: "Plan a 3-day trip to Lisbon — I love museums and seafood" made
the bare-persona L1 (and L1 v1, which had only timed day plans) set reminders with
invented times. A trip plan with no times asked for is answered as a day-by-day plan
and no tool call. Checked: no call, every day there, the city and each liked thing
named, nothing the person ruled out.

The activities are generic ("the old town on foot"), never invented landmarks: a
135M model must not learn to make up names of places.
"""

from __future__ import annotations

import random

from trainer.specialists.agent_plain import cap, join
from trainer.specialists.phrases import random_now
from trainer.specialists.toolrun import Plan

SLOT = "L1"
TRIP = {
    "trip_days": "Plan {n} days in {city} for me. I love {likes}{avoid}.",
    "trip_itin": "Can you make me an itinerary for {n} days in {city}? I'm into {likes}{avoid}.",
    "trip_each": "I'm spending {n} days in {city} — what should I do each day? {Likes} matter most to me{avoid}.",
    "trip_going": "I'm going to {city} for {n} days next month. Plan it around {likes}{avoid}.",
    "trip_help": "Help me plan my trip to {city}: {n} days, {likes}{avoid}.",
}
HELDOUT_TRIP = frozenset({"trip_help"})
CITIES = ("Lisbon", "Vienna", "Kraków", "Bologna", "Berlin", "Porto", "Edinburgh", "Seville", "Copenhagen", "Prague",
          "Budapest", "Valencia", "Dublin", "Amsterdam", "Ljubljana", "Bergen", "Galway", "Turin", "Marseille", "Tallinn")
LIKES = {  # what a person says they like -> (the word the answer must name, morning, afternoon, evening ideas)
    "museums": ("museum", ("the main art museum", "the city history museum"), ("a smaller museum off the tourist track",),
                ("a late opening at a gallery",)),
    "food": ("food", ("breakfast at a local bakery",), ("a food market for lunch", "a cooking class"),
             ("dinner at a traditional restaurant", "a food tour of the old quarter")),
    "seafood": ("seafood", ("the fish market early",), ("a seafood lunch by the water",), ("a seafood dinner in the harbour area",)),
    "walking": ("walk", ("a walking tour of the old town",), ("a long walk along the river",), ("an evening walk through the centre",)),
    "history": ("histor", ("the old castle and the cathedral",), ("a guided history walk",), ("the historic centre lit up at night",)),
    "architecture": ("architecture", ("an architecture walk through the old streets",), ("the grand squares and their buildings",),
                     ("the skyline from a rooftop",)),
    "parks": ("park", ("coffee in the biggest park",), ("an afternoon in the botanical garden",), ("a picnic in a park at sunset",)),
    "music": ("music", ("a record shop or two",), ("a music museum",), ("a live music bar", "a concert")),
    "views": ("view", ("the highest viewpoint before the crowds",), ("a hill with a view over the city",), ("sunset from a viewpoint",)),
    "shopping": ("shop", ("the local design shops",), ("browsing the markets and small shops",), ("the late-night shops in the centre",)),
    "coffee": ("coffee", ("coffee in an old café",), ("a coffee crawl through two neighbourhoods",), ("dessert and coffee after dinner",)),
    "art": ("art", ("the modern art gallery",), ("street art in the old industrial quarter",), ("an evening at a small gallery",)),
}
AVOID = {  # how the person rules something out -> the word the answer must not say
    "museums": (", but no museums", "museum"),
    "shopping": (" — not shopping though", "shop"),
    "nightlife": (", and I'm not one for nightlife", "nightlife"),
    "early": (", with no early starts", "early"),
    "tours": (", and no guided tours", "tour"),
}
AVOIDED = {"museums": "museums", "shopping": "shopping", "nightlife": "nightlife", "early": "early starts", "tours": "guided tours"}
PARTS = ("morning", "afternoon", "evening")
FREE = {  # a part of a day the liked things do not fill
    "morning": ("a slow start and a wander", "a neighbourhood you haven't seen yet", "breakfast and no plans"),
    "afternoon": ("time to rest", "a boat or tram ride across the city", "a wander wherever looks good"),
    "evening": ("dinner near where you stay", "a quiet evening", "a drink somewhere with a terrace"),
}


def _fits(idea: str, banned: str | None) -> bool:
    return banned is None or banned not in idea.lower()


def trip_plans(rng: random.Random, templates: list[str], n_plans: int) -> list[Plan]:
    plans: list[Plan] = []
    while len(plans) < n_plans:
        template = rng.choice(templates)
        n = rng.randint(2, 4)
        city = rng.choice(CITIES)
        liked = rng.sample(sorted(LIKES), 2)
        avoid_key = rng.choice([None, *sorted(AVOID)])
        if avoid_key in liked:
            continue
        avoid_said, banned = AVOID[avoid_key] if avoid_key else ("", None)
        # each part of each day takes the next unused idea of a liked thing, turn about; a free slot gets a plain one
        pools = {part: [idea for like in liked for idea in LIKES[like][1 + i] if _fits(idea, banned)] for i, part in enumerate(PARTS)}
        for pool in pools.values():
            rng.shuffle(pool)
        days = []
        for d in range(n):
            parts = [f"{part}: {pools[part][d] if d < len(pools[part]) else rng.choice(FREE[part])}" for part in PARTS]
            days.append(f"Day {d + 1} — " + "; ".join(parts))
        words = [LIKES[like][0] for like in liked]
        body = "\n".join(days)
        if not all(w in body.lower() for w in words) or (banned and banned in body.lower()):
            continue
        likes = join(liked)
        request = TRIP[template].format(n=n, city=city, likes=likes, Likes=cap(likes), avoid=avoid_said)
        intro = rng.choice((f"{n} days in {city}, built around {likes}:", f"Here's a plan for {city}, {n} days, with {likes} each day:",
                            f"Your {n} days in {city}:"))
        outro = rng.choice(("", "\nNothing here needs booking yet; tell me if you want reminders for any of it.",
                            "\nTell me your dates and I can note the plan down."))
        answer = f"{intro}\n{body}{outro}"
        summary = f"Planned {n} days in {city} around {likes}" + (f", leaving out {AVOIDED[avoid_key]}." if avoid_key else ".")
        plans.append(Plan(
            SLOT, template, request, random_now(rng), rounds=[], answer=lambda _o, a=answer: a, summary=lambda _o, s=summary: s,
            check={"calls": "none", "answer": {"has": [city, *(f"Day {i + 1}" for i in range(n)), *words],
                                             "not": [banned] if banned else []}},
        ))
    return plans
