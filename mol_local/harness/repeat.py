"""Reminders that repeat: "every Monday at 9am", "every day at 8", "every weekday at 7:30", "monthly".

Tried with `mol chat`: "Remind me every Monday at 9am to take out the bins" was refused by the tool ("due
'every Monday at 9am' is not a time I can read"), so nothing was set. A repeating reminder is one open row
at a time: its `repeat` says how it recurs, and ticking it off opens the next one (`next_due`). The model
only copies the person's words into `due`; the split into the first time and the rule is made here.
"""

from __future__ import annotations

import calendar
import re
from datetime import date, datetime, timedelta

from mol_local.harness.errors import BadArguments

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_EVERY = re.compile(
    r"^\s*(?:(?:every|each)\s+(?:single\s+)?(?P<unit>day|morning|evening|night|weekday|week|month|"
    rf"{'|'.join(_WEEKDAYS)})s?|(?P<adverb>daily|nightly|weekly|monthly))\b[\s,]*(?P<rest>.*)$", re.IGNORECASE)
_WINDOW = re.compile(r"^(?P<wd0>on\s+weekdays\s+)?(?:from|between)\s+(?P<a>\d{1,2})(?::00)?\s*(?P<ap>am|pm)?\s+(?:to|and|until|till|-)\s+"
                     r"(?P<b>\d{1,2})(?::00)?\s*(?P<bp>am|pm)?(?P<wd>\s+(?:on\s+)?(?:weekdays|every\s+weekday|work\s*days))?\s*$", re.IGNORECASE)
WINDOW_SAID = r"(?:\s+(?:on\s+weekdays\s+)?(?:from|between)\s+\d{1,2}(?::00)?(?:\s*(?:am|pm))?\s+(?:to|and|until|till|-)\s+\d{1,2}(?::00)?(?:\s*(?:am|pm))?" \
              r"(?:\s+(?:on\s+)?(?:weekdays|every\s+weekday|work\s*days))?)?"
_EVERY_IN = re.compile(r"\b(?:every|each)\s+(?:other|second|two|three|four|five|six|\d{1,2})\s+(?:day|week|hour|minute|"
                       rf"{'|'.join(_WEEKDAYS)})s?\b{WINDOW_SAID}|\bfortnightly\b|"
                       rf"\bevery\s+(?:half\s+an\s+)?hour\b{WINDOW_SAID}|\bhourly\b{WINDOW_SAID}|"
                       r"\b(?:(?:on\s+)?the\s+(?:\d{1,2}(?:st|nd|rd|th)|first|last)\s+of\s+)?(?:every|each)\s+(?:single\s+)?(?:day|morning|evening|night|weekday|week|month|"
                       rf"{'|'.join(_WEEKDAYS)})s?\b|\b(?:daily|nightly|weekly|monthly)\b", re.IGNORECASE)
_ON_PLURAL = re.compile(rf"^\s*(?:on\s+)?(?P<unit>weekday|{'|'.join(_WEEKDAYS)})s\b[\s,]*(?P<rest>.*)$", re.IGNORECASE)  # "on weekdays at 7am"
_ON_PLURAL_IN = re.compile(rf"\bon\s+(?:weekday|{'|'.join(_WEEKDAYS)})s\b", re.IGNORECASE)
_COUNTS = {"other": 2, "second": 2, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_EVERY_N = re.compile(r"^\s*(?:(?:every|each)\s+(?P<n>other|second|two|three|four|five|six|\d{1,2})\s+(?P<unit>day|week|"
                      rf"{'|'.join(_WEEKDAYS)})s?|"
                      r"(?P<fortnight>fortnightly|every\s+fortnight))\b[\s,]*(?P<rest>.*)$", re.IGNORECASE)
_EVERY_HOURS = re.compile(r"^\s*(?:(?:every|each)\s+(?:(?P<n>\d{1,3}|two|three|four|five|six|half\s+an?|an?)\s+)?(?P<unit>hour|minute|min)s?|"
                          r"(?P<hourly>hourly))\b[\s,]*(?P<rest>.*)$", re.IGNORECASE)
MIN_MINUTES = 15  # "every 5 minutes" is a nag, not a reminder: refused by the tool with how to say it
RULES = ("daily", "weekdays", "weekly", "monthly", "days:N", "minutes:N", "minutes:N:A-B[:weekdays]", "nth:K:W")  # "nth:1:0": the first Monday of each month; "days:2": every other day; "minutes:120": every 2 hours; "minutes:60:9-17:weekdays": hourly 9:00-17:00 on weekdays
_DEFAULT_CLOCK = {"morning": "8:00", "evening": "19:00", "night": "21:00"}


_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
             "ninth": 9, "tenth": 10, "fifteenth": 15, "twentieth": 20, "last": 31}
