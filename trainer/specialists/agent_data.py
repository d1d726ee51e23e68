"""L1 (Personal agent) cases: several tool calls in one task, then a short answer built from what the tools said.

Families (each a set of request templates; whole templates are held out):
- appointments: two or three appointments on one day, a reminder N minutes/hours before
  each -> one assistant message with a reminders.create per appointment (the person's
  day and time words as `due`, the lead time as `before`); the answer lists every time
  the tool set.
- reminder + note: "Remind me to X <when> and note that Y" -> reminders.create and
  notes.create in the order asked.
- list: several tasks on one day, each at its time -> one reminders.create per task; the
  answer lists them in time order.
- tick off: reminders exist already; round 1 reminders.list, round 2 reminders.complete
  with the id read from round 1's real output; the answer names what is still open, copied
  from the completion's result (which says it).
- day plan: fixed times and a "before" deadline put in time order and saved with
  notes.create; the answer is the ordered plan.
- plain plans (agent_plain): meals, packing, budgets in words alone, every constraint shown.
- trip plans (agent_trip): N days in a city around what the person likes, no tool call.
Every expected minute is computed here from the person's words (phrases.py), never
taken from the tool; `toolrun.materialize` keeps a case only when the real harness
lands on it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from trainer.specialists.agent_plain import BUDGET, HELDOUT_PLAIN, MEAL, NUMBERS, PACK, budget_plans, cap, join, meal_plans, pack_plans, yours
from trainer.specialists.agent_trip import HELDOUT_TRIP, TRIP, trip_plans
from trainer.specialists.agent_words import LEADS, PLAN_DAYS, PLAN_ITEMS
from mol_local.harness.builtins import listed_reminders
from trainer.specialists.cases import Case
from trainer.specialists.phrases import clock_time, random_now, when
from trainer.specialists.toolrun import Plan, Seed, minute
from trainer.specialists.words import APPOINTMENTS, NOTE_FACTS, TASKS

SLOT = "L1"
MAX_SUMMARY_WORDS = 40
APPOINT = {
    "appt_each": "I have {items} {day} — remind me {lead} before each",
    "appt_both": "{Day} I've got {items}. Can you set reminders {lead} before both?",
    "appt_ahead": "Set me reminders {lead} ahead of {items} {day}",
    "appt_mixed": "{Day} I have {x1} at {t1} and {x2} at {t2}. Remind me {l1} before the first and {l2} before the second.",
    "appt_heads": "Give me a heads-up {lead} before each of these {day}: {items}",
}
APPOINT_DAYS = {  # each appointment on its own day, the lead said first or last (seen from a new user)
    "appd_first": "Remind me {lead} before each of these: {items}",
    "appd_colon": "{Lead} before each, please remind me: {items}",
    "appd_have": "I have {items}. Remind me {lead} before each.",
}
REMIND_NOTE = {
    "rn_and": "Remind me to {task} {when} and note that {fact}",
    "rn_two": "Two things: set a reminder to {task} {when}, and make a note that {fact}",
    "rn_note_first": "Note down that {fact}, and remind me {when} to {task}",
    "rn_also": "Save a note that {fact}. Also remind me to {task} {when}.",
    "rn_ask": "Can you remind me {when} to {task}? And write down that {fact}.",
    "rn_could": "Could you set a reminder {when} to {task}? Also put in my notes that {fact}.",
    "rn_need": "I need a reminder to {task} {when}, and a note saying {fact}.",
}
NOTE_FIRST = frozenset({"rn_note_first", "rn_also"})
LIST = {
    "list_need": "{Day} I need to {items} — set reminders for all {num}",
    "list_colon": "Reminders for {bare}, please: {items}",
    "list_todo": "My to-do list {day}: {items}. Remind me of each one at its time.",
    "list_can": "Can you set reminders {day} to {items}?",
    "list_plan": "The plan for {bare}: {items}. I'd like a reminder for every one of them.",
}
BARE_DAY = frozenset({"list_colon", "list_plan"})  # templates that say the day without "on"
TICK = {
    "tick_off": "Tick off my reminder to {task}, it's done",
    "tick_mark": "Mark the reminder '{task}' as done",
    "tick_done": "Done: {task}. Please tick it off my reminders",
    "tick_both": "I've done both of these: {task} and {task2}. Tick them off.",
    "tick_cross": "You can cross '{task}' off my reminders now — it's done",
    "tick_finished": "Finished: {task}. Take it off my list, please.",
    "tick_sorted": "'{task}' is sorted now, you can tick that one off",
}
DAY_PLAN = {
    "plan_my": "Plan {mine}: {items}; save it as a note",
    "plan_schedule": "Make a schedule for {plain}: {items}. Then note it down.",
    "plan_fit": "I want to fit these into {plain}: {items}. Put them in order and keep it as a note.",
    "plan_save": "Can you put together a plan for {plain} — {items} — and save it in my notes?",
}
HELDOUT = frozenset({"appt_heads", "appd_have", "rn_ask", "list_plan", "tick_cross", "plan_save"}) | HELDOUT_PLAIN | HELDOUT_TRIP
TEMPLATES = {**APPOINT, **APPOINT_DAYS, **REMIND_NOTE, **LIST, **TICK, **DAY_PLAN, **MEAL, **PACK, **BUDGET, **TRIP}


@dataclass(frozen=True)
class Day:
    said: str  # as it sits in a sentence and in `due`: "tomorrow", "on Friday", "next Friday", "on March 3"
    bare: str  # without "on": "Friday", "March 3"
    date: date


def pick_day(rng: random.Random, now: datetime) -> Day | None:
    """A day after today, in the words phrases.py pairs with its date (None when the drawn kind does not fit)."""
    w = when(rng, now, ("tomorrow", "weekday", "after", "date"))
    if w is None:
        return None
    bare = w.day_words.removeprefix("on ")
    said = w.day_words if bare in ("tomorrow", "the day after tomorrow") or w.day_words.startswith(("on ", "next ")) else "on " + bare
    return Day(said, bare, w.at.date())


def clocks(rng: random.Random, n: int, *, bare_ok: bool, latest: int = 21) -> list[tuple[str, int, int]]:
    """n times of day at least an hour apart, in request order; "at 9" (a bare morning hour) when `bare_ok`."""
    while True:
        picked = [clock_time(rng) for _ in range(n)]
        mins = sorted(h * 60 + m for _t, h, m in picked)
        if all(b - a >= 60 for a, b in zip(mins, mins[1:])) and all(h < latest for _t, h, _m in picked):
            break
    return [(str(h) if bare_ok and m == 0 and 7 <= h <= 11 and rng.random() < 0.35 else t, h, m) for t, h, m in picked]


def said_time(output: str) -> str:
    """The time the tool said back: "Reminder abc set for Wed 2 Dec 2026, 09:00: text" -> "Wed 2 Dec 2026, 09:00"."""
    return output.split(" for ", 1)[1].split(": ", 1)[0] if " for " in output else output


def fit(*options: str) -> str:
    """The first summary of at most MAX_SUMMARY_WORDS words (the last option is the short one)."""
    return next((o for o in options if len(o.split()) <= MAX_SUMMARY_WORDS), options[-1])


def set_summary(outputs: list[str], names: list[str], how: str) -> str:
    """ "Set two reminders for Tue 8 Dec 2026, 30 minutes before each appointment: the book club at 13:30 and ..." """
    said = [said_time(o) for o in outputs]
    days = {s.split(", ")[0] for s in said}
    count = NUMBERS[len(names) - 2]
    if len(days) == 1:
        return fit(f"Set {count} reminders for {days.pop()}{how}: " + join([f"{n} at {s.split(', ')[-1]}" for n, s in zip(names, said)]) + ".",
                   f"Set {count} reminders for {said[0].split(', ')[0]}{how}: " + join([s.split(", ")[-1] for s in said]) + ".")
    return fit(f"Set {count} reminders{how}: " + join([f"{n} ({s})" for n, s in zip(names, said)]) + ".",
               f"Set {count} reminders{how}: " + join(said) + ".")


def appointment_plans(rng: random.Random, templates: list[str], n_plans: int) -> list[Plan]:
    plans: list[Plan] = []
    while len(plans) < n_plans:
        now = random_now(rng)
        day = pick_day(rng, now)
        if day is None:
            continue
        template = rng.choice(templates)
        k = 2 if template in ("appt_both", "appt_mixed") else rng.choice((2, 2, 3))
        names = rng.sample(APPOINTMENTS, k)
        times = clocks(rng, k, bare_ok=False)
        leads = rng.sample(LEADS, 2) if template == "appt_mixed" else [rng.choice(LEADS)] * k
        ats = [datetime.combine(day.date, time(h, m)) - timedelta(minutes=lead[1]) for (_t, h, m), lead in zip(times, leads)]
        if any(at <= now + timedelta(minutes=1) for at in ats):
            continue  # "a day before" an appointment tomorrow morning has passed already
        items = join([f"{x} at {t}" for x, (t, _h, _m) in zip(names, times)])
        request = APPOINT[template].format(items=items, day=day.said, Day=cap(day.said), lead=leads[0][0], x1=names[0], t1=times[0][0],
                                           x2=names[-1], t2=times[-1][0], l1=leads[0][0], l2=leads[-1][0])
        calls = [("reminders.create", {"text": x, "due": f"{day.said} at {t}", "before": lead[0]})
                 for x, (t, _h, _m), lead in zip(names, times, leads)]
        same = len({lead[1] for lead in leads}) == 1
        if same:
            intro = rng.choice((f"Done — {NUMBERS[k - 2]} reminders, {leads[0][0]} before each:", f"Set. You'll get a reminder {leads[0][0]} before each:"))
        else:
            intro = rng.choice(("Done — both reminders are set:", "Set, each with its own lead time:"))
        lines = [f"- {{}}: {yours(x)} (at {h:02d}:{m:02d})" for x, (_t, h, m) in zip(names, times)]
        plans.append(Plan(
            SLOT, template, request, now,
            rounds=[lambda _o, c=calls: c],
            answer=lambda o, i=intro, ls=lines: "\n".join([i] + [line.format(said_time(out)) for line, out in zip(ls, o)]),
            summary=lambda o, ns=names, ld=leads[0][0] if same else "": set_summary(
                o, [yours(x) for x in ns], f", {ld} before each appointment" if ld else ", each ahead of its appointment"),
            check={"reminders": [{"text": x, "at": minute(at)} for x, at in zip(names, ats)], "answer": {"has": [f"{at:%H:%M}" for at in ats]}},
        ))
    return plans


def appointment_days_plans(rng: random.Random, templates: list[str], n_plans: int) -> list[Plan]:
    """Two or three appointments on different days, one lead time: a reminders.create per appointment, its own day in `due`."""
    plans: list[Plan] = []
    while len(plans) < n_plans:
        now = random_now(rng)
        k = rng.choice((2, 2, 3))
        days = [pick_day(rng, now) for _ in range(k)]
        if any(d is None for d in days) or len({d.date for d in days}) < k:  # type: ignore[union-attr]
            continue
        template = rng.choice(templates)
        names = rng.sample(APPOINTMENTS, k)
        times = [clock_time(rng) for _ in range(k)]
        lead = rng.choice(LEADS)
        ats = [datetime.combine(d.date, time(h, m)) - timedelta(minutes=lead[1]) for d, (_t, h, m) in zip(days, times)]  # type: ignore[union-attr]
        if any(at <= now + timedelta(minutes=1) for at in ats):
            continue
        dues = [f"{d.said} at {t}" for d, (t, _h, _m) in zip(days, times)]  # type: ignore[union-attr]
        items = join([f"{x} {due}" for x, due in zip(names, dues)])
        request = APPOINT_DAYS[template].format(items=items, lead=lead[0], Lead=cap(lead[0]))
        calls = [("reminders.create", {"text": x, "due": due, "before": lead[0]}) for x, due in zip(names, dues)]
        intro = rng.choice((f"Done — {NUMBERS[k - 2]} reminders, {lead[0]} before each:", f"Set. You'll get a reminder {lead[0]} before each:"))
        lines = [f"- {{}}: {yours(x)} (at {h:02d}:{m:02d})" for x, (_t, h, m) in zip(names, times)]
        plans.append(Plan(
            SLOT, template, request, now,
            rounds=[lambda _o, c=calls: c],
            answer=lambda o, i=intro, ls=lines: "\n".join([i] + [line.format(said_time(out)) for line, out in zip(ls, o)]),
            summary=lambda o, ns=names, ld=lead[0]: set_summary(o, [yours(x) for x in ns], f", {ld} before each appointment"),
            check={"reminders": [{"text": x, "at": minute(at)} for x, at in zip(names, ats)], "answer": {"has": [f"{at:%H:%M}" for at in ats]}},
        ))
    return plans


def remind_note_plans(rng: random.Random, templates: list[str], n_plans: int) -> list[Plan]:
    plans: list[Plan] = []
    while len(plans) < n_plans:
        now = random_now(rng)
        w = when(rng, now)
        if w is None:
            continue
        template = rng.choice(templates)
        task = rng.choice(TASKS)
        topic, fact = rng.choice(NOTE_FACTS)
        request = REMIND_NOTE[template].format(task=task, when=w.text, fact=fact)
        reminder = ("reminders.create", {"text": task, "due": w.text})
        note = ("notes.create", {"title": cap(topic), "body": fact})
        first_note = template in NOTE_FIRST
        calls = [note, reminder] if first_note else [reminder, note]
        r = 1 if first_note else 0  # which output is the reminder's
        style = rng.randrange(2)
        plans.append(Plan(
            SLOT, template, request, now,
            rounds=[lambda _o, c=calls: c],
            answer=lambda o, t=yours(task), f=yours(fact), s=style, r=r: (
                f"Both done: I'll remind you to {t} on {said_time(o[r])}, and your note says: {f}." if s == 0 else
                f"- Reminder: {t}, {said_time(o[r])}\n- Note saved: {f}"),
            summary=lambda o, t=yours(task), tl=cap(topic), r=r: fit(
                f"Set a reminder to {t} for {said_time(o[r])} and saved the note \"{tl}\"."),
            check={"reminders": [{"text": task, "at": minute(w.at)}], "notes": [{"words": [topic, fact.split()[-1]]}],
                   "answer": {"has": [f"{w.at:%H:%M}", fact.split()[-1]]}},
        ))
    return plans


def list_plans(rng: random.Random, templates: list[str], n_plans: int) -> list[Plan]:
    plans: list[Plan] = []
    while len(plans) < n_plans:
        now = random_now(rng)
        day = pick_day(rng, now)
        if day is None:
            continue
        template = rng.choice(templates)
        k = rng.choice((2, 3, 3, 4))
        tasks = rng.sample(TASKS, k)
        times = clocks(rng, k, bare_ok=True)
        said = day.bare if template in BARE_DAY else day.said
        items = join([f"{t} at {c}" for t, (c, _h, _m) in zip(tasks, times)])
        request = LIST[template].format(Day=cap(said), day=said, bare=said, items=items, num=NUMBERS[k - 2])
        ats = [datetime.combine(day.date, time(h, m)) for _c, h, m in times]
        calls = [("reminders.create", {"text": t, "due": f"{said} at {c}"}) for t, (c, _h, _m) in zip(tasks, times)]
        order = sorted(range(k), key=lambda i: ats[i])
        intro = rng.choice((f"All {NUMBERS[k - 2]} are set, in order:", f"Done — {NUMBERS[k - 2]} reminders for {day.bare}:", "Reminders set:"))
        plans.append(Plan(
            SLOT, template, request, now,
            rounds=[lambda _o, c=calls: c],
            answer=lambda o, i=intro, ts=tasks, od=order: "\n".join([i] + [f"- {said_time(o[j])}: {yours(ts[j])}" for j in od]),
            summary=lambda o, ts=tasks, od=order: set_summary([o[j] for j in od], [yours(ts[j]) for j in od], ""),
            check={"reminders": [{"text": t, "at": minute(at)} for t, at in zip(tasks, ats)], "answer": {"has": [f"{at:%H:%M}" for at in ats]}},
        ))
    return plans


_listed = listed_reminders


def still_open(output: str) -> str:
    """reminders.complete's "Done: X. Still open: a (when); b (when)." -> "Still open: a (when); b (when)."."""
    for mark in ("Still open:", "Nothing else is open."):
        if mark in output:
            return output[output.index(mark):]
    return ""


