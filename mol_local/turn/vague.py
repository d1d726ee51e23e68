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


_TO_LIST = re.compile(r"^(?P<kind>[\w' -]{2,30}?)\s*:\s*(?P<items>.+)$")
_WHOLE = {"reminder": re.compile(r"^(?:remind|set|create|add)\b", re.I), "list": re.compile(r"^(?:make|create|start|build|give|an?)\b", re.I),
          "note": re.compile(r"^(?:note|write|jot|make|take|add)\b", re.I), "timer": re.compile(r"^(?:set|start|a|an)\b", re.I),
          "memory": re.compile(r"^(?:remember|that)\b", re.I), "code": re.compile(r"^(?:write|make|create|give|an?|one)\b", re.I)}


def completed_request(text: str, last_answer: str) -> str | None:
    """The whole request the reply to our one question back makes: "Set a reminder" → "What should I remind you about,
    and when? …" → "To call the vet" is "Remind me to call the vet" (`mol chat -c`: it answered "You can call the vet
    on Sun 6 Dec 2026, 05:27."); "Make a list" → "Groceries: apples, pasta, tomatoes" is "Make a groceries list:
    apples, pasta, tomatoes". None when `last_answer` was no such question, or the reply is a whole request itself."""
    kind = next((k for k, _pattern, question in _ASKS if question == last_answer.strip()), None)
    said = " ".join(text.split()).strip()
    if kind is None or not said or said.endswith("?") or _WHOLE[kind].match(said) or vague_ask(said):
        return None
    if kind == "list" and (m := _TO_LIST.match(said)):
        return f"Make a {m['kind'].strip().lower()} list: {m['items']}"
    return _IN_FULL[kind].format(said=said, bare=said[:1].lower() + said[1:])


_IN_FULL = {"reminder": "Remind me {bare}", "list": "Make a list: {said}", "note": "Note: {said}", "timer": "Set a timer for {bare}",
            "memory": "Remember that {bare}", "code": "Write a Python function that {bare}"}
