"""When a reminder is due: natural phrases ("tomorrow 9am", "next Monday at 10") or ISO, relative to now.

Parsing is dateparser's (a maintained library), in English, preferring the
future, on the machine's local clock. Around it sit the few rules a person
expects and dateparser does not apply: a bare hour after "at" is an hour of
the clock ("at 10" is 10:00, "tonight at 8" is 20:00), a date without a time
means 09:00, and an offset like "30 minutes" before a time is subtracted here
so a model only copies the user's words. A time that has already passed is
refused with the time it understood, so the model (and the person) can say a
later one.
"""

from __future__ import annotations

import calendar
import re
from datetime import datetime, timedelta

from mol_local.harness.errors import BadArguments

DEFAULT_HOUR = 9
_AT_HOUR = re.compile(r"\bat (\d{1,2})(?![\d:.]|\s*(?:am|pm|a\.m\.|p\.m\.|o'?clock|h\b))", re.I)
_OCLOCK = re.compile(r"\b(\d{1,2})\s*o'?clock\b", re.I)
_EARLY = re.compile(r"\b(?:morning|early|dawn|overnight|night|in the night|a\.?m\.?)\b|\d\s*a\.?m\b", re.I)
_PM_UP_TO = 6  # "at 1" … "at 6" with no am/pm: the afternoon's ("lunch at 1", "pick up the kids at 3")
_EVENING = re.compile(r"\b(tonight|this evening)\b", re.I)
_NEXT_DAY = re.compile(r"\bnext (monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b", re.I)
_OFFSET = re.compile(r"^\s*(\d+(?:\.\d+)?|an?|one|two|three|half an?)\s*(minutes?|mins?|m|hours?|hrs?|h|days?|d|weeks?)\s*(?:before|earlier)?\s*$", re.I)
_CLOCK = re.compile(r"\d\s*(am|pm|a\.m\.|p\.m\.)|\d{1,2}[:.]\d{2}|\bnoon\b|\bmidnight\b|\bin \d+\s*(minutes?|mins?|hours?|hrs?)\b", re.I)
_PURPOSE = re.compile(r"\s+(?:for|so|about|because|to(?!\s*\d))\b.*$", re.I)
_TIME_BITS = re.compile(r"\b(?:today|tonight|tomorrow|(?:next |this )?(?:mon|tues|wednes|thurs|fri|satur|sun)day|noon|midnight|"
                        r"(?:at )?\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)|(?:at )?\d{1,2}[:.]\d{2}|at \d{1,2})\b", re.I)
_HALF_HOUR = re.compile(r"\bhalf an? hour\b", re.I)
_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3}
_UNITS = {"m": "minutes", "min": "minutes", "h": "hours", "hr": "hours", "d": "days", "w": "weeks"}
_AND_A_HALF = re.compile(r"\b(an?|one|two|three|\d+)\s+(?:hours?\s+and\s+a\s+half|and\s+a\s+half\s+hours?)\b", re.I)


_COUPLE = re.compile(r"\ba couple of\b", re.I)


def _in_minutes(text: str) -> str:
    """ "an hour and a half" / "2 and a half hours" as minutes ("90 minutes"), "a couple of hours" as "2 hours":
    the parser read none of them."""
    text = _COUPLE.sub("2", text)
    return _AND_A_HALF.sub(lambda m: f"{int(_WORDS.get(m[1].lower(), 0) or m[1]) * 60 + 30} minutes", text)


def parse_offset(text: str) -> timedelta:
    """ "30 minutes", "1 hour", "half an hour", "2 days" -> a timedelta; anything else is refused."""
    cleaned = _in_minutes(text.strip().lower())
    if cleaned.startswith("half an") or cleaned.startswith("half a"):
        return timedelta(minutes=30)
    m = _OFFSET.match(cleaned)
    if not m:
        raise BadArguments(f"before {text!r} is not a length of time — use e.g. '30 minutes', '1 hour' or '2 days'")
    amount = _WORDS.get(m[1], None)
    value = float(m[1]) if amount is None else float(amount)
    unit = m[2].rstrip("s")
    unit = _UNITS.get(unit, unit + "s")
    return timedelta(**{unit: value})


