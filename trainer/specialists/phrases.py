"""Words for when, with the time each one means, computed here independently of the tool's parser.

A reminder case is kept only if the real `reminders.create` (dateparser behind
mol_local/harness/when.py) lands on the same minute this table says the person
meant; a disagreement drops the case, so a parser quirk never becomes a label.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December")


@dataclass(frozen=True)
class When:
    text: str  # as the person says it, e.g. "tomorrow at 9am"
    at: datetime  # the local minute it means
    day_words: str  # the day part alone, e.g. "tomorrow" (for requests that put the day once: "tomorrow at 2pm and 4pm")
    clock: str  # the time part alone, e.g. "9am"


def clock_time(rng: random.Random) -> tuple[str, int, int]:
    """A time of day as people write it, with its hour and minute (07:00-21:45)."""
    hour = rng.randint(7, 21)
    minute = rng.choice((0, 0, 0, 15, 30, 45))
    style = rng.random()
    if minute == 0 and hour == 12 and style < 0.5:
        return "noon", 12, 0
    if style < 0.55:
        h12 = hour % 12 or 12
        suffix = "am" if hour < 12 else "pm"
        return (f"{h12}{suffix}" if minute == 0 else f"{h12}:{minute:02d}{suffix}"), hour, minute
    if style < 0.8:
        return f"{hour:02d}:{minute:02d}" if hour < 10 else f"{hour}:{minute:02d}", hour, minute
    h12 = hour % 12 or 12
    suffix = " am" if hour < 12 else " pm"
    return (f"{h12}{suffix}" if minute == 0 else f"{h12}:{minute:02d}{suffix}"), hour, minute


def random_now(rng: random.Random) -> datetime:
    """A plausible moment for a request: a day in 2026-2027, 07:00-20:59, whole minutes."""
    day = datetime(2026, 1, 5) + timedelta(days=rng.randint(0, 700))
    return day.replace(hour=rng.randint(7, 20), minute=rng.randint(0, 59))


def _next_weekday(now: datetime, index: int) -> datetime:
    ahead = (index - now.weekday()) % 7
    return now + timedelta(days=ahead)


def when(rng: random.Random, now: datetime, kinds: tuple[str, ...] = ("tomorrow", "weekday", "relative", "after", "tonight", "date")) -> When | None:
    """One phrase of a randomly chosen kind, or None when that kind does not fit `now` (e.g. "tonight" late)."""
    kind = rng.choice(kinds)
    text, hour, minute = clock_time(rng)
    at_clock = f"at {text}"
    if kind == "tomorrow":
        day = now + timedelta(days=1)
        return When(rng.choice((f"tomorrow {at_clock}", f"tomorrow {text}")), day.replace(hour=hour, minute=minute), "tomorrow", text)
    if kind == "after":
        day = now + timedelta(days=2)
        return When(f"the day after tomorrow {at_clock}", day.replace(hour=hour, minute=minute), "the day after tomorrow", text)
    if kind == "weekday":
        index = rng.randrange(7)
        if index == now.weekday():
            return None  # "on Tuesday" said on a Tuesday is ambiguous: today or next week
        name = WEEKDAYS[index]
        day = _next_weekday(now, index)
        lead = rng.choice((f"on {name}", name, f"next {name}")) if index != (now.weekday() + 1) % 7 else rng.choice((f"on {name}", name))
        return When(f"{lead} {at_clock}", day.replace(hour=hour, minute=minute), lead, text)
    if kind == "relative":
        if rng.random() < 0.5:
            n = rng.choice((5, 10, 15, 20, 30, 45, 90))
            return When(f"in {n} minutes", now + timedelta(minutes=n), "", "")
        n = rng.choice((1, 2, 3, 4))
        return When(f"in {n} hour{'s' if n > 1 else ''}", now + timedelta(hours=n), "", "")
    if kind == "tonight":
        h = rng.randint(8, 11)
        at = now.replace(hour=h + 12, minute=0)
        if at <= now + timedelta(minutes=30):
            return None
        return When(f"tonight at {h}", at, "tonight", str(h))
    day = now + timedelta(days=rng.randint(3, 60))
    if day.year != now.year:
        return None  # "March 3" without a year is read in the current year's future; keep to this year
    return When(f"{rng.choice(('on ', ''))}{MONTHS[day.month - 1]} {day.day} {at_clock}", day.replace(hour=hour, minute=minute), f"{MONTHS[day.month - 1]} {day.day}", text)


def human(at: datetime) -> str:
    """The tool's way of saying a time: "Wed 2 Dec 2026, 09:00" (mol_local.harness.when.human)."""
    from mol_local.harness.when import human as tool_human

    return tool_human(at)


def spoken(at: datetime) -> str:
    """A shorter form for answers: "Wednesday 2 December at 09:00"."""
    return f"{WEEKDAYS[at.weekday()]} {at.day} {MONTHS[at.month - 1]} at {at:%H:%M}"
