"""A function named after a Python builtin that calls that builtin: renamed, so the call reaches Python's own; a
function told what to return for an empty input: guarded; a draft one small edit away from passing the request's
own cases: that edit (`near_misses`); a sentence about the code that names a function or variable the code does not
have: dropped.

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


def guarded(code: str, empty: tuple[str, str]) -> str | None:
    """The code with `if not <arg>: return <value>` first in its one-parameter top-level function, for "Make it return 0
    for an empty list" (`mol chat -c`: L2 repeated `… if numbers else None`); None when there is no such function. A
    candidate only: code_check shows it when it passes the checks the draft failed."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    node = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and len(n.args.args) == 1 and not n.args.vararg), None)
    if node is None or not node.body:
        return None
    first = node.body[1] if len(node.body) > 1 and _is_docstring(node.body[0]) else node.body[0]
    lines = code.splitlines()
    indent = re.match(r"\s*", lines[first.lineno - 1])[0]  # type: ignore[index]
    param = node.args.args[0].arg
    lines[first.lineno - 1:first.lineno - 1] = [f"{indent}if not {param}:", f"{indent}    return {empty[1]}"]
    return "\n".join(lines) + ("\n" if code.endswith("\n") else "")


# one-token slips seen in L2's drafts: `"".join(reversed(words))` for "reverse the words", `[-2]` of a descending sort,
# `range(1, n)` for a product up to n; each pair is tried both ways
_SWAPS: tuple[tuple[str, str], ...] = (
    ('"".join(', '" ".join('), ("''.join(", "' '.join("), ("[-2]", "[1]"), ("[-1]", "[0]"), (" <= ", " >= "), (" < ", " > "),
    (" == ", " != "), ("min(", "max("), ("reverse=True", "reverse=False"), (" and ", " or "), ("return True", "return False"),
    ("% 2 == 1", "% 2 == 0"),
)
_RANGE_END = re.compile(r"\brange\((?:(1|0),\s*)?(\w+)\)")
MAX_NEAR_MISSES = 24


def near_misses(code: str) -> list[tuple[str, str, str]]:
    """(the code with one slip undone, what it was, what it became) for each place a `_SWAPS` pair or a `range(n)`
    end occurs, at most MAX_NEAR_MISSES. Candidates only: code_check keeps one when it passes the cases the request
    states (a task's or the person's own), which the first draft failed, and says what it changed."""
    out: list[tuple[str, str, str]] = []
    for a, b in _SWAPS:
        for old, new in ((a, b), (b, a)):
            for m in re.finditer(re.escape(old), code):
                out.append((code[: m.start()] + new + code[m.end():], old.strip().rstrip("("), new.strip().rstrip("(")))
    for m in _RANGE_END.finditer(code):
        new = f"range({m[1] + ', ' if m[1] else ''}{m[2]} + 1)"
        out.append((code[: m.start()] + new + code[m.end():], m[0], new))
    return out[:MAX_NEAR_MISSES]


def _is_docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


_BLOCK = re.compile(r"```[^\n]*\n(?P<code>.*?)(?:```|\Z)", re.DOTALL)
_CALLED = re.compile(r"(?<![.\w])([A-Za-z_]\w*)\s*\(")
_SNAKE = re.compile(r"(?<![.\w])([a-z]+_[a-z0-9_]+)\b")
_SENTENCE_END = re.compile(r"((?<=[.!?])\s+(?=[A-Z(]))")


def without_made_up_names(answer: str) -> str:
    """The answer less each sentence after its first code block that calls or names something the code neither defines
    nor imports and Python does not have: L2 explained `sum(numbers) / len(numbers)` with "The function sums each
    item withjango_sort(numbers, key=lambda x: x), which keeps the values with keys higher than 10" (`mol chat`)."""
    block = _BLOCK.search(answer)
    if block is None:
        return answer
    try:
        tree = ast.parse(block["code"])
    except SyntaxError:
        return answer
    known = set(_BUILTINS)
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            known.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            known.add(node.name)
        elif isinstance(node, ast.arg):
            known.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            known.update((a.asname or a.name).split(".")[0] for a in node.names)
    head, prose = answer[: block.end()], answer[block.end():]
    lead = prose[: len(prose) - len(prose.lstrip())]
    parts = _SENTENCE_END.split(prose.lstrip())  # sentences at even places, the spaces after them at odd
    sentences, gaps = parts[::2], [*parts[1::2], ""]
    kept = "".join(said + gap for said, gap in zip(sentences, gaps) if all(n in known for n in _CALLED.findall(said) + _SNAKE.findall(said)))
    return head + (lead + kept.rstrip() + ("\n" if prose.endswith("\n") else "") if kept.strip() else "")
