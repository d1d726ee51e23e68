"""L3 request templates: each draws a request with the content the user names, and its `Spec`.

A template is one way of asking for one kind of view (or a small dashboard of
two kinds); the phrasing leads ("make me…", "can you build…", bare noun
phrases) are shared, the frames are the template's own. Template ids are the
unit of hold-out (`ui_data.HELDOUT`); new templates are appended.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from trainer.specialists import ui_words as W
from trainer.specialists.ui_docs import Field, Part, Spec, cap

Template = Callable[[random.Random], tuple[str, Spec]]
TEMPLATES: dict[str, Template] = {}

LEADS = (("", ""), ("", ""), ("make me ", ""), ("I need ", ""), ("can you build ", "?"), ("show ", ""),
         ("please create ", ""), ("could you set up ", "?"), ("give me ", ""), ("build me ", " please"),
         ("I'd like ", "."), ("put together ", ""), ("can I get ", "?"))


def template(tid: str) -> Callable[[Template], Template]:
    def register(fn: Template) -> Template:
        TEMPLATES[tid] = fn
        return fn
    return register


PLAIN_LEADS = (("", ""), ("show ", ""), ("give me ", ""), ("I want ", "."), ("can I see ", "?"))


def lead(rng: random.Random, body: str, leads: Sequence[tuple[str, str]] = LEADS) -> str:
    """The body after one of the shared openings ("make me…", "can you build…?", nothing)."""
    pre, post = rng.choice(leads)
    text = pre + body + post
    return cap(text) if rng.random() < 0.5 else text


def pick(rng: random.Random, pool: Sequence[str], lo: int = 2, hi: int = 6) -> tuple[str, ...]:
    return tuple(rng.sample(list(pool), rng.randint(lo, min(hi, len(pool)))))


def join(rng: random.Random, items: Sequence[str], word: str = "and") -> str:
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return f"{items[0]} {word} {items[1]}" if rng.random() < 0.8 else f"{items[0]}, {items[1]}"
    style = rng.randrange(4)
    if style == 0:
        return ", ".join(items[:-1]) + f" {word} " + items[-1]
    if style == 1:
        return ", ".join(items)
    if style == 2:
        return ", ".join(items[:-1]) + f", {word} " + items[-1]
    return "; ".join(items)


def minutes_text(rng: random.Random, m: int) -> str:
    """A duration of m minutes as people write it."""
    ways = [f"{m} minutes", f"{m} mins"] + ([f"{W.NUMBER_WORDS[m]} minutes"] if m in W.NUMBER_WORDS else [])
    ways += {30: ["half an hour"], 60: ["an hour", "1 hour"], 90: ["an hour and a half", "1 hour 30 minutes"],
             45: ["45 min"], 75: ["1 hour 15 minutes"]}.get(m, [])
    return rng.choice(ways)


def seconds_text(rng: random.Random, s: int) -> str:
    ways = [f"{s} seconds", f"{s} sec"] + ([f"{W.NUMBER_WORDS[s]} seconds"] if s in W.NUMBER_WORDS else [])
    ways += {60: ["a minute", "one minute"], 90: ["a minute and a half"]}.get(s, [])
    return rng.choice(ways)


def checklist(title: str, label: str, items: Sequence[str]) -> Spec:
    return Spec(title, (Part("checklist", label, tuple(items)),))


# -- checklists ---------------------------------------------------------------------------------------------
@template("ck_packing_for")
def _packing(rng: random.Random) -> tuple[str, Spec]:
    (trip, title), pool = rng.choice(list(W.TRIPS.items()))
    items = pick(rng, pool)
    frame = rng.choice(("a packing checklist for {t} with {i}", "a packing list for {t}: {i}",
                        "a checklist for packing for {t} - {i}"))
    return lead(rng, frame.format(t=trip, i=join(rng, items))), checklist(title, "To pack", items)


@template("ck_grocery_colon")
def _grocery(rng: random.Random) -> tuple[str, Spec]:
    items = pick(rng, W.GROCERIES)
    frame = rng.choice(("grocery list: {i}", "shopping list - {i}", "groceries: {i}", "{i} - shopping list",
                        "I need a grocery list: {i}"))
    text = frame.format(i=join(rng, items))
    return (cap(text) if rng.random() < 0.5 else text), checklist("Groceries", "To buy", items)


@template("ck_todo_day")
def _todo(rng: random.Random) -> tuple[str, Spec]:
    day, title = rng.choice(W.TODO_DAYS)
    items = pick(rng, W.TODOS, 2, 5)
    frame = rng.choice(("a to-do list for {d}: {i}", "a checklist of things to do for {d}: {i}",
                        "my to-dos for {d} as a checklist - {i}"))
    return lead(rng, frame.format(d=day, i=join(rng, items))), checklist(f"{title} to-do", "To do", items)


@template("ck_routine")
def _routine(rng: random.Random) -> tuple[str, Spec]:
    (name, title), pool = rng.choice(list(W.ROUTINES.items()))
    items = pick(rng, pool)
    frame = rng.choice(("a {r} routine checklist with {i}", "a checklist for my {r} routine: {i}"))
    return lead(rng, frame.format(r=name, i=join(rng, items))), checklist(title, "Steps", items)


@template("ck_event_prep")
def _event(rng: random.Random) -> tuple[str, Spec]:
    (event, title), pool = rng.choice(list(W.EVENTS.items()))
    items = pick(rng, pool)
    frame = rng.choice(("a checklist to get ready for {e}: {i}", "a prep list for {e} with {i}"))
    return lead(rng, frame.format(e=event, i=join(rng, items))), checklist(title, "Get ready", items)


@template("ck_chores")
def _chores(rng: random.Random) -> tuple[str, Spec]:
    items = pick(rng, W.CHORES)
    frame = rng.choice(("a chores checklist: {i}", "checklist of chores - {i}", "a cleaning checklist with {i}"))
    return lead(rng, frame.format(i=join(rng, items))), checklist("Chores", "Chores", items)


@template("ck_bare_items")
def _bare(rng: random.Random) -> tuple[str, Spec]:
    items = pick(rng, W.TODOS + W.CHORES)
    frame = rng.choice(("{i} as a checklist", "checklist: {i}", "turn this into a checklist: {i}",
                        "a tickable list of {i}"))
    return frame.format(i=join(rng, items)), checklist("Checklist", "Items", items)


@template("ck_moving")
def _moving(rng: random.Random) -> tuple[str, Spec]:
    items = pick(rng, W.MOVING)
    frame = rng.choice(("can you build me a moving-house checklist? {i}", "moving house soon - checklist with {i}",
                        "a checklist for the move: {i}"))
    return frame.format(i=join(rng, items)), checklist("Moving house", "Before the move", items)


@template("ck_recipe")
def _recipe(rng: random.Random) -> tuple[str, Spec]:
    dish, pool = rng.choice(list(W.DISHES.items()))
    items = pick(rng, pool)
    frame = rng.choice(("ingredients for {d} as a checklist: {i}", "a shopping checklist for making {d}: {i}"))
    return lead(rng, frame.format(d=dish, i=join(rng, items))), checklist(cap(dish), "Ingredients", items)


@template("ck_study_topics")
def _study(rng: random.Random) -> tuple[str, Spec]:
    subject, pool = rng.choice(list(W.SUBJECTS.items()))
    items = pick(rng, pool)
    frame = rng.choice(("a revision checklist for my {s} exam covering {i}", "{s} revision topics to tick off: {i}"))
    return lead(rng, frame.format(s=subject, i=join(rng, items))), checklist(f"{cap(subject)} revision", "Topics", items)


@template("ck_source_reminders")
def _reminders(rng: random.Random) -> tuple[str, Spec]:
    body = rng.choice(("my reminders as a checklist", "a checklist of my reminders",
                       "my reminders in a checklist I can tick off", "a tickable list of my reminders"))
    return lead(rng, body, PLAIN_LEADS), Spec("Reminders", (Part("checklist", "My reminders", source="reminders"),))


# -- tables ---------------------------------------------------------------------------------------------------
def columns(rng: random.Random, cols: Sequence[str]) -> tuple[str, ...]:
    """The first column and 1-4 more, in the table's own order."""
    rest = sorted(rng.sample(range(1, len(cols)), rng.randint(1, min(4, len(cols) - 1))))
    return (cols[0],) + tuple(cols[i] for i in rest)


