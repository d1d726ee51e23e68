"""A note deleted by asking: "Delete the note about the MOT", "remove my gate code note", "delete all my notes".

Tried with `mol chat -c`: "Delete the note about the MOT" got "You told me the gate code is 4471." and the note stayed
(there was no tool to delete one). The note the request names — the one whose title or body holds every content word
it names — is deleted through the unlisted `notes.delete`, and the answer says which went and which are left;
several named alike, or none, are refused with the reason and nothing is deleted. A question for the value of a
thing one note is titled with ("What's the boiler code?") reads that note (`noted_value`).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from mol_local.turn.ground import content_stems
from mol_local.turn.tasks import ToolCall, answering_call

if TYPE_CHECKING:
    from mol_local.harness.hub import ToolHub

_VERB = r"(?:(?:please|can you|could you|would you)\s+)*(?:delete|remove|erase|get rid of|bin|trash|throw away|drop)"
_NAMED = re.compile(rf"^{_VERB}\s+(?:the|my|that|this)?\s*(?:note\s+(?:about|on|for|called|titled|saying|that says|with)\s+"
                    rf"(?P<about>.{{2,60}}?)|(?P<what>[\w' -]{{2,40}}?)\s+note)[\s.!]*$", re.IGNORECASE)
_ALL = re.compile(rf"^{_VERB}\s+(?:all|every one)\s+(?:of\s+)?(?:my|the)\s+notes[\s.!]*$|^clear\s+(?:all\s+)?my\s+notes[\s.!]*$", re.I)
NONE_NAMED = "not run: no note mentions {what} — ask which note, or show the notes"
SEVERAL = "not run: {n} notes mention {what} ({titles}) — ask which one to delete"
NO_NOTES = "not run: there are no notes to delete"


def named_note_delete(request: str, hub: ToolHub | None) -> list[ToolCall]:
    """notes.delete of the one note the request names, or of every note for "delete all my notes"; one refused call
    when several are named alike or none; [] for any other request."""
    said = " ".join(request.split())
    named, every = _NAMED.match(said), _ALL.match(said)
    if hub is None or not (named or every):
        return []
    rows = hub.notes.list()
    if every:
        calls = [answering_call("notes.delete", {"id": r["id"]}) for r in rows]
        return calls or [replace(answering_call("notes.delete", {"id": ""}), refused=NO_NOTES)]
    what = re.sub(r"\b(?:my|our)\b", "your", (named["about"] or named["what"]).strip(), flags=re.I)  # type: ignore[index]
    words = content_stems(what)
    found = [r for r in rows if words and words <= content_stems(f"{r['title']} {r['body']}")]
    if len(found) == 1:
        return [answering_call("notes.delete", {"id": found[0]["id"]})]
    reason = SEVERAL.format(n=len(found), what=what, titles=", ".join(r["title"] for r in found)) if found else NONE_NAMED.format(what=what)
    return [replace(answering_call("notes.delete", {"id": ""}), refused=reason)]


_ASKS_VALUE = re.compile(r"^(?:so\s+|and\s+)?(?:what(?:'s|\s+is|\s+was)|where(?:'s|\s+is)|remind me (?:of\s+)?(?:what|where)(?:'s|\s+is))\s+"
                         r"(?:the|my|our)\s+(?P<x>[\w' -]{2,40}?)(?:\s+again)?[\s?.!]*$", re.IGNORECASE)


def noted_value(request: str, hub: ToolHub | None) -> ToolCall | None:
    """notes.find of "What's the boiler code?" when one note is titled with every word of it: the router sent it to L2
    for "code", which answered "The Python code 4471 is 4471 …" beside the note "Boiler code" (`mol chat -c`)."""
    m = _ASKS_VALUE.match(" ".join(request.split()))
    wanted = content_stems(m["x"]) if m and hub is not None else set()
    titled = [n for n in hub.notes.list() if wanted <= content_stems(str(n.get("title", "")))] if wanted and hub is not None else []
    return answering_call("notes.find", {"query": m["x"]}) if m and len(titled) == 1 else None