_STATED_OFFSET = re.compile(
    r"\b((?:\d+|an?|one|two|three|half an?)\s*(?:minutes?|mins?|hours?|hrs?))\s+(?:before|ahead of|earlier than)\b", re.I)
_CLOCK_WORDS = re.compile(r"\d{1,2}[:.]\d{2}|\b\d{1,2}\s*(?:am|pm|a\.m\.|p\.m\.)|\bnoon\b|\bmidnight\b", re.I)


def stated_offset(request: str) -> str | None:
    """The one "30 minutes before" a request states (its length, e.g. "30 minutes"); None if none or several."""
    found = {m[1].lower() for m in _STATED_OFFSET.finditer(request)}
    return found.pop() if len(found) == 1 else None


def copies_a_time(due: str, request: str) -> bool:
    """Whether `due` holds a clock time written in `request` (the appointment's own time, not one worked out)."""
    said = {re.sub(r"\s+", "", t.lower()) for t in _CLOCK_WORDS.findall(request)}
    return any(re.sub(r"\s+", "", t.lower()) in said for t in _CLOCK_WORDS.findall(due))


_HOUR_WORDS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())}
_SPOKEN = re.compile(r"\b(?P<part>half|quarter)\s+(?P<rel>past|to)\s+(?P<h>\d{1,2}|" + "|".join(_HOUR_WORDS) + r")"
                     r"(?P<ap>\s*(?:am|pm|a\.m\.|p\.m\.))?(?![\w:])", re.I)


def _spoken_clock(m: re.Match[str]) -> str:
    """ "half past 8" -> "8:30", "quarter to six" -> "5:45" (dateparser read neither: the reminder was refused)."""
    h = int(m["h"]) if m["h"].isdigit() else _HOUR_WORDS[m["h"].lower()]
    minutes = 30 if m["part"].lower() == "half" else 15
    if m["rel"].lower() == "to":
        h, minutes = (h - 1) % 12 or 12, 60 - minutes
    return f"{h}:{minutes:02d}{(m['ap'] or '').strip()}"


def _normalise(text: str) -> str:
    out = _OCLOCK.sub(lambda m: f"{m[1]}:00", _SPOKEN.sub(_spoken_clock, text.strip()))
    evening = bool(_EVENING.search(out))
    if evening:
        out = _EVENING.sub("today", out)

    afternoon = not evening and not _EARLY.search(out)  # "call the plumber at 3", said at 01:43, was set for 03:00

    def hour(m: re.Match[str]) -> str:
        h = int(m[1])
        if evening and 1 <= h <= 11 or afternoon and 1 <= h <= _PM_UP_TO:
            h += 12
        return f"at {h}:00"

    out = _AT_HOUR.sub(hour, out)
    if afternoon:  # "at 3:30" too (to 5:59: "at 6:45" may be a morning train): nobody means the night unless they say so
        out = re.sub(rf"\bat ([1-{_PM_UP_TO - 1}]):([0-5]\d)(?!\d|\s*(?:am|pm|a\.m\.|p\.m\.))", lambda m: f"at {int(m[1]) + 12}:{m[2]}", out, flags=re.I)
    if evening:  # "half past 8 tonight": 20:30
        out = re.sub(r"(?<![\d:])([1-9]|1[01]):(\d{2})(?!\s*(?:am|pm|a\.m\.|p\.m\.)|\d)", lambda m: f"{int(m[1]) + 12}:{m[2]}", out, flags=re.I)
    if evening and not re.search(r"\d", out):
        out += " 20:00"
    return _NEXT_DAY.sub(lambda m: m[1], out)  # dateparser misses "next Monday at 10:00"; with future preference "Monday" is the next one


_HOLIDAYS = ((r"christmas eve", "24 December"), (r"christmas(?: day)?|xmas", "25 December"), (r"boxing day", "26 December"),
             (r"new year'?s eve", "31 December"), (r"new year'?s(?: day)?", "1 January"), (r"halloween", "31 October"),
             (r"valentine'?s(?: day)?", "14 February"))
