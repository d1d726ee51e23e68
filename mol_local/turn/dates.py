"""Calendar questions the request settles: "How many Mondays are there in 2027?" becomes one python call.

On the embedded default they were answered with made-up days and numbers: routed to L0, "What day of the
week is 25 December 2027?" and "How many days until Christmas?" got sentences with no date in them that
was right. A question that is *only* one of these forms is read here, with the conversation's clock as
today, into a few lines of `datetime` code run in the conversation's sandbox, and the answer is the
sentence below with the value Python computed:

- the weekday of a date: "What day of the week is 25 December 2027?", "What day was 1 January 2000?", "… is
  Christmas this year?" (L0: "This year, Christmas is on December 24.")
- how many of a weekday in a year or month: "How many Mondays are there in 2027?", "… in March?"
- days (or weeks) until a date: "How many days until Christmas?", "How many weeks till 1 June?"
- days between two dates: "How many days between 1 March 2027 and 15 April 2027?"
- the date some days or weeks away: "What's the date in 90 days?", "What date is 3 weeks from today?"
- today: "What's the date today?", "What day is it?"
- an age from a year of birth: "How old am I if I was born in 1990?" (L0: "You are 19 years old.")
- the time: "What time is it?" (L0 answered "It's 12:32 on Sat 5 Dec 2026, 00:32." at 00:32)

A date without a year is its next coming day (today counts). Anything else is the model's turn.
"""

from __future__ import annotations

import calendar
import re
from datetime import date, datetime, timedelta

_MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_MONTHS |= {name.lower(): i for i, name in enumerate(calendar.month_abbr) if name}
_MONTHS["sept"] = 9
_WEEKDAYS = {name.lower(): i for i, name in enumerate(calendar.day_name)}
_HOLIDAYS = {  # fixed-date days only (Easter moves: left to the model)
    "christmas eve": (12, 24), "christmas day": (12, 25), "christmas": (12, 25), "xmas": (12, 25), "boxing day": (12, 26),
    "new year's eve": (12, 31), "new years eve": (12, 31), "new year's day": (1, 1), "new years day": (1, 1),
    "new year": (1, 1), "halloween": (10, 31), "valentine's day": (2, 14), "valentines day": (2, 14),
    "st patrick's day": (3, 17), "saint patrick's day": (3, 17),
}
MONTH_PATTERN = "|".join(sorted(_MONTHS, key=len, reverse=True))  # longest first: "march" before "mar"
_HOLIDAY = "|".join(re.escape(h) for h in sorted(_HOLIDAYS, key=len, reverse=True))
DAY_MONTH = rf"(?:(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?(?:\s+of)?\s+(?P<m1>{MONTH_PATTERN})\.?|(?P<m2>{MONTH_PATTERN})\.?\s+(?P<d2>\d{{1,2}})(?!\d)(?:st|nd|rd|th)?)"
_DATE = (rf"{DAY_MONTH}"
         rf"(?:,?\s+(?P<y>\d{{4}}))?|(?P<iso>\d{{4}}-\d{{2}}-\d{{2}})|(?P<hol>{_HOLIDAY})(?:\s+(?P<hy>\d{{4}})|\s+(?P<hn>this|next)\s+year)?|(?P<rel>today|tomorrow|yesterday)|(?:the\s+)?(?P<dom>\d{{1,2}})(?:st|nd|rd|th)")