def _open_count(n: int) -> str:
    return "no reminders left open" if n == 0 else f"{n} reminder{'s' if n > 1 else ''} still open"


def tick_plans(rng: random.Random, templates: list[str], n_plans: int) -> list[Plan]:
    plans: list[Plan] = []
    while len(plans) < n_plans:
        now = random_now(rng)
        dues = [when(rng, now, ("tomorrow", "weekday", "after", "date")) for _ in range(rng.randint(2, 4))]
        if any(d is None for d in dues):
            continue
        template = rng.choice(templates)
        tasks = rng.sample(TASKS, len(dues))
        done = tasks[:2] if template == "tick_both" else tasks[:1]
        request = TICK[template].format(task=done[0], task2=done[-1])
        style = rng.randrange(2)

        def complete(o: list[str], done: list[str] = done) -> list:
            return [("reminders.complete", {"id": i}) for i, _w, t in _listed(o[0]) if t in done]

        def answer(o: list[str], done: list[str] = done, style: int = style) -> str:
            ticked = join([yours(t) for t in done])
            rest = yours(still_open(o[-1]))  # copied from the last completion's result, which says what is left
            return f"Ticked off: {ticked}. {rest}" if style == 0 else f"Done — {ticked} {'are' if len(done) > 1 else 'is'} off your list. {rest}"

        plans.append(Plan(
            SLOT, template, request, now,
            rounds=[lambda _o: [("reminders.list", {})], complete],
            answer=answer,
            summary=lambda o, done=done: fit(f"Marked {join([f'“{yours(t)}”' for t in done])} as done; "
                                             + _open_count(len(_listed(o[0])) - len(done)) + "."),
            check={"completed": list(done), "reminders": [], "answer": {"has": [yours(t) for t in done]}},
            seed=Seed(reminders=[(t, d.text) for t, d in zip(tasks, dues) if d is not None]),
        ))
    return plans


