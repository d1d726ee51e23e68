"""The reminders of the day the person asks about: "What reminders do I have tomorrow?".

Tried with `mol chat`: that question got every open reminder, today's and the 15th's beside tomorrow's.
When the request names a day ("today", "tonight", "tomorrow", a weekday) or a week ("this week", "next
week"; on a Saturday "this week" had read Sat–Sun and hidden Tuesday's dentist), the list the tool returned is narrowed to it here and the answer says which day it read; the
others are counted, never dropped from sight without a word.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date, datetime, timedelta

from mol_local.harness.builtins import listed_reminders

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_DAY = re.compile(rf"\b(?P<word>today|tonight|tomorrow|(?:this|next|my) week|(?:on\s+|this\s+|next\s+)?(?:{'|'.join(_WEEKDAYS)}))\b", re.I)
_SHOWN = "%a %d %b %Y, %H:%M"  # harness.store.local_due's format


def _window(word: str, today: date) -> tuple[date, date, str]:
    """(first day, last day, how the answer names them) for the day words the request used."""
    word = " ".join(word.lower().split()).replace("my week", "this week")  # "What's my week looking like?"
    if word in ("today", "tonight"):
        return today, today, f"{word} ({today:%a %-d %b})"
    if word == "tomorrow":
        day = today + timedelta(days=1)
        return day, day, f"tomorrow ({day:%a %-d %b})"
    if word == "this week" and today.weekday() >= 5:  # on a weekend "this week" is the days ahead, not the one or two left
        last = today + timedelta(days=6)
        return today, last, f"the next 7 days ({today:%a %-d %b} to {last:%a %-d %b})"
    if word.endswith("week"):
        monday = today - timedelta(days=today.weekday()) + timedelta(weeks=word.startswith("next"))
        first = max(monday, today)
        return first, monday + timedelta(days=6), f"{word} ({first:%a %-d %b} to {monday + timedelta(days=6):%a %-d %b})"
    name = word.split()[-1]
    ahead = (_WEEKDAYS.index(name) - today.weekday()) % 7 or (7 if word.startswith("next") else 0)
    day = today + timedelta(days=ahead)
    return day, day, f"{day:%A %-d %b}"


def reminders_on_day(request: str, calls: Sequence[dict], now: datetime) -> str | None:
    """The open reminders on the day or week the request names, from the reminders.list it settled; None when the
    calls are not one list or the request names no day."""
    m = _DAY.search(request)
    if m is None or [c["name"] for c in calls] != ["reminders.list"]:
        return None
    first, last, said = _window(m["word"], now.date())
    rows = listed_reminders(calls[0]["result"])
    on = []
    for _id, when, text in rows:
        try:
            at = datetime.strptime(when.split(" (")[0], _SHOWN)
        except ValueError:
            continue
        if first <= at.date() <= last:
            on.append(f"- {text} — {when if first != last else when.split(', ', 1)[1]}")
    others = len(rows) - len(on)
    rest = f" ({others} other{'s' if others != 1 else ''} open on other days)" if others else ""
    if not on:
        return f"You have no reminders for {said}{rest}."
    return "\n".join([f"Your reminders for {said}{rest}:", *on])
