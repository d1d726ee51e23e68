"""Check the hidden summary before other slots see it.

The summary is what every other slot learns about a task, so a wrong one misleads
them for the rest of the conversation. Measured on the embedded 135M base
(`mol bench runtime --turns 9`, rows carry the summary text): from the second
turn on, it often copied the first task's summary, which every view shows as
"[Chat (L0) handled this] The user asked …", instead of writing this task's,
and it loops, repeating one line until the budget runs out.

So: repeated lines are dropped (order kept), and a summary that is empty or
copies an earlier task's is replaced by an extractive one built from this
task's own request and answer. The turn records which it was
(`summary_fallback` in its timings).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

REQUEST_CHARS = 160
ANSWER_CHARS = 200
_SPACE = re.compile(r"\s+")


def _norm(text: str) -> str:
    return _SPACE.sub(" ", text).strip().lower()


def drop_repeated_lines(text: str) -> str:
    """Each distinct non-empty line once, in order of first appearance."""
    seen: set[str] = set()
    kept = []
    for line in text.strip().splitlines():
        key = _norm(line)
        if key and key in seen:
            continue
        seen.add(key)
        kept.append(line.rstrip())
    return "\n".join(kept).strip()


def copies_earlier(summary: str, earlier: Iterable[str]) -> bool:
    """True when the summary is (a prefix of, or equal to) an earlier task's summary."""
    mine = _norm(summary)
    return bool(mine) and any(e and (_norm(e) == mine or _norm(e).startswith(mine)) for e in earlier)


def extractive_summary(request: str, answer: str) -> str:
    """The request and the first line of the answer, cut short: never wrong, if plain."""
    first = next((line.strip() for line in answer.splitlines() if line.strip()), "")
    asked = _SPACE.sub(" ", request).strip()
    asked = asked if len(asked) <= REQUEST_CHARS else asked[: REQUEST_CHARS - 1] + "…"
    said = first if len(first) <= ANSWER_CHARS else first[: ANSWER_CHARS - 1] + "…"
    return f'Asked: "{asked}". Answered: {said}' if said else f'Asked: "{asked}". No answer was given.'


def checked_summary(text: str, *, request: str, answer: str, earlier: Iterable[str]) -> tuple[str, bool]:
    """(summary to store, whether the extractive fallback replaced the model's)."""
    cleaned = drop_repeated_lines(text)
    if not cleaned or copies_earlier(cleaned, earlier):
        return extractive_summary(request, answer), True
    return cleaned, False