def day_plans(rng: random.Random, templates: list[str], n_plans: int) -> list[Plan]:
    plans: list[Plan] = []
    while len(plans) < n_plans:
        template = rng.choice(templates)
        mine, plain, title = rng.choice(PLAN_DAYS)
        k = rng.randint(2, 3)
        names = rng.sample(PLAN_ITEMS, k + 1)
        fixed = list(zip(names, clocks(rng, k, bare_ok=True, latest=20)))
        busy = [h * 60 + m for _n, (_t, h, m) in fixed]
        deadline = None
        if rng.random() < 0.7:  # a "before" item goes in the free hour ending at its deadline
            t, h, m = clock_time(rng)
            start = h * 60 - 60
            if m or h < 9 or any(abs(start - b) < 60 for b in busy):
                continue
            deadline = (names[-1], t, h)
        slots = [(b, f"{b // 60:02d}:{b % 60:02d} {n}") for b, (n, _c) in zip(busy, fixed)]
        if deadline:
            slots.append((deadline[2] * 60 - 60, f"{deadline[2] - 1:02d}:00 {deadline[0]} (before {deadline[2]:02d}:00)"))
        lines = [text for _b, text in sorted(slots)]
        said = [f"{n} at {c}" for n, (c, _h, _m) in fixed] + ([f"{deadline[0]} before {deadline[1]}"] if deadline else [])
        request = DAY_PLAN[template].format(mine=mine, plain=plain, items=join(said))
        wanted = [n for n, _c in fixed] + ([deadline[0]] if deadline else [])
        clocks_fixed = [f"{h:02d}:{m:02d}" for _n, (_c, h, m) in fixed]
        body = "\n".join(lines)
        intro = rng.choice((f"{cap(plain)}, in order (saved as the note \"{title}\"):", f"Here's the plan, saved as \"{title}\":",
                            f"The plan for {yours(plain)}, in time order:"))
        answer = "\n".join([intro] + [f"{i + 1}. {line}" for i, line in enumerate(lines)])
        summary = fit(f"Planned {yours(plain)} in time order ({'; '.join(lines)}) and saved it as the note \"{title}\".",
                      f"Planned {yours(plain)} ({len(lines)} items, first at {lines[0][:5]}) and saved it as the note \"{title}\".")
        plans.append(Plan(
            SLOT, template, request, random_now(rng),
            rounds=[lambda _o, t=title, b=body: [("notes.create", {"title": t, "body": b})]],
            answer=lambda _o, a=answer: a, summary=lambda _o, s=summary: s,
            check={"notes": [{"words": wanted + clocks_fixed}], "answer": {"has": wanted + clocks_fixed}},
        ))
    return plans


