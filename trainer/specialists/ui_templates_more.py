"""L3 request templates, continued: trackers, sliders, pickers, cards and small dashboards of two kinds.

Registered into `ui_templates.TEMPLATES` on import (after the single-kind ones,
so the template order is fixed).
"""

from __future__ import annotations

import random

from mol_local.genui.catalog import GEN_MAX_TEXT
from trainer.specialists import ui_words as W
from trainer.specialists.ui_docs import Part, Spec, cap, markdown_text
from trainer.specialists.ui_templates import join, lead, pick, template


# -- trackers and sliders ---------------------------------------------------------------------------------------
def num(rng: random.Random, n: int) -> str:
    return f"{n:,}" if n >= 1000 and rng.random() < 0.5 else str(n)


def tracker(rng: random.Random, with_value: bool) -> tuple[str, str, str, str, int, int | None]:
    """(what the user calls it, view title, unit, bar label, goal, current value when said)."""
    name, (title, unit, bar, goals) = rng.choice(list(W.TRACKERS.items()))
    high = rng.choice(goals)
    return name, title, unit, bar, high, (rng.randint(1, high - 1) if with_value else None)


@template("pb_goal_current")
def _pb_current(rng: random.Random) -> tuple[str, Spec]:
    name, title, unit, bar, high, value = tracker(rng, True)
    frame = rng.choice(("a {t} tracker with a goal of {h} {u}; I'm at {v}", "{t} tracker - {v} out of {h} {u}"))
    body = frame.format(t=name, h=num(rng, high), u=unit, v=num(rng, value))
    return lead(rng, body), Spec(f"{title} tracker", (Part("progress", bar, high=high, value=value),))


@template("pb_goal")
def _pb_goal(rng: random.Random) -> tuple[str, Spec]:
    name, title, unit, bar, high, _ = tracker(rng, False)
    frame = rng.choice(("a progress bar for {t} out of {h} {u}", "a {t} progress bar, target {h} {u}"))
    return lead(rng, frame.format(t=name, h=num(rng, high), u=unit)), Spec(
        f"{title} progress", (Part("progress", bar, high=high),))


@template("pb_so_far")
def _pb_so_far(rng: random.Random) -> tuple[str, Spec]:
    name, title, unit, bar, high, value = tracker(rng, True)
    frame = rng.choice(("I've done {v} of {h} {u} ({t}), show it as a progress bar", "how far am I: {v}/{h} {u} of {t}"))
    body = frame.format(t=name, h=num(rng, high), u=unit, v=num(rng, value))
    return body, Spec(f"{title} progress", (Part("progress", bar, high=high, value=value),))


def slider(rng: random.Random) -> tuple[str, str, int, int]:
    name, (label, low, high) = rng.choice(list(W.SLIDERS.items()))
    return name, label, low, high


@template("sl_range")
def _sl_range(rng: random.Random) -> tuple[str, Spec]:
    name, label, low, high = slider(rng)
    frame = rng.choice(("a {n} slider from {a} to {b}", "slider for {n}, {a}-{b}", "a {n} slider that goes {a} to {b}"))
    return lead(rng, frame.format(n=name, a=low, b=high)), Spec(label, (Part("slider", label, low=low, high=high),))


@template("sl_default")
def _sl_default(rng: random.Random) -> tuple[str, Spec]:
    name, label, low, high = slider(rng)
    value = rng.randint(low + 1, high - 1)
    frame = rng.choice(("a {n} slider between {a} and {b}, starting at {v}", "{n} slider ({a} to {b}) set to {v}"))
    return lead(rng, frame.format(n=name, a=low, b=high, v=value)), Spec(
        label, (Part("slider", label, low=low, high=high, value=value),))


# -- pickers ------------------------------------------------------------------------------------------------------
def picker(rng: random.Random) -> tuple[str, str, tuple[str, ...]]:
    what, (label, pool) = rng.choice(list(W.PICKS.items()))
    return what, label, pick(rng, pool, 2, 5)


