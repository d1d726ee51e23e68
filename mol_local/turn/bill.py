"""A tip on a bill, a discount, a sum split between people and things at a price each, computed: "What's 18% tip on a
64 dollar bill?", "3 coffees at 2.80 each plus a 10% tip".

Tried with `mol chat` on the embedded default: "What's 18% tip on a 64 dollar bill?" got "You owe $1.80 to the
bank." (L0), and "Split 120 euros between 3 people" went to L1, which listed the reminders and tried to set one
("I didn't do that: the request asks for no reminder …"). A request that is only one of these is written as a
few lines of Python run in the conversation's sandbox (as turn/budget.py does for a trip budget); the answer
shows the sums. Anything else stays the model's.
"""

from __future__ import annotations

import re

from mol_local.number_words import said_number

_LEAD = r"^(?:(?:hey|hi|ok|okay|so|quick question)[,:!]?\s+)?(?:(?:can|could|would) you\s+)?(?:please\s+)?(?:(?:tell me|work out|calculate)\s+)?"
_END = r"(?:,?\s*(?:please|thanks|thank you))?[\s?.!]*$"


def _money(k: str = "") -> str:
    """An amount ("$64", "120 euros"); `k` names its groups apart when a pattern spells one in two places."""
    return (rf"(?P<c{k}>[$£€])?\s?(?P<x{k}>\d{{1,3}}(?:,\d{{3}})+(?:\.\d{{1,2}})?|\d+(?:\.\d{{1,2}})?)"
            rf"(?:\s*(?P<unit{k}>dollars?|euros?|pounds?|quid|bucks))?")


_MONEY = _money()
_TIP = re.compile(
    rf"{_LEAD}(?:what(?:'s| is)|how much is)?\s*(?:an?\s+|the\s+)?(?P<p>\d{{1,2}}(?:\.\d+)?)\s*(?:%|percent|per cent)\s+tip\s+"
    rf"(?:on|for)\s+(?:an?\s+|the\s+|my\s+)?{_MONEY}(?:\s+(?:bill|meal|check|cheque|tab|dinner|lunch))?{_END}", re.IGNORECASE)
_COUNT = r"\d{1,3}|two|three|four|five|six|seven|eight|nine|ten"
_SPLIT = re.compile(
    rf"{_LEAD}(?:split|divide|share)\s+(?:(?:a|an|the|our|my)\s+)?(?:bill\s+of\s+)?{_MONEY}"
    r"(?:\s+(?:dinner|lunch|breakfast|restaurant|meal|pizza|taxi|cab|hotel|grocery|food|bar|drinks))?(?:\s+(?:bill|check|cheque|tab))?"
    rf"(?:\s+(?:between|among|by|into|with)\s+|\s+(?=(?:{_COUNT})\s+ways))"
    rf"(?P<n>{_COUNT})(?:\s+(?:people|persons|friends|of us|ways|parts|equally))?"
    r"(?:,?\s*(?:with|plus|and|including|\+)\s+(?:an?\s+)?(?P<p>\d{1,2}(?:\.\d+)?)\s*(?:%|percent|per cent)\s+tip)?"
    rf"{_END}", re.IGNORECASE)
_ITEMS = re.compile(  # "3 coffees at 2.80 each plus a 10% tip": L1 had added "Tip: 3 × 10% = 3.00"
    rf"{_LEAD}(?:what(?:'s| is| are| do| does| would)|how much (?:is|are|would be|will be|for|do|does|would))?\s*(?:the\s+(?:total|cost|price)\s+(?:of|for)\s+)?"
    rf"(?P<n>{_COUNT})\s+(?P<what>[a-z][a-z' -]{{0,30}}?)\s+(?:at|@|for)\s+{_MONEY}\s*(?:each|apiece|a piece|per (?:item|piece|person|ticket|one))"
    r"(?:,?\s*(?:plus|with|and|\+|including|incl\.?)\s+(?:an?\s+)?(?P<p>\d{1,2}(?:\.\d+)?)\s*(?:%|percent|per cent)\s+"
    rf"(?P<kind>tip|tax|vat|service(?: charge)?|sales tax))?(?:\s+(?:cost|come to|in total|altogether|total))?{_END}",
    re.IGNORECASE)
