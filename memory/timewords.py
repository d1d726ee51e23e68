"""Time words in a question: "last week", "in May", "in 2023", "yesterday", "3 days ago" as a window of dates.

Memories carry when they were said (`said_at`); a question that names a time
prefers what was said then (`MemoryBank.search`). Plain rules, relative to a
given now: a question with no time words has no window.
"""

from __future__ import annotations

import calendar
import re
from datetime import datetime, timedelta

MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name} | {
    name.lower(): i for i, name in enumerate(calendar.month_abbr) if name
}
_UNIT = {"day": 1, "days": 1, "week": 7, "weeks": 7, "month": 30, "months": 30, "year": 365, "years": 365}
_NUM = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "ten": 10, "couple of": 2, "few": 3}
NOW_QUESTION = re.compile(r"\b(now|currently|these days|nowadays|at the moment|still|any ?more|latest|most recent|lately)\b", re.IGNORECASE)
TIME_QUESTION = re.compile(r"\b(when|what date|what day|what year|how long ago|since when)\b", re.IGNORECASE)

Window = tuple[datetime, datetime]


def _day(at: datetime) -> datetime:
    return at.replace(hour=0, minute=0, second=0, microsecond=0)


def _month(year: int, month: int) -> Window:
    last = calendar.monthrange(year, month)[1]
    return datetime(year, month, 1), datetime(year, month, last, 23, 59, 59)


def time_window(query: str, now: datetime) -> Window | None:
    """The dates a question points at, or None."""
    q = query.lower()
    today = _day(now)
    if re.search(r"\byesterday\b", q):
        return today - timedelta(days=1), today - timedelta(seconds=1)
    if re.search(r"\btoday\b|\bthis morning\b|\btonight\b", q):
        return today, now
    m = re.search(r"\blast (week|month|year|weekend)\b", q)
    if m:
        span = {"week": 7, "weekend": 7, "month": 31, "year": 366}[m.group(1)]
        return today - timedelta(days=span * 2), today
    m = re.search(r"\bthis (week|month|year)\b", q)
    if m:
        span = {"week": 7, "month": 31, "year": 366}[m.group(1)]
        return today - timedelta(days=span), now
    m = re.search(r"\b(\d+|a|an|one|two|three|four|five|six|ten|couple of|few) (day|days|week|weeks|month|months|year|years) ago\b", q)
    if m:
        n = int(m.group(1)) if m.group(1).isdigit() else _NUM[m.group(1)]
        days = n * _UNIT[m.group(2)]
        slack = max(1, days // 3)
        return today - timedelta(days=days + slack), today - timedelta(days=max(0, days - slack))
    year_m = re.search(r"\b(19\d\d|20\d\d)\b", q)
    month_m = re.search(r"\b(" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\b", q)
    if month_m and month_m.group(1) in ("may", "mar", "jun", "jan", "dec", "sep", "oct", "nov", "aug", "apr", "feb", "jul") and not (
        year_m or re.search(r"\b(in|during|since|before|after|of|early|late|mid)\s+" + month_m.group(1) + r"\b", q)
    ):
        month_m = None  # "may" and short forms are words too: only a month when a year or "in May" says so
    if month_m:
        month = MONTHS[month_m.group(1)]
        year = int(year_m.group(1)) if year_m else (now.year if month <= now.month else now.year - 1)
        return _month(year, month)
    if year_m:
        year = int(year_m.group(1))
        return datetime(year, 1, 1), datetime(year, 12, 31, 23, 59, 59)
    return None


def in_window(said_at: str | None, window: Window) -> bool:
    if not said_at:
        return False
    try:
        at = datetime.fromisoformat(said_at)
    except ValueError:
        return False
    if at.tzinfo is not None:
        at = at.astimezone().replace(tzinfo=None)
    return window[0] <= at <= window[1]
