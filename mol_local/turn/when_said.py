"""When a reminder request says its time — or says none.

Tried with `mol chat` on the embedded default: "Remind me to call Ana" was set for the minute it was asked
(the model copied the clock from the tail), "Remind me about the meeting later" was refused by the tool as
"due 'the meeting' is not a time I can read", and "Set an alarm for 6:30 tomorrow" was set for tomorrow 9am.
A request that names no time at all gets one question back ("When should I remind you to call Ana?") and
nothing is set; a request that names one clock time gets that time, whatever the model wrote.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import replace
from datetime import datetime

from mol_local.harness.errors import BadArguments
from mol_local.harness.when import copies_a_time, due_at, parse_when, stated_offset
from mol_local.turn.tasks import ToolCall

ASK_WHEN = "not run: the request names no time — ask when"
NO_DUE = "not run: the call gave no due, and what the request says is not a time I can place — ask when"
ASKED_DAY = "I couldn't tell when to set that for — say a day and a time (\"Saturday at 6:30pm\") and I'll set it."
ASK_PLACE = "not run: a reminder goes off at a time, not {place} — ask when"
_ASKED_PLACE = re.compile(r"^Error: not run: a reminder goes off at a time, not (?P<place>.+?) — ask when$")
_AT_PLACE = re.compile(r"\bwhen (?:i|we)(?:'m| am| are)? (?:get|gets|arrive|reach|leave|am at|'m at|are at|come|go|walk|pass)\b"
                       r"(?P<where>[^,.?!]{0,30})", re.IGNORECASE)


def asked_place(result: str) -> str | None:
    """The place an ASK_PLACE refusal names ("when i get home"), or None for any other result."""
    m = _ASKED_PLACE.match(result)
    return m["place"] if m else None


def place_said(request: str) -> str | None:
    """"when I get home" in "Remind me to buy milk when I get home": where the person wants it, which no clock can
    know; None when the request names no place trigger."""
    m = _AT_PLACE.search(request)
    return " ".join(m[0].split()).lower() if m else None
_WHEN_WORDS = re.compile(
    r"\d|\b(?:today|tonight|tomorrow|morning|afternoon|evening|night|noon|midnight|weekend|week|month|year|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun|"
    r"jan(?:uary)?|feb(?:ruary)?|march|april|may|june|july|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|"
    r"every|daily|weekly|monthly|hourly|hour|hours|minute|minutes|mins?|half|quarter|(?:breakfast|lunch|tea|dinner|supper|bed)\s*time|"
    r"at (?:breakfast|lunch|dinner|supper)|"
    r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty)\b",
    re.IGNORECASE)
_CLOCK = re.compile(r"\b\d{1,2}[:.]\d{2}\s*(?:am|pm|a\.m\.|p\.m\.)?|\b\d{1,2}\s*(?:am|pm|a\.m\.|p\.m\.)|\bnoon\b|\bmidnight\b", re.I)
_DAY_WORD = re.compile(r"\b(?:today|tomorrow|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b", re.I)
_VAGUE_END = re.compile(r"\s+(?:later(?: on)?|soon|sometime|some time|at some point)$", re.IGNORECASE)
_PLACE_END = re.compile(r"\s+when (?:i|you|we)\b.*$", re.IGNORECASE)
_NOT_A_TASK = re.compile(r"^(?:the|a|an|my|our|your|about|of)\b", re.IGNORECASE)


_ASKS_BACK = re.compile(r"^\s*(?:can you |could you |please )?remind me,?\s+(?:what|who|whom|where|when|which|how|of what|about what)\b", re.I)


def asks_back(request: str) -> bool:
    """"Remind me what I told you about the dentist": a question, not a reminder to set (it was asked "When
    should I remind you about the dentist?")."""
    return bool(_ASKS_BACK.search(request))


def says_no_time(request: str) -> bool:
    """Whether a request names no time at all (no clock, day, date, "in N minutes", "every …")."""
    return _WHEN_WORDS.search(request) is None


def ask_when(text: str, place: str | None = None) -> str:
    """The one question back for a reminder with no time: "When should I remind you to call Ana?"; with a `place`
    ("when I get home") it first says a reminder cannot go off there (L0 had asked only "When should I …?")."""
    if place:
        return f"I can only remind you at a time — I can't tell {place.replace('when i', 'when you', 1)}. " + ask_when(text)
    what = _VAGUE_END.sub("", " ".join(str(text).split()).rstrip(".!?")).strip()
    what = _PLACE_END.sub("", what).strip()
    if not what:
        return "When should I remind you?"
    lead = "" if re.match(r"^(?:to|about|of)\b", what, re.I) else "about " if _NOT_A_TASK.match(what) else "to "
    return f"When should I remind you {lead}{what}?"


def with_stated_clock(call: ToolCall, request: str) -> ToolCall:
    """The one clock time a request names, in place of the model's when it wrote another or none ("Set an alarm
    for 6:30 tomorrow" was set for "tomorrow 9am"). Left alone with a lead time ("30 minutes before my 2pm"),
    which the model may have worked out, or when the request names several times."""
    due = call.arguments.get("due") if call.name == "reminders.create" else None
    said = {re.sub(r"\s+", "", m.lower()) for m in _CLOCK.findall(request)}
    if isinstance(due, str) and len(said) == 1 and (offset := stated_offset(request)) and not _CLOCK.search(due):
        # "Remind me 15 minutes before my 3pm meeting" written as due "15 minutes before": the meeting's time, less the lead
        day = " ".join(dict.fromkeys(d.lower() for d in _DAY_WORD.findall(request)))
        return replace(call, arguments={**call.arguments, "due": f"{day} {_CLOCK.search(request)[0].strip()}".strip(), "before": offset})  # type: ignore[index]
    if not isinstance(due, str) or len(said) != 1 or stated_offset(request) or call.arguments.get("before") \
            or copies_a_time(due, request):
        return call
    clock = _CLOCK.search(request)[0].strip()  # type: ignore[index]
    fixed = _CLOCK.sub(clock, due, count=1) if _CLOCK.search(due) else f"{due} at {clock}".strip()
    return replace(call, arguments={**call.arguments, "due": fixed})


_WAIT = (r"(?:\d+|an?|one|two|three|four|five|six|ten|fifteen|twenty|thirty|forty|forty-five|a couple of|half an?)\s*"
         r"(?:minutes?|mins?|hours?|hrs?)(?:\s+and\s+a\s+half)?")
_STATED_WAIT = re.compile(rf"\bin\s+({_WAIT})\b|\b({_WAIT})\s+from\s+now\b", re.I)


def with_stated_wait(call: ToolCall, request: str) -> ToolCall:
    """The one wait a request states ("in 10 minutes", "10 minutes from now") in place of a `due` that is not
    that time: "Set a reminder for 10 minutes from now: check the laundry" was written as "on 5 Dec 2026",
    9:00 that morning, and refused as passed. Left alone when the request states several waits."""
    due = call.arguments.get("due") if call.name == "reminders.create" else None
    said = {(m[1] or m[2]).lower() for m in _STATED_WAIT.finditer(request)}
    if not isinstance(due, str) or len(said) != 1 or call.arguments.get("before"):
        return call
    wait = f"in {said.pop()}"
    try:
        if abs((parse_when(due) - parse_when(wait)).total_seconds()) <= 60:
            return call
    except BadArguments:
        pass
    return replace(call, arguments={**call.arguments, "due": wait})


_HOURS = r"(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_PART_OF_DAY = re.compile(rf"\b(?:morning|afternoon|evening|tonight|night|lunch\w*|noon|midnight|dinner\w*|breakfast|bedtime|hours?|"
                          rf"minutes?|mins?)\b|\b(?:at|by|around|about|after|before|from|until|till)\s+{_HOURS}\b|"
                          rf"\b{_HOURS}\s*(?:am|pm|a\.m\.|p\.m\.|o'?clock|h)\b|\d[:.]\d\d", re.I)
_ISO_CLOCK = re.compile(r"^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(?::\d{2})?$")
_DUE_CLOCK = re.compile(rf"\s*(?:\bat\s+)?(?:{_CLOCK.pattern})", re.I)  # a clock time with its "at", to take out of a due


def without_made_up_clock(call: ToolCall, request: str) -> ToolCall:
    """A day's reminder without the clock time the model added: "I need to call the bank tomorrow, can you remind
    me?" was set for "tomorrow at midnight". When the request names no time of day at all (no clock, number or
    "morning"…), a clock in `due` is dropped, and the day's default morning hour is used."""
    due = call.arguments.get("due") if call.name == "reminders.create" else None
    if not isinstance(due, str) or _PART_OF_DAY.search(request):
        return call
    if iso := _ISO_CLOCK.match(due.strip()):  # "2026-12-07T15:00": the date alone would read as its midnight
        return replace(call, arguments={**call.arguments, "due": f"{int(iso[3])} {calendar.month_name[int(iso[2])]} {iso[1]}"})
    if not _DUE_CLOCK.search(due):
        return call
    day = " ".join(_DUE_CLOCK.sub(" ", due).split())
    return replace(call, arguments={**call.arguments, "due": day}) if day else call


_REMIND_LEAD = re.compile(r"^(?:(?:ok(?:ay)?|please|and|also)[,]?\s+)*(?:(?:can|could|would) you\s+)?(?:please\s+)?remind me\b", re.I)


def with_readable_due(call: ToolCall, request: str, now: datetime | None = None) -> ToolCall:
    """The request's own words for when, in place of a `due` nothing can read: "Remind me this weekend to clean the
    gutters" was written as due "the gutter where the gutter is" (refused, and L0 then answered with made-up code). The
    words are the request less "remind me" and the reminder's text; the call is left as it was when they are not a time
    still to come at `now` (the wall clock when None)."""
    due, text = call.arguments.get("due"), str(call.arguments.get("text", ""))
    if call.name != "reminders.create" or not isinstance(due, str) or not text.strip() or stated_offset(request) or _reads(due, now):
        return call
    said = _REMIND_LEAD.sub("", request.strip().rstrip(".!?"))
    said = re.sub(rf"(?:\s*\bto)?\s*\b{re.escape(text.strip())}\b", " ", said, flags=re.I).strip(" ,")
    return replace(call, arguments={**call.arguments, "due": said}) if said and _reads(said, now) else call


def _reads(when: str, now: datetime | None = None) -> bool:
    """Whether the harness can place `when` ("the 3pm meeting" too: `due_at` reads its clock) at a time still to come."""
    try:
        due_at(when, now=now)
    except BadArguments:
        return False
    return True