def table(title: str, cols: Sequence[str], rows: Sequence[Sequence[str]] = ()) -> Spec:
    return Spec(title, (Part("table", title, columns=tuple(cols), rows=tuple(tuple(r) for r in rows)),))


@template("tb_columns_with")
def _tb_with(rng: random.Random) -> tuple[str, Spec]:
    subject, (title, pool) = rng.choice(list(W.TABLES.items()))
    cols = columns(rng, pool)
    frame = rng.choice(("a {s} table with columns {c}", "a table for my {s} with {c} columns"))
    return lead(rng, frame.format(s=subject, c=join(rng, cols))), table(title, cols)


@template("tb_columns_colon")
def _tb_colon(rng: random.Random) -> tuple[str, Spec]:
    subject, (title, pool) = rng.choice(list(W.TABLES.items()))
    cols = columns(rng, pool)
    frame = rng.choice(("{s} table - columns: {c}", "table for {s}. columns: {c}", "{s} table ({c})"))
    return frame.format(s=subject, c=join(rng, cols)), table(title, cols)


def pairs(rng: random.Random, lo: int = 2, hi: int = 5):
    what, title, c1, c2, pool = rng.choice(W.PAIRS)
    rows = rng.sample(list(pool), rng.randint(lo, min(hi, len(pool))))
    return what, title, c1, c2, rows


