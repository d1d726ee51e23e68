"""Several timed items asked as reminders, one each: "I have a meeting at 2pm and the dentist at 4pm tomorrow;
remind me 30 minutes before each", "The plan for Wednesday: book a haircut at noon, sign the school form at 13:00
… I'd like a reminder for every one of them", "Can you set reminders tomorrow to A at 1pm and B at 3:15pm?".

The request is cut into parts at commas, semicolons, colons, dashes and sentence ends (and at "and" when both
sides are items); a part "<thing> [on <day>] at <time> [<day>]" or "<thing> <day> <clock time>" ("dentist
Tuesday 2pm") is an item, once the ask before it ("Give me a heads-up … before each of these") and an opener
("Tomorrow I've got", "I need to") are cut off. The day is the
item's own, else the one the request says once for all. One lead time ("30 minutes before each") goes with every
item; two ("90 minutes before the first and 15 before the second") leave the request to the model.

Built on the L1 recipe's training templates (trainer/specialists/agent_data.py), never on its held-out ones:
tests/mol_local/turn/test_timed_list.py reads every training template's requests and checks each call.
"""

from __future__ import annotations

import json
import re

from mol_local.harness.errors import BadArguments
from mol_local.harness.when import parse_when
from mol_local.turn.dates import MONTH_PATTERN
from mol_local.turn.tasks import CALL_CLOSE, CALL_OPEN, ToolCall

_AT = r"(?:\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}[:.]\d{2}|noon|midnight|\d{1,2})"
_DAYS = (rf"(?:today|tonight|tomorrow|the day after tomorrow|(?:next |this )?(?:mon|tues|wednes|thurs|fri|satur|sun)day|"
         rf"(?:{MONTH_PATTERN})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{MONTH_PATTERN}))")
_CLOCK = r"(?:\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}:\d{2}|noon|midnight)"  # a time without "at"
_ITEM = re.compile(rf"^(?P<what>.+?)\s+(?:(?:on\s+)?(?P<d1>{_DAYS})\s+(?:at\s+(?P<t>{_AT})|(?P<bare>{_CLOCK}))|at\s+(?P<t2>{_AT}))"
                   rf"(?:\s+(?:on\s+)?(?P<d2>{_DAYS}))?$", re.I)
_PIECES = re.compile(r"\s*(?:[,;—–?!]|[:.](?=\s|$)|\s-\s)\s*")
_AND = re.compile(r"\s+(?:and|then|&)\s+", re.I)
_ASKED = re.compile(r"^.*\b(?:remind\w*|reminders?|heads[- ]?up|ping|nudge|alert)\b.*?\b(?:of|for|to|about|before|ahead of)\s+", re.I)
_OPENER = re.compile(rf"^(?:(?:and|also|plus|then)\s+)?(?:(?:on\s+)?(?P<day>{_DAYS})\s+)?(?:(?:i|we)\s+(?:have|'ve got|have got|need to|must|want to|'ll|will|got)\s+|"
                     r"i've got\s+|i'm\s+|there's\s+)?", re.I)
_FOR_EACH = re.compile(r"\b(?:each|both|every one|everyone|all of them|them all|all (?:\d+|two|three|four|five))\b|\breminders\b", re.I)
_REMINDER = re.compile(r"\b(?:remind\w*|reminders?|heads[- ]?up)\b", re.I)
_OFF = re.compile(r"\b(?P<off>(?:\d+(?:\.\d+)?|an?|one|two|three|half an?)\s*(?:minutes?|mins?|min|hours?|hrs?|days?|weeks?)|half an hour)\s+"
                  r"(?:before|ahead of|early)\b", re.I)


