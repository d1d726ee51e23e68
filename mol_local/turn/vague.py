"""One clarifying question for a request that names what to do and nothing to do it with: "Remind me", "Make a list".

Tried with `mol chat` on a fresh home: "Remind me" got "When should I remind you to reminders.create?" (L0 had set
the tool's own name as the task); "Make a list" a list of the tools; "Write a function" a word counter nobody asked
for. A request that is only one of these asks back, once, for what is missing, with an example of a whole request.
"""

from __future__ import annotations

import re

_LEAD = r"^(?:(?:ok(?:ay)?|hi|hey|so|and|also)[,!.]?\s+)?(?:(?:can|could|would) you\s+|please\s+|i (?:want|need|would like) (?:you )?to\s+)?"
_END = r"(?:\s+(?:please|for me|now))?[\s.!?]*$"
_ASKS: tuple[tuple[str, re.Pattern[str], str], ...] = (
    ("reminder", re.compile(_LEAD + r"(?:remind me|(?:set|create|add|make)(?: me)? (?:a |an |new )?(?:reminder|alarm)|new reminder)" + _END, re.I),
     'What should I remind you about, and when? For example: "Remind me tomorrow at 9 to call the dentist".'),
    ("list", re.compile(_LEAD + r"(?:make|create|start|build|give me)(?: me)? (?:a |an |new )?(?:list|checklist|to-?do list)" + _END, re.I),
     'What kind of list, and what goes on it? For example: "Make a shopping list: eggs, milk, bread" or '
     '"a packing list for a beach holiday".'),
    ("code", re.compile(_LEAD + r"(?:write|make|create|give me)(?: me)? (?:a |an |some )?(?:python )?(?:function|script|program|code)" + _END, re.I),
     'What should it do? For example: "Write a Python function that checks if a number is prime" — I run it before I show it.'),
    ("note", re.compile(_LEAD + r"(?:take|make|write|add|create)(?: me)? (?:a |an |new )?note" + _END, re.I),
     'What should the note say? For example: "Note: the wifi password is in the blue drawer".'),
    ("timer", re.compile(_LEAD + r"(?:set|start|make|create)(?: me)? (?:a |an )?(?:timer|countdown)" + _END, re.I),
     'For how long? For example: "Set a timer for 10 minutes".'),
    ("memory", re.compile(_LEAD + r"remember(?: (?:this|something|that))?" + _END, re.I),
     'What should I remember? For example: "Remember that my sister\'s birthday is March 3rd".'),
)


def vague_ask(text: str) -> tuple[str, str] | None:
    """(what kind of request, the one question back) for a request that is only "Remind me", "Make a list", …; else None."""
    said = " ".join(text.split())
    return next(((kind, question) for kind, pattern, question in _ASKS if pattern.match(said)), None)
