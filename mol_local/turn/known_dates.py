"""A day the person told us, put into a calendar question about it: "How many days until my birthday?".

Tried with `mol chat -c`: after "My birthday is 14 July" (kept as "The user's birthday is 14 July."), "How many
days until my birthday?" got "Your birthday is 14 July." — no number — and the calendar questions the turn
computes (turn/dates.py) need the date written in the request. When the request names one of the person's
days ("my birthday", "my sister's birthday", "our anniversary") and a recalled fact with that key holds a day
and month, the date is put in its place before the request is read, so the count is computed from the
conversation's clock like any other; so is a date said right after the question ("How many days until my
birthday? It's on 14 March": L0 had answered "You are right: it's on 14 March."). With no such fact, or one that is not a date, the request is unchanged
and stays the model's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from datetime import datetime

from mol_local.statements import key_of
from mol_local.turn.dates import MONTH_ONLY as _MONTH_ONLY
from mol_local.turn.dates import MONTH_PATTERN, is_date, named_date
from mol_local.turn.ground import content_stems

_THEIRS = re.compile(r"\b(?:my|our)\s+(?P<what>(?:[a-z]+'s\s+)?(?:birthday|anniversary|wedding anniversary|due date|exam|wedding|"
                     r"graduation|holiday|flight|interview|appointment))\b", re.IGNORECASE)
_A_DATE = re.compile(rf"^(?:on\s+)?(?:the\s+)?(?:\d{{1,2}}(?:st|nd|rd|th)?(?:\s+of)?\s+(?:{MONTH_PATTERN})|(?:{MONTH_PATTERN})\s+\d{{1,2}}(?:st|nd|rd|th)?)"
                     r"(?:,?\s+\d{4})?$", re.IGNORECASE)

_TOLD_HERE = re.compile(rf"^(?P<q>.+?\?)\s*(?:it's|it is|its|that's|that is|which is|it falls on)\s+(?:on\s+)?(?:the\s+)?"
                        rf"(?P<d>\d{{1,2}}(?:st|nd|rd|th)?(?:\s+of)?\s+(?:{MONTH_PATTERN})|(?:{MONTH_PATTERN})\s+\d{{1,2}}(?:st|nd|rd|th)?)[\s.!]*$",
                        re.IGNORECASE)


_UNTIL = re.compile(r"^(?P<head>how\s+(?:many|long)\s+(?:days|weeks|sleeps)?\s*(?:are\s+(?:there|left)\s+|is\s+it\s+|left\s+|to\s+go\s+)?"
                    r"(?:until|till|til|before)\s+)(?P<what>[\w' -]{3,80}?)(?P<tail>[\s?.!]*)$", re.IGNORECASE)


def _said_day(request: str, facts: Sequence[str], now: datetime) -> str | None:
    """"How many days until the school closes for Christmas?" with the date of the recalled fact that says so ("The kids'
    school closes for Christmas on the 18th of December", said weeks before) in place of the thing: L0 answered with the
    date and no count. Only a fact whose words before its date hold every word of the thing, and a whole day."""
    m = _UNTIL.match(" ".join(request.split()))
    if m is None or is_date(m["what"]):
        return None
    wanted = content_stems(m["what"])
    for fact in facts:
        dated = named_date(fact, now)
        if wanted and dated is not None and not _MONTH_ONLY.match(fact[dated[1]:]) and wanted <= content_stems(fact[:dated[1]]):
            day = dated[0]
            return f"{m['head']}{day.day} {day:%B} {day.year}{m['tail']}"
    return None


def with_known_dates(request: str, facts: Sequence[str], now: datetime | None = None) -> str:
    """`request` with each "my <day>" a recalled fact dates replaced by that date ("14 July"), or the thing a "how many days
    until …" names with the day a recalled fact gives it (`_said_day`); else unchanged. The facts are read only when the
    request names such a day: this runs before every turn's answer."""
    if now is not None and facts and (said := _said_day(request, facts, now)) is not None:
        return said
    if not _THEIRS.search(request):
        return request
    if (told := _TOLD_HERE.match(" ".join(request.split()))) and _THEIRS.search(told["q"]):
        return _THEIRS.sub(told["d"], told["q"], count=1)  # "How many days until my birthday? It's on 14 March"
    known: dict[str, str] = {}
    for fact in facts:
        key, value = key_of(fact)
        value = value.strip().removeprefix("on ").strip()
        if key and key.startswith("my:") and _A_DATE.match(value):
            known[key[3:].lower()] = value

    def put(m: re.Match[str]) -> str:
        return known.get(m["what"].lower(), m[0])

    return _THEIRS.sub(put, request) if known else request
