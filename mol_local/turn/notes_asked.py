"""Notes the person asks for in words: "Write down that …", "make a note: …" (`note_call`), and questions about
what was noted ("What did I note about the boiler?": `note_question_call`).

Tried with `mol chat`: "What did I note about the boiler?" got a *new* note, "The boiler is a boiler that makes
steam", saved by L0; and "Note that the boiler was serviced on 2 November" was saved as "the boiler is serviced on
2 November". A note is the person's words; a question about notes reads them.
"""

from __future__ import annotations

import re

from mol_local.turn.tasks import ToolCall, answering_call

_NOTE_ASK = (r"(?:(?:note|write|jot|put)(?: this| that| it)? down(?: that)?|note that|note(?=\s*:)|(?:make|take|save|keep) a note(?: of| that| saying)?|"
             r"(?:put|add|log) (?:this |that |it )?(?:in|to|into) my notes|record that)")
_NOTE = re.compile(rf"\b{_NOTE_ASK}\s*[:,—-]?\s+(?P<body>.+)$", re.IGNORECASE)
NOTE_END = re.compile(r"(?:[\s,!.—-]+(?:please|thanks|thank you|cheers))+[\s!.?]*$|[\s!.?]+$", re.IGNORECASE)
_TITLE_STOP = re.compile(r"^(?:is|are|was|were|has|have|will|comes?|came|needs?|opens?|renews?|expires?|goes|on|at|in|for|"
                         r"meets?|met|starts?|begins?|ends?|finish(?:es)?|closes?|runs?|lives?|works?|costs?|takes?|lands?|leaves?|"
                         r"arrives?|happens?|moved?|moves|called|named|says?|said|should|must|can|could|go|gets?)$", re.I)  # "Book club meets first …"
_LEADING = re.compile(r"^(?:the|my|our|a|an)\s+", re.IGNORECASE)


NOTES_ABOUT = re.compile(r"\bnotes?\b.{0,20}?\b(?:about|on|for|mentioning|regarding|that mention)\s+(?:the\s+|my\s+|our\s+)?"
                          r"(?P<t>[\w' -]{2,40}?)[\s?.!]*$", re.IGNORECASE)
_NOTE_QUESTION = re.compile(r"\b(?:what|anything) (?:did|have) I (?:note|noted|write|written|wrote|jot|jotted|save|saved)(?: down)? "
                            r"(?:about|on|regarding|for) (?:the\s+|my\s+|our\s+)?(?P<t>[\w' -]{2,40}?)[\s?.!]*$", re.IGNORECASE)


def asks_for_a_note(request: str) -> bool:
    """"Write down that …", "make a note: …", "put this in my notes …" (what `settled_call` writes)."""
    return re.search(rf"\b{_NOTE_ASK}\b", request, re.IGNORECASE) is not None


def note_call(text: str) -> ToolCall | None:
    """notes.create of what follows "write down that", "note that", "make a note: …", titled by its first words."""
    m = _NOTE.search(text.strip())
    if m is None:
        return None
    body = re.sub(r"^that\s+", "", NOTE_END.sub("", m["body"]).strip(), flags=re.I)  # "Add to my notes that the bins …"
    if len(body.split()) < 2:
        return None
    words: list[str] = []
    for word in _LEADING.sub("", body).split():
        if _TITLE_STOP.match(word) or len(words) == 4:
            break
        words.append(word.rstrip(":"))
        if word.endswith(":"):
            break  # "my car's registration: AB12 CDE" is titled "Car's registration"
    title = " ".join(words) or body[:40]
    return answering_call("notes.create", {"title": title[:1].upper() + title[1:], "body": body})


_NOTE_SEARCH = re.compile(r"^(?:(?:can|could) you\s+|please\s+)?(?:search|find|look|check|grep)(?:\s+(?:in|through))?\s+(?:my\s+|the\s+)?notes\s+"
                          r"(?:for|about|mentioning)\s+(?:the\s+|my\s+|our\s+)?(?P<t>[\w' -]{2,40}?)[\s?.!]*$", re.IGNORECASE)


def note_question_call(request: str) -> ToolCall | None:
    """notes.find of the topic of "What did I note about X?" or "Search my notes for X" (its result is the answer; the
    router sent the search to L3, which drew a checklist "Key" holding "Other"); None for anything else."""
    m = _NOTE_QUESTION.search(request.strip()) or _NOTE_SEARCH.match(" ".join(request.split()))
    return answering_call("notes.find", {"query": m["t"]}) if m else None


def own_note(call: ToolCall, request: str) -> ToolCall | None:
    """The note the request states, in its words, when the model's body is not the person's ("was serviced" saved as
    "is serviced") or only part of it ("the car's MOT" for "Add a note: the car's MOT is due in March", `mol chat`);
    None when it is, or the request states no note."""
    stated = note_call(request)
    body = " ".join(str(call.arguments.get("body", "")).lower().split()).rstrip(".")
    if stated is None:
        return None
    whole = " ".join(str(stated.arguments["body"]).lower().split()).rstrip(".")
    if body in " ".join(request.lower().split()) and len(body) >= len(whole):  # cut short ("the car's MOT" of "… is due in March"): theirs
        return None
    return ToolCall("notes.create", stated.arguments, call.raw, answers=True)  # said back as saved, not as the model put it

