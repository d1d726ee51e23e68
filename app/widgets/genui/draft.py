"""The L3 view while it is written: a plain sketch of its complete components (mol_local.genui.partial).

Only text, never live widgets: nothing in a draft can be ticked or pressed, because the document is
validated (and maybe repaired) only at the end; the live `GenUIView` replaces the sketch then.
"""

from __future__ import annotations

from typing import Any

from textual.content import Content
from textual.widgets import Static

from mol_local.genui.inert import inert
from mol_local.genui.text import document_text


def draft_text(draft: dict[str, Any]) -> str:
    """The sketch: the complete part of the document, and a line saying more is coming."""
    return "\n".join(filter(None, [document_text(draft), "(being written…)"]))


class ViewDraft(Static):
    """The sketch under an L3 answer until the validated view or the error replaces it."""

    DEFAULT_CSS = "ViewDraft { border: round $panel; padding: 0 1; color: $text-muted; }"

    def show(self, draft: dict[str, Any]) -> None:
        self.update(Content(inert(draft_text(draft))))
