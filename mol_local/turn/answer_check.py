"""An answer drafted by the model is checked before the person gets it, and redrafted when it fails.

Three checks, each its own reason: code in it is run (turn/code_check.py), a day plan in it is read
(turn/plan_check.py), and an answer that repeats, word for word, an earlier answer of the conversation to
another request is sampled again (`checked_fresh`): `mol chat -c` answered "Give me a simple recipe for
pancakes" with "You're feeling stressed about work.", its answer to the message before.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from mol_local.turn.code_check import REDRAFT_BUDGET_S, TRIES, Checked, checked_code
from mol_local.turn.plan_check import checked_plan

if TYPE_CHECKING:
    from memory.timeline import TaskRecord


def earlier_answers(history: Sequence[TaskRecord]) -> list[tuple[str, str]]:
    """(the request, the final answer) of each earlier task of the conversation."""
    out = []
    for task in history:
        asked = next((m.content for m in task.messages if m.role == "user"), "")
        answer = next((m.content for m in reversed(task.messages) if m.role == "assistant"), "")
        if asked and answer:
            out.append((asked, answer))
    return out


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


def _same_request(a: str, b: str) -> bool:
    one, two = set(_norm(a).split()), set(_norm(b).split())
    return bool(one) and len(one & two) / len(one | two) >= 0.5


def checked_fresh(answer: str, request: str, again: Callable[[int], str], earlier: Sequence[tuple[str, str]],
                  tries: int = TRIES) -> Checked:
    """The answer, or the first of up to `tries - 1` samples that is not word for word an earlier answer of this
    conversation to another request: "Give me a simple recipe for pancakes" got "You're feeling stressed about
    work.", the answer to the message before it (`mol chat -c`). The same answer to the same request stands."""
    said = _norm(answer)
    if not said or not any(_norm(old) == said and not _same_request(asked, request) for asked, old in earlier):
        return Checked(answer)
    said_before, began = {_norm(old) for _asked, old in earlier}, time.monotonic()
    for seed in range(1, tries):
        if time.monotonic() - began > REDRAFT_BUDGET_S:
            break
        sampled = again(seed).strip()
        if sampled and _norm(sampled) not in said_before:
            return Checked(sampled, f"read: the first draft repeated an earlier answer; draft {seed + 1} is new", redrafted=True)
    return Checked(answer, "read: every draft repeated an earlier answer")


def checked_answer(answer: str, request: str, again: Callable[[int], str], earlier: Sequence[tuple[str, str]] = ()) -> Checked:
    """The answer once its code is run (turn/code_check.py) or, with no code in it, its day plan read, or a repeat of an
    earlier answer redrafted."""
    code = checked_code(answer, request, again)
    if code.report:
        return code
    plan = checked_plan(answer, request, again)
    return plan if plan.report else checked_fresh(answer, request, again, earlier)
