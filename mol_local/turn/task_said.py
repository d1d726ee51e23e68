"""The task said before "remind me <when>": "I also need to set up the broadband, remind me tomorrow at 6pm".

Tried with `mol chat -c`: the embedded L1 set that reminder with the text "6pm" — words of the time, not the task —
and, once, "the broadband"; "I need to book a haircut, remind me on Monday at 10" got "buy a haircut" beside "book a
haircut". When the request names the task in a clause of its own ("I need to …", "I have to …", "I must …") just
before it asks "remind me …", and the model's text is only words from the time part or shares a word with the task,
the task (in the person's words) is the text, and the tool's line is the answer (L1 had written a call's markup after it).
"""

from __future__ import annotations

import re

_NEED_THEN_REMIND = re.compile(
    r"\b(?:i|we)\s+(?:also\s+|still\s+|really\s+)?(?:(?:need|have|want|'ve got|’ve got|have got|got)\s+to|must|should)\s+"
    r"(?P<task>[\w' -]{3,60}?)\s*(?:,|\.|;|!|\s+-|\s+so|\s+and)\s+(?:so\s+)?(?:can you\s+|could you\s+|please\s+)?"
    r"remind me\b(?P<when>[^.?!]*)", re.IGNORECASE)


def task_before_remind(text: str, request: str) -> str | None:
    """The task of "I need to <task>, remind me <when>" when `text` (the model's) is only words of <when>; None otherwise."""
    m = _NEED_THEN_REMIND.search(request)
    if m is None:
        return None
    said, when, task = _words(text), _words(m["when"]), m["task"].strip()
    if re.search(r"\d", task):
        return None  # "I have to see the dentist at 4pm and …": a time of its own, another reader's
    if said and not said <= when and not (said & _words(task) and text.strip().lower() != task.lower()):
        return None  # the model's text shares nothing with the task: it stays
    return task


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]+", text.lower()) if len(w) >= 3 and w not in ("the", "and", "for", "remind")}
