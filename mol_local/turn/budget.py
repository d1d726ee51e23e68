"""A trip budget the request states, computed: what is left per day after the room and the other fixed costs.

"I have €955 for 3 days in Rome. The hotel is €175 a night for 3 nights and the travel costs €190. How much can I
spend per day on everything else?" — held-out L1 answered "Room: €175, each day: 3 nights × €190" and, for another
city, "7 × €70 = €350 … €35 a day" (the room is €490). A request that gives a total, a nightly rate for N nights,
any other costs, a number of days, and asks what is left per day is written here as a few lines of Python run in
the conversation's sandbox; the answer shows each sum. Read from the phrasing of the L1 recipe's training
templates (trainer/specialists/agent_plain.py: budget_left, budget_split, budget_plan) and nothing of its held-out
one; anything else (no total, two rates, a cost we cannot tell from the total) stays the model's.
"""

from __future__ import annotations

import re

_C = r"[€£$]"
_AMOUNT = rf"(?P<c>{_C})\s?(?P<x>\d{{1,3}}(?:,\d{{3}})+|\d+)(?:\.(?P<cents>\d{{2}}))?"
_MONEY = re.compile(_AMOUNT)
_TOTALS = tuple(re.compile(p, re.IGNORECASE) for p in (
    rf"\b(?:i have|i've got|i can spend)\s+{_AMOUNT}",  # "I have €955 for 3 days"
    rf"\bbudget\b[^.?!€£$]{{0,40}}?\bis\s+{_AMOUNT}",  # "My budget for 4 days in Porto is £900"
    rf"\bbudget of\s+{_AMOUNT}",
    rf"{_AMOUNT}\s*(?:in total|total|to spend|all in)\b",  # "€1,200 in total", "€955 to spend"
))
_NIGHTLY = re.compile(rf"{_AMOUNT}\s*(?:a|per|each|/)\s*night\s+for\s+(?P<n>\d+)\s+nights?", re.IGNORECASE)
_DAYS = re.compile(r"\b(?P<d>\d+)\s+days?\b", re.IGNORECASE)
_ASKS = re.compile(r"\b(?:per day|each day|a day|daily|every day)\b", re.IGNORECASE)


_IN_WORDS = re.compile(r"\b(?P<n>\d{1,3}(?:,\d{3})+|\d+)\s*(?P<unit>euros?|pounds?|dollars?|quid|bucks)\b", re.IGNORECASE)
_SIGN = {"euro": "€", "pound": "£", "quid": "£", "dollar": "$", "buck": "$"}


def _per_day(total: re.Match[str], days: int) -> str | None:
    """The sandbox code for a total spread over some days, and nothing else to take off it."""
    if days <= 0:
        return None
    return ("# answer: {}\n"
            f"c, total, days = {total['c']!r}, {_value(total)!r}, {days}\n"
            "money = lambda x: f'{c}{x:,.0f}' if float(x).is_integer() else f'{c}{x:,.2f}'\n"
            "_v = f'{money(total)} over {days} days is {money(total / days)} per day.'\n"
            "_v")


def _value(m: re.Match[str]) -> float:
    return float(m["x"].replace(",", "") + ("." + m["cents"] if m["cents"] else ""))


def budget_code(request: str) -> str | None:
    """The sandbox code answering what is left per day, its first line "# answer: {}"; None when the request is not a
    budget this module reads."""
    text = _IN_WORDS.sub(lambda m: f"{_SIGN[m['unit'].lower().rstrip('s')]}{m['n']}", " ".join(request.split()))  # "600 euros": €600
    if len(text) > 400 or not _ASKS.search(text):
        return None
    totals = {(m.start("x"), m.end()): m for p in _TOTALS for m in p.finditer(text)}
    nightly = list(_NIGHTLY.finditer(text))
    days = {int(m["d"]) for m in _DAYS.finditer(text)}
    currencies = {m["c"] for m in _MONEY.finditer(text)}
    if len({_value(m) for m in totals.values()}) == 1 and not nightly and len(days) == 1 and len(list(_MONEY.finditer(text))) == 1:
        return _per_day(next(iter(totals.values())), days.pop())  # "a budget of 600 euros for 3 days … per day" (mol chat: 600 × 3)
    if len({_value(m) for m in totals.values()}) != 1 or len(nightly) != 1 or len(days) != 1 or len(currencies) != 1:
        return None
    total_m, night_m, n_days = next(iter(totals.values())), nightly[0], days.pop()
    taken = [(total_m.start("c"), total_m.end("x")), (night_m.start(), night_m.end())]
    others = [_value(m) for m in _MONEY.finditer(text) if not any(a <= m.start() < b for a, b in taken)]
    if not others or n_days <= 0:
        return None
    return ("# answer: {}\n"
            f"c, total, rate, nights, days, others = {currencies.pop()!r}, {_value(total_m)!r}, {_value(night_m)!r}, "
            f"{int(night_m['n'])}, {n_days}, {others!r}\n"
            "money = lambda x: f'{c}{x:,.0f}' if float(x).is_integer() else f'{c}{x:,.2f}'\n"
            "room = rate * nights\n"
            "fixed = room + sum(others)\n"
            "left = total - fixed\n"
            "_v = (f'Room: {nights} nights × {money(rate)} = {money(room)}. Travel and other costs: {money(sum(others))}. '\n"
            "      f'That is {money(fixed)} fixed, which leaves {money(left)} of your {money(total)}: {money(left / days)} per day for {days} days.'\n"
            "      if left >= 0 else f'The room ({money(room)}) and the other costs ({money(sum(others))}) come to {money(fixed)}, '\n"
            "      f'{money(-left)} more than your {money(total)}: nothing is left to spend per day.')\n"
            "_v")
