"""An L3 document while it is being written: what of it is complete so far, to draw before it ends.

A document is validated (and repaired) only when the model has finished it, so the view used to
appear all at once, a whole answer's time after the request. The draft shown meanwhile holds only
what is complete: the title, every component whose object has closed and every state entry
whose value has closed. It is read from the JSON prefix by cutting it at the last point between
two elements of the document or of its top-level lists and maps (depth <= 2) and closing what is
open, so a half-written component is never shown. The draft is never stored or acted on; the
validated document replaces it.
"""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 2  # the document object and its components list / state map


class DraftReader:
    """Feed the generated pieces; `feed` returns a draft when more of the document is complete than before."""

    def __init__(self) -> None:
        self.text = ""
        self._stack: list[str] = []
        self._in_string = False
        self._escaped = False
        self._cut = 0
        self._cut_stack: tuple[str, ...] = ()
        self._read_at = 0  # the cut the last draft was read at: until it moves, nothing new is complete
        self._shown: tuple[int, int, bool] = (0, 0, False)

    def feed(self, piece: str) -> dict[str, Any] | None:
        start = len(self.text)
        self.text += piece
        for i in range(start, len(self.text)):
            self._step(i, self.text[i])
        if self._cut == self._read_at:  # most pieces end inside a component: no JSON parse for them
            return None
        self._read_at = self._cut
        draft = self.draft()
        if draft is None:
            return None
        seen = (len(draft["components"]), len(draft["state"]), bool(draft["title"]))
        if seen == self._shown:  # the cut only moves forward, so a draft only grows
            return None
        self._shown = seen
        return draft

    def _step(self, i: int, ch: str) -> None:
        if self._in_string:
            if self._escaped:
                self._escaped = False
            elif ch == "\\":
                self._escaped = True
            elif ch == '"':
                self._in_string = False
            return
        if ch == '"':
            self._in_string = True
        elif ch in "{[":
            self._stack.append("}" if ch == "{" else "]")
            if len(self._stack) <= MAX_DEPTH:
                self._mark(i + 1)
        elif ch in "}]" and self._stack:
            self._stack.pop()
            if len(self._stack) <= MAX_DEPTH:
                self._mark(i + 1)
        elif ch == "," and len(self._stack) <= MAX_DEPTH:
            self._mark(i)

    def _mark(self, at: int) -> None:
        self._cut, self._cut_stack = at, tuple(self._stack)

    def draft(self) -> dict[str, Any] | None:
        """{"title", "components", "state"} of the complete part; None before the document has begun."""
        if not self._cut_stack and self._cut == 0:
            return None
        closed = self.text[: self._cut] + "".join(reversed(self._cut_stack))
        try:
            doc = json.loads(closed)
        except json.JSONDecodeError:
            return None
        if not isinstance(doc, dict):
            return None
        components = [c for c in doc.get("components") or [] if isinstance(c, dict) and isinstance(c.get("type"), str)]
        state = doc.get("state") if isinstance(doc.get("state"), dict) else {}
        return {"title": doc.get("title") if isinstance(doc.get("title"), str) else "", "components": components, "state": state}