_OFF = re.compile(
    rf"{_LEAD}(?:what(?:'s| is)|how much is)?\s*(?:(?P<p>\d{{1,2}}(?:\.\d+)?)\s*(?:%|percent|per cent)\s+(?:off|discount on)\s+"
    rf"(?:an?\s+|the\s+)?{_MONEY}|{_money('2')}"
    rf"\s+(?:with|after|less)\s+(?:an?\s+)?(?P<p2>\d{{1,2}}(?:\.\d+)?)\s*(?:%|percent|per cent)(?:\s+(?:off|discount))?){_END}",
    re.IGNORECASE)
_SIGN = {"dollar": "$", "buck": "$", "euro": "€", "pound": "£", "quid": "£"}


def _amount(m: re.Match[str], alt: str = "") -> tuple[str, str]:
    """(the amount as Python source, how it is said: "$64", "120 euros", "64"); `alt` picks a pattern's second spelling."""
    x = m[f"x{alt}"].replace(",", "")
    unit = (m[f"unit{alt}"] or "").lower().rstrip("s")
    sign = m[f"c{alt}"] or _SIGN.get(unit, "")
    return x, f"{sign}{m[f'x{alt}']}" if sign else m[f"x{alt}"]


def bill_code(request: str) -> str | None:
    """The sandbox code answering a tip or a split, its first line the answer with '{}'; None for anything else."""
    text = " ".join(request.split())
    if len(text) > 200:
        return None
    if m := _TIP.match(text):
        x, said = _amount(m)
        sign = said[0] if said[0] in "$£€" else ""
        article = "An" if m["p"].startswith("8") or m["p"].split(".")[0] in ("11", "18") else "A"
        return (f"# answer: {{}}\nbill, percent = {x}, {m['p']}\ntip = round(bill * percent / 100, 2)\n"
                f"f\"{article} {m['p']}% tip on {said} is {sign}{{tip:.2f}}, so {sign}{{bill + tip:.2f}} in all.\"")
    if m := _OFF.match(text):  # L0: "15% of 80 dollars is 15 x 0.15 = 2. So, you can buy 2 more dollars"
        alt = "" if m["p"] else "2"
        x, said = _amount(m, alt)
        sign, p = said[0] if said[0] in "$£€" else "", m[f"p{alt}"]
        return (f"# answer: {{}}\nprice, percent = {x}, {p}\noff = round(price * percent / 100, 2)\n"
                f"f\"{p}% off {said} is {sign}{{price - off:.2f}} (you save {sign}{{off:.2f}}).\"")
    if m := _ITEMS.match(text):
        return _items_code(m)
    if m := _SPLIT.match(text):
        n = said_number(m["n"])
        if n < 2:
            return None
        x, said = _amount(m)
        sign = said[0] if said[0] in "$£€" else ""
        if m["p"]:  # "… between 3 people with a 10% tip": the tip on the bill, then the split (L1 had ticked a reminder off)
            return (f"# answer: {{}}\ntotal, people, percent = {x}, {n}, {m['p']}\ntip = round(total * percent / 100, 2)\n"
                    f"each = (total + tip) / people\n"
                    f"f\"{said} plus a {m['p']}% tip ({sign}{{tip:.2f}}) is {sign}{{total + tip:.2f}}; split {n} ways, {sign}{{each:.2f}} each.\"")
        return (f"# answer: {{}}\ntotal, people = {x}, {n}\neach = total / people\n"
                f"f\"{said} split {n} ways is {sign}{{each:.2f}} each.\"")
    return None


def _items_code(m: re.Match[str]) -> str | None:
    """N things at a price each, with a tip or a tax on top when one is said."""
    n = said_number(m["n"])
    x, said = _amount(m)
    sign = said[0] if said[0] in "$£€" else ""
    head = f"{m['n']} {m['what']} at {said} each come{'s' if n == 1 else ''} to {sign}{{cost:.2f}}"
    if not m["p"]:
        return f"# answer: {{}}\ncount, price = {n}, {x}\ncost = count * price\nf\"{head}.\""
    kind = m["kind"].lower()
    kind = kind.upper() if kind == "vat" else kind
    return (f"# answer: {{}}\ncount, price, percent = {n}, {x}, {m['p']}\ncost = count * price\nextra = round(cost * percent / 100, 2)\n"
            f"f\"{head}; a {m['p']}% {kind} adds {sign}{{extra:.2f}}, so {sign}{{cost + extra:.2f}} in all.\"")