@template("tb_rows_pairs")
def _tb_pairs(rng: random.Random) -> tuple[str, Spec]:
    what, title, c1, c2, rows = pairs(rng)
    style = rng.choice(("{a} - {b}", "{a} ({b})", "{a}: {b}"))
    listed = join(rng, [style.format(a=a, b=b) for a, b in rows]) if "(" in style else ", ".join(
        style.format(a=a, b=b) for a, b in rows)
    body = f"a table of {what} with {c1} and {c2} columns: {listed}"
    return lead(rng, body), table(title, (c1, c2), rows)


@template("tb_rows_listed")
def _tb_listed(rng: random.Random) -> tuple[str, Spec]:
    what, title, c1, c2, rows = pairs(rng)
    listed = "; ".join(f"{a}, {b}" for a, b in rows)
    frame = rng.choice(("a table with columns {c1} and {c2} and these rows: {r}", "table of {w}. {c1} | {c2}. rows: {r}"))
    return lead(rng, frame.format(c1=c1, c2=c2, r=listed, w=what)), table(title, (c1, c2), rows)


@template("tb_log")
def _tb_log(rng: random.Random) -> tuple[str, Spec]:
    subject, (title, pool) = rng.choice(list(W.TABLES.items()))
    cols = columns(rng, pool)
    frame = rng.choice(("I need a log table to track my {s}: {c}", "a tracking table for {s} with {c}"))
    return frame.format(s=subject, c=join(rng, cols)), table(title, cols)


@template("tb_schedule")
def _tb_schedule(rng: random.Random) -> tuple[str, Spec]:
    rows = rng.sample(list(W.PAIRS[2][4]), rng.randint(2, 5))
    listed = ", ".join(f"{d} {a}" for d, a in rows)
    frame = rng.choice(("a weekly schedule table with day and activity columns: {r}", "my week as a table (day, activity): {r}"))
    return lead(rng, frame.format(r=listed)), table("Weekly schedule", ("day", "activity"), rows)


@template("tb_source_notes")
def _tb_notes(rng: random.Random) -> tuple[str, Spec]:
    body = rng.choice(("a table of my notes", "my notes in a table", "a table showing my saved notes"))
    return lead(rng, body, PLAIN_LEADS), Spec("Notes", (Part("table", "My notes", columns=("Title", "Body"), source="notes"),))


@template("tb_source_memories")
def _tb_memories(rng: random.Random) -> tuple[str, Spec]:
    body = rng.choice(("a table of the things you remember about me", "what you know about me, as a table",
                       "my memories in a table"))
    return lead(rng, body, PLAIN_LEADS), Spec("Memories", (Part("table", "What I remember", columns=("Memory", "Kind"),
                                                   source="memories"),))


# -- forms ------------------------------------------------------------------------------------------------------
def form(title: str, fields: Sequence[Field], private: bool = False) -> Spec:
    return Spec(title, (Part("form", title, fields=tuple(fields), private=private),))


def inputs(rng: random.Random, pool: Sequence[str], lo: int = 2, hi: int = 4) -> list[Field]:
    return [Field("Input", f) for f in pick(rng, pool, lo, hi)]


def dropdown(rng: random.Random) -> Field:
    name, options = rng.choice(list(W.CHOICES.items()))
    return Field("Select", name, pick(rng, options, 2, 4))


@template("fm_inputs")
def _fm_inputs(rng: random.Random) -> tuple[str, Spec]:
    purpose, (title, pool) = rng.choice(list(W.FORMS.items()))
    fields = inputs(rng, pool)
    frame = rng.choice(("a {p} form with {f} fields", "a {p} form with fields for {f}"))
    return lead(rng, frame.format(p=purpose, f=join(rng, [f.label for f in fields]))), form(title, fields)


@template("fm_select")
def _fm_select(rng: random.Random) -> tuple[str, Spec]:
    purpose, (title, pool) = rng.choice(list(W.FORMS.items()))
    fields, sel = inputs(rng, pool, 1, 3), dropdown(rng)
    body = f"a {purpose} form: {join(rng, [f.label for f in fields])}, and a {sel.label} dropdown ({join(rng, sel.options, 'or')})"
    return lead(rng, body), form(title, fields + [sel])