def timed_items(request: str) -> list[ToolCall]:
    """reminders.create for each "<thing> at <time>" of a request asking a reminder for each; [] for any other."""
    if not _REMINDER.search(request):
        return []
    offsets = {" ".join(m["off"].lower().split()) for m in _OFF.finditer(request)}
    if len(offsets) > 1:
        return []  # a lead time per item: the model's to read
    items, led = read_items(request)
    if len(items) < 2 or not (led or _FOR_EACH.search(request)):
        return []
    before = {"before": offsets.pop()} if offsets else {}
    asked = [{"text": what, "due": f"{day} at {at}".strip(), **before} for what, day, at in items]
    return [ToolCall("reminders.create", a, CALL_OPEN + json.dumps({"name": "reminders.create", "arguments": a}) + CALL_CLOSE, answers=True)
            for a in asked]


_WHEN_START = r"(?:at|on|in|by|tomorrow|tonight|today|this|next|later|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b"
_PAIRED = re.compile(rf"^\W*(?:please\s+|(?:can|could|would) you\s+)*remind me\s+(?P<w1>{_WHEN_START}[^,;]*?)\s+to\s+(?P<t1>.+?),?\s+"
                     rf"(?:and|then)\s+(?:also\s+)?(?P<w2>{_WHEN_START}[^,;]*?)\s+to\s+(?P<t2>[^.?!]+?)[\s.!?]*$", re.I)
_DAY_WORD = re.compile(rf"\b(?:{_DAYS})\b", re.I)


def paired_reminders(request: str) -> list[ToolCall]:
    """reminders.create for each half of "Remind me tomorrow morning to call the bank and at noon to email Jo" (`mol chat`
    set one, "call the bank" at noon); the second time takes the first's day when it names none. [] for any other."""
    m = _PAIRED.match(request.strip())
    if m is None:
        return []
    day = _DAY_WORD.search(m["w1"])
    second = m["w2"] if _DAY_WORD.search(m["w2"]) or day is None else f"{day[0]} {m['w2']}"
    asked = [{"text": m["t1"].strip(), "due": m["w1"].strip()}, {"text": m["t2"].strip(), "due": second.strip()}]
    for a in asked:
        try:
            parse_when(a["due"])
        except BadArguments:
            return []
    return [ToolCall("reminders.create", a, CALL_OPEN + json.dumps({"name": "reminders.create", "arguments": a}) + CALL_CLOSE, answers=True)
            for a in asked]


def read_items(request: str) -> tuple[list[tuple[str, str, str]], bool]:
    """((thing, day, time) for each "<thing> at <time>" the request lists, the day its own or the one said for all;
    whether they came after an ask for reminders)."""
    items: list[re.Match[str]] = []
    rest: list[str] = []
    opened: list[str] = []
    led = False  # items after the ask: "Remind me to A at 9 and B at 5", "Remind me: A Tuesday 2pm, B …" ask one each
    for piece in _PIECES.split(request.strip()):
        halves = _AND.split(piece)
        parts = halves if len(halves) > 1 and all(_ITEM.match(_clean(h)[0]) for h in halves) else [piece]
        for part in parts:
            said, day = _clean(part)
            m = _ITEM.match(said)
            if m and not _REMINDER.search(m["what"]):
                items.append(m)
                opened += [day] if day else []
                led = led or bool(_ASKED.match(part.strip())) or (len(items) == 1 and any(_REMINDER.search(r) for r in rest))
            else:
                rest.append(part)
    if not items:
        return [], led
    shared = (opened[0] if opened else next((d[0] for p in rest if (d := re.search(_DAYS, p, re.I))), "")) or (items[-1]["d2"] or "")
    return [(m["what"], m["d1"] or m["d2"] or shared, m["t"] or m["bare"] or m["t2"]) for m in items], led


def _clean(part: str) -> tuple[str, str]:
    """(the part without the ask and opener before its item, the day the opener said)."""
    said = part.strip()
    asked = _ASKED.match(said)
    day = re.search(_DAYS, asked[0], re.IGNORECASE) if asked else None  # "Can you set reminders tomorrow to …"
    said = said[asked.end():] if asked else said
    m = _OPENER.match(said)  # all of it optional: always matches
    assert m is not None
    return said[m.end():].strip(), m["day"] or (day[0] if day else "")