_LEAD = re.compile(r"^(?:(?:hey|hi|ok|okay|so|quick question)[,:!]?\s+)?(?:(?:can|could|would) you\s+)?(?:please\s+)?(?:tell me\s+)?", re.I)
_TRAIL = re.compile(r"[\s,]*(?:please)?[\s?.!]*$", re.I)
_WHAT = r"(?:what|which)(?:'s|\s+is|\s+was|\s+will\s+be)?"
_FORMS = {
    "weekday": re.compile(rf"^{_WHAT}\s+(?:day(?:\s+of\s+the\s+week)?|weekday)\s+(?:is|was|will\s+be|falls?\s+on|does|did)?\s*(?:it\s+on\s+)?"
                          rf"(?P<a>{_DATE.replace('?P<', '?P<a_')})(?:\s+(?:fall|be|land)(?:\s+on)?)?$", re.I),
    "count": re.compile(rf"^how\s+many\s+(?P<wd>{'|'.join(_WEEKDAYS)})s\s+(?:are\s+there\s+|will\s+there\s+be\s+|were\s+there\s+)?in\s+"
                        rf"(?:(?P<month>{MONTH_PATTERN})\s*)?(?P<year>\d{{4}}|this\s+year|next\s+year)?(?:\s+are\s+there)?$", re.I),
    "until": re.compile(rf"^how\s+(?:many|long)\s+(?P<unit>days|weeks|sleeps)?\s*(?:are\s+(?:there|left)\s+|is\s+it\s+|left\s+|to\s+go\s+)?"
                        rf"(?:until|till|til|to|before)\s+(?P<a>{_DATE.replace('?P<', '?P<a_')})$", re.I),
    "between": re.compile(rf"^how\s+many\s+(?P<unit>days|weeks)\s+(?:are\s+there\s+|is\s+it\s+)?(?:between|from)\s+(?P<a>{_DATE.replace('?P<', '?P<a_')})"
                          rf"\s+(?:and|to|until|till)\s+(?P<b>{_DATE.replace('?P<', '?P<b_')})$", re.I),
    "age": re.compile(r"^how\s+old\s+(?:am\s+i|will\s+i\s+be|would\s+i\s+be|is\s+(?:someone|somebody|a\s+person))(?:\s+(?:today|now|this\s+year))?"
                      r",?\s+(?:if\s+|who\s+was\s+|(?=born))(?:i\s+was\s+|i'm\s+|they\s+were\s+|he\s+was\s+|she\s+was\s+)?born\s+in\s+"
                      r"(?P<year>(?:19|20)\d{2})$", re.I),  # "… born in 1987" had got "1987 is a birth year."
    "shift": re.compile(rf"^{_WHAT}\s+(?:(?:the\s+)?(?:date|day)\s+(?:is\s+it\s+|will\s+it\s+be\s+|was\s+it\s+)?|"
                        r"(?=\d{1,5}\s+(?:days?|weeks?)\s+(?:from|after|ago)))(?:in\s+)?(?P<n>\d{1,5})\s+(?P<unit>days?|weeks?)"
                        r"(?:\s+(?P<dir>from\s+(?:today|now)|after\s+today|ago|from\s+now|later))?$", re.I),  # "What's 3 weeks from today?"
    "dated": re.compile(rf"^{_WHAT}\s+(?:the\s+)?date\s+(?:is\s+it\s+|will\s+it\s+be\s+|is\s+)?(?:on\s+)?(?:(?P<which>next|this|coming|this\s+coming)\s+)?"
                        rf"(?:(?P<wd>{'|'.join(_WEEKDAYS)})|(?P<rel>tomorrow|yesterday))$", re.I),
    "today": re.compile(rf"^{_WHAT}\s+(?:the\s+date\s+today|today's\s+date|the\s+date|day\s+is\s+it(?:\s+today)?|day\s+is\s+today|the\s+day\s+today)$", re.I),
}
_MAX_CHARS = 160
_TIME_ASK = re.compile(r"^(?:what(?:'s|\s+is)\s+the\s+time|what\s+time\s+is\s+it|(?:do\s+you\s+know\s+)?what\s+time\s+it\s+is)"
                       r"(?:\s+(?:right\s+)?now)?$", re.I)


def long_date(d: date) -> str:
    """'Friday 25 December 2026'."""
    return f"{d:%A} {d.day} {d:%B %Y}"


def _read(m: re.Match[str], key: str, today: date) -> tuple[date, bool] | None:
    """(the date named by group `key`, whether the person gave its year) — a day without a year is its next one."""
    g = {k.removeprefix(f"{key}_"): v for k, v in m.groupdict().items() if k.startswith(f"{key}_") and v}
    if "dom" in g:  # "the 15th": its next coming day (L0: "There are 15 days until the 15th." on the 5th)
        found = _next_day_of_month(int(g["dom"]), today)
        return None if found is None else (found, False)
    if "rel" in g:
        return today + timedelta(days={"today": 0, "tomorrow": 1, "yesterday": -1}[g["rel"].lower()]), True
    if "iso" in g:
        try:
            return date.fromisoformat(g["iso"]), True
        except ValueError:
            return None
    if "hol" in g:
        month, day = _HOLIDAYS[g["hol"].lower()]
        year = g.get("hy") or (str(today.year + (g["hn"].lower() == "next")) if "hn" in g else None)  # "Christmas this year"
    else:
        month, day, year = _MONTHS[(g.get("m1") or g["m2"]).lower()], int(g.get("d1") or g["d2"]), g.get("y")
    try:
        if year:
            return date(int(year), month, day), True
        found = date(today.year, month, day)
        return (found if found >= today else date(today.year + 1, month, day)), False
    except ValueError:
        return None  # 30 February: the model's turn, which can say so