_ORDINAL = rf"\d{{1,2}}(?:st|nd|rd|th)|{'|'.join(_ORDINALS)}"
_OF_EVERY_MONTH = re.compile(rf"^\s*(?:on\s+)?(?:the\s+)?(?P<day>{_ORDINAL})\s+(?:day\s+)?of\s+(?:every|each|the)\s+month\b[\s,]*(?P<rest>.*)$",
                             re.IGNORECASE)


def _day_number(said: str) -> int:
    return _ORDINALS.get(said.lower()) or int(re.sub(r"\D", "", said))


_NTH_WORDS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "last": -1}
_NTH_DAY = rf"(?P<k>{'|'.join(_NTH_WORDS)})\s+(?P<wd>{'|'.join(_WEEKDAYS)})"
_NTH = re.compile(rf"^(?:(?:every|on|each)\s+)?(?:the\s+)?{_NTH_DAY}\s+(?:of\s+)?(?:the|each|every)\s+month\b[\s,]*(?P<rest>.*)$"
                  rf"|^every\s+month\s+on\s+the\s+{_NTH_DAY.replace('?P<k>', '?P<k2>').replace('?P<wd>', '?P<wd2>')}\b[\s,]*(?P<rest2>.*)$",
                  re.IGNORECASE)


def nth_weekday(year: int, month: int, k: int, weekday: int) -> date:
    """The k-th `weekday` (0 Monday) of the month; k = -1 is its last."""
    days = [d for d in range(1, calendar.monthrange(year, month)[1] + 1) if date(year, month, d).weekday() == weekday]
    return date(year, month, days[k - 1 if k > 0 else -1])


