"""A change asked of the code just written ("Now make it ignore case and spaces") is the coder's, checked as the whole ask.

Tried with `mol chat -c`: after "Write a Python function that checks if a string is a palindrome", "Now make it ignore
case and spaces" was routed to L0, which repeated the function unchanged ("You can use the following code to ignore
case and spaces"); the check had nothing to hold it to, since "make it ignore case" names no task. A message that
changes "it" right after a coding turn goes to the coding slot (its own view holds the code), and its code is checked
against the first request and this one together: the palindrome's cases, and the ones only a check ignoring case and
spaces passes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory.timeline import TaskRecord

CODE_SLOT = "L2"  # the coding specialist: a change to its code, tests of it and a shell command are its turns
_CHANGE = re.compile(
    r"^(?:(?:ok(?:ay)?|great|thanks|nice|now|then|and|also|but|can you|could you|please)[,!.]?\s+)*"
    r"(?:make|change|update|modify|fix|rewrite|extend|adapt|let)\s+(?:it|that|this|the (?:function|code|script))\b"
    r"|^(?:(?:ok(?:ay)?|now|then|and|also|can you|could you|please)[,!.]?\s+)*(?:add|handle|support)\b.{0,40}\b(?:to|in) (?:it|that|this)\b"
    r"|^(?:(?:ok(?:ay)?|now|then|and|also)[,!.]?\s+)*(?:it|that) should\b", re.IGNORECASE)


def code_before(text: str, history: Sequence[TaskRecord]) -> str | None:
    """The asks of the coding turns just before (the first request, then each change to it, joined), when `text` asks to
    change what they wrote; else None."""
    if not history or history[-1].slot != CODE_SLOT or not _CHANGE.search(" ".join(text.split())):
        return None
    asks: list[str] = []
    for task in reversed(history):
        said = next((m.content for m in task.messages if m.role == "user"), "")
        if task.slot != CODE_SLOT or not said:
            break
        asks.insert(0, said.strip().rstrip(".!?"))
        if not _CHANGE.search(" ".join(said.split())):
            break  # the request that started it
    return ". ".join(asks) or None


def whole_ask(text: str, history: Sequence[TaskRecord]) -> str:
    """What the code of this turn must do: the earlier request and this change together, or the request alone."""
    before = code_before(text, history)
    return f"{before}. {text}" if before else text
