"""L0 (Chat) families for what the person tells in passing and asks about later (seen in the app).

- told: a piece of news that is not about the person ("The plumber Dave is coming on Tuesday to fix
  the kitchen sink") is acknowledged in words that say it back, with no tool call. The specialist
  answered it with its previous answer ("Good to know — you are Adra.").
- asked: "What did I tell you about the plumber?" with what they said in the tail, as recall puts it
  (`You said: "…"`, mol_local/recall.said_row), answered from it; with nothing about it in the tail,
  it says it has not been told. The specialist answered "I don't know your dog yet" with the message
  in its tail.
- asked in the same conversation: the telling is an earlier turn of this view (`check["told_before"]`,
  put last in the history by sequences.build_sequences), with or without its said row in the tail.
  L0 v3, trained only on other conversations' tails, answered "You haven't told me anything about the
  plumber yet." one turn after being told.
"""

from __future__ import annotations

import random

from memory.store import said_text
from trainer.specialists.phrases import random_now
from trainer.specialists.toolrun import Plan

SLOT = "L0"
# (topic as asked about, the news as said, a word the answer must carry)
NEWS = (
    ("the plumber", "the plumber Dave is coming on Tuesday to fix the kitchen sink", "Tuesday"),
    ("the plumber", "the plumber can only come on Friday morning", "Friday"),
    ("the car", "the car goes in for its service on the 14th", "14th"),
    ("the car", "the garage said the brakes need new pads", "pads"),
    ("the parcel", "the parcel from Lisbon is being held at the post office", "post office"),
    ("the party", "Anna's birthday party is at the Blue Lantern on Saturday at 7", "Blue Lantern"),
    ("the party", "the office party moved to Thursday the 18th", "Thursday"),
    ("the rent", "the rent goes up to 950 a month from March", "950"),
    ("the landlord", "the landlord wants to inspect the flat next Wednesday", "Wednesday"),
    ("the dentist", "the dentist moved my check-up to the 3rd of June", "3rd of June"),
    ("the vet", "the vet said the cat needs a tooth out in May", "tooth"),
    ("book club", "book club is reading The Left Hand of Darkness this month", "Left Hand of Darkness"),
    ("book club", "book club meets at Jo's place on the first Monday", "Jo's"),
    ("the trip", "the train to Porto leaves at 6:40 from platform 4", "platform 4"),
    ("the trip", "the hotel in Ghent is booked for three nights", "three nights"),
    ("the school", "the school play is on the 12th at half past six", "12th"),
    ("the school", "the kids have a teacher training day on Friday", "Friday"),
    ("the neighbours", "the neighbours are away until the 20th and I'm watering their plants", "plants"),
    ("the boiler", "the boiler engineer found a leak in the pressure valve", "pressure valve"),
    ("the boiler", "the new boiler is being fitted on Monday the 9th", "Monday"),
    ("the gym", "the gym is closed for repairs all next week", "repairs"),
    ("the concert", "the concert tickets are in the name of Sam Reyes", "Sam Reyes"),
    ("the concert", "the concert starts at 8 but doors open at 7", "doors"),
    ("my sister", "my sister lands at Gatwick at 10:15 on Sunday", "Gatwick"),
    ("my parents", "my parents are visiting for the bank holiday weekend", "bank holiday"),
    ("the bike", "the bike shop said the new wheel arrives on Thursday", "wheel"),
    ("the insurance", "the insurance renewal is due on the 1st of August", "1st of August"),
    ("the recipe", "the lasagne needs two hours in the oven at 160", "160"),
    ("the meeting", "the budget meeting was pushed to 3pm on Wednesday", "3pm"),
    ("the flat", "the flat viewing on Elm Street is at noon on Saturday", "Elm Street"),
)
TOLD = {
    "told_plain": "{news}",
    "told_fyi": "FYI, {news}",
    "told_know": "just so you know, {news}",
    "told_news": "some news: {news}",
    "told_heads": "heads up: {news}",  # held out
}
ASKED = {
    "asked_tell": "What did I tell you about {topic}?",
    "asked_say": "what did I say about {topic}?",
    "asked_remember": "Do you remember what I said about {topic}?",
    "asked_mention": "What was it I mentioned about {topic}?",
    "asked_remind": "Remind me what I told you about {topic}",  # held out
}
HELDOUT = frozenset({"told_heads", "asked_remind"})


