"""Arithmetic the request settles: "What is 17% of 2350?" becomes one python call whose result is the answer.

On the embedded default every such question was answered wrong, whichever slot took it: routed to L0,
"What is 17% of 2350?" got "You are 17% of 2350." and "What is the square root of 7921?" got "… is 3.";
forced to L2, its python call computed 17 * 2350 (39950) and, after a NameError, it still said "30". A
question that is *only* arithmetic — numbers, + - × ÷, "% of", powers, square roots, brackets — is read
here into a Python expression and run in the conversation's sandbox, so the number shown is the one
Python computed. Anything else in the question (a word we do not read, no operator at all) leaves the
turn to the model.
"""

from __future__ import annotations

import ast
import re

_LEAD = re.compile(
    r"^(?:(?:hey|hi|ok|okay|so|quick question)[,:!]?\s+)?(?:(?:can|could|would) you\s+)?(?:please\s+)?(?:tell me\s+)?"
    r"(?:what(?:'s| is| are)|whats|calculate|compute|work out|how much is|evaluate|solve)?\s*", re.IGNORECASE)
_TRAIL = re.compile(r"[\s,]*(?:please|for me|exactly)?[\s?.!=]*$", re.IGNORECASE)

# (pattern, Python text); tried in order at each position, so longer phrases come first
_TOKENS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p, re.IGNORECASE), out) for p, out in (
    (r"(?:%|\s*percent\b|\s*per cent\b)\s*of\b", "/100*"),
    (r"%|\s*percent\b|\s*per cent\b", "/100"),
    (r"(?:the\s+)?square root of\b|sqrt\s*(?:of\b)?|√", "sqrt"),
    (r"(?:the\s+)?cube root of\b", "cbrt"),
    (r"squared\b", "**2"),
    (r"cubed\b", "**3"),
    (r"\*\*|\^|to the power of\b|raised to\b", "**"),
    (r"\+|plus\b", "+"),
    (r"-|−|–|minus\b", "-"),
    (r"\*|×|x(?=\s*[\d(.])|times\b|multiplied by\b", "*"),
    (r"/|÷|divided by\b", "/"),
    (r"\(", "("),
    (r"\)", ")"),
))
_NUMBER = re.compile(r"[$£€]?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)")
_OPERATORS = frozenset({"/100*", "/100", "sqrt", "cbrt", "**2", "**3", "**", "+", "-", "*", "/"})
_MAX_CHARS = 200  # a question, not a program


def expression(request: str) -> tuple[str, str] | None:
    """(the Python expression, the arithmetic as the person wrote it) when the request is only arithmetic."""
    text = request.strip()
    if not text or len(text) > _MAX_CHARS:
        return None
    body = _TRAIL.sub("", _LEAD.sub("", text, count=1), count=1)
    out: list[str] = []
    pos = 0
    while pos < len(body):
        if body[pos].isspace():
            pos += 1
            continue
        if m := _NUMBER.match(body, pos):
            out.append(m.group(1).replace(",", ""))
        elif found := next(((m, python) for p, python in _TOKENS if (m := p.match(body, pos))), None):
            m = found[0]
            out.append(found[1])
        else:
            return None  # a word we do not read: the model's turn
        pos = m.end()
    if not any(t in _OPERATORS for t in out) or not any(t[:1].isdigit() or t[:1] == "." for t in out):
        return None
    python = _functions(out)
    if python is None:
        return None
    try:
        compile(python, "<arithmetic>", "eval")
    except SyntaxError:
        return None
    return python, body


def _functions(tokens: list[str]) -> str | None:
    """Join the tokens; a root applies to the number or bracket right after it."""
    out: list[str] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok in ("sqrt", "cbrt"):
            j, depth = i + 1, 0
            while j < len(tokens):
                depth += tokens[j] == "("
                depth -= tokens[j] == ")"
                if depth <= 0 and tokens[j] not in ("sqrt", "cbrt"):
                    break
                j += 1
            if j >= len(tokens):
                return None
            inner = _functions(tokens[i + 1 : j + 1])
            if inner is None:
                return None
            out.append(f"{tok}({inner})")
            i = j + 1
            continue
        out.append(tok)
        i += 1
    return " ".join(out)


def code(python: str, written: str) -> str:
    """The sandbox code: the arithmetic as written (a comment the answer quotes), then the value, tidied."""
    return (f"# {written}\nfrom math import sqrt, cbrt\n_v = {python}\n"
            "int(_v) if isinstance(_v, float) and _v.is_integer() and abs(_v) < 1e15 else round(_v, 10)")


def computed_answer(call_code: str, result: str) -> str:
    """"17% of 2350 is 399.5." from the code's first comment and the tool's "result: …" line, or why it failed.

    A first comment "# answer: … {} …" (turn/dates.py) is the whole answer, the value put in its place."""
    written = call_code.split("\n", 1)[0].removeprefix("# ").strip()
    template = written.removeprefix("answer: ") if written.startswith("answer: ") else None
    value = next((line.removeprefix("result: ") for line in result.splitlines() if line.startswith("result: ")), None)
    if value is None:
        error = next((line for line in reversed(result.splitlines()) if line.strip()), result).strip()
        return f"I couldn't compute {'that' if template else written}: {error.removeprefix('Error: ')}"
    if template is not None:
        return template.replace("{}", _plain(value), 1)
    return f"{written[:1].upper()}{written[1:]} is {value}."


def _plain(value: str) -> str:
    """A str result as its text ('Saturday', not "'Saturday'")."""
    try:
        read = ast.literal_eval(value)
    except (ValueError, SyntaxError):
        return value
    return read if isinstance(read, str) else value
