"""A reminder moved by a follow-up ("Actually, make it 3pm instead", "move it to Saturday", "an hour later"), or
set once more before itself ("Also remind me 30 minutes before that": `before_that`).

Tried with `mol chat`: after "remind me to renew my passport next Friday at noon", "Actually, make it 3pm
instead" got the answer "Reminder set for Fri 4 Dec 2026, 18:39: make it 3pm." with no call at all — the
reminder was still at noon and nothing new was set. A follow-up that only says a new time for "it" moves
the newest open reminder of this conversation: the new one is set first (so a time that has passed is
refused and nothing changes), then the old one is cancelled. A new clock time keeps the old day, a new
day keeps the old time, "an hour later" / "push it back 30 minutes" count from the old time, and a bare
"make it 4" (or "6:30") is the one nearer the old time. A repeating reminder is left to the model.
"Actually, cancel that" cancels it (`cancel_that`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from mol_local.harness.errors import BadArguments
from mol_local.harness.when import parse_offset, parse_when
from mol_local.turn.tasks import ToolCall, answering_call, parse_tool_calls
from mol_local.turn.told_time import told_before
from mol_local.turn.when_said import ASK_WHEN, asked_place

if TYPE_CHECKING:
    from memory.timeline import TaskRecord
    from mol_local.harness.hub import ToolHub

_MOVE = re.compile(
    r"^(?:(?:actually|no|sorry|oh|wait|hmm|ok|okay|hang on)[,!.]?\s+)*(?:(?:can|could|would) you\s+|please\s+|let'?s\s+)?"
    r"(?:make|change|move|set|push|switch|put|shift|bring)\s+(?:it|that|that one|the reminder|that reminder)\s+"
    r"(?:(?P<dir>back|forward)\s+(?:by\s+)?)?(?:to|for|at|until|till|on)?\s*(?P<when>.+?)(?:\s+instead)?(?:,?\s*(?:please|thanks))?[\s.!?]*$",
    re.IGNORECASE)
_LATER = re.compile(r"^(?P<n>.+?)\s+(?P<way>later|earlier|sooner)$", re.IGNORECASE)
_CLOCK = re.compile(r"\d\s*(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}[:.]\d{2}|\bnoon\b|\bmidnight\b|\bat\s+\d{1,2}\b|o'?clock|^\d{1,2}$", re.I)
_DAY = re.compile(r"\b(?:today|tonight|tomorrow|next week|(?:mon|tues|wednes|thurs|fri|satur|sun)day|\d{1,2}(?:st|nd|rd|th)|"
                  r"jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)", re.IGNORECASE)


def moved_time(request: str, old: datetime, now: datetime) -> datetime | None:
    """The new local time a follow-up gives an old reminder's time, or None when it is no such follow-up."""
    m = _MOVE.match(" ".join(request.split()))
    return None if m is None else new_time(m["when"].strip(), m["dir"], old, now)


def new_time(when: str, direction: str | None, old: datetime, now: datetime) -> datetime | None:
    """The time `when` ("3pm", "Saturday", "an hour later"; after "back"/"forward" when `direction` says so) gives a
    reminder due at `old`, or None when it names no time."""
    later = _LATER.match(when)
    if later or direction:  # "an hour later", "push it back 30 minutes", "bring it forward by an hour"
        try:
            step = parse_offset((later["n"] if later else when).removeprefix("by ").strip())
        except BadArguments:
            step = None
        if step is not None:
            way = later["way"].lower() if later else {"back": "later", "forward": "earlier"}[direction.lower()]
            return old + step if way == "later" else old - step
    bare = re.fullmatch(r"(?P<h>\d{1,2})(?:[:.](?P<m>[0-5]\d))?", when)
    if bare and 1 <= int(bare["h"]) <= 12:  # "make it 4", "make it 6:30": the one nearer the old time (18:30 after 18:00)
        hour = min((int(bare["h"]) % 12, int(bare["h"]) % 12 + 12), key=lambda h: abs(h - old.hour))
        return old.replace(hour=hour, minute=int(bare["m"] or 0), second=0)
    clock, day = bool(_CLOCK.search(when)), bool(_DAY.search(when))
    if not (clock or day):
        return None
    try:
        new = parse_when(when, now=now if day else old.replace(hour=0, minute=0))
    except BadArguments:
        return None
    if clock and not day:
        return old.replace(hour=new.hour, minute=new.minute, second=0)
    return new if clock else new.replace(hour=old.hour, minute=old.minute, second=0)


def follow_up_move(request: str, hub: ToolHub | None, conversation_id: str, history: Sequence[TaskRecord],
                   now: datetime) -> list[ToolCall]:
    """The reminder asked for last turn once the person says when (`answered_when`), else `moved_calls` for the
    newest open reminder of the conversation when the previous task set or listed it: "make it 10" after a timer
    or a plan is about them, not about a reminder set three turns ago."""
    if history and (asked := answered_when(request, history[-1].messages, now)):
        return asked
    latest = hub.reminders.latest(conversation_id) if hub is not None else None
    if latest is None or not history or not any(latest["id"] in m.content for m in history[-1].messages if m.role == "tool"):
        return []
    return before_that(request, latest) or cancel_that(request, latest) or moved_calls(request, latest, now)


