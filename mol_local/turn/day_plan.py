"""A day planned around the times the person gave: "Plan my Saturday: gym at 9, lunch with Sam at 1, and I need 2
hours for groceries and cleaning".

Tried with `mol chat` on the embedded default: L1 answered that request with "Saturday — 9:00 in the gym; 1 hour
before your start date; 2 hours after your start date …" and then a packing list of toothbrushes. A request that
asks to plan a day and names at least one "<thing> at <time>" is written here as a few lines of Python run in the
conversation's sandbox: the timed items stay where the person put them (an hour each, said so in the answer; a bare
"at 1" to "at 7" is the afternoon, unless something listed after it comes earlier), each "N hours for <thing>" goes in the first gap that holds it between 08:00
and 22:00 (not before now when the day is today), and what does not fit is named. Anything else (no timed item, a
time we cannot read, a note or reminders asked for as well) stays the model's or another reader's.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from mol_local.turn.timed_list import read_items

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_ASK = re.compile(
    r"^(?:(?:hey|hi|ok(?:ay)?|so)[,!]?\s+)?(?:(?:can|could|would) you\s+|please\s+|help me\s+|i need to\s+|let's\s+)*"
    r"(?:plan|schedule|organi[sz]e|lay out|map out|sort out)\s+(?:out\s+)?(?:my|the)\s+"
    rf"(?P<day>day(?:\s+(?:today|tomorrow))?|today|tomorrow|{'|'.join(_WEEKDAYS)})\b", re.IGNORECASE)
_OTHER = re.compile(r"\b(?:remind|reminders?|notes?|save|table|checklist|timer)\b", re.IGNORECASE)
_COUNTS = {"a": 1.0, "an": 1.0, "one": 1.0, "half an": 0.5, "two": 2.0, "three": 3.0, "four": 4.0, "five": 5.0}
_NEED = re.compile(
    r"(?P<n>\d+(?:\.\d+)?|half an|an?|one|two|three|four|five)\s*(?P<u>hours?|hrs?|minutes?|mins?)\s+(?:for|of|to do|to)\s+"
    r"(?:the\s+|my\s+)?(?P<what>[a-z][^,.;!?]*?)\s*(?=$|[,.;!?])", re.IGNORECASE)
_TIME = re.compile(r"^(?P<h>\d{1,2})(?:[:.](?P<m>\d{2}))?\s*(?P<ap>am|pm|a\.m\.|p\.m\.)?$", re.IGNORECASE)
DAY_START, DAY_END = 8 * 60, 22 * 60


def _minute(at: str) -> int | None:
    """Minutes after midnight of "9", "1" (13:00), "10am", "14:30"; noon; None for a time this does not read."""
    said = at.strip().lower()
    if said in ("noon", "midday"):
        return 12 * 60
    m = _TIME.match(said)
    if m is None:
        return None
    h, mins, ap = int(m["h"]), int(m["m"] or 0), (m["ap"] or "").replace(".", "")
    if h > 23 or mins > 59 or (ap and not 1 <= h <= 12):
        return None
    if ap:
        h = h % 12 + (12 if ap == "pm" else 0)
    elif 1 <= h <= 7:
        h += 12  # "lunch at 1" in a day's plan is the afternoon
    return h * 60 + mins


def _mornings(fixed: list[tuple[int, int, str]], said: list[str]) -> list[tuple[int, int, str]]:
    """A bare "at 7" read as the afternoon goes back to the morning when something listed after it is earlier: "gym at 7,
    interview at 2pm, dinner with Sam at 7pm" had put the gym at 19:00 beside dinner (`mol chat`)."""
    out = list(fixed)
    for i, ((start, length, what), at) in enumerate(zip(fixed, said)):
        bare = (m := _TIME.match(at.strip().lower())) is not None and not m["ap"] and 1 <= int(m["h"]) <= 7
        if bare and any(later < start for later, _l, _w in fixed[i + 1:]):
            out[i] = (start - 12 * 60, length, what)
    return out


def _day(word: str, now: datetime) -> date:
    word = word.lower().split()[-1]
    if word in ("day", "today"):
        return now.date()
    if word == "tomorrow":
        return now.date() + timedelta(days=1)
    return now.date() + timedelta(days=(_WEEKDAYS.index(word) - now.weekday()) % 7)  # "my Saturday" on a Saturday: today


