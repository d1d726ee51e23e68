"""Make document text inert before any renderer draws it.

Control characters (ESC and friends) are replaced with visible escapes, so a
label carrying a terminal escape sequence prints as text instead of moving the
cursor or recolouring the terminal. Renderers still escape for their own
format (HTML entities; Textual content without markup).
"""

from __future__ import annotations

import re

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def inert(text: object) -> str:
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", str(text))