def choose(label: str, options: tuple[str, ...]) -> Spec:
    return Spec(label, (Part("select", label, options),))


@template("pk_choose")
def _pk_choose(rng: random.Random) -> tuple[str, Spec]:
    what, label, options = picker(rng)
    return lead(rng, f"a picker to choose {what} from {join(rng, options, 'or')}"), choose(label, options)


@template("pk_help")
def _pk_help(rng: random.Random) -> tuple[str, Spec]:
    what, label, options = picker(rng)
    return f"help me pick {what}: {join(rng, options, 'or')}", choose(label, options)


@template("pk_dropdown")
def _pk_dropdown(rng: random.Random) -> tuple[str, Spec]:
    what, label, options = picker(rng)
    return lead(rng, f"a dropdown for {what} with {join(rng, options)}"), choose(label, options)


@template("pk_vote")
def _pk_vote(rng: random.Random) -> tuple[str, Spec]:
    what, label, options = picker(rng)
    listed = join(rng, options, "or")
    text = f"let everyone vote on {what}: {listed}" if rng.random() < 0.5 else lead(rng, f"a poll for {what} with options {listed}")
    return text, choose(label, options)


# -- cards --------------------------------------------------------------------------------------------------------
@template("cd_says")
def _cd_says(rng: random.Random) -> tuple[str, Spec]:
    title, pool = rng.choice(list(W.CARDS.items()))
    line = rng.choice(pool)
    frame = rng.choice(('a card titled {t} that says "{l}"', "a {t} card saying {l}", "a card called {t}: {l}"))
    return lead(rng, frame.format(t=title, l=line)), Spec(title, (Part("card", title, (line,), named_label=True),))


@template("cd_lines")
def _cd_lines(rng: random.Random) -> tuple[str, Spec]:
    title, pool = rng.choice(list(W.CARDS.items()))
    lines = pick(rng, pool, 2, 4)
    frame = rng.choice(("a card for {t} with these lines: {l}", "{t} card: {l}"))
    return lead(rng, frame.format(t=title, l=join(rng, lines))), Spec(
        title, (Part("card", title, lines, named_label=True),))


@template("cd_markdown")
def _cd_markdown(rng: random.Random) -> tuple[str, Spec]:
    meeting = rng.choice(W.MEETINGS)
    points = pick(rng, W.MEETING_POINTS, 2, 3)
    while len(markdown_text(points)) > GEN_MAX_TEXT:
        points = points[:-1]
    frame = rng.choice(("a markdown card with notes from the {m}: {p}", "meeting notes card ({m}) in markdown - {p}"))
    return lead(rng, frame.format(m=meeting, p=join(rng, points))), Spec(
        f"{cap(meeting)} notes", (Part("markdown", cap(meeting), points),))


@template("cd_switches")
def _cd_switches(rng: random.Random) -> tuple[str, Spec]:
    names = pick(rng, W.SETTINGS, 2, 5)
    frame = rng.choice(("a settings card with toggles for {s}", "a settings panel with {s} switches",
                        "a card of on/off switches: {s}"))
    return lead(rng, frame.format(s=join(rng, names))), Spec("Settings", (Part("switches", "Settings", names),))


# -- dashboards -----------------------------------------------------------------------------------------------------
def grid(title: str, *parts: Part, label: str = "Dashboard", asked: bool = False) -> Spec:
    return Spec(title, parts, container="Grid", container_label=label, container_asked=asked)


@template("db_timer_list")
def _db_timer_list(rng: random.Random) -> tuple[str, Spec]:
    subject, pool = rng.choice(list(W.SUBJECTS.items()))
    m, topics = rng.choice((25, 30, 45, 50, 60)), pick(rng, pool, 2, 4)
    body = f"a {subject} study dashboard with a {m} minute timer and a checklist of {join(rng, topics)}"
    return lead(rng, body), grid(f"{cap(subject)} study", Part("timer", "Study", seconds=m * 60),
                                 Part("checklist", "Topics", topics))


