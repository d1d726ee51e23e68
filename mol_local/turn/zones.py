"""The time in another city, from the conversation's clock and the system's time-zone data: "What's the time in Tokyo?".

Tried with `mol chat`: that question got "The time in Tokyo is 5 Dec 2026, 08:06." — the local time with Tokyo's
name on it. A city that is the last part of an IANA zone name (Tokyo → Asia/Tokyo, New York → America/New_York) is
read here, and a line of `zoneinfo` code run in the conversation's sandbox gives its local time. A place that names
no zone ("Kyoto", "Mars") is left to the model.
"""

from __future__ import annotations

import re
import zoneinfo
from datetime import datetime
from functools import cache

_ASK = re.compile(r"^(?:(?:hey|hi|ok|so)[,!]?\s+)?(?:(?:can|could) you tell me\s+)?(?:what(?:'s|\s+is)\s+the\s+time|what\s+time\s+is\s+it)"
                  r"\s+(?:right\s+now\s+|now\s+)?in\s+(?P<city>[a-z][a-z .'-]{1,40}?)(?:\s+(?:right\s+)?now)?[\s?.!]*$", re.IGNORECASE)


@cache
def _cities() -> dict[str, str]:
    """"tokyo" -> "Asia/Tokyo" for every region zone whose last part names a city."""
    out: dict[str, str] = {}
    for key in sorted(zoneinfo.available_timezones()):
        region, _, city = key.rpartition("/")
        if region and not region.startswith(("Etc", "SystemV", "US", "Canada", "Brazil", "Chile", "Mexico")):
            out.setdefault(city.replace("_", " ").lower(), key)
    return out


def zone_code(request: str, now: datetime) -> str | None:
    """The sandbox code answering the time in a city, its first line "# answer: {}"; None for anything else."""
    m = _ASK.match(" ".join(request.split()))
    if m is None:
        return None
    city = " ".join(m["city"].split()).strip(" .")
    key = _cities().get(city.lower())
    if key is None:
        return None
    said = city.title()
    return (f"# answer: In {said} it's {{}}.\nfrom datetime import datetime\nfrom zoneinfo import ZoneInfo\n"
            f"here = datetime({now.year}, {now.month}, {now.day}, {now.hour}, {now.minute}).astimezone()  # the conversation's clock\n"
            f"there = here.astimezone(ZoneInfo({key!r}))\n"
            "f\"{there:%H:%M} on {there:%A} {there.day} {there:%B} ({there:%Z}, UTC{there:%z}; here it is {here:%H:%M})\"")
