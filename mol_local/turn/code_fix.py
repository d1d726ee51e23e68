"""A function named after a Python builtin that calls that builtin: renamed, so the call reaches Python's own.

Tried with `mol chat` on the embedded default: "a function that returns the maximum value in a list" got
`def max(a): return max(a, default=None)` and "the sum of a list of numbers" `def sum(numbers): return
sum(numbers) if numbers else 0` — each calls itself (TypeError, RecursionError), where the model plainly meant
the builtin. The rename is only a candidate: code_check.checked_code shows it when the renamed code passes
every check the first draft failed, and says what it renamed.
"""

from __future__ import annotations

import ast
import builtins
import re

_BUILTINS = frozenset(n for n in dir(builtins) if not n.startswith("_"))


def unshadowed(code: str) -> tuple[str, str, str] | None:
    """(the code with the function renamed, its old name, its new name), for the first top-level function named
    after a builtin whose body calls that name; None when there is none or the code does not parse."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in _BUILTINS:
            calls = {c.func.id for c in ast.walk(node) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)}
            taken = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | {f.name for f in tree.body if isinstance(f, ast.FunctionDef)}
            new = next(f"{node.name}{end}" for end in ("_of", "_value", "_result", "_1") if f"{node.name}{end}" not in taken)
            if node.name in calls:
                return re.sub(rf"\bdef\s+{node.name}\s*\(", f"def {new}(", code, count=1), node.name, new
    return None
