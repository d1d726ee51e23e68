"""A plan of timed items, saved as the person asked: "Can you put together a plan for Sunday — the hardware store at
8:15am and piano practice at 6 pm — and save it in my notes?" becomes one note holding those items at those times.

Held-out L1 saved a note and answered "1. 10:00 the hardware store 2. 11:00 piano practice (before 14:00) 3. 13:15
piano practice" — the times made up, an item twice — for all three such requests of its held-out set (0/3). The
items and times are the person's (`timed_list.read_items`, built on the L1 recipe's training templates), each time
read by the harness's own `parse_when`; the note is titled "<day> plan" and lists them in time order, and the
answer is that plan. A request that asks for no note, names fewer than two timed items, or a time we cannot read
stays the model's.
"""

from __future__ import annotations

import json
import re
from datetime import datetime

from mol_local.harness.errors import BadArguments
from mol_local.harness.when import parse_when
from mol_local.turn.tasks import CALL_CLOSE, CALL_OPEN, ToolCall
from mol_local.turn.timed_list import read_items

_PLAN = re.compile(r"\b(?:plan|schedule|itinerary|agenda|timetable)\b", re.IGNORECASE)
_SAVE = re.compile(r"\b(?:save|keep|put|store|write|add)\b[^.?!]*\bnotes?\b|\bnote (?:it|that) down\b|\bsave it\b", re.IGNORECASE)
_LINE = re.compile(r"^\d{2}:\d{2} \S")


def plan_note_call(request: str, now: datetime) -> ToolCall | None:
    """notes.create of the plan the request lists, when it asks for a plan saved as a note; None otherwise."""
    if not (_PLAN.search(request) and _SAVE.search(request)):
        return None
    items, _ = read_items(request)
    if len(items) < 2:
        return None
    timed: list[tuple[datetime, str]] = []
    for what, day, at in items:
        try:
            timed.append((parse_when(f"{day} at {at}".strip(), now=now), what))
        except BadArguments:
            return None
    days = {day for _what, day, _at in items if day}
    day = days.pop() if len(days) == 1 else ""
    title = f"{day[:1].upper()}{day[1:]} plan" if day else "Plan"
    body = "\n".join(f"{when:%H:%M} {what}" for when, what in sorted(timed))
    args = {"title": title, "body": body}
    return ToolCall("notes.create", args, CALL_OPEN + json.dumps({"name": "notes.create", "arguments": args}) + CALL_CLOSE, answers=True)


def plan_answer(call: dict) -> str | None:
    """"The plan for Sunday, in time order (saved as the note "Sunday plan"): 1. 08:15 …" for a plan note that was
    saved; None for any other call."""
    body, title = call["arguments"].get("body") or "", call["arguments"].get("title") or ""
    lines = body.splitlines()
    if call["name"] != "notes.create" or call["result"].startswith("Error") or len(lines) < 2 or not all(_LINE.match(x) for x in lines):
        return None
    day = title.removesuffix(" plan")
    head = f"The plan for {day}, in time order" if day and day != "Plan" else "The plan, in time order"
    return f'{head} (saved as the note "{title}"):\n' + "\n".join(f"{i}. {line}" for i, line in enumerate(lines, 1))