_HOLIDAY = re.compile(r"\b(?:" + "|".join(f"(?P<h{i}>{said})" for i, (said, _) in enumerate(_HOLIDAYS)) + r")\b", re.I)
_MONTH_END = re.compile(r"\b(?:at\s+|by\s+)?(?:the\s+)?end\s+of\s+(?P<which>the|this|next)\s+month\b", re.I)
_MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
_PART_OF_MONTH = re.compile(rf"\b(?:(?P<rel>next|this)\s+)?(?:(?P<part>early|mid|middle of|late|(?:the\s+)?(?:start|beginning|end) of)[\s-]+)?(?P<m>{_MONTHS})\b"
                            r"(?:\s+(?P<y>20\d\d))?(?!\s*\d{1,2}(?:st|nd|rd|th)?\b)", re.I)
_MAY_LED = re.compile(r"\b(?:in|by|during|until|till|before|after|of|this|next)\s+$", re.I)
_DAY_BEFORE = re.compile(r"\d(?:st|nd|rd|th)?\s*(?:of\s+)?$", re.I)
_BEFORE_DAY = re.compile(r"^\s*(?P<n>\d{1,2}|an?|one|two|three|four|five|six|seven|the)\s+(?P<unit>days?|weeks?|day)\s+before\s+(?P<rest>.+)$", re.I)
_COUNT = {"a": 1, "an": 1, "one": 1, "the": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}


def _dated(text: str, now: datetime) -> str:
    """Words dateparser does not read, as dates: "Christmas" -> "25 December", "the end of the month" -> its last day
    ("Remind me at the end of the month to pay the credit card" was refused as unreadable)."""
    text = _HOLIDAY.sub(lambda m: _HOLIDAYS[int((m.lastgroup or "h0")[1:])][1], text)

    def month_end(m: re.Match[str]) -> str:
        year, month = (now.year + (now.month == 12), now.month % 12 + 1) if m["which"].lower() == "next" else (now.year, now.month)
        return f"{calendar.monthrange(year, month)[1]} {calendar.month_name[month]} {year}"

    text = _PART_OF_MONTH.sub(lambda m: _month_day(m, now), _MONTH_END.sub(month_end, text))
    text = _MEAL.sub(lambda m: f"at {_MEALS[(m['a'] or m['b']).lower()]}", text)
    text = _WEEKEND.sub(lambda m: f"{now + timedelta(days=_to_saturday(now, m['next'] is not None)):%d %B %Y}", text)
    return text if _WEEKDAY.search(text) else _NEXT_WEEK.sub("Monday", text)  # "next week": its first working day


_MEALS = {"breakfast": "8:00", "lunch": "12:00", "tea": "17:00", "dinner": "18:00", "supper": "18:00", "bed": "22:00"}
_MEAL = re.compile(r"\b(?:at\s+)?(?P<a>breakfast|lunch|tea|dinner|supper|bed)\s*time\b|\bat\s+(?P<b>breakfast|lunch|dinner|supper)\b", re.I)
_WEEKEND = re.compile(r"\b(?:(?:this|at the|on the|over the)\s+|(?P<next>next)\s+)?weekend\b", re.I)


def _to_saturday(now: datetime, next_one: bool) -> int:
    """Days from now to the weekend meant: this one (today, on a Saturday or Sunday), or the one after it."""
    ahead = 0 if now.weekday() >= 5 else 5 - now.weekday()
    return ahead + 7 * next_one - (now.weekday() == 6 and next_one)


def _month_day(m: re.Match[str], now: datetime) -> str:
    """"March" with no day ("Remind me to renew my passport in March"), as its first day; "mid March" its 15th, "late
    March" its 24th, "the end of March" its last: dateparser had read "in March" as 5 March, today's day of the month.
    Unchanged with a day before it ("3rd of March"), for a day already gone, and for "may" unless a month word leads it
    ("in may" was read as 6 May, today's day of the month; "if I may" stays a verb)."""
    if _DAY_BEFORE.search(m.string[: m.start()]) or (m["m"] == "may" and not (m["part"] or m["rel"] or _MAY_LED.search(m.string[: m.start()]))):
        return m[0]
    month = [n.lower() for n in calendar.month_name].index(m["m"].lower())
    part = (m["part"] or "").lower()
    year = int(m["y"]) if m["y"] else now.year + (month < now.month or (month == now.month and m["rel"] == "next"))
    day = calendar.monthrange(year, month)[1] if part.endswith("end of") else 15 if part.startswith("mid") else 24 if part == "late" else 1
    if datetime(year, month, day, 23, 59) < now:
        return m[0][len(m["rel"] or "") :].strip() if m["rel"] else m[0]
    return f"{day} {calendar.month_name[month]} {year}"