_CANCEL_THAT = re.compile(r"^(?:(?:actually|oh|no|sorry|wait|hmm|ok(?:ay)?)[,!.]?\s+)*(?:(?:please|can you|could you)\s+)?"
                          r"(?:cancel|delete|remove|scrap|undo|forget)\s+(?:that|it|this)(?:\s+(?:one|reminder))?(?:,?\s+please)?[\s.!]*$|"
                          r"^(?:(?:actually|oh|no|sorry)[,!.]?\s+)*never\s*mind(?:,?\s+(?:cancel|forget)\s+(?:that|it))?[\s.!]*$", re.IGNORECASE)


def cancel_that(request: str, latest: dict) -> list[ToolCall]:
    """reminders.cancel of the reminder set or listed last turn, for "Actually, cancel that" (`mol chat -c`: L0 answered
    "Cancel that — canceling a reminder set for …" and cancelled nothing); [] for any other request."""
    return [answering_call("reminders.cancel", {"id": latest["id"]})] if _CANCEL_THAT.match(" ".join(request.split())) else []


_ONLY_WHEN = re.compile(r"^(?:(?:ok(?:ay)?|oh|um+|hmm|sure|yes)[,!.]?\s+)?(?:(?:make it|set it for|remind me)\s+)?(?P<when>.+?)"
                        r"(?:,?\s*(?:please|thanks|thank you))?[\s.!]*$", re.IGNORECASE)


def answered_when(request: str, previous: Sequence, now: datetime) -> list[ToolCall]:
    """The reminder asked for last turn, now that the person says when: "Remind me to call Ana" got "When should I
    remind you to call Ana?" and "tomorrow at 5pm" is the answer (on its own it asks for no reminder, and was
    refused as one). [] unless the previous task ended on that question and the request is only a time."""
    asked = [m for m in previous if m.role == "tool" and (m.content == f"Error: {ASK_WHEN}" or asked_place(m.content))]
    said = _ONLY_WHEN.match(" ".join(request.split()))
    if not asked or previous[-1].role != "assistant" or said is None or len(said["when"].split()) > 6:
        return []
    calls = [c for m in previous if m.role == "assistant" for c in parse_tool_calls(m.content) if c.name == "reminders.create"]
    when = told_before(said["when"], previous[-1].content)  # "an hour before she lands", after the time told was offered
    if when is None:
        try:
            parse_when(said["when"], now=now)
        except BadArguments:
            return []
        when = {"due": said["when"]}
    return [answering_call("reminders.create", {"text": calls[-1].arguments["text"], **when})] if calls and when else []


def moved_calls(request: str, latest: dict | None, now: datetime) -> list[ToolCall]:
    """reminders.create at the new time, then reminders.cancel of the old one, for a follow-up that moves the
    newest open reminder (`latest`: a reminders row); [] for any other request."""
    if latest is None or latest.get("repeat") or not latest.get("due_at"):
        return []
    old = datetime.fromisoformat(latest["due_at"]).astimezone().replace(tzinfo=None)
    new = moved_time(request, old, now)
    if new is None or new == old:
        return []
    create = answering_call("reminders.create", {"text": latest["text"], "due": new.isoformat(timespec="minutes")})
    return [create] if new < now else [create, answering_call("reminders.cancel", {"id": latest["id"]})]


def moved_answer(calls: list[dict]) -> str | None:
    """"Moved: renew my passport — now Fri 11 Dec 2026, 15:00." from a move's two results; None for other calls."""
    names = [c["name"] for c in calls]
    if names != ["reminders.create", "reminders.cancel"] or calls[0]["result"].startswith("Error"):
        return None
    m = re.match(r"^Reminder \w+ set for (?P<at>[^:]+:\d{2}): (?P<text>.+)$", calls[0]["result"].strip().splitlines()[0])
    return f"Moved: {m['text']} — now {m['at']}." if m else None


_BEFORE_THAT = re.compile(r"^(?:(?:also|and|oh|ok(?:ay)?)[,]?\s+)*(?:(?:can|could) you\s+)?(?:also\s+)?remind me\s+(?:again\s+)?(?P<n>.+?)\s+"
                          r"(?:before|earlier than)\s+(?:that|it|then|this)(?:\s+too|\s+as well)?[\s.!]*$", re.IGNORECASE)


def before_that(request: str, latest: dict | None) -> list[ToolCall]:
    """reminders.create of the newest reminder's text at its time, `before` the offset said, for "also remind me 30
    minutes before that"; [] for any other request or with no such reminder. (`mol chat -c`: after "Remind me to call
    the bank tomorrow at 10am" it had been set again at 10:00.)"""
    m = _BEFORE_THAT.match(" ".join(request.split()))
    if m is None or latest is None or not latest.get("due_at"):
        return []
    due = datetime.fromisoformat(latest["due_at"]).astimezone().replace(tzinfo=None)
    return [answering_call("reminders.create", {"text": latest["text"], "due": due.isoformat(timespec="minutes"), "before": m["n"]})]
