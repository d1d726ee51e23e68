""""What does this code print?" answered by running it: the person's code, in the conversation's sandbox.

Tried with `mol chat`: "What does this Python code print? print(sum([1, 2, 3]) * 2)" went to L2, which wrote a
function `sum(a)` that "subtracts 1 from the argument" and claimed "sum(5) returns 10"; nothing was run. A
question that asks what code the person gives prints, outputs or returns — after a colon or question mark, or
in a fenced block — is one python call: the code runs as written in the sandbox (no network, the harness's
CPU, memory and time limits), what it prints is captured, and the answer is that output (or its last
expression's value, or the exception it raised). Code that does not compile is left to the model, which may
be asked to fix it. "What does this do: [x*2 for x in range(5)]" is run too (L2 rewrote it as a loop and said
nothing), unless the code only defines a function or a class: that asks for an explanation.
"""

from __future__ import annotations

import ast
import re

_FENCED = re.compile(r"```[\w+-]*\n?(?P<code>.*?)```", re.DOTALL)
_ASKS = re.compile(
    r"^(?:(?:hey|hi|ok|so|quick question)[,:!]?\s+)?(?:(?:can you tell me|tell me)\s+)?"
    r"(?:what\s+(?:does|will|would)\s+(?:this|the following|the|my)?\s*(?:python\s+)?(?:code|snippet|program|script|line|expression)?\s*"
    r"(?P<verb>print|output|return|give|evaluate to|show|do)(?:\s+out)?|what(?:'s|\s+is)\s+the\s+(?:output|result)\s+of(?:\s+(?:this|the following))?"
    r"(?:\s+(?:python\s+)?(?:code|snippet))?)\s*(?:in\s+python\s*)?[?:]?\s*(?P<code>.*)$", re.IGNORECASE | re.DOTALL)
MAX_CODE_CHARS = 4000


def given_code(request: str) -> str | None:
    """The code the request asks about, when it asks what that code prints or returns and the code compiles."""
    m = _ASKS.match(request.strip())
    if m is None:
        return None
    fenced = _FENCED.search(m["code"])
    code = fenced["code"] if fenced else m["code"].strip()
    if not fenced and code.endswith("?") and code.count("(") == code.count(")"):
        code = code[:-1].rstrip()  # "… print(sum([1, 2]))?": the question mark is the question's
    if not code or len(code) > MAX_CODE_CHARS:
        return None
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    if (m["verb"] or "").lower() == "do" and any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) for n in tree.body):
        return None  # "What does this function do?" asks for an explanation; running a definition shows nothing
    return code


def run_code(request: str) -> str | None:
    """The sandbox code that runs the person's code and states what it printed, returned or raised, its first line
    "# answer: {}"; None for any other request."""
    code = given_code(request)
    if code is None:
        return None
    tree = ast.parse(code)
    last_is_value = bool(tree.body) and isinstance(tree.body[-1], ast.Expr)
    return ("# answer: {}\n"
            "import contextlib, io\n"
            f"_src = {code!r}  # your code, as you wrote it\n"
            "_out, _ns = io.StringIO(), {'__name__': '__main__'}\n"
            "_tree = __import__('ast').parse(_src)\n"
            f"_last = _tree.body.pop() if {last_is_value} else None\n"
            "try:\n"
            "    with contextlib.redirect_stdout(_out):\n"
            "        exec(compile(_tree, '<your code>', 'exec'), _ns)\n"
            "        _value = eval(compile(__import__('ast').Expression(_last.value), '<your code>', 'eval'), _ns) if _last else None\n"
            "    _said = _out.getvalue().rstrip('\\n')\n"
            "    _answer = (f'It prints:\\n```\\n{_said}\\n```' if _said else 'It prints nothing.') if _value is None else "
            "(f'It prints:\\n```\\n{_said}\\n```\\nand its last line evaluates to {_value!r}.' if _said else f'It evaluates to {_value!r}.')\n"
            "except Exception as _exc:\n"
            "    _said = _out.getvalue().rstrip('\\n')\n"
            "    _answer = (f'It prints:\\n```\\n{_said}\\n```\\nthen ' if _said else 'It ') + f'raises {type(_exc).__name__}: {_exc}.'\n"
            "_answer")