_WEEKDAY = re.compile(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b", re.I)
_NEXT_WEEK = re.compile(r"\bnext week\b", re.I)


def parse_when(text: str, *, now: datetime | None = None) -> datetime:
    """A local, naive datetime for `text`; ISO strings pass through. Raises BadArguments naming the fix."""
    from dateparser.date import DateDataParser

    now = (now or datetime.now()).replace(microsecond=0)
    raw = text.strip()
    if not raw:
        raise BadArguments("due is empty — say when, e.g. 'tomorrow 9am' or 2026-12-01T09:30")
    try:
        iso = datetime.fromisoformat(raw.replace("Z", "+00:00"))
        return iso.astimezone().replace(tzinfo=None) if iso.tzinfo else iso
    except ValueError:
        pass
    if before := _BEFORE_DAY.match(raw):  # "two days before Christmas", "the day before my birthday on 3 June"
        days = (_COUNT.get(before["n"].lower()) or int(before["n"])) * (7 if before["unit"].lower().startswith("week") else 1)
        return parse_when(before["rest"], now=now + timedelta(days=days)) - timedelta(days=days)
    phrase = _normalise(_HALF_HOUR.sub("30 minutes", _in_minutes(_dated(raw, now))))
    settings = {"RELATIVE_BASE": now, "PREFER_DATES_FROM": "future", "RETURN_AS_TIMEZONE_AWARE": False, "RETURN_TIME_AS_PERIOD": True}
    parser = DateDataParser(languages=["en"], settings=settings)
    data = parser.get_date_data(phrase)
    if data.date_obj is None and (core := _PURPOSE.sub("", phrase)) != phrase:
        # a model often copies the purpose along with the time ("20 minutes for your tea"): the time is what
        # comes before it, and the tool says back the time it set, so a wrong cut is seen at once
        phrase, data = core, parser.get_date_data(core)
    when = data.date_obj
    if when is None:
        raise BadArguments(f"due {text!r} is not a time I can read — say e.g. 'tomorrow 9am', 'Friday at 15:30' or 2026-12-01T09:30")
    if data.period in ("day", "week", "month", "year") and not _CLOCK.search(phrase):
        # dateparser also says "day" when the clock it read equals now's time of day ("tomorrow at 7am" said at 07:00)
        when = when.replace(hour=DEFAULT_HOUR, minute=0, second=0)  # a day without a time: the morning of that day
    if _EVENING.search(raw) and not re.search(r"\d", raw) and when < now:  # "tonight" said late: in an hour
        when = (now + timedelta(hours=1)).replace(second=0)
    if re.search(rf"(?<!next )\b{now:%A}\b", raw, re.I) and now <= when - timedelta(days=7):  # "Sunday at noon" on a Sunday
        when -= timedelta(days=7)  # morning: today's noon (dateparser gave next week's)
    return when.replace(microsecond=0)


def due_at(due: str, before: str | None = None, *, now: datetime | None = None) -> datetime:
    """The local time a reminder fires: `due` minus `before`; refused if it has already passed."""
    now = (now or datetime.now()).replace(microsecond=0)
    try:
        when = parse_when(due, now=now)
    except BadArguments:
        # a model's "the 3pm meeting" for "15 minutes before my 3pm meeting": the time words alone ("3pm"); only
        # here, for a `due` as written, since the turn reads a request's own words with parse_when as it is
        bits = _TIME_BITS.findall(due)
        if not any(re.search(r"\d|noon|midnight", b, re.I) for b in bits) or (core := " ".join(bits)) == due.strip():
            raise  # no clock time among them: "next tuesday-ish" stays unreadable
        when = parse_when(core, now=now)
    if before:
        when -= parse_offset(before)
    if when < now - timedelta(minutes=1):
        raise BadArguments(f"{human(when)} has already passed (it is {human(now)}) — ask for a later time")
    return when


def human(when: datetime) -> str:
    """ "Wed 2 Dec 2026, 09:00": what the tool says back, so the answer can repeat it exactly."""
    return f"{when:%a} {when.day} {when:%b %Y}, {when:%H:%M}"
