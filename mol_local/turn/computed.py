"""The python call a request settles when it only asks something Python computes: arithmetic (turn/arith.py), a
calendar question (turn/dates.py), a unit or currency conversion (turn/units.py), a number fact (turn/numbers.py) or
what a trip budget leaves per day (turn/budget.py); the turn runs it instead of asking the model."""

from __future__ import annotations

import re
from datetime import date

from mol_local.turn.arith import code, expression
from mol_local.turn.budget import budget_code
from mol_local.turn.dates import date_code
from mol_local.turn.numbers import number_code
from mol_local.turn.tasks import ToolCall, answering_call
from mol_local.turn.units import currency_code, unit_code

_LEAD_IN = re.compile(r"(?<=[.?!:])\s+")


def computed_call(request: str, today: date) -> ToolCall | None:
    """A python call computing the request, when it asks only arithmetic, one calendar question, one unit
    conversion, one number fact or what a trip budget leaves per day (turn/arith.py, turn/dates.py, turn/units.py,
    turn/numbers.py and turn/budget.py say why): the turn runs it instead of asking the model, whose words it would
    replace. A short lead-in with no number
    ("Can you work this out? …", "Quick question: …") does not hide the question after it."""
    request = _past_lead_in(request)
    found = expression(request)
    settled = None if found else date_code(request, today) or unit_code(request) or currency_code(request) or number_code(request) \
        or budget_code(request)
    return answering_call("python", {"code": code(*found)}) if found else answering_call("python", {"code": settled}) if settled else None


def _past_lead_in(request: str) -> str:
    """The last sentence, when the ones before it are a few words with no number in them; else the request."""
    parts = [p for p in _LEAD_IN.split(request.strip()) if p.strip()]
    lead = " ".join(parts[:-1])
    return parts[-1] if len(parts) > 1 and not re.search(r"\d", lead) and len(lead.split()) <= 6 else request
