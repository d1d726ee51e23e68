"""A reminder moved or removed by name: "Move my dentist reminder to 4pm", "Delete the bank reminder".

Tried with `mol chat` on a fresh home: "Move my dentist reminder to 4pm" was answered by L0 with a *new*
reminder called "Move my dentist reminder to 4pm" at 16:00 today, and the dentist reminder stayed where it
was. A request that moves a reminder it names is settled before the model is asked: the open reminder the
request names best (`ground.named_reminders`) is set again at the new time and then ticked off, as a
follow-up's "make it 3pm" does (`moved.moved_calls`). When the request says "reminder" but names none of the
open ones, nothing is set and the answer says so; when it names none and says nothing of a reminder ("Move
the sofa to the left") it is not this, and the model answers.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING

from mol_local.harness.store import local_due
from mol_local.turn.ground import named_reminders
from mol_local.turn.moved import new_time
from mol_local.turn.tasks import ToolCall, answering_call

if TYPE_CHECKING:
    from mol_local.harness.hub import ToolHub

_NAMED_MOVE = re.compile(
    r"^(?:(?:actually|ok(?:ay)?|oh|hey|sorry)[,!.]?\s+)*(?:(?:can|could|would) you\s+|please\s+)?"
    r"(?:move|change|reschedule|push|shift|switch|put|bring|postpone)\s+(?:my|the)\s+(?P<what>.+?)(?P<said>\s+reminder)?\s+"
    r"(?:(?P<dir>back|forward)\s+(?:by\s+)?|(?:to|for|until|till|on)\s+|(?=.+\s(?:later|earlier|sooner)\b))"
    r"(?P<when>.+?)(?:\s+instead)?(?:,?\s*(?:please|thanks|thank you))?[\s.!?]*$",
    re.IGNORECASE)
NONE_NAMED = "not run: no open reminder is about {what}, so nothing was {done} (\"What reminders do I have?\" lists them)"


def named_move(request: str, hub: ToolHub | None, now: datetime) -> list[ToolCall]:
    """reminders.create at the new time and reminders.complete of the reminder the request names and moves; a
    refused create when it moves a "… reminder" that is not open; [] for any other request."""
    m = _NAMED_MOVE.match(" ".join(request.split()))
    if m is None or hub is None:
        return []
    rows = [r for r in hub.reminders.list() if r.get("due_at") and not r.get("repeat")]
    named = named_reminders(m["what"], rows)
    if len(named) != 1:
        if not m["said"] or named:
            return []  # two named as well as each other: the model asks which
        refused = NONE_NAMED.format(what=re.sub(r"^(?:my|the)\s+", "", m["what"], flags=re.I), done="moved")
        return [replace(answering_call("reminders.create", {"text": m["what"]}), refused=refused)]
    row = named[0]
    old = datetime.fromisoformat(row["due_at"]).astimezone().replace(tzinfo=None)
    new = new_time(m["when"].strip(), m["dir"], old, now)
    if new is None or new == old:
        return []
    create = answering_call("reminders.create", {"text": row["text"], "due": new.isoformat(timespec="minutes")})
    return [create] if new < now else [create, answering_call("reminders.complete", {"id": row["id"]})]


_CANCEL = re.compile(r"^(?:(?:please|can you|could you)\s+)*(?:delete|cancel|remove|drop|clear)\s+(?:my|the)\s+(?P<what>.+?)\s+reminder"
                     r"(?:\s+(?:please|thanks))?[\s.!]*$", re.IGNORECASE)
TWO_NAMED = "not run: {n} open reminders are about {what} ({when}), so none was removed; say which one"


def named_cancel(request: str, hub: ToolHub | None) -> list[ToolCall]:
    """reminders.complete of the one open reminder a "delete the <what> reminder" names; a refused one when several
    are named alike or none is; [] for any other request."""
    m = _CANCEL.match(" ".join(request.split()))
    if m is None or hub is None:
        return []
    named = named_reminders(m["what"], hub.reminders.list())
    what = re.sub(r"^(?:my|the)\s+", "", m["what"], flags=re.I)
    if len(named) == 1:
        return [answering_call("reminders.complete", {"id": named[0]["id"]})]
    refused = (TWO_NAMED.format(n=len(named), what=what, when=", ".join(local_due(r["due_at"]) for r in named)) if named
               else NONE_NAMED.format(what=what, done="removed"))
    return [replace(answering_call("reminders.complete", {"id": ""}), refused=refused)]
