"""A row added to a table by a follow-up: "Add Dune, Frank Herbert, 412 to the tracker".

"Create a reading tracker with title, author and pages read" draws an empty Title | Author | Pages read table
(`genui.stated.logged_fields`; it had drawn one progress bar out of 100); the app shows a table read-only, so a
tracker is filled from the chat, as a checklist is (turn/list_edit.py). A request that adds a row to a table —
"Add Dune, Frank Herbert, 412 to my reading tracker", "Log a new entry: 6 Dec, coffee, 3.20", or right after the
table "Add Dune, Frank Herbert, 412" — is applied to the newest table of the conversation that holds its own rows
(not one showing the person's reminders or notes), with one cell per comma-separated part, and the turn answers with
the table as it is now, on the UI slot, with no model. More parts than columns, or a bare add whose parts do not
fill the row, is not a row, and the request goes on as before.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from memory.consent import BORROWED
from mol_local.genui.document import UIDocument
from mol_local.genui.store import GenUIStore
from mol_local.turn.list_edit import LIST_EDIT, view_turn
from mol_local.turn.result import TurnResult
from mol_local.turn.ui import UI_SLOT

if TYPE_CHECKING:
    from mol_local.turn.session import Session

_POLITE = r"^(?:(?:ok(?:ay)?|and|also|great|thanks)[,!.]?\s+)*(?:(?:please|can you|could you)\s+)*"
_THE_TABLE = r"(?:my|the|our|that|this)\s+(?:[\w'-]+\s+){0,2}?(?:table|tracker|log|logbook|spreadsheet)"
_END = r"(?:,?\s*(?:please|thanks|thank you))?[\s.!]*$"
_ENTRY = r"(?:(?:a|an|another|one more)\s+(?:new\s+)?(?:row|entry|line)\s*(?::|-|—)?\s*)"
_TO_TABLE = re.compile(rf"{_POLITE}(?:add|put|log|enter|record|write)\s+{_ENTRY}?(?P<cells>.+?)\s+(?:to|on|onto|in|into)\s+{_THE_TABLE}{_END}", re.I)
_AN_ENTRY = re.compile(rf"{_POLITE}(?:add|log|enter|record|write)\s+{_ENTRY}(?P<cells>.+?){_END}", re.I)
_BARE = re.compile(rf"{_POLITE}(?:add|log|enter|record)\s+(?P<cells>.+?){_END}", re.I)
_CELLS = re.compile(r"\s*[,;|]\s*")
MAX_CELL_WORDS = 8


def asked_row(text: str, table_shown_last: bool) -> tuple[list[str], bool] | None:
    """(the cells a request adds as a row, whether it said where), or None when it adds no row."""
    said = " ".join(text.split())
    m = _TO_TABLE.match(said) or _AN_ENTRY.match(said)
    where = m is not None
    if m is None and table_shown_last:
        m = _BARE.match(said)
    if m is None:
        return None
    cells = [c.strip(" '\"") for c in _CELLS.split(m["cells"])]
    if not all(cells) or any(len(c.split()) > MAX_CELL_WORDS for c in cells) or not where and len(cells) < 2:  # "Add 5 and 7"
        return None
    return cells, where


def with_row(doc: UIDocument, state: dict[str, Any], cells: list[str], where: bool) -> tuple[dict[str, Any], list[str]] | None:
    """(the new state, the row as added) of the document's one table holding its own rows; None when it has none or the
    cells do not fit it (more than its columns; fewer than its columns unless the request said where, and never one)."""
    tables = [c for c in doc.components if c.get("type") == "Table" and not c.get("source") and isinstance(state.get(c.get("bind")), list)]
    if len(tables) != 1:
        return None
    comp = tables[0]
    width = len(comp["columns"]) if isinstance(comp.get("columns"), list) and comp["columns"] else max((len(r) for r in state[comp["bind"]]), default=0)
    if not width or len(cells) > width or len(cells) < width and (not where or len(cells) < 2):
        return None
    row = [c[:1].upper() + c[1:] if i == 0 else c for i, c in enumerate(cells)] + [""] * (width - len(cells))
    return {**state, comp["bind"]: [*state[comp["bind"]], row]}, row


def table_edit_turn(session: Session, text: str) -> TurnResult | None:
    """One committed L3 turn answering with the newest table of this conversation (else, when the request names a table,
    of any) with the row added; None when the request adds no row that fits one."""
    rt = session.runtime
    shown_last = bool(session.tasks) and session.tasks[-1].slot == UI_SLOT
    asked = asked_row(text, shown_last)
    if asked is None or UI_SLOT not in rt.hcp.slots:
        return None
    store = GenUIStore(rt.db)
    rows = store.list(conversation_id=session.conversation_id, limit=20) or (store.list(limit=200) if asked[1] else [])
    rows = rows if asked[1] else rows[:1]  # a bare "Add …" is for the view just shown, not a table further up
    for row in rows:
        doc = store.document(row["id"])
        if (done := with_row(doc, store.state(row["id"]), *asked)) is not None:
            break
    else:
        return None
    state, added = done
    source = store.meta(row["id"])["conversation_id"]
    raw = LIST_EDIT if source in (None, session.conversation_id) else f"{BORROWED}{source}"  # consent follows the table
    line = f"Added a row: {' | '.join(c or '—' for c in added)}."
    result = view_turn(session, text, replace(doc, state=state), f"The user added a row to the table '{doc.title}': {line}", raw)
    result.notices.append(line)
    return result