def plans(split: str, *, seed: int = 0, scale: float = 1.0) -> list[Plan]:
    """Every L1 plan of one split; `scale` multiplies the per-family counts (1.0: ~415 train, ~125 held-out plans)."""
    rng = random.Random(f"L1-{split}-{seed}")

    def pick(family: dict) -> list[str]:
        return [t for t in family if (t in HELDOUT) == (split == "heldout")]

    def count(n: int) -> int:
        return max(2, int(n * scale * (0.3 if split == "heldout" else 1.0)))

    out = appointment_plans(rng, pick(APPOINT), count(90))
    out += appointment_days_plans(rng, pick(APPOINT_DAYS), count(60))
    out += remind_note_plans(rng, pick(REMIND_NOTE), count(60))
    out += list_plans(rng, pick(LIST), count(70))
    out += tick_plans(rng, pick(TICK), count(60))
    out += day_plans(rng, pick(DAY_PLAN), count(55))
    out += meal_plans(rng, pick(MEAL), count(30))
    out += pack_plans(rng, pick(PACK), count(25))
    out += budget_plans(rng, pick(BUDGET), count(25))
    out += trip_plans(rng, pick(TRIP), count(45))
    return out


def cases(split: str, rt, *, seed: int = 0, scale: float = 1.0) -> tuple[list[Case], int]:
    """(verified cases, how many plans the real harness rejected)."""
    from trainer.specialists.toolrun import materialize

    kept, dropped = materialize(plans(split, seed=seed, scale=scale), rt)
    return kept, len(dropped)
