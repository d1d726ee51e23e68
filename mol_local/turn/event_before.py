"""A reminder before the event the person has just told: "My doctor's appointment is on 14 January at 10:30" →
"Remind me about it the day before".

Tried with `mol chat -c`: the follow-up got "When should I remind you to mind?" (L0 set the text "mind", due
"the day before", and the tool asked when). The event and its time are in the person's previous message; the
follow-up names only how long before it. Both are read here: the reminder is the event's words, due at the
event's time, `before` the offset said (the day before is one day before, at the event's clock time).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime, time, timedelta

from mol_local.harness.errors import BadArguments
from mol_local.harness.when import parse_offset, parse_when
from mol_local.turn.dates import months_before, named_date
from mol_local.turn.day_plan import planned
from mol_local.turn.ground import content_stems
from mol_local.turn.relations import by_relation
from mol_local.turn.tasks import ToolCall, answering_call

_ASK = re.compile(
    r"^(?:(?:ok(?:ay)?|great|thanks|and|also)[,!.]?\s+)*(?:(?:can|could) you\s+|please\s+)?(?:also\s+)?remind me"
    r"(?:\s+(?:about|of)\s+(?:it|that|this|them))?\s+(?:(?:(?P<day>the day)|(?P<n>an?|one|two|three|\d{1,3})\s+(?P<unit>minutes?|hours?|days?|weeks?))"
    r"\s+before(?:\s+(?:it|that|then|hand))?|(?P<part>the morning of|the night before|the evening before)(?:\s+(?:it|that))?)"
    r"(?:,?\s+to\s+(?P<task>[\w' -]{2,60}?))?(?:,?\s*(?:please|thanks))?[\s.!?]*$", re.IGNORECASE)  # "the morning of to print my CV"
_ASK_MY = re.compile(
    r"^(?:(?:ok(?:ay)?|and|also)[,!.]?\s+)*(?:(?:can|could) you\s+|please\s+)?(?:also\s+)?remind me\s+(?:(?P<day>the day)|"
    r"(?P<n>an?|one|two|three|\d{1,3})\s+(?P<unit>minutes?|hours?|days?|weeks?))\s+before\s+(?:(?:my|our|the)\s+|(?P<whose>[A-Z][\w-]+)(?:'s|’s)\s+)?"
    r"(?P<what>[\w' -]{2,60}?)"  # no "the": "an hour before lunch with Alex", an item of the day just planned
    r"(?:,?\s*(?:please|thanks))?[\s.!?]*$", re.IGNORECASE)
_EVENT = re.compile(r"^(?:(?:so|ok|and|oh)[,]?\s+)?(?:my|our|the)\s+(?P<what>[\w' -]{2,60}?)\s+(?:is|are|will be|'s)\s+"
                    r"(?:(?:due|booked|scheduled|planned|set)(?:\s+back)?\s+)?"  # "My car MOT is due on 20 January" (mol chat -c)
                    r"(?P<when>(?:on|at|this|next|tomorrow|today|tonight|\d{1,2}\s+[a-z]+|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s+\d)\b.{0,60}?)[\s.!]*$", re.IGNORECASE)
_HAVE = re.compile(r"^(?:(?:so|ok|and|oh)[,]?\s+)?(?:i|we)\s*(?:have|'ve got|’ve got|have got|got)\s+(?:an?|my|our|the)\s+(?P<what>[\w' -]{2,60}?)\s+"
                   r"(?P<when>(?:on|at|this|next|tomorrow|today|tonight)\b.{0,60}?)[\s.!]*$", re.IGNORECASE)  # "I have a dentist appointment on Thursday at 2pm"
_DEADLINE = re.compile(r"^(?:(?:so|ok|and|oh)[,]?\s+)?(?:i|we)\s*(?:need|have|must|'ve got|’ve got|have got|got)\s+to\s+"
                       r"(?P<what>[\w' -]{2,60}?)\s+(?:by|before)\s+(?P<when>(?:the\s+\d|\d|on\b|this\b|next\b|tomorrow|today|tonight|"
                       r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s+\d).{0,40}?)[\s.!]*$",
                       re.IGNORECASE)  # "I need to pay the electricity bill by the 15th": "Remind me the day before" was asked when
_TRIP = re.compile(r"^(?i:(?:(?:so|ok|and|oh)[,]?\s+)?(?:i'm|i’m|i am|we're|we’re|we are)\s+(?:going|flying|travelling|traveling|heading|off|"
                   r"driving|sailing)\s+to)\s+(?P<place>[A-Z][\w' -]{1,40}?)\s+(?P<when>(?i:on|from|this|next|tomorrow|in)\b.{2,60}?)[\s.!]*$")
_SPAN = re.compile(r"^(?:on\s+|from\s+)?(?:the\s+)?(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+(?:to|until|till|through|-|–)\s+(?:the\s+)?\d{1,2}"
                   r"(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m>[A-Za-z]{3,9})\b", re.IGNORECASE)
_COUNT = {"a": "1", "an": "1", "one": "1", "two": "2", "three": "3"}
_ASK_MY_TO = re.compile(  # "Remind me two days before Alex's birthday to buy flowers": the task after the event
    r"^(?:(?:ok(?:ay)?|and|also)[,!.]?\s+)*(?:(?:can|could) you\s+|please\s+)?(?:also\s+)?remind me\s+(?:(?P<day>the day)|"
    r"(?P<n>an?|one|two|three|\d{1,3})\s+(?P<unit>minutes?|hours?|days?|weeks?))\s+before\s+(?:(?:my|our|the)\s+|(?P<whose>[A-Z][\w-]+)(?:'s|’s)\s+)"
    r"(?P<what>[\w' -]{2,40}?)\s+to\s+(?P<task>(?:buy|call|book|order|pack|send|get|make|pick|prepare|check|renew|pay|email|text|ring|"
    r"wrap|write|clean|charge|print|confirm|cancel|bake|cook|plan|water|feed|take|bring|leave|start|finish|submit|sign|collect|post|"
    r"iron|wash|fix|tidy|sort|pack|practi[cs]e|rehearse|ask|tell|visit|return|download|update|fill|label|decorate|put|go|set|find|learn|read)"
    r"\b[\w' -]{0,60}?)(?:,?\s*(?:please|thanks))?[\s.!?]*$", re.IGNORECASE)  # a verb first: "my trip to Paris" is no task
_ASK_TASK_BEFORE_IT = re.compile(  # "Remind me to book the airport transfer a week before": before the event told last
    r"^(?:(?:ok(?:ay)?|and|also)[,!.]?\s+)*(?:(?:can|could) you\s+|please\s+)?(?:also\s+)?remind me\s+to\s+(?P<task>[\w' -]{3,60}?)\s+"
    r"(?:(?P<day>the day)|(?P<n>an?|one|two|three|four|five|six|\d{1,2})\s+(?P<unit>days?|weeks?|hours?))\s+before"
    r"(?:\s+(?:it|that|then|hand|the trip|i go|we go|i leave|we leave))?(?:,?\s*(?:please|thanks))?[\s.!?]*$", re.IGNORECASE)
_ASK_TASK = re.compile(
    r"^(?:(?:ok(?:ay)?|and|also)[,!.]?\s+)*(?:(?:can|could) you\s+|please\s+)?(?:also\s+)?remind me\s+to\s+(?P<task>[\w' -]{3,60}?)\s+"
    r"(?P<n>an?|one|two|three|four|six|\d{1,2})\s+(?P<unit>days?|weeks?|months?)\s+before\s+(?P<ref>[\w' -]{2,60}?)"
    r"(?:,?\s*(?:please|thanks))?[\s.!?]*$", re.IGNORECASE)


def before_my_event(request: str) -> bool:
    """"Remind me the day before my doctor's appointment": the turn recalls memories for it, though a reminder's tail
    otherwise gets none (`recall.acts_on_its_own_words`), and records them as used, as for any recall."""
    said = " ".join(request.split())
    return any(p.match(said) is not None for p in (_ASK_MY, _ASK_TASK, _ASK_MY_TO))


def told_event(message: str) -> re.Match[str] | dict[str, str] | None:
    """The event a message tells, with groups `what` and `when`: "My flight is on Friday at 6am", "I have a dentist
    appointment on Thursday at 2pm" (`mol chat -c`: its "Remind me the day before" got "When should I remind you about
    the day before?")."""
    said = " ".join(message.split())
    return _EVENT.match(said) or _HAVE.match(said) or _DEADLINE.match(said) or _trip(said)


