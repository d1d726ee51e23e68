"""The python call a request settles when it only asks something Python computes: arithmetic (turn/arith.py), a
calendar question (turn/dates.py), a unit or currency conversion (turn/units.py), a number fact (turn/numbers.py) or
what a trip budget leaves per day (turn/budget.py), a tip or a split bill (turn/bill.py), a day planned around
the times given (turn/day_plan.py), the time in another city (turn/zones.py), a question about the request's own words (turn/wording.py) or what the code it gives prints (turn/run_given.py); the turn runs it instead of asking the model."""

from __future__ import annotations

import re
from datetime import date, datetime

from mol_local.turn.arith import code, expression
from mol_local.turn.bill import bill_code
from mol_local.turn.budget import budget_code
from mol_local.turn.dates import date_code
from mol_local.turn.day_plan import plan_code
from mol_local.turn.numbers import number_code
from mol_local.turn.run_given import run_code
from mol_local.turn.tasks import ToolCall, answering_call
from mol_local.turn.units import currency_code, height_code, travel_code, unit_code
from mol_local.turn.wording import text_code
from mol_local.turn.zones import zone_code

_LEAD_IN = re.compile(r"(?<=[.?!:])\s+")


def computed_call(request: str, today: date, now: datetime | None = None) -> ToolCall | None:
    """A python call computing the request, when it asks only arithmetic, one calendar question, one unit
    conversion, one number fact or what a trip budget leaves per day (turn/arith.py, turn/dates.py, turn/units.py,
    turn/numbers.py and turn/budget.py say why): the turn runs it instead of asking the model, whose words it would
    replace; given the clock `now`, "What time is it?" too. A short lead-in with no number
    ("Can you work this out? …", "Quick question: …") does not hide the question after it."""
    timed = (plan_code(request, now) or zone_code(request, now)) if now is not None else None
    if own := text_code(request) or run_code(request) or timed:
        return answering_call("python", {"code": own})  # before the lead-in goes: "Sort these words: pear, fig" is one sentence
    request = _past_lead_in(request)
    found = expression(request)
    settled = None if found else date_code(request, today, now) or height_code(request) or unit_code(request) or travel_code(request) or currency_code(request) or number_code(request) \
        or budget_code(request) or bill_code(request)
    return answering_call("python", {"code": code(*found)}) if found else answering_call("python", {"code": settled}) if settled else None


def _past_lead_in(request: str) -> str:
    """The last sentence, when the ones before it are a few words with no number in them; else the request."""
    parts = [p for p in _LEAD_IN.split(request.strip()) if p.strip()]
    lead = " ".join(parts[:-1])
    return parts[-1] if len(parts) > 1 and not re.search(r"\d", lead) and len(lead.split()) <= 6 else request
