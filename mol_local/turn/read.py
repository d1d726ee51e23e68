"""The answer a turn's own calls give, when the request settled them and the model is not asked to write it
(`read_answer`): a list read, a reminder done, a note saved, a sum computed. Split from turn/ground.py.

After reading the reminders the embedded L0 wrote "You can remind your reminder to pay the rent on …"; after saving
a note, "Noted: my passport number is …" as if the note were its own. The tool results say it plainly.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mol_local.harness.builtins import listed_reminders
from mol_local.statements import facts_said, second_person
from mol_local.turn.arith import computed_answer
from mol_local.turn.moved import moved_answer
from mol_local.turn.plan_note import plan_answer
from mol_local.turn.tasks import error_line
from mol_local.turn.when_said import ASK_WHEN, ASKED_DAY, NO_DUE, ask_when, asked_place


def read_answer(calls: Sequence[dict]) -> str:
    """The answer from what the calls the request settled said: a list as one line per reminder (after reading
    it, the embedded L0 wrote "You can remind your reminder to pay the rent on …"), a completion as its result
    ("Done: X. Still open: …")."""
    if moved := moved_answer(list(calls)):
        return moved
    computed = [computed_answer(c["arguments"]["code"], c["result"]) for c in calls if c["name"] == "python"]
    if computed:
        return "\n".join(computed)
    kept = [c for c in calls if c["name"] == "memory.remember" and not c["result"].startswith("Error")]
    if kept:  # L0 had answered "I'll remember that your notes are the user's notes." for an allergy
        return "\n".join(f"Got it — I'll remember that {facts_said(c['arguments']['text'])}." for c in kept)
    cancelled = [c["result"].strip().splitlines() for c in calls if c["name"] in ("reminders.cancel", "notes.delete")
                 and not c["result"].startswith("Error")]
    if cancelled:  # several (reminders cancelled, notes deleted): each one that went, then what is left after the last
        return "\n".join([lines[0] for lines in cancelled] + cancelled[-1][1:])
    done = [_said_back(c) if c["result"].startswith("Error: not run:") else c["result"].strip()
            for c in calls if c["name"] in ("reminders.complete", "reminders.cancel", "notes.delete")]
    if done:
        return "\n".join(done)
    if any(c["name"] == "reminders.create" for c in calls):  # a reminder and a note asked together
        return "\n".join(_said_back(c) for c in calls if c["name"] in ("reminders.create", "notes.create"))
    found = [c["result"].strip() for c in calls if c["name"] == "notes.find"]
    if found:
        rows = [line.split(" · ", 2) for f in found for line in f.splitlines() if line.count(" · ") >= 2]
        if not rows:
            asked = next((c["arguments"].get("query", "") for c in calls if c["name"] == "notes.find"), "")
            if found[0].startswith("No notes") and str(asked).strip():  # "Search my notes for key": none says it, not "no notes"
                return f"None of your notes mentions {str(asked).strip()}."
            return "You have no notes yet." if found[0].startswith("No notes") else found[0]
        asked = next((c["arguments"].get("query", "") for c in calls if c["name"] == "notes.find"), "")
        if len(rows) == 1 and str(asked).strip() and rows[0][2].strip():  # "What's the boiler code?": the note, not a list of one
            return f"Your note says: {_to_you(rows[0][2])}."
        return "\n".join([f"Your notes ({len(rows)}):"] + [f"- {title}: {body}" if body else f"- {title}" for _id, title, body in rows])
    noted = [c for c in calls if c["name"] == "notes.create"]
    if len(noted) == 1 and (plan := plan_answer(noted[0])):
        return plan
    if noted:
        return "\n".join(f"Noted: {_to_you(c['arguments'].get('body') or c['arguments'].get('title'))}." if not c["result"].startswith("Error")
                         else c["result"] for c in noted)
    rows = [row for c in calls for row in listed_reminders(c["result"])]
    if not rows:
        return "You have no open reminders."
    return "\n".join([f"Your open reminders ({len(rows)}):"] + [f"- {text} — {when}" for _id, when, text in rows])


def _to_you(said: object) -> str:
    """A note in the person's words said back to them: "Noted: your passport number is …" (it read "Noted: my passport
    number is …", as if the assistant's)."""
    return second_person(str(said)).rstrip(".")


def _said_back(call: dict) -> str:
    if call["result"] == f"Error: {NO_DUE}":  # "Remind me 30 minutes before the cinema" with no cinema known
        return ASKED_DAY
    if call["result"] == f"Error: {ASK_WHEN}" or asked_place(call["result"]):
        return ask_when(call["arguments"].get("text", ""), asked_place(call["result"]))
    if call["result"].startswith("Error: not run:"):  # the reason is the person's; what follows " — " is the model's
        return f"I didn't do that: {call['result'].removeprefix('Error: not run:').split(' — ')[0].strip()}."
    if call["result"].startswith("Error"):
        return f"I couldn't do that: {error_line(call['result'])}"
    if call["name"] == "notes.create":
        return f"Noted: {_to_you(call['arguments'].get('body') or call['arguments'].get('title'))}."
    return re.sub(r"^Reminder \w+ set for ", "Reminder set for ", call["result"].strip().splitlines()[0]).rstrip(".") + "."
