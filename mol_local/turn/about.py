""""What can you do?" answered with what this runtime can do, with an example of each.

A new user's first question. On the embedded default L0 answered "I can do everything from writing notes to
creating tools." — nothing they could try, and not true. The answer here is read from the runtime: a line
for each kind of tool the harness has enabled (reminders, notes, memory, python), one for the views when a
slot draws them, and where the conversations go. It is one committed command turn, like `/remember`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from memory.timeline import MessageRecord, RouteRecord, TaskRecord, new_id
from mol_local.turn.result import TurnResult

if TYPE_CHECKING:
    from mol_local.runtime import Runtime
    from mol_local.turn.session import Session

ABILITIES = "/abilities"  # the route record's raw output for this command turn
_ASKS = re.compile(
    r"^(?:(?:so|ok|okay|hi|hello|hey)[,!.]?\s+)?(?:what (?:can|could|do) you (?:do|help (?:me )?with)|what are you able to do|"
    r"how (?:can|could) you help(?: me)?|what can i (?:ask you|ask|use you for|do with you)|what are your (?:abilities|skills|features)|"
    r"what do you do|help)(?:\s+for me)?\s*[?!.]*$", re.IGNORECASE)
_LINES = (  # (a tool the line needs, or "" for none; the line)
    ("reminders.create", 'Reminders: "Remind me tomorrow at 9 to call the dentist", "every Monday at 8am …", '
                         '"What reminders do I have?", "I called the dentist, tick it off".'),
    ("notes.create", 'Notes: "Note: the wifi password is in the blue drawer", "What notes do I have?".'),
    ("memory.remember", 'Memory: "Remember that my sister\'s birthday is March 3rd", later "When is my sister\'s birthday?"; '
                        '"What do you know about me?"; "Forget that …".'),
    ("python", 'Numbers and dates, computed: "What is 17% of 2350?", "How many days until Christmas?", "Convert 5 miles to km".'),
    ("python", 'Code: "Write a Python function is_leap(year)" — I run it before I show it and say if it fails.'),
)


def asks_abilities(text: str) -> bool:
    return bool(_ASKS.match(text.strip()))


def abilities_answer(rt: Runtime) -> str:
    """What this runtime can do, one line per kind of tool enabled, each with words to try."""
    tools = set(rt.tool_hub.specs()) if rt.tool_hub is not None else set()
    lines = [line for needs, line in _LINES if not needs or needs in tools]
    lines = list(dict.fromkeys(lines))
    if "L3" in rt.hcp.slots:
        lines.append('Views you can tick and fill: "A checklist for a ski trip: gloves, goggles, helmet", '
                     '"a table of my expenses: rent 900, food 300", "a 10 minute timer", "a form to log my runs".')
    where = "on this machine, offline" if rt.hcp.backend != "remote" else f"with the remote model of profile {rt.hcp.name}"
    head = f"I'm your assistant, running {where}; what you tell me stays in your mol home. I can help with:"
    training = "on" if rt.hcp.consent.default else "off"
    return "\n".join([head, *(f"- {line}" for line in lines), "",  # a blank line: the app's Markdown ends the list there
                      f"Or just ask a question. Learning from a conversation is {training} until you switch it (Ctrl+T in the app)."])


def abilities_turn(session: Session, text: str) -> TurnResult:
    """One committed command turn on the entry slot: the question and `abilities_answer`."""
    rt = session.runtime
    reply = abilities_answer(rt)
    slot = rt.hcp.entry_slot
    task = TaskRecord(new_id(), session.conversation_id, len(session.tasks), slot, status="closed")
    summary = "The user asked what I can do; I listed it with examples."
    route = RouteRecord(slot, "command", ABILITIES, False, 0.0)
    new = [MessageRecord("user", text), MessageRecord("assistant", reply)]
    session.commit_turn(rt, text, task, new, route, list(session.tasks), summary=summary)
    return TurnResult(session.conversation_id, task.id, slot, reply, route, summary)
