"""Numbers a request states that the embedded L3 cannot convert: a timer's length in seconds.

"a 20 minute timer" came back as `"seconds": 20` — the model copies the number
and cannot multiply. As `harness/when.py` does for reminder times, the
arithmetic is done here: when the request names exactly one length of time,
every Timer in the document counts down that many seconds (its bound state
too). Applied to a valid document, so validity never changes.
"""

from __future__ import annotations

import re

from mol_local.genui.document import UIDocument

_UNIT = {"s": 1, "sec": 1, "second": 1, "m": 60, "min": 60, "minute": 60, "h": 3600, "hr": 3600, "hour": 3600}
_LENGTH = re.compile(r"\b(\d+(?:\.\d+)?|an?|one|half an?)[\s-]*(seconds?|secs?|minutes?|mins?|hours?|hrs?|[smh])\b", re.I)
_WORD = {"a": 1.0, "an": 1.0, "one": 1.0}


def stated_seconds(request: str) -> int | None:
    """The one length of time `request` names, in seconds; None when it names none or several."""
    found = set()
    for m in _LENGTH.finditer(request):
        amount, unit = m[1].lower(), m[2].lower().rstrip("s") or "s"
        value = 0.5 if amount.startswith("half") else _WORD.get(amount) or float(amount)
        found.add(round(value * _UNIT[unit if unit in _UNIT else unit[0]]))
    return found.pop() if len(found) == 1 else None


def ground(doc: UIDocument, request: str) -> list[str]:
    """Set every Timer to the length the request names; returns what changed (for the composition's fixes)."""
    seconds = stated_seconds(request)
    fixes: list[str] = []
    if seconds is None or seconds <= 0:
        return fixes
    for comp in doc.components:
        if comp.get("type") != "Timer" or comp.get("seconds") == seconds:
            continue
        comp["seconds"] = seconds
        bind = comp.get("bind")
        if isinstance(bind, str) and isinstance(doc.state.get(bind), (int, float)) and not isinstance(doc.state[bind], bool):
            doc.state[bind] = seconds
        fixes.append(f"timer {comp['id']!r} set to the {seconds} s the request named")
    return fixes
