"""Text from outside (a prompt, an HTTP body, a JSONL line) cleaned at the edge before it is stored.

Policy: **strip, then refuse if nothing is left.** Terminal escape sequences
(ANSI CSI/OSC, e.g. colour codes pasted from a terminal) and C0/C1 control
characters (NUL, BEL, backspace, ...) are removed; tab and newline stay, and
CR/CRLF become newline. Such bytes are never meaningful in a message or a
memory, and stored they ring bells, recolour or rewrite the terminal a later
`mol memory list` prints to, and NUL cuts strings in C libraries. A message
that held only such characters is refused (EmptyMessage), not stored as an
empty turn. JSON read here is parsed with a depth limit: a deeply nested
line raised RecursionError.
"""

from __future__ import annotations

import json
import re
from typing import Any

from mol_local.errors import EmptyMessage, MolError

_ANSI = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: ESC [ params intermediates final
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC: ESC ] ... BEL or ESC \
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"  # DCS, SOS, PM, APC strings
    r"|\x1b[ -/]*[0-~]"  # two-character escapes
    r"|\x9b[0-?]*[ -/]*[@-~]"  # 8-bit CSI
)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
MAX_JSON_DEPTH = 32


def clean_text(text: str) -> str:
    """`text` without terminal escapes and control characters (tab and newline kept, CR -> newline)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _CONTROL.sub("", _ANSI.sub("", text))


def clean_message(text: str, *, what: str = "message", error: type[MolError] = EmptyMessage) -> str:
    """clean_text, refusing a text with nothing left (`error` says which case it was)."""
    cleaned = clean_text(text)
    if not cleaned.strip():
        if text.strip():
            raise error(f"The {what} holds only control characters or terminal escapes (ANSI, NUL, BEL) — write some text")
        raise error(f"Empty {what} — type something to send")
    return cleaned


def json_depth(node: Any) -> int:
    """How deeply lists/objects nest in a decoded value (iterative: survives hostile depth)."""
    deepest, stack = 0, [(node, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, depth)
            if depth > MAX_JSON_DEPTH:
                return depth
            stack.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict) else item))
    return deepest


def loads_limited(text: str | bytes, *, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """json.loads with a nesting limit and no NaN/Infinity; ValueError (with `.msg`) otherwise."""
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise _JSONError(f"nested more than {max_depth} levels deep") from None
    except json.JSONDecodeError as exc:
        raise _JSONError(exc.msg) from None
    if json_depth(value) > max_depth:
        raise _JSONError(f"nested more than {max_depth} levels deep")
    return value


class _JSONError(ValueError):
    def __init__(self, msg: str) -> None:
        super().__init__(msg)
        self.msg = msg


def _no_constant(name: str) -> float:
    raise _JSONError(f"{name} is not a number JSON allows")