@template("db_progress_list")
def _db_progress_list(rng: random.Random) -> tuple[str, Spec]:
    name, (_, unit, bar, goals) = rng.choice([(k, v) for k, v in W.TRACKERS.items() if k in ("push-up", "running", "steps")])
    high, moves = rng.choice(goals), pick(rng, W.EXERCISES, 2, 4)
    body = f"a fitness dashboard: a {name} progress bar out of {high} {unit} and a checklist with {join(rng, moves)}"
    return lead(rng, body), grid("Fitness", Part("progress", bar, high=high), Part("checklist", "Exercises", moves))


@template("db_tabs")
def _db_tabs(rng: random.Random) -> tuple[str, Spec]:
    (a, la, pa), (b, lb, pb) = rng.sample(list(W.TAB_LISTS), 2)
    ia, ib = pick(rng, pa, 2, 3), pick(rng, pb, 2, 3)
    body = f"tabs for {a} and {b} tasks: {a} - {join(rng, ia)}; {b} - {join(rng, ib)}"
    spec = Spec(f"{la} and {lb.lower()}", (Part("checklist", la, ia, named_label=True),
                                          Part("checklist", lb, ib, named_label=True)),
                container="Tabs", container_label="Tasks", container_asked=True)
    return lead(rng, body), spec


@template("db_grid_cards")
def _db_grid_cards(rng: random.Random) -> tuple[str, Spec]:
    labels = rng.choice(W.GRID_LABELS)
    frame = rng.choice(("a grid of cards for {l}", "a grid with one card each for {l}"))
    parts = tuple(Part("card", cap(x), named_label=True) for x in labels)
    return lead(rng, frame.format(l=join(rng, labels))), Spec("Board", parts, container="Grid", container_label="Board",
                                                              container_asked=True)


@template("db_picker_timer")
def _db_picker_timer(rng: random.Random) -> tuple[str, Spec]:
    what, label, options = picker(rng)
    m = rng.choice((5, 10, 12, 15, 20))
    body = f"a decision helper: choose {what} from {join(rng, options, 'or')}, plus a {m} minute timer to decide"
    return lead(rng, body), grid("Decision helper", Part("select", label, options),
                                 Part("timer", "Decision", seconds=m * 60))


@template("db_list_button")
def _db_list_button(rng: random.Random) -> tuple[str, Spec]:
    person, title = rng.choice(W.GIFT_PEOPLE)
    gifts = pick(rng, W.GIFTS, 2, 4)
    frame = rng.choice(("a checklist of gift ideas for {p}: {g}, with a button to ask you for more",
                        "gift ideas for {p} ({g}) as a checklist and a button that asks you for more ideas"))
    spec = Spec(title, (Part("checklist", "Gift ideas", gifts), Part("ask", "Suggest more")))
    return lead(rng, frame.format(p=person, g=join(rng, gifts))), spec


@template("db_table_progress")
def _db_table_progress(rng: random.Random) -> tuple[str, Spec]:
    high = rng.choice((500, 1000, 2000, 3000))
    saved = rng.choice([x for x in (50, 100, 150, 250, 400, 600, 900) if x < high])
    body = f"a savings dashboard: progress toward {high} dollars with {saved} saved, and a table with date and amount columns"
    return lead(rng, body), grid("Savings", Part("progress", "Dollars saved", high=high, value=saved),
                                 Part("table", "Deposits", columns=("date", "amount")))


@template("db_routine_timer")
def _db_routine_timer(rng: random.Random) -> tuple[str, Spec]:
    (name, title), pool = rng.choice(list(W.ROUTINES.items()))
    items, m = pick(rng, pool, 2, 4), rng.choice((10, 15, 20, 30))
    body = f"a {name} routine view: a checklist ({join(rng, items)}) next to a {m} minute timer"
    return lead(rng, body), grid(title, Part("checklist", "Steps", items), Part("timer", "Routine", seconds=m * 60))