def planned(request: str, now: datetime) -> tuple[date, list[tuple[int, int, str]], list[tuple[int, str]]] | None:
    """(the day, its timed items as (minute of the day, minutes, what), the untimed ones as (minutes, what)) of a day
    plan request; None when the request is not one. Also read by turn/event_before.py: "Remind me 30 minutes before
    the cinema" right after the plan."""
    text = " ".join(request.split())
    m = _ASK.match(text)
    if m is None or len(text) > 400 or _OTHER.search(text):
        return None
    items, _ = read_items(text[m.end():].lstrip(" :,-—"))
    fixed = []
    for what, _said_day, at in items:
        start = _minute(at)
        if start is None:
            return None
        fixed.append((start, 60, what))
    fixed = _mornings(fixed, [at for _w, _d, at in items])
    flexible = [(round(_hours(n["n"]) * (60 if n["u"].lower().startswith("h") else 1)), n["what"].strip()) for n in _NEED.finditer(text)]
    flexible += [(60, what) for what in _untimed(_NEED.sub(" , ", text[m.end():]))]
    if not fixed or any(need <= 0 or need > DAY_END - DAY_START for need, _ in flexible):
        return None
    day = _day(m["day"], now)
    if day == now.date() and m["day"].lower().split()[-1] in _WEEKDAYS and max(s for s, _, _ in fixed) <= now.hour * 60 + now.minute:
        day += timedelta(days=7)  # "Plan my Saturday" late on a Saturday, every time gone: next Saturday (it had planned today's past)
    return day, fixed, flexible


_PIECE = re.compile(r"\s*[,;:]\s*|\s+(?:and|then|&)\s+", re.IGNORECASE)
_NEEDS_TO = re.compile(r"^(?:(?:and|also|plus|then)\b\s*)*(?:(?:i|we)\s+(?:also\s+)?(?:need|have|want|must|should|'d like|would like|'ve got|got)\s+"
                       r"(?:to\s+)?|(?:need|have|want) to\s+)?", re.IGNORECASE)
_NOT_A_THING = re.compile(r"\d|\bat\b|\b(?:is|are|was|were|will|it|it's|you|your|please|plan|day|busy|free)\b", re.IGNORECASE)


def _untimed(rest: str) -> list[str]:
    """The things listed with no time or length ("… lunch with Sam at 1, and I need to buy groceries"): `mol chat`
    left "buy groceries" out of the plan. Each gets an hour, as a timed item does; a piece that reads as a sentence
    ("it's my birthday") or has a number in it is not a thing to place."""
    out = []
    for piece in _PIECE.split(rest.strip(" .!?")):
        what = piece[_NEEDS_TO.match(piece).end():].strip(" .!?")  # type: ignore[union-attr]  # all optional: always matches
        if what and len(what.split()) <= 6 and not _NOT_A_THING.search(what) and what.lower() not in ("i need", "i have", "need"):
            out.append(what)
    return out


def plan_code(request: str, now: datetime) -> str | None:
    """The sandbox code placing the day's items, its first line "# answer: {}"; None when the request is not such a plan."""
    if (plan := planned(request, now)) is None:
        return None
    day, fixed, flexible = plan
    first = DAY_START if day != now.date() else max(DAY_START, -(-(now.hour * 60 + now.minute) // 15) * 15)
    head = f"Your plan for {'today, ' if day == now.date() else ''}{day:%A} {day.day} {day:%B}"
    return (f"# answer: {{}}\nfixed = {sorted(fixed)!r}  # (minute of the day, minutes, what): the times you gave, an hour each\n"
            f"flexible = {flexible!r}  # (minutes needed, what)\nfirst, last = {first}, {DAY_END}\n"
            "plan, left = list(fixed), []\n"
            "for need, what in flexible:\n"
            "    t = first\n"
            "    for s, d, _ in sorted(plan):\n"
            "        if s - t >= need:\n"
            "            break\n"
            "        t = max(t, s + d)\n"
            "    (plan.append((t, need, what)) if t + need <= last else left.append(what))\n"
            "hm = lambda m: f'{m // 60:02d}:{m % 60:02d}'\n"
            "lines = [f'- {hm(s)}–{hm(s + d)} {w}' for s, d, w in sorted(plan)]\n"
            f"lines += [f'No room left for: {{\", \".join(left)}}.'] if left else []\n"
            f"'\\n'.join(['{head}:'] + lines + ['', '(An hour for each thing you gave no length for; tell me if one runs longer and I will move the rest.)'])")


def _hours(n: str) -> float:
    return float(n) if n[0].isdigit() else _COUNTS[" ".join(n.lower().split())]
