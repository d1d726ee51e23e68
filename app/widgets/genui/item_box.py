"""A checklist item whose box shows its state in any terminal.

Textual's Checkbox draws "▐X▌" ticked or not; only the colour of the X differs, so under tmux without colour
(and to anyone who cannot tell the two colours apart) every item looked done. Here a ticked item shows ✓ and
an open one an empty box.
"""

from __future__ import annotations

from textual.widgets import Checkbox


class ItemBox(Checkbox):
    """A Checkbox whose inner glyph is ✓ when ticked and blank when not."""

    @property  # type: ignore[override]
    def BUTTON_INNER(self) -> str:  # noqa: N802  (Textual reads this class attribute on every render)
        return "✓" if self.value else " "
