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
from collections.abc import Callable

from mol_local.turn.code_tasks import empty_case, said_cases
from mol_local.turn.units import conversion_factor

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
    return _first_lines(code, lambda param: [f"if not {param}:", f"    return {empty[1]}"])


_IGNORE = re.compile(r"\b(?:ignor\w*|regardless of|disregard\w*)\b(?P<what>.{0,50})", re.IGNORECASE)


def ignoring(code: str, request: str) -> tuple[str, str] | None:
    """(the code with its one parameter lowercased, and stripped to letters and digits when spaces or punctuation are
    to be ignored, first thing in the function; what it now ignores) for "is_palindrome(s) that ignores case and
    spaces" (`mol chat`: L2 lowercased only). A candidate: code_check shows it when it passes the checks the draft failed."""
    m = _IGNORE.search(request)
    if m is None:
        return None
    said = [w for w, p in (("case", r"\bcase|capital"), ("spaces", r"\bspace|whitespace"), ("punctuation", r"\bpunctuation"))
            if re.search(p, m["what"], re.IGNORECASE)]
    if not said:
        return None
    keep = {"spaces": "if not ch.isspace()", "punctuation": "if ch.isalnum() or ch.isspace()"}.get("".join(set(said) - {"case"}), "if ch.isalnum()")

    def line(param: str) -> list[str]:
        said_case = f"str({param})" + (".lower()" if "case" in said else "")
        return [f"{param} = ''.join(ch for ch in {said_case} {keep})" if said != ["case"] else f"{param} = {said_case}"]

    fixed = _first_lines(code, line)
    return (fixed, " and ".join([", ".join(said[:-1]), said[-1]] if len(said) > 1 else said)) if fixed else None


def _first_lines(code: str, lines_for: Callable[[str], list[str]]) -> str | None:
    """The code with `lines_for(its parameter)` first in its one-parameter top-level function; None without one."""
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
    lines[first.lineno - 1:first.lineno - 1] = [indent + line for line in lines_for(node.args.args[0].arg)]
    return "\n".join(lines) + ("\n" if code.endswith("\n") else "")


def stated_fixes(code: str, request: str) -> list[tuple[str, str, str]]:
    """(the code mended as the request says, what to tell the person, what to report) for what to return on an empty
    input (`code_fix.guarded`) and what to ignore (`code_fix.ignoring`)."""
    out = []
    if (empty := empty_case(request)) is not None and (fixed := guarded(code, empty)) is not None:
        kind = "list" if empty[0] == "[]" else "string"
        out.append((fixed, f"For an empty {kind} it now returns {empty[1]}, as you asked", "guarded for an empty input"))
    if (ignored := ignoring(code, request)) is not None:
        out.append((ignored[0], f"It now ignores {ignored[1]}, as you asked", f"made to ignore {ignored[1]}"))
    negative = [c for c in said_cases(request, "f") if c.startswith("f(-")]
    if negative and (fixed := _first_lines(code, lambda p, v=negative[0].split(" == ")[1]: [f"if {p} < 0:", f"    return {v}"])) is not None:
        out.append((fixed, f"For a negative number it now returns {negative[0].split(' == ')[1]}, as you asked", "guarded for a negative input"))
    return out