def back(news: str) -> str:
    """The news said back to the person: their "my"/"I'm" become "your"/"you're"."""
    return news.replace("my ", "your ").replace("I'm ", "you're ").replace(" me ", " you ")


def told_plans(rng: random.Random, templates: list[str], n: int) -> list[Plan]:
    plans = []
    for _ in range(n):
        template = rng.choice(templates)
        _topic, news, key = rng.choice(NEWS)
        request = TOLD[template].format(news=news)
        request = request[:1].upper() + request[1:] + rng.choice((".", "", "!"))
        answer = rng.choice((f"Noted — {back(news)}.", f"Thanks for letting me know: {back(news)}.", f"Got it: {back(news)}."))
        plans.append(Plan(SLOT, template, request, random_now(rng), rounds=[], answer=lambda _o, a=answer: a,
                          summary=lambda _o, s=news: f"The user told me {back(s)}; I acknowledged it.",
                          check={"calls": "none", "answer": {"has": [key]}}))
    return plans


def told_turn(rng: random.Random, news: str, told: list[str]) -> dict[str, str]:
    """An earlier turn of the same conversation that told `news` (in one of the `told` templates), as a told plan answers it."""
    request = TOLD[rng.choice(told)].format(news=news)
    request = request[:1].upper() + request[1:]
    return {"request": request, "answer": f"Thanks for letting me know: {back(news)}.",
            "summary": f"The user told me {back(news)}; I acknowledged it."}


def asked_plans(rng: random.Random, templates: list[str], told: list[str], n: int, *, known: bool = True,
                in_view: bool = False) -> list[Plan]:
    """Asked about news; `told` are the TOLD templates of this split (the person's words in the tail and the view)."""
    plans = []
    while len(plans) < n:
        template = rng.choice(templates)
        topic, news, key = rng.choice(NEWS)
        others = [o for o in rng.sample(NEWS, 4) if o[0] != topic][:2]
        said = lambda s: said_text(TOLD[rng.choice(told)].format(news=s))  # noqa: E731  (as recall shows it)
        in_tail = known and not (in_view and rng.random() < 0.3)  # in the same conversation recall usually finds it too
        tail = ([said(news)] if in_tail else []) + [said(o[1]) for o in others]
        rng.shuffle(tail)
        if known:
            answer, check = f"You told me {back(news)}.", {"calls": "none", "answer": {"has": [key]}}
        else:
            answer = f"You haven't told me anything about {back(topic)} yet."
            check = {"calls": "none", "answer": {"not": [key], "has": ["haven't told me"]}}
        plans.append(Plan(
            SLOT, template, ASKED[template].format(topic=topic), random_now(rng), rounds=[], answer=lambda _o, a=answer: a,
            summary=lambda _o, t=topic, k=known: f"Asked what they told me about {back(t)}; " + ("said it back." if k else "I had not been told."),
            check={**check, "told_before": told_turn(rng, news, told)} if in_view else check, notes=tuple(tail),
        ))
    return plans


def told_and_asked(rng: random.Random, split: str, count) -> list[Plan]:
    """Both families for one split; `count(n)` scales a train-split size to the split."""

    def pick(family: dict) -> list[str]:
        return [t for t in family if (t in HELDOUT) == (split == "heldout")]

    told = pick(TOLD)
    return (told_plans(rng, told, count(60)) + asked_plans(rng, pick(ASKED), told, count(60))
            + asked_plans(rng, pick(ASKED), told, count(40), in_view=True) + asked_plans(rng, pick(ASKED), told, count(15), known=False))
