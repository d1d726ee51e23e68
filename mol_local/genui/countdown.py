"""A countdown to a day: "Make a countdown to Christmas" is a timer of the time left until that day begins.

Tried with `mol chat`: L3 drew a one-hour Timer labelled "Chores". A countdown named by its day (a date, or a holiday
with a fixed date: turn/dates.py) is one Timer of the seconds from the conversation's clock to that day's midnight,
labelled with the day; the view's clock shows days once there is more than one left.
"""

from __future__ import annotations

import re
from datetime import datetime, time

from mol_local.genui.document import UIDocument, parse_document
from mol_local.genui.errors import InvalidDocument
from mol_local.turn.dates import is_date, named_date

_ASKS = re.compile(r"\bcount\s*-?down\s+(?:to|until|till|for)\s+(?P<what>[\w' -]{2,40}?)[\s.!?]*$", re.IGNORECASE)


def countdown_document(request: str, now: datetime) -> tuple[UIDocument, str] | None:
    """The countdown view for "a countdown to <a day>", and what it holds; None for any other request or a day gone."""
    m = _ASKS.search(request)
    if m is None or not is_date(m["what"]) or (dated := named_date(m["what"], now)) is None:
        return None
    seconds = int((datetime.combine(dated[0], time(0, 0)) - now).total_seconds())
    if seconds <= 0:
        return None
    what = re.sub(r"^(?:the|on)\s+", "", m["what"].strip(), flags=re.IGNORECASE)
    label = what[:1].upper() + what[1:]
    timer = {"id": "countdown", "type": "Timer", "label": label, "bind": "seconds", "seconds": seconds}
    try:
        doc = parse_document({"catalog": "1", "title": f"Countdown to {what}", "components": [timer], "state": {"seconds": seconds},
                              "actions": {}})
    except InvalidDocument:
        return None
    return doc, f"a countdown to {dated[0]:%A %-d %B %Y}: {seconds} s from now"