def _on_nth(when: datetime, rule: str, month_ahead: int) -> datetime:
    _, k, w = rule.split(":")
    total = when.year * 12 + when.month - 1 + month_ahead
    day = nth_weekday(total // 12, total % 12 + 1, int(k), int(w))
    return when.replace(year=day.year, month=day.month, day=day.day)


def _window(rest: str) -> tuple[int, int, bool] | None:
    """(first hour, last hour, weekdays only) of "from 9 to 5 on weekdays" (a last hour not above the first is pm)."""
    m = _WINDOW.match(rest)
    if m is None:
        return None
    a, b = int(m["a"]) % 12 + (12 if (m["ap"] or "").lower() == "pm" else 0), int(m["b"])
    b = b % 12 + 12 if (m["bp"] or "").lower() == "pm" or (not m["bp"] and b <= a) else b
    return (a, b, bool(m["wd0"] or m["wd"])) if a < b <= 23 else None


def _window_of(rule: str) -> tuple[int, int, bool] | None:
    parts = rule.split(":")
    if parts[0] != "minutes" or len(parts) < 3:
        return None
    a, b = parts[2].split("-")
    return int(a), int(b), parts[3:] == ["weekdays"]


def _into_window(when: datetime, rule: str) -> datetime:
    """`when`, or the window's next opening when it falls outside ("minutes:60:9-17:weekdays")."""
    window = _window_of(rule)
    if window is None:
        return when
    a, b, weekdays = window
    if when.hour * 60 + when.minute > b * 60:
        when = (when + timedelta(days=1)).replace(hour=a, minute=0)
    elif when.hour < a:
        when = when.replace(hour=a, minute=0)
    while weekdays and when.weekday() >= 5:
        when = (when + timedelta(days=1)).replace(hour=a, minute=0)
    return when


def split_repeat(due: str) -> tuple[str, str | None]:
    """(the first time as a phrase, the rule) for a due that repeats ("every Monday at 9am" -> ("Monday at
    9am", "weekly"); "on the first of every month" -> ("the 1st", "monthly")); (due, None) when it does not."""
    if hours := _EVERY_HOURS.match(due):  # "every 2 hours", "every 30 minutes", "hourly": the first one that far from now
        said = " ".join((hours["n"] or "a").lower().split())
        count = {"a": 1, "an": 1, "half a": 0.5, "half an": 0.5}.get(said) or _COUNTS.get(said) or int(said)
        minutes = round(count * (60 if hours["hourly"] or hours["unit"].lower() == "hour" else 1))
        if minutes < MIN_MINUTES:
            raise BadArguments(f"every {minutes} minutes is too often for a reminder — use {MIN_MINUTES} minutes or more")
        if (hours_of := _window(hours["rest"].strip())) is not None:  # "every hour from 9 to 5 on weekdays" had been set once a weekday
            return f"today at {hours_of[0]}:00", f"minutes:{minutes}:{hours_of[0]}-{hours_of[1]}{':weekdays' if hours_of[2] else ''}"
        return hours["rest"].removeprefix("starting ").removeprefix("from ").strip() or f"in {minutes} minutes", f"minutes:{minutes}"
    if n_days := _EVERY_N.match(due):  # "every other day at 8pm", "every 2 weeks", "fortnightly"
        said = (n_days["n"] or "").lower()
        unit = (n_days["unit"] or "").lower()
        days = 14 if n_days["fortnight"] else (_COUNTS.get(said) or int(said)) * (1 if unit == "day" else 7)
        rest = n_days["rest"].removeprefix("on ").strip()
        if unit in _WEEKDAYS:  # "every other Wednesday at 7am": from the next Wednesday, every 14 days
            return f"{unit.capitalize()} {rest}".strip(), f"days:{days}"
        return rest or "9:00", f"days:{days}" if days > 1 else "daily"
    if nth := _NTH.match(due.strip()):  # "every first Monday of the month at 9am" had been set once
        k, wd, rest = nth["k"] or nth["k2"], nth["wd"] or nth["wd2"], nth["rest"] if nth["rest"] is not None else nth["rest2"]
        return (rest or "").strip() or "9:00", f"nth:{_NTH_WORDS[k.lower()]}:{_WEEKDAYS.index(wd.lower())}"
    if month := _OF_EVERY_MONTH.match(due):
        return f"the {_day_number(month['day'])}th {month['rest'].strip()}".strip(), "monthly"
    m = _EVERY.match(due) or _ON_PLURAL.match(due)
    if m is None:
        return due, None
    unit = (m["unit"] or m.groupdict().get("adverb") or "").lower()
    rest = m["rest"].strip()
    if unit in _WEEKDAYS:
        return f"{unit.capitalize()} {rest}".strip(), "weekly"
    if unit in ("morning", "evening", "night", "nightly"):
        part = "night" if unit == "nightly" else unit
        return (_evening(rest) if part != "morning" else rest) or _DEFAULT_CLOCK[part], "daily"
    rule = {"day": "daily", "daily": "daily", "weekday": "weekdays", "week": "weekly", "weekly": "weekly",
            "month": "monthly", "monthly": "monthly"}[unit]
    return rest.removeprefix("on ").strip() or "9:00", rule


def repeats_in(request: str) -> str | None:
    """The "every …" phrase a request states, for a reminder the model set without it."""
    m = _EVERY_IN.search(request) or _ON_PLURAL_IN.search(request)
    return m[0] if m else None


def _evening(rest: str) -> str:
    """ "at 8" in the evening is 20:00."""
    return re.sub(r"\b(?:at\s+)?(\d{1,2})(?![\d:.]|\s*(?:am|pm))\b", lambda m: f"{int(m[1]) % 12 + 12}:00", rest, count=1)


_DAY_OF_MONTH = re.compile(rf"^(?:on\s+)?(?:the\s+)?(?P<day>{_ORDINAL})\b(?:\s+of\s+(?:the|each|every)\s+month)?\s*(?P<rest>.*)$", re.I)


def monthly_phrase(phrase: str, now: datetime) -> tuple[str, int | None]:
    """("at 9", 1) for "the 1st at 9": dateparser reads a bare day of the month as some other date."""
    m = _DAY_OF_MONTH.match(phrase.strip())
    return (m["rest"].strip() or "9:00", _day_number(m["day"])) if m and 1 <= _day_number(m["day"]) <= 31 else (phrase, None)


def on_day_of_month(when: datetime, day: int) -> datetime:
    """`when`'s time of day on `day` of its month (the month's last day when it is shorter)."""
    return when.replace(day=min(day, calendar.monthrange(when.year, when.month)[1]))


def first_due(when: datetime, rule: str, now: datetime) -> datetime:
    """The first occurrence on or after `now`, counting from the parsed `when` (8:00 already passed today is
    tomorrow's for a daily reminder; a weekend day is the next weekday)."""
    if rule.startswith("nth:"):
        when = _on_nth(when, rule, 0)  # this month's, then on
    when = _into_window(when, rule) if rule.startswith("minutes:") else when
    while when < now - timedelta(minutes=1):
        when = next_due(when, rule)
    return next_due(when, rule) if rule == "weekdays" and when.weekday() >= 5 else when


_DAY_WORDS = re.compile(rf"\b(?:on\s+)?(?:today|tonight|tomorrow|(?:next\s+|this\s+)?(?:{'|'.join(_WEEKDAYS)}))\b", re.IGNORECASE)


def with_repeat(due: str, request: str) -> str:
    """The model's due with the request's "every …" when it dropped it ("Remind me every Monday at 9am …" set as
    "Monday at 9am" would ring once): its day words give way to the rule, its clock time stays."""
    every = repeats_in(request)
    if every is not None and _window_of(split_repeat(every)[1] or "") is not None:
        return every  # an hourly window is the whole time: the model's "on weekdays" is part of it
    if every is None or split_repeat(due)[1] is not None or len(_EVERY_IN.findall(request)) > 1:
        return due
    rest = _DAY_WORDS.sub("", due).strip()
    if _EVERY_HOURS.match(every) and re.fullmatch(r"(?:in\s+)?(?:\d+|an?|half an?)\s*(?:hours?|hrs?|minutes?|mins?)", rest, re.I):
        rest = ""  # "every 2 hours" set as "2 hours": the interval again, not a start
    return f"{every} {rest}".strip()


def next_due(when: datetime, rule: str) -> datetime:
    """The occurrence after `when` (local wall-clock time)."""
    if rule == "daily":
        return when + timedelta(days=1)
    if rule == "weekly":
        return when + timedelta(days=7)
    if rule == "weekdays":
        step = when + timedelta(days=1)
        while step.weekday() >= 5:
            step += timedelta(days=1)
        return step
    if rule.startswith("days:"):
        return when + timedelta(days=int(rule.removeprefix("days:")))
    if rule.startswith("minutes:"):
        return _into_window(when + timedelta(minutes=int(rule.split(":")[1])), rule)
    if rule.startswith("nth:"):
        return _on_nth(when, rule, 1)
    if rule == "monthly":
        year, month = (when.year + 1, 1) if when.month == 12 else (when.year, when.month + 1)
        return when.replace(year=year, month=month, day=min(when.day, calendar.monthrange(year, month)[1]))
    raise ValueError(f"unknown repeat rule {rule!r}")


def said(rule: str, when: datetime) -> str:
    """How the rule is said back: "every Monday", "every day", "every weekday", "every month", "every other day"."""
    if rule.startswith("minutes:"):
        minutes = int(rule.split(":")[1])
        every = "every hour" if minutes == 60 else f"every {minutes // 60} hours" if minutes % 60 == 0 else f"every {minutes} minutes"
        window = _window_of(rule)
        return every if window is None else f"{every} from {window[0]}:00 to {window[1]}:00{' on weekdays' if window[2] else ''}"
    if rule.startswith("days:"):
        days = int(rule.removeprefix("days:"))
        return "every other day" if days == 2 else f"every {days // 7} weeks" if days % 7 == 0 else f"every {days} days"
    if rule.startswith("nth:"):
        which = {-1: "last", 1: "first", 2: "second", 3: "third", 4: "fourth"}[int(rule.split(":")[1])]
        return f"on the {which} {when:%A} of every month"
    return {"daily": "every day", "weekdays": "every weekday", "monthly": "every month"}.get(rule, f"every {when:%A}")