def _trip(said: str) -> dict[str, str] | None:
    """{"what": "trip to Lisbon", "when": its first day} of "I'm going to Lisbon from the 12th to the 16th of January"
    (`mol chat -c`: "Remind me to book the airport transfer a week before" set a reminder with no time)."""
    m = _TRIP.match(said)
    if m is None:
        return None
    span = _SPAN.match(m["when"])
    return {"what": f"trip to {m['place']}", "when": f"{span['d']} {span['m']}" if span else m["when"]}


_WHEN_IN = re.compile(r"\b(?:on|this|next|tomorrow)\b.*$|\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b.*$|"
                      r"\b(?<=by )(?:the\s+)?\d{1,2}(?:st|nd|rd|th)\b.*$", re.IGNORECASE)  # "… the quarterly report by the 18th"
_DUE_END = re.compile(r"\s+(?:is|are)\s+(?:due|on|happening)$|\s+(?:is|are|starts|begins)$", re.IGNORECASE)  # "the report is due"
_EVERY_DAY = re.compile(r"\b((?:mon|tues|wednes|thurs|fri|satur|sun)day)s\b", re.IGNORECASE)  # "on Thursdays": the next one


def _told_in(asked: re.Match[str], facts: Sequence[str]) -> dict[str, str] | None:
    """{"what", "when"} of the recalled fact that names every word of "Mia's recital" and a time after them: "My daughter
    Mia has a piano recital on the 19th of December at 6pm" (`mol chat`: "Remind me the day before Mia's recital" was
    asked when). A weekday that repeats ("lessons moved to Thursdays at 5pm") is its next one."""
    whose, what = asked["whose"] or "", _DUE_END.sub("", asked["what"])
    named = f"{whose} {what}".strip()
    as_relation = (by_relation(f"about {whose}'s {asked['what']}", facts) or "").removeprefix("about ") if whose else None  # the wife's birthday
    for named in [named, *([as_relation] if as_relation else [])]:
        for fact in facts:
            if content_stems(named) <= content_stems(fact) and (m := _WHEN_IN.search(fact.strip().rstrip('".'))):
                return {"what": f"{whose}'s {what}" if whose else what, "when": _EVERY_DAY.sub(r"\1", m[0])}
    return None