_DATED = re.compile(_DATE.replace("?P<", "?P<a_"), re.IGNORECASE)
MONTH_ONLY = _MONTH_ONLY = re.compile(rf"\b(?:in|by|during|next|this|until|till|before)\s+(?P<m>{MONTH_PATTERN})\b(?:\s+(?P<y>\d{{4}}))?", re.IGNORECASE)


def named_date(text: str, now: datetime) -> tuple[date, int] | None:
    """(the date a sentence names, where in it): a day ("on the 18th of December", "14 January 2027"; a holiday only when
    no day is written: "closes for Christmas on the 18th") or, failing one, a month alone, taken as its first day
    ("expires in March 2027", "next June"); a month without a year is its next coming one."""
    today = now.date()
    found = sorted((m for m in _DATED.finditer(text) if not m["a_rel"]), key=lambda m: bool(m["a_hol"]))
    for m in found:
        if (read := _read(m, "a", today)) is not None:
            return read[0], m.start()
    if (m := _MONTH_ONLY.search(text)) is None:
        return None
    month = _MONTHS[m["m"].lower()]
    year = int(m["y"]) if m["y"] else today.year + (month <= today.month)
    return date(year, month, 1), m.start()


def is_date(text: str) -> bool:
    """Whether the words are a date and nothing else ("Christmas", "the 18th of December", "14 July 2027")."""
    return re.fullmatch(rf"(?:the\s+|on\s+)?(?:{_DATE})", text.strip(), re.IGNORECASE) is not None


def months_before(day: date, months: int) -> date:
    """`day` moved back `months` calendar months (the 31st falls to the month's last day)."""
    total = day.year * 12 + day.month - 1 - months
    year, month = divmod(total, 12)
    return date(year, month + 1, min(day.day, calendar.monthrange(year, month + 1)[1]))


def _next_day_of_month(day: int, today: date) -> date | None:
    """The next date (today counts) that is day `day` of its month; None for a day no month has."""
    year, month = today.year, today.month
    for _ in range(13):
        if day <= calendar.monthrange(year, month)[1] and date(year, month, day) >= today:
            return date(year, month, day)
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return None


def _said(d: date, today: date, given_year: bool) -> str:
    """How the answer names a date: as the person wrote it when they gave the year, else with the year it took."""
    return f"{d.day} {d:%B %Y}" if given_year or d.year != today.year else f"{d.day} {d:%B}"


def _days(n: str, unit: str) -> str:
    """Code for 'N days', or 'W weeks and D days' when the person asked in weeks."""
    if unit.lower().startswith("week"):
        return f"n = {n}\nf\"{{n // 7}} week{{'s' if n // 7 != 1 else ''}}\" + (f\" and {{n % 7}} day{{'s' if n % 7 != 1 else ''}}\" if n % 7 else '')"
    return f"n = {n}\nf\"{{n}} day{{'s' if n != 1 else ''}}\""


def date_code(request: str, today: date, now: datetime | None = None) -> str | None:
    """The sandbox code answering a calendar question (or, given the clock `now`, the time), its first line the
    answer with '{}' for the value."""
    text = request.strip()
    if not text or len(text) > _MAX_CHARS:
        return None
    body = _TRAIL.sub("", _LEAD.sub("", text, count=1), count=1)
    if now is not None and _TIME_ASK.match(body):
        return (f"# answer: It's {{}}.\nfrom datetime import datetime\nnow = datetime({now.year}, {now.month}, {now.day}, {now.hour}, "
                f"{now.minute})  # the conversation's clock\nf\"{{now:%H:%M}} on {{now:%A}} {{now.day}} {{now:%B %Y}}\"")
    head = f"from datetime import date, timedelta\ntoday = date({today.year}, {today.month}, {today.day})  # the conversation's clock\n"
    for kind, form in _FORMS.items():
        if m := form.match(body):
            return _code(kind, m, today, head)
    return None


