"""A reminder asked for with no time, beside a time the person told about the same thing: offered, then used.

Tried with `mol chat -c`: "My mum lands at Gatwick on Friday at 6:40pm", then "Remind me to pick up mum from the
airport" got only "When should I remind you to pick up mum?", and the reply "an hour before she lands" got "You told
me your mum lands at Gatwick on Friday at 6:40pm." with no reminder. The question back now says the time told
(`with_told_time`, read relative to the day it was said: "Friday" said on a Sunday is that week's), and a reply that
is a lead time ("an hour before", "the day before she lands") or "then" sets the reminder from it (`told_before`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from memory.store import SAID, said_words
from mol_local.harness.errors import BadArguments
from mol_local.harness.when import parse_offset, parse_when
from mol_local.statements import is_request, second_person
from mol_local.turn.ground import content_stems
from mol_local.turn.remote import memories_may_leave
from mol_local.turn.when_said import ASK_WHEN

if TYPE_CHECKING:
    from memory.bank import Recalled
    from memory.timeline import TaskRecord
    from mol_local.runtime import Runtime

_WHEN = re.compile(r"\b(?:on|this|next|tomorrow|today|tonight|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b.*$|\bat\s+\d.*$", re.I)
_CLOCK = re.compile(r"\d\s*(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}[:.]\d{2}|\bnoon\b|\bmidnight\b", re.I)
_NOT_SHARED = frozenset(content_stems("remind reminder set alarm ping please tomorrow today tonight week day time"))
_SHOWN = re.compile(r"\((?P<at>\w{3} \d{1,2} \w{3} \d{4}, \d{2}:\d{2})\) — say \"an hour before\"")
_REPLY = re.compile(r"^(?:(?P<then>then|at that time|at the same time|when (?:she|he|they|it|we|you)\b.*)|"
                    r"(?:(?P<day>the day)|(?P<lead>(?:\d+|an?|one|two|three|half an?)\s*(?:minutes?|mins?|hours?|hrs?|days?)"
                    r"(?:\s+and\s+a\s+half)?))\s+(?:before|earlier)(?:\s+(?:it|that|then|she|he|they|we|the)\b.*)?)$", re.I)
RECALLED = 5


def told_time(request: str, said: Sequence[tuple[str, datetime]], now: datetime) -> tuple[str, datetime] | None:
    """(the words, the time they name) of the newest thing said that shares a word with the request and names a day or
    clock still to come, read from the day it was said; None when nothing does."""
    asked = content_stems(request) - _NOT_SHARED
    found = []
    for words, at in said:
        when = _WHEN.search(words.strip().rstrip(".!"))
        if when is None or is_request(words) or not asked & content_stems(words) or not _CLOCK.search(when[0]):
            continue
        try:
            due = parse_when(when[0], now=at)
        except BadArguments:
            continue
        if due > now:
            found.append((at, words, due))
    return max(found, key=lambda f: f[0])[1:] if found else None


def _said(history: Sequence[TaskRecord], recalled: Sequence[Recalled], now: datetime) -> list[tuple[str, datetime]]:
    """What the person said in this conversation (as said now), and the recalled memories with the days they were said."""
    out = [(m.content, now) for t in history for m in t.messages if m.role == "user"]
    return out + [(said_words(r.memory.text) if r.memory.kind == SAID else r.memory.text,
                   datetime.fromisoformat((r.memory.said_at or r.memory.created_at)[:19])) for r in recalled]


def with_told_time(answer: str, calls: Sequence[dict], rt: Runtime, request: str, history: Sequence[TaskRecord],
                   memory: bool) -> str:
    """The question back for a reminder with no time, with the time told about the same thing when there is one:
    'When should I remind you to pick up mum? You told me your mum lands at Gatwick on Friday at 6:40pm (Fri 11 Dec
    2026, 18:40) — say "an hour before" or a time.' `memory`: whether this turn may use memories (and they may go
    into a prompt: a remote backend's `send_memories`)."""
    if not any(c["result"] == f"Error: {ASK_WHEN}" for c in calls):
        return answer
    now = rt.clock()
    recalled = rt.memory.search(request, RECALLED, min_score=0.25, now=now) if memory and memories_may_leave(rt) else []
    found = told_time(request, _said(history, recalled, now), now)
    if found is None:
        return answer
    return f'{answer} You told me {second_person(found[0]).rstrip(".")} ({found[1]:%a %-d %b %Y, %H:%M}) — say "an hour before" or a time.'


def told_before(reply: str, asked: str) -> dict[str, str] | None:
    """{"due", and "before" when a lead time is said} for a reply to `with_told_time`'s question ("an hour before she
    lands", "the day before", "then"); None for any other reply, or a question that offered no time."""
    shown, m = _SHOWN.search(asked), _REPLY.match(reply.strip())
    if shown is None or m is None:
        return None
    at = datetime.strptime(shown["at"], "%a %d %b %Y, %H:%M")
    if m["then"]:
        return {"due": at.isoformat(timespec="minutes")}
    try:
        lead = timedelta(days=1) if m["day"] else parse_offset(m["lead"])
    except BadArguments:
        return None
    return {"due": at.isoformat(timespec="minutes"), "before": m["lead"] if m["lead"] else "1 day"} if lead else None


_UNTIL = re.compile(r"^(?:so\s+|and\s+)?how (?:long|many (?:days|hours))(?: is it| do i have| have i got)? (?:until|till|before|to) "
                    r"(?P<what>(?:my|our|the|mum's|dad's|[A-Z]\w+'s)\s+[\w' -]{2,60}?)[\s?.!]*$", re.I)


def until_answer(text: str, recalled: Sequence[Recalled], history: Sequence[TaskRecord], now: datetime) -> str | None:
    """How long until the thing asked about, from the time the person told for it: "How long until my dentist
    appointment?" after "My dentist appointment is on Thursday at 2pm" got "Your dentist appointment is on Thursday at
    2pm." (`mol chat -c`: no count). None for other questions, or when nothing told names a time still to come."""
    m = _UNTIL.match(" ".join(text.split()))
    if m is None:
        return None
    found = told_time(m["what"], _said(history, recalled, now), now)
    if found is None:
        return None
    left = found[1] - now
    days, hours = left.days, left.seconds // 3600
    count = ", ".join(f"{n} {unit}{'s' if n != 1 else ''}" for n, unit in ((days, "day"), (hours, "hour")) if n) or \
        f"{left.seconds // 60} minutes"
    what = second_person(m["what"]).strip()
    return f"{count} — {what} is on {found[1]:%a %-d %b %Y, %H:%M} (from what you told me: \"{found[0].strip()}\")."
