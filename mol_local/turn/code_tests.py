"""Tests for the function just written, when asked ("Write a pytest test for it"): its known cases, run before shown.

Tried with `mol chat -c` after a palindrome function: "Write a pytest test for it" got the function again, without its
lowercasing. The cases the check already holds the function to (the request's own examples, a common task's cases,
what it was told to ignore: turn/code_tasks.py) are the tests; they are run against the function in the sandbox, and
the answer says whether it passes them. With no known case the model writes the tests.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence

from memory.timeline import TaskRecord
from mol_local.turn.code_check import examples, first_code_block, sandboxed
from mol_local.turn.code_follow import CODE_SLOT, whole_ask
from mol_local.turn.code_tasks import task_tests

_ASKS = re.compile(r"^(?:(?:ok(?:ay)?|great|thanks|now|then|and|also|can you|could you|please)[,!.]?\s+)*"
                   r"(?:write|add|give me|make|create)\s+(?:me\s+)?(?:a\s+|some\s+|the\s+)?(?:pytest\s+|unit\s+)?tests?"
                   r"(?:\s+cases?)?\s+(?:for|of)\s+(?:it|that|this|the (?:function|code))\b[\s.!?]*$", re.IGNORECASE)


def _assertion(case: str) -> str:
    call, _, want = case.partition(" == ")
    return f"assert {call}" if want == "True" else f"assert not {call}" if want == "False" else f"assert {case}"


def _passes(code: str, tests: str, name: str) -> bool:
    result = sandboxed(f"{code}\n{tests}\ntest_{name}()\n'passed'")
    return result.status == "ok" and result.value == "'passed'"


def tests_answer(text: str, history: Sequence[TaskRecord]) -> str | None:
    """A test function for the function of the coding turn just before, from its known cases, with whether it passes
    them; None when the request is not that or no case is known."""
    if not _ASKS.match(" ".join(text.split())) or not history or history[-1].slot != CODE_SLOT:
        return None
    last = history[-1]
    code = next((block for m in reversed(last.messages) if m.role == "assistant" and (block := first_code_block(m.content))), None)
    asked = whole_ask(next((m.content for m in last.messages if m.role == "user"), ""), history[:-1])
    try:
        tree = ast.parse(code or "")
    except SyntaxError:
        return None
    fn = next((n for n in tree.body if isinstance(n, ast.FunctionDef)), None)
    if code is None or fn is None:
        return None
    takes = len(fn.args.args)
    cases = [c for c in examples(asked) if c.startswith(f"{fn.name}(")]
    cases += [c for c in task_tests(asked, fn.name, lambda n: n == takes, [a.arg for a in fn.args.args]) if c not in cases]
    if not cases:
        return None
    tests = "\n".join([f"def test_{fn.name}():", *(f"    {_assertion(c)}" for c in cases)])
    shown = f"```python\nfrom your_module import {fn.name}  # where {fn.name} lives\n\n\n{tests}\n```\n"
    how = "Save it as a file whose name starts with test_ and run `pytest`."
    if _passes(code, tests, fn.name):
        return f"{shown}{how} I ran these against your {fn.name}: they pass."
    return f"{shown}{how} I ran these against your {fn.name} and it fails at least one — the function needs changing, not the test."