def _in_plan(asked: re.Match[str], previous: str, now: datetime) -> dict[str, str] | None:
    """{"what", "when"} of the item of the day just planned that "the cinema" names: after "Plan my Saturday: swim at 9,
    lunch with Alex at 1, cinema at 7", "Remind me 30 minutes before the cinema" (`mol chat -c`) had no time to go on."""
    plan = planned(previous, now) if not asked["whose"] else None
    named = content_stems(asked["what"])
    found = [(start, what) for start, _, what in (plan[1] if plan else []) if named and named <= content_stems(what)]
    if plan is None or len(found) != 1:
        return None
    at = datetime.combine(plan[0], time(found[0][0] // 60, found[0][0] % 60))
    return {"what": found[0][1], "when": at.isoformat(timespec="minutes")}


def _task_before(asked: re.Match[str], facts: Sequence[str], now: datetime) -> list[ToolCall]:
    """"Remind me to renew my passport a month before it expires", with "My passport expires in March 2027" recalled: the
    task, due that long before the date the fact names (a month alone is its first day), at 9:00. `mol chat` had set
    "renew my passport a month", due "the month before" (refused)."""
    task = asked["task"].strip()
    thing = re.sub(r"^\w+\s+", "", task)  # "renew my passport" -> "my passport": what "it" stands for
    ref = re.sub(r"\b(?:it|they|that|this)\b", thing, asked["ref"], flags=re.IGNORECASE)
    wanted = content_stems(ref)
    for fact in facts:
        if not wanted or (dated := named_date(fact, now)) is None or not wanted <= content_stems(fact[:dated[1]]):
            continue  # the date must be what the words before it are about: "renew it before the wedding" dates no wedding
        n, unit = int(_COUNT.get(asked["n"].lower(), asked["n"])), asked["unit"].lower().rstrip("s")
        due = months_before(dated[0], n) if unit == "month" else dated[0] - timedelta(days=n * (7 if unit == "week" else 1))
        at = datetime.combine(due, time(9, 0))
        return [answering_call("reminders.create", {"text": task, "due": at.isoformat(timespec="minutes")})] if at > now else []
    return []


_OFFSET = r"(?:the night before|the day before|the morning of|(?:an?|one|two|three|\d{1,3})\s+(?:minutes?|hours?|days?|weeks?)\s+before)"
_EACH = re.compile(rf"(?P<when>{_OFFSET})(?:\s+(?:it|that|then))?,?\s+to\s+(?P<task>[\w' -]+?)(?=,?\s+and\s+{_OFFSET}|[\s.!]*$)", re.IGNORECASE)
_REMIND_EACH = re.compile(rf"^(?:(?:and|also|please)\s+)*(?:(?:can|could) you\s+)?remind me\s+(?P<rest>{_OFFSET}.*)$", re.IGNORECASE)
_OWN_TIME = re.compile(r"\b(?:(?:on|next|this)\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow|tonight|every|at\s+\d|\d{1,2}\s*(?:am|pm))\b",
                       re.IGNORECASE)
NIGHT_BEFORE = time(20, 0)
MORNING_OF = time(8, 0)


def told_here(request: str, now: datetime) -> list[ToolCall]:
    """A reminder for each "<when> to <task>" of a message that tells the event first: "My flight to Rome is on the 20th at
    8am. Remind me the night before to pack and 3 hours before to leave for the airport." (`mol chat`: L1 set "My flight
    to Rome is" and "the night before to pack", both 3 hours before). The night before is 20:00 the day before; the
    morning of is 8:00 that day; a length before is the reminder's `before`."""
    parts = [p.strip() for p in re.split(r"(?<=[.!])\s+", " ".join(request.split())) if p.strip()]
    if len(parts) != 2 or (told := told_event(parts[0])) is None or (asked := _REMIND_EACH.match(parts[1])) is None:
        return []
    try:
        at = parse_when(told["when"], now=now)
    except BadArguments:
        return []
    pairs = list(_EACH.finditer(asked["rest"]))
    if at <= now or not pairs or re.sub(r"[\s,.!]+|\band\b", "", _EACH.sub("", asked["rest"])) \
            or any(_OWN_TIME.search(m["task"]) for m in pairs):
        return []  # past, words the pairs do not account for, or a task with a time of its own
    calls = []
    for m in pairs:
        when, task = m["when"].lower(), m["task"].strip()
        if when == "the night before":
            args = {"text": task, "due": datetime.combine(at.date() - timedelta(days=1), NIGHT_BEFORE).isoformat(timespec="minutes")}
        elif when == "the morning of":
            args = {"text": task, "due": datetime.combine(at.date(), MORNING_OF).isoformat(timespec="minutes")}
        else:
            n, unit = ("1", "day") if when == "the day before" else when.removesuffix(" before").split()
            args = {"text": task, "due": at.isoformat(timespec="minutes"), "before": f"{_COUNT.get(n, n)} {unit}"}
        calls.append(answering_call("reminders.create", args))
    return calls


def event_before(request: str, previous: str | None, now: datetime, facts: Sequence[str] = ()) -> list[ToolCall]:
    """reminders.create of the event `previous` (the person's last message) states, `before` the offset the request
    asks for; [] unless the request is only that and the previous message names an event at a time still to come.
    "Remind me the day before my doctor's appointment" finds the event in the recalled `facts` ("The user's doctor's
    appointment is 14 January at 10:30."): `mol chat` had set "today", due "the day before my doctor's appointment"."""
    said = " ".join(request.split())
    if here := told_here(said, now):
        return here
    if (task := _ASK_TASK.match(said)) is not None:
        return _task_before(task, facts, now)
    asked = _ASK.match(said) or _ASK_TASK_BEFORE_IT.match(said)
    told = told_event(previous or "") if asked else None
    if asked is None and (asked := _ASK_MY_TO.match(said) or _ASK_MY.match(said)):
        told = next((m for f in facts if (m := _EVENT.match(re.sub(r"^the user's\b", "my", f.strip(), flags=re.I)))
                     and m["what"].lower() == asked["what"].lower() and not asked["whose"]), None) or _told_in(asked, facts) \
            or _in_plan(asked, previous or "", now)
    if asked is None or told is None:
        return []
    part = (asked.groupdict().get("part") or "").lower()
    before = "1 day" if asked["day"] or part else f"{_COUNT.get(asked['n'].lower(), asked['n'])} {asked['unit']}"
    try:
        at = parse_when(told["when"], now=now)
        parse_offset(before)
    except BadArguments:
        return []
    if at <= now:
        return []
    task = asked.groupdict().get("task")  # "… to buy flowers": the reminder is the task, at the event's time less the offset
    if part:  # the night (or evening) before is 20:00 the day before; the morning of is 08:00 that day
        due = datetime.combine(at.date(), MORNING_OF) if part == "the morning of" else datetime.combine(at.date() - timedelta(days=1), NIGHT_BEFORE)
        return [answering_call("reminders.create", {"text": task.strip() if task else told["what"], "due": due.isoformat(timespec="minutes")})] \
            if due > now else []
    return [answering_call("reminders.create", {"text": task.strip() if task else told["what"], "due": at.isoformat(timespec="minutes"),
                                                "before": before})]
