"""A reminder moved, removed or done by name: "Move my dentist reminder to 4pm", "Delete the bank reminder".

Tried with `mol chat` on a fresh home: "Move my dentist reminder to 4pm" was answered by L0 with a *new*
reminder called "Move my dentist reminder to 4pm" at 16:00 today, and the dentist reminder stayed where it
was. A request that moves a reminder it names is settled before the model is asked: the open reminder the
request names best (`ground.named_reminders`) is set again at the new time and the old one cancelled, as a
follow-up's "make it 3pm" does (`moved.moved_calls`); "snooze the haircut reminder by 30 minutes" moves it
later. When the request says "reminder" but names none of the open ones, nothing is set and the answer says
so; when it names none and says nothing of a reminder ("Move the sofa to the left") it is not this, and the
model answers. "Cancel the reminder about the oven" and "Cancel all my reminders" cancel (`named_cancel`); "I
finished the dentist one" ticks it off (`named_done`).
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING

from mol_local.harness.store import local_due
from mol_local.turn.ground import REMIND, content_stems, named_reminders
from mol_local.turn.moved import new_time
from mol_local.turn.tasks import ToolCall, answering_call

if TYPE_CHECKING:
    from mol_local.harness.hub import ToolHub

_NAMED_MOVE = re.compile(
    r"^(?:(?:actually|ok(?:ay)?|oh|hey|sorry)[,!.]?\s+)*(?:(?:can|could|would) you\s+|please\s+)?"
    r"(?P<verb>move|change|reschedule|push|shift|switch|put|bring|postpone|snooze|delay)\s+(?:my|the)\s+(?P<what>.+?)(?P<said>\s+reminder)?\s+"
    r"(?:(?P<dir>back|forward)\s+(?!to\b|until\b|till\b|on\b)(?:by\s+)?|(?P<by>by\s+|(?=(?:\d+|an?|half an)\s*(?:minutes?|mins?|hours?|hrs?)\b))"
    r"|(?:(?:back|forward|over)\s+)?(?:to|for|until|till|on)\s+|(?=.+\s(?:later|earlier|sooner)\b))"  # "Push the plumber back to Monday"
    r"(?P<when>.+?)(?:\s+instead)?(?:,?\s*(?:please|thanks|thank you))?[\s.!?]*$",
    re.IGNORECASE)
NONE_NAMED = "not run: no open reminder is about {what}, so nothing was {done} (\"What reminders do I have?\" lists them)"


def edits_a_reminder(request: str) -> bool:
    """Whether the request moves or cancels a reminder it names as one ("Push the birthday card reminder to Saturday"):
    the router sends it to the entry slot, whose turn settles it here (the route adapter sent that one to L3, which
    drew a card with two toggles)."""
    said = " ".join(request.split())
    moved = _NAMED_MOVE.match(said)
    return bool(moved and (moved["said"] or re.search(r"\breminders?\b", moved["what"], re.I))) or bool(_CANCEL.match(said) or _STOP.match(said))


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
    later = "back" if m["by"] or m["verb"].lower() in ("snooze", "delay", "postpone") else None  # "snooze … by 30 minutes"
    new = new_time(m["when"].strip(), m["dir"] or later, old, now)
    if new is None or new == old:
        return []
    create = answering_call("reminders.create", {"text": row["text"], "due": new.isoformat(timespec="minutes")})
    return [create] if new < now else [create, answering_call("reminders.cancel", {"id": row["id"]})]


_CANCEL = re.compile(
    r"^(?:(?:please|can you|could you|actually|oh|ok(?:ay)?)[,]?\s+)*(?:delete|cancel|remove|drop|clear|scrap|get rid of)\s+"
    r"(?:(?P<all>all\s+(?:of\s+)?(?:my|the)\s+reminders|(?:my|the)\s+reminders|every\s+reminder)"
    r"|(?:my|the)\s+reminders?\s+(?:about|to|for|of)\s+(?P<about>.+?)|(?:my|the)\s+(?P<what>.+?)\s+reminder)"
    r"(?:,?\s+(?:please|thanks))?[\s.!]*$", re.IGNORECASE)
_STOP = re.compile(r"^(?:(?:please|ok(?:ay)?|actually)[,]?\s+)*(?:stop reminding me|(?:don't|do not|no need to) remind me(?: again)?|"
                   r"no more reminders)\s+(?:about|to|for|of)\s+(?P<about>.+?)(?:\s+(?:any ?more|again|please|thanks))*[\s.!]*$",
                   re.IGNORECASE)
TWO_NAMED = "not run: {n} open reminders are about {what} ({when}), so none was removed; say which one"
NONE_OPEN = "not run: there are no open reminders to cancel"


def named_cancel(request: str, hub: ToolHub | None) -> list[ToolCall]:
    """reminders.cancel of the one open reminder a "delete the <what> reminder", "cancel the reminder about <what>" or
    "stop reminding me about <what>" names, or of every open one for "cancel all my reminders"; a refused one when
    several are named alike or none is; [] for any other request. Cancelling, not ticking off: a repeating reminder
    ticked off opens its next time, and "Delete my stretch reminder" had left it set for tomorrow."""
    said = " ".join(request.split())
    m = _CANCEL.match(said) or _STOP.match(said)
    if m is None or hub is None:
        return []
    rows = hub.reminders.list()
    if m.re is _CANCEL and m["all"]:
        calls = [answering_call("reminders.cancel", {"id": r["id"]}) for r in rows]
        return calls or [replace(answering_call("reminders.cancel", {"id": ""}), refused=NONE_OPEN)]
    about = m["about"] or m.groupdict().get("what") or ""  # _STOP names it only as "about"
    named = named_reminders(about, rows)
    what = re.sub(r"^(?:my|the)\s+", "", about, flags=re.I)
    if len(named) == 1:
        return [answering_call("reminders.cancel", {"id": named[0]["id"]})]
    refused = (TWO_NAMED.format(n=len(named), what=what, when=", ".join(local_due(r["due_at"]) for r in named)) if named
               else NONE_NAMED.format(what=what, done="removed"))
    return [replace(answering_call("reminders.cancel", {"id": ""}), refused=refused)]


_SAYS_DONE = re.compile(
    r"^(?:(?:ok(?:ay)?|so|right|well|yes|yay|great)[,!]?\s+)?(?:i(?:'ve|\s+have)?\s+(?:just\s+|already\s+|finally\s+)?"
    r"(?P<verb>finished|done|did|completed|sorted|handled|dealt with|took care of|paid|bought|sent|took|went|saw|met|fed|rang|spoke|made|got"
    r"|wrote|gave|put|[a-z]{3,}ed)|(?:just\s+)?(?:finished|done with|did)\b)\b"
    r"(?P<what>.+?)[\s.!]*$", re.IGNORECASE)
_ANY_TASK = frozenset({"finished", "done", "did", "completed", "sorted", "handled", "dealt with", "took care of"})
_PAST = {"paid": "pay", "bought": "buy", "sent": "send", "took": "take", "went": "go", "saw": "see", "met": "meet", "fed": "feed",
         "rang": "call", "spoke": "speak", "made": "make", "got": "get", "wrote": "write", "gave": "give", "put": "put"}


def _does(verb: str | None, text: str) -> bool:
    """Whether a reminder's text is what `verb` says was done: "I paid the rent" for "pay the rent", not "I talked to
    Sam about the party" for "plan the party"; "finished", "did" and the like fit any."""
    verb = (verb or "did").lower()
    if verb in _ANY_TASK:
        return True
    if verb in _PAST:
        return _PAST[verb] in re.findall(r"[a-z]+", text.lower()) or (verb == "rang" and "ring" in text.lower())
    return bool(content_stems(verb) & content_stems(text))


def named_done(request: str, hub: ToolHub | None) -> list[ToolCall]:
    """reminders.complete of the one open reminder a "I finished the dentist one" / "I've paid the rent" names (by the
    words after the verb); [] when the request is not such a statement or names no single open reminder. The embedded
    L0 had answered "I finished the dentist one" with "Congratulations on completing the dentist one!" and ticked
    nothing off. (A checklist item said done is `list_edit`'s, read before this in `Session._command`.)"""
    m = _SAYS_DONE.match(" ".join(request.split()))
    if m is None or hub is None or REMIND.search(request) or request.rstrip().endswith("?"):
        return []
    named = named_reminders(m["what"], hub.reminders.list())
    return [answering_call("reminders.complete", {"id": named[0]["id"]})] if len(named) == 1 and _does(m["verb"], named[0]["text"]) else []