def pair_fixes(code: str) -> list[tuple[str, str, str]]:
    """(the code with `a, b = 0 and 1` written `a, b = 0, 1`, what to tell the person, what to report): L2 wrote it for
    "the nth Fibonacci number" (`mol chat`: "cannot unpack non-iterable int object"). Several names set from values
    joined by `and` can only mean the values side by side. A candidate: code_check shows it when it passes."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    lines = code.splitlines(keepends=True)
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple) \
                and isinstance(node.value, ast.BoolOp) and isinstance(node.value.op, ast.And) \
                and len(node.value.values) == len(node.targets[0].elts) and node.value.lineno == node.value.end_lineno:
            parts = [ast.get_source_segment(code, v) or "" for v in node.value.values]
            old = ast.get_source_segment(code, node.value) or ""
            row = node.value.lineno - 1
            line = lines[row]
            start = len(line.encode()[: node.value.col_offset].decode())
            fixed = line[:start] + ", ".join(parts) + line[start + len(old):]
            new = "".join(lines[:row] + [fixed] + lines[row + 1:])
            return [(new, f"I changed `{old}` to `{', '.join(parts)}`: two values side by side take a comma", f"changed {old} to {', '.join(parts)}")]
    return []


# one-token slips seen in L2's drafts: `"".join(reversed(words))` for "reverse the words", `[-2]` of a descending sort,
# `range(1, n)` for a product up to n; each pair is tried both ways
_SWAPS: tuple[tuple[str, str], ...] = (
    ('"".join(', '" ".join('), ("''.join(", "' '.join("), ("[-2]", "[1]"), ("[-1]", "[0]"), (" <= ", " >= "), (" < ", " > "),
    (" == ", " != "), ("min(", "max("), ("reverse=True", "reverse=False"), (" and ", " or "), ("return True", "return False"),
    ("% 2 == 1", "% 2 == 0"),
)
_RANGE_END = re.compile(r"\brange\((?:(1|0),\s*)?(\w+)\)")
MAX_NEAR_MISSES = 24


def near_misses(code: str, request: str = "") -> list[tuple[str, str, str]]:
    """(the code with one slip undone, what it was, what it became) for each place a `_SWAPS` pair or a `range(n)`
    end occurs, and each wrong factor of a conversion the request asks for, at most MAX_NEAR_MISSES. Candidates
    only: code_check keeps one when it passes the cases the request states (a task's or the person's own), which
    the first draft failed, and says what it changed."""
    out: list[tuple[str, str, str]] = factor_fixes(code, request)
    for a, b in _SWAPS:
        for old, new in ((a, b), (b, a)):
            for m in re.finditer(re.escape(old), code):
                out.append((code[: m.start()] + new + code[m.end():], old.strip().rstrip("("), new.strip().rstrip("(")))
    for m in _RANGE_END.finditer(code):
        new = f"range({m[1] + ', ' if m[1] else ''}{m[2]} + 1)"
        out.append((code[: m.start()] + new + code[m.end():], m[0], new))
    return out[:MAX_NEAR_MISSES]


def factor_fixes(code: str, request: str) -> list[tuple[str, str, str]]:
    """The code with a number it multiplies (or divides) by made the factor of the conversion the request asks for:
    "converts kilometres to miles" got `return km * 0.001` (`mol chat`). Only numbers in a `*` or a `/`."""
    factor = conversion_factor(request)
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    if factor is None:
        return []
    lines, out = code.splitlines(keepends=True), []
    for node in ast.walk(tree):
        if not isinstance(node, ast.BinOp) or not isinstance(node.op, (ast.Mult, ast.Div)):
            continue
        sides = (node.left, node.right) if isinstance(node.op, ast.Mult) else (node.right,)
        for num in sides:
            if isinstance(num, ast.Constant) and type(num.value) in (int, float) and num.lineno == num.end_lineno:
                new = f"{factor[2] if isinstance(node.op, ast.Mult) else 1 / factor[2]:.6g}"
                line = lines[num.lineno - 1]
                old = line[num.col_offset:num.end_col_offset]
                if old != new:
                    fixed = [*lines[:num.lineno - 1], line[:num.col_offset] + new + line[num.end_col_offset:], *lines[num.lineno:]]
                    out.append(("".join(fixed), old, new))
    return out


def _is_docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


_BLOCK = re.compile(r"```[^\n]*\n(?P<code>.*?)(?:```|\Z)", re.DOTALL)
_CALLED = re.compile(r"(?<![.\w])([A-Za-z_]\w*)\s*\(")
_SNAKE = re.compile(r"(?<![.\w])([a-z]+_[a-z0-9_]+)\b")
_BY_NUMBER = re.compile(r"\b(?:multipl\w*|divid\w*)\s+(?:it\s+|the\s+\w+\s+)?by\s+(\d[\d,]*(?:\.\d+)?)\b", re.IGNORECASE)
_NUMBER = re.compile(r"(?<![\w.,])\d{2,}(?:\.\d+)?(?![\w,]|\.\d)")  # one digit is too often a count ("2 steps")
_A_CALL = re.compile(r"\w\(")  # "f(4) returns 2": a claim, which is run and checked
_SENTENCE_END = re.compile(r"((?<=[.!?])\s+(?=[A-Z(]))")


_OURS = re.compile(r"^\(?I (?:ran this|ran it|renamed|changed|corrected)\b")  # the check's own notes: "… should be 'hello_world'" is a value
_DOTTED = re.compile(r"(?<![.\w])([A-Za-z_]\w+)\.([A-Za-z_]\w*)")
_FILE_ENDS = frozenset("csv txt json py md log html xml yaml yml toml ini db sqlite png jpg pdf com org net io".split())  # data.csv, example.com
_QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"")  # a string's words are its value, not names the code must have


def without_made_up_names(answer: str, request: str = "") -> str:
    """The answer less each sentence after its first code block that calls or names something the code neither defines
    nor imports and Python does not have: L2 explained `sum(numbers) / len(numbers)` with "The function sums each
    item withjango_sort(numbers, key=lambda x: x), which keeps the values with keys higher than 10" (`mol chat`);
    or that says it multiplies or divides by a number the code does not have ("It multiplies by 1,000,000" for
    `km * 0.001`); or that, calling nothing, names a number neither the code nor the `request` has: "It tries the
    divisibility of 2800 with neither 400 nor 100." for a leap-year test on 4, 100 and 400 (`mol chat`); or that names
    `module.thing` of neither ("… the divisibility of math.BigInt.is_ odd" for `n % 2 == 0`, `mol chat`)."""
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
    numbers = {str(float(n.value)) for n in ast.walk(tree) if isinstance(n, ast.Constant) and type(n.value) in (int, float)}
    numbers |= {str(float(n)) for n in _NUMBER.findall(request)}
    kept = "".join(said + gap for said, gap in zip(sentences, gaps) if _OURS.match(said) or (
        all(n in known for n in _CALLED.findall(_QUOTED.sub("''", said)) + _SNAKE.findall(_QUOTED.sub("''", said)))
        and all(a in known or b in known or b.lower() in _FILE_ENDS for a, b in _DOTTED.findall(_QUOTED.sub("''", said)))
        and all(str(float(n.replace(",", ""))) in numbers for n in _BY_NUMBER.findall(said))
        and (_A_CALL.search(said) or all(str(float(n)) in numbers for n in _NUMBER.findall(_QUOTED.sub("''", said))))))
    lead = "\n\n" if kept.startswith("(I ") else lead  # the check's own note, alone: a paragraph of its own, as written
    return head + (lead + kept.rstrip() + ("\n" if prose.endswith("\n") else "") if kept.strip() else "")