def _code(kind: str, m: re.Match[str], today: date, head: str) -> str | None:
    if kind == "age":
        born = int(m["year"])
        if not 1900 <= born <= today.year:
            return None
        return (f"# answer: Born in {born}, you turn {{}} this year (one less until your birthday).\n{head}"
                f"today.year - {born}")
    if kind == "today":
        return f"# answer: Today is {{}}.\n{head}f\"{{today:%A}} {{today.day}} {{today:%B %Y}}\""
    if kind == "dated":  # "What's the date next Friday?": L0 said "5 Dec 2026, 04:36", today's
        ahead = {"tomorrow": 1, "yesterday": -1}[m["rel"].lower()] if m["rel"] else (_WEEKDAYS[m["wd"].lower()] - today.weekday()) % 7 \
            or (0 if (m["which"] or "").lower() == "this" else 7)  # "this Saturday" on a Saturday is today
        said = m["rel"].capitalize() if m["rel"] else f"{(m['which'] or '').capitalize()} {m['wd'].capitalize()}".strip()
        shown = "f\"{d.day} {d:%B %Y}\"" if m["wd"] else "f\"{d:%A} {d.day} {d:%B %Y}\""  # the weekday is said already
        return f"# answer: {said} {'was' if ahead < 0 else 'is'} {{}}.\n{head}d = today + timedelta(days={ahead})\n{shown}"
    if kind == "weekday":
        read = _read(m, "a", today)
        if read is None:
            return None
        d, given = read
        verb = "is" if d >= today else "was"
        return f"# answer: {_said(d, today, given)} {verb} a {{}}.\n{head}f\"{{date({d.year}, {d.month}, {d.day}):%A}}\""
    if kind == "count":
        weekday = _WEEKDAYS[m["wd"].lower()]
        year_word = (m["year"] or "").lower()
        year = today.year + 1 if year_word.startswith("next") else int(year_word) if year_word.isdigit() else today.year
        if m["month"]:
            month = _MONTHS[m["month"].lower()]
            if not m["year"] and month < today.month:
                year += 1
            start, end, span = date(year, month, 1), date(year + month // 12, month % 12 + 1, 1), f"{calendar.month_name[month]} {year}"
        elif m["year"]:
            start, end, span = date(year, 1, 1), date(year + 1, 1, 1), str(year)
        else:
            return None
        return (f"# answer: There are {{}} {calendar.day_name[weekday]}s in {span}.\n{head}"
                f"start, end = date({start.year}, {start.month}, {start.day}), date({end.year}, {end.month}, {end.day})\n"
                f"sum(1 for i in range((end - start).days) if (start + timedelta(days=i)).weekday() == {weekday})")
    if kind == "until":
        read = _read(m, "a", today)
        if read is None or read[0] < today:
            return None
        d = read[0]
        return (f"# answer: {long_date(d)} is {{}} from today ({long_date(today)}).\n{head}"
                + _days(f"(date({d.year}, {d.month}, {d.day}) - today).days", m["unit"] or "days"))
    if kind == "between":
        a, b = _read(m, "a", today), _read(m, "b", today)
        if a is None or b is None:
            return None
        (da, ga), (db, gb) = a, b
        if db < da and not gb:
            db = db.replace(year=db.year + 1) if not (db.month == 2 and db.day == 29) else db
        return (f"# answer: From {_said(da, today, ga)} to {_said(db, today, gb)} is {{}}.\n{head}"
                + _days(f"abs((date({db.year}, {db.month}, {db.day}) - date({da.year}, {da.month}, {da.day})).days)", m["unit"]))
    n, unit = int(m["n"]), m["unit"].lower()
    days = n * 7 if unit.startswith("week") else n
    back = (m["dir"] or "").lower() == "ago"
    amount = f"{n} {unit.rstrip('s')}{'s' if n != 1 else ''}"
    said = f"{amount} ago" if back else f"{amount} from today"
    return (f"# answer: {said[:1].upper()}{said[1:]} ({long_date(today)}) {'was' if back else 'is'} {{}}.\n{head}"
            f"d = today {'-' if back else '+'} timedelta(days={days})\nf\"{{d:%A}} {{d.day}} {{d:%B %Y}}\"")
