"""The turns the person's words settle with no model (`/remember`, a forget, a checklist edit, a table's new row,
"What can you do?", "Thanks!", "What's the weather?"), and the whole request a reply to our one question back makes
(turn/vague.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mol_local.turn.about import said_turn
from mol_local.turn.forgetting import forget_turn, forget_what
from mol_local.turn.list_edit import list_edit_turn
from mol_local.turn.recall import remember_text, remember_turn
from mol_local.turn.result import TurnResult
from mol_local.turn.table_edit import table_edit_turn
from mol_local.turn.vague import completed_request

if TYPE_CHECKING:
    from mol_local.turn.session import Session


def asked_in_full(session: Session, text: str) -> str:
    """`text`, or the whole request it completes when the last answer was our question back ("Set a reminder" → "What
    should I remind you about, and when? …" → "To call the vet")."""
    last = session.tasks[-1].messages[-1].content if session.tasks and session.tasks[-1].messages else ""
    return completed_request(text, last) or text


def settled_turn(session: Session, text: str) -> TurnResult | None:
    """A turn the words settle with no model, or None. A checklist edit is read before a forget: "Remove milk" names a
    list item; a table's new row before a checklist edit, as only a row that fits the newest table is one."""
    if (fact := remember_text(text)) is not None:
        return remember_turn(session, fact, text.strip())
    if (changed := table_edit_turn(session, text.strip()) or list_edit_turn(session, text.strip())) is not None:
        return changed
    if (what := forget_what(text)) is not None:
        return forget_turn(session, what)
    return said_turn(session, text.strip())