@template("fm_toggle")
def _fm_toggle(rng: random.Random) -> tuple[str, Spec]:
    purpose, (title, pool) = rng.choice(list(W.FORMS.items()))
    fields, switch = inputs(rng, pool, 1, 3), Field("Toggle", rng.choice(W.SWITCHES))
    frame = rng.choice(("a {p} form with {f}, plus an on/off switch for {s}", "a {p} form: {f} and a toggle for {s}"))
    return lead(rng, frame.format(p=purpose, f=join(rng, [f.label for f in fields]), s=switch.label)), form(
        title, fields + [switch])


@template("fm_mixed")
def _fm_mixed(rng: random.Random) -> tuple[str, Spec]:
    purpose, (title, pool) = rng.choice(list(W.FORMS.items()))
    fields, sel, switch = inputs(rng, pool, 1, 2), dropdown(rng), Field("Toggle", rng.choice(W.SWITCHES))
    body = (f"a {purpose} form with {join(rng, [f.label for f in fields])}, {sel.label} "
            f"({join(rng, sel.options, 'or')}) and a toggle for {switch.label}")
    return lead(rng, body), form(title, fields + [sel, switch])


@template("fm_private")
def _fm_private(rng: random.Random) -> tuple[str, Spec]:
    purpose, (title, pool) = rng.choice(list(W.PRIVATE_FORMS.items()))
    fields = inputs(rng, pool)
    frame = rng.choice(("a private {p} form the assistant must not read, with {f}",
                        "a {p} form that stays private (you must not see it): {f}"))
    return lead(rng, frame.format(p=purpose, f=join(rng, [f.label for f in fields]))), form(title, fields, private=True)


@template("fm_record")
def _fm_record(rng: random.Random) -> tuple[str, Spec]:
    purpose, (title, pool) = rng.choice(list(W.FORMS.items()))
    fields = inputs(rng, pool)
    body = f"a quick form to fill in {purpose} details: {join(rng, [f.label for f in fields])}"
    return lead(rng, body), form(title, fields)


@template("fm_bare")
def _fm_bare(rng: random.Random) -> tuple[str, Spec]:
    purpose, (title, pool) = rng.choice(list(W.FORMS.items()))
    fields = inputs(rng, pool)
    return f"{purpose} form - {join(rng, [f.label for f in fields])}", form(title, fields)


# -- timers -----------------------------------------------------------------------------------------------------
def timer(title: str, label: str, seconds: int) -> Spec:
    return Spec(title, (Part("timer", label, seconds=seconds),))


@template("tm_minute")
def _tm_minute(rng: random.Random) -> tuple[str, Spec]:
    purpose, (label, pool) = rng.choice(list(W.TIMERS.items()))
    m = rng.choice(pool)
    size = rng.choice((f"{m} minute", f"{m}-minute", f"{m} min"))
    return lead(rng, f"a {size} {purpose} timer"), timer(f"{label} timer", label, m * 60)


@template("tm_set")
def _tm_set(rng: random.Random) -> tuple[str, Spec]:
    purpose, (label, pool) = rng.choice(list(W.TIMERS.items()))
    m = rng.choice(pool)
    frame = rng.choice(("set up a timer for {d} for {p}", "a timer of {d} for {p}", "I need a {p} timer for {d}"))
    return frame.format(d=minutes_text(rng, m), p=purpose), timer(f"{label} timer", label, m * 60)


@template("tm_countdown")
def _tm_countdown(rng: random.Random) -> tuple[str, Spec]:
    purpose, (label, pool) = rng.choice(list(W.TIMERS.items()))
    m = rng.choice(pool)
    d = minutes_text(rng, m)
    text = f"count down {d} for my {purpose}" if rng.random() < 0.5 else lead(rng, f"a countdown of {d} for {purpose}")
    return text, timer(f"{label} countdown", label, m * 60)


@template("tm_bare")
def _tm_bare(rng: random.Random) -> tuple[str, Spec]:
    purpose, (label, pool) = rng.choice(list(W.TIMERS.items()))
    m = rng.choice(pool)
    text = rng.choice((f"{purpose} timer, {minutes_text(rng, m)}", f"timer {m} min {purpose}"))
    return text, timer(f"{label} timer", label, m * 60)


@template("tm_seconds")
def _tm_seconds(rng: random.Random) -> tuple[str, Spec]:
    exercise, s = rng.choice(W.EXERCISES), rng.choice(W.EXERCISE_SECONDS)
    body = rng.choice((f"a {s} second timer for {exercise}", f"a timer for {seconds_text(rng, s)} of {exercise}"))
    return lead(rng, body), timer(f"{cap(exercise)} timer", cap(exercise), s)
