"""A reminder before the event the person has just told: "My doctor's appointment is on 14 January at 10:30" →
"Remind me about it the day before".

Tried with `mol chat -c`: the follow-up got "When should I remind you to mind?" (L0 set the text "mind", due
"the day before", and the tool asked when). The event and its time are in the person's previous message; the
follow-up names only how long before it. Both are read here: the reminder is the event's words, due at the
event's time, `before` the offset said (the day before is one day before, at the event's clock time).
"""

from __future__ import annotations

import re
from datetime import datetime

from mol_local.harness.errors import BadArguments
from mol_local.harness.when import parse_offset, parse_when
from mol_local.turn.tasks import ToolCall, answering_call

_ASK = re.compile(
    r"^(?:(?:ok(?:ay)?|great|thanks|and|also)[,!.]?\s+)*(?:(?:can|could) you\s+|please\s+)?(?:also\s+)?remind me"
    r"(?:\s+(?:about|of)\s+(?:it|that|this|them))?\s+(?:(?P<day>the day)|(?P<n>an?|one|two|three|\d{1,3})\s+(?P<unit>minutes?|hours?|days?|weeks?))"
    r"\s+before(?:\s+(?:it|that|then|hand))?(?:,?\s*(?:please|thanks))?[\s.!]*$", re.IGNORECASE)
_EVENT = re.compile(r"^(?:(?:so|ok|and|oh)[,]?\s+)?(?:my|our|the)\s+(?P<what>[\w' -]{2,60}?)\s+(?:is|are|will be|'s)\s+"
                    r"(?P<when>(?:on|at|this|next|tomorrow|today|tonight)\b.{2,60}?)[\s.!]*$", re.IGNORECASE)
_COUNT = {"a": "1", "an": "1", "one": "1", "two": "2", "three": "3"}


def event_before(request: str, previous: str | None, now: datetime) -> list[ToolCall]:
    """reminders.create of the event `previous` (the person's last message) states, `before` the offset the request
    asks for; [] unless the request is only that and the previous message names an event at a time still to come."""
    asked = _ASK.match(" ".join(request.split()))
    told = _EVENT.match(" ".join((previous or "").split()))
    if asked is None or told is None:
        return []
    before = "1 day" if asked["day"] else f"{_COUNT.get(asked['n'].lower(), asked['n'])} {asked['unit']}"
    try:
        at = parse_when(told["when"], now=now)
        parse_offset(before)
    except BadArguments:
        return []
    if at <= now:
        return []
    return [answering_call("reminders.create", {"text": told["what"], "due": at.isoformat(timespec="minutes"), "before": before})]
