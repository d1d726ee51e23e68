"""More L0 (Chat) families, from what a new user typed and the first L0 specialist got wrong.

- statement: a plain statement about the person ("My name is Ada", "I moved to Leeds") is
  acknowledged in words, naming what was said, with no tool call. Storing it is the memory
  extraction's job after the turn (mol_local/extract.py); the first specialist, which had only
  seen "remember that …" requests, called memory.remember with half the fact ("The user's name")
  or set a reminder "last month" and retried it until tools.max_rounds.
- small talk: greetings, thanks, goodbyes get a short answer and no tool call.
- past: a reminder for a time that has already passed is tried once; the tool's error goes back
  to the model, which says so and asks for a later time instead of calling again.
"""

from __future__ import annotations

import random

from trainer.specialists.phrases import clock_time, random_now
from trainer.specialists.toolrun import Plan
from trainer.specialists.words import PERSON_FACTS, TASKS, VALUES

SLOT = "L0"
NAMES = ("Ada", "Tom", "Priya", "Jonas", "Mei", "Carlos", "Fatima", "Olu", "Greta", "Sam", "Ines", "Kenji")
CITIES = ("Leeds", "Lisbon", "Glasgow", "Utrecht", "Bristol", "Valencia", "Kraków", "Dublin", "Bergen", "Turin")
EMPLOYERS = ("the library", "a bakery", "the hospital", "a bike shop", "the council", "a design studio")
# (what, value pool, how it is said, how the answer says it back)
OWN_FACTS = (
    ("name", NAMES, "my name is {v}", "Nice to meet you, {v}!"),
    ("name", NAMES, "I'm {v}, by the way", "Nice to meet you, {v}!"),
    ("home", CITIES, "I live in {v}", "Good to know — you live in {v}."),
    ("home", CITIES, "I moved to {v}", "Thanks for telling me — you live in {v} now."),
    ("home", CITIES, "I just moved to {v} last month", "Congratulations on the move to {v}!"),
    ("work", EMPLOYERS, "I work at {v}", "Good to know — you work at {v}."),
    ("work", EMPLOYERS, "I started a new job at {v}", "Congratulations on the new job at {v}!"),
)
STATEMENT = {
    "state_plain": "{said}",
    "state_btw": "by the way, {said}",
    "state_fyi": "just so you know, {said}",
    "state_oh": "oh, and {said}",  # held out
    "state_also": "also, {said}",  # held out
}
SMALL_TALK = {
    "talk_hi": (("Hi!", "Hi! What can I do for you?"), ("Hello", "Hello! How can I help?"),
                ("Good morning", "Good morning! What can I do for you today?"), ("Hey there", "Hey! What can I help with?")),
    "talk_thanks": (("Thanks!", "You're welcome!"), ("Thank you, that's great", "Glad it helped!"),
                    ("Cheers", "Any time!"), ("Thanks a lot", "You're welcome — happy to help.")),
    "talk_how": (("How are you?", "I'm running well, thanks. What can I do for you?"),
                 ("How's it going?", "All good here. What can I help with?")),
    "talk_bye": (("Bye", "Goodbye — talk soon!"), ("Good night", "Good night!"), ("See you later", "See you later!")),  # held out
}
PAST = {
    "past_yesterday": "remind me to {task} yesterday at {clock}",
    "past_this_morning": "remind me to {task} this morning at {clock}",
    "past_today": "set a reminder to {task} today at {clock}",  # held out
}
HELDOUT = frozenset({"state_oh", "state_also", "talk_bye", "past_today"})


def _said_back(said: str) -> str:
    return said.replace("my ", "your ", 1).replace("I am ", "you are ", 1)


def statement_plans(rng: random.Random, templates: list[str], n: int) -> list[Plan]:
    plans = []
    for _ in range(n):
        template = rng.choice(templates)
        if rng.random() < 0.5:
            _what, pool, said_t, answer_t = rng.choice(OWN_FACTS)
            value = rng.choice(pool)
            said, answer = said_t.format(v=value), answer_t.format(v=value)
        else:
            what, _word, value, said_t = rng.choice(PERSON_FACTS)
            value = rng.choice((value, *VALUES.get(what, ())))
            said = said_t.format(v=value)
            answer = rng.choice((f"Good to know — {_said_back(said)}.", f"Thanks for telling me: {_said_back(said)}."))
        request = STATEMENT[template].format(said=said)
        request = request[:1].upper() + request[1:] + rng.choice((".", "", "!"))
        plans.append(Plan(SLOT, template, request, random_now(rng), rounds=[], answer=lambda _o, a=answer: a,
                          summary=lambda _o, s=said: f"The user told me {_said_back(s).replace('your ', 'their ', 1)}; I acknowledged it.",
                          check={"calls": "none", "answer": {"has": [value]}}))
    return plans


def small_talk_plans(rng: random.Random, templates: list[str], n: int) -> list[Plan]:
    plans = []
    for _ in range(n):
        template = rng.choice(templates)
        said, answer = rng.choice(SMALL_TALK[template])
        plans.append(Plan(SLOT, template, said, random_now(rng), rounds=[], answer=lambda _o, a=answer: a,
                          summary=lambda _o, s=said: f"Small talk (\"{s}\"); answered briefly.",
                          check={"calls": "none"}))
    return plans


def past_plans(rng: random.Random, templates: list[str], n: int) -> list[Plan]:
    """A reminder for a time already gone: one call, the tool's real error, then words that ask for a later time."""
    plans = []
    while len(plans) < n:
        now = random_now(rng).replace(hour=rng.randint(13, 20))
        template = rng.choice(templates)
        clock, hour, minute = clock_time(rng)
        if template != "past_yesterday" and (hour, minute) >= (now.hour - 1, now.minute):
            continue  # "this morning at 7pm" said at 3pm is not in the past
        task = rng.choice(TASKS)
        due = PAST[template].split("{task} ", 1)[1].format(clock=clock)
        request = PAST[template].format(task=task, clock=clock)
        request = request[:1].upper() + request[1:]
        plans.append(Plan(
            SLOT, template, request, now,
            rounds=[lambda _o, t=task, d=due: [("reminders.create", {"text": t, "due": d})]],
            answer=lambda o, t=task: f"{_passed(o[0])}, so I didn't set it. When should I remind you to {t} instead?",
            summary=lambda _o, t=task: f"Asked for a reminder to {t} at a time that had already passed; asked for a later time.",
            check={"reminders": [], "answer": {"has": ["already passed"], "asks": True}},
        ))
    return plans


def _passed(output: str) -> str:
    """ "Error: Tue 1 Dec 2026, 17:00 has already passed (it is …) — ask for a later time" -> its first clause."""
    text = output.removeprefix("Error:").strip()
    return text.split(" — ", 1)[0] if "already passed" in text else f"That didn't work ({text})"


def more_plans(rng: random.Random, split: str, count) -> list[Plan]:
    """Every family of this module for one split; `count(n)` scales a train-split size to the split."""

    def pick(family: dict) -> list[str]:
        return [t for t in family if (t in HELDOUT) == (split == "heldout")]

    out = statement_plans(rng, pick(STATEMENT), count(90))
    out += small_talk_plans(rng, pick(SMALL_TALK), count(30))
    out += past_plans(rng, pick(PAST), count(30))
    return out
