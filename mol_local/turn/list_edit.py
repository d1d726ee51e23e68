"""A checklist changed by a follow-up: "Add buy stamps to the list", "Remove pay rent from the list", "Tick off call mom";
and shown again as it is now: "What's on my list?".

Tried with `mol chat -c`: after "Create a to-do list: call mom, pay rent, book flights" drew the checklist,
"Add buy stamps to the list" was routed to L0 and answered "You haven't told me what I need to buy stamps —
do you want to buy stamps, or am I missing something?"; the list stayed as it was. A request that adds,
removes or ticks items of a list is applied to the newest checklist of the conversation with its live
state (what was ticked in the app stays ticked), and the turn answers with the changed view, on the UI slot,
as one committed turn with no model: the new document is a new view of a new task, so the earlier view
stays as it was shown. With no checklist in the conversation, or a tick that names none of its items (it
may be a reminder), the request is the model's as before.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from memory.consent import BORROWED
from memory.timeline import MessageRecord, RouteRecord, TaskRecord, new_id
from mol_local.genui.document import UIDocument, parse_document
from mol_local.genui.ground import COLON_EXTRA_WORDS, MAX_ITEM_WORDS, NEAR
from mol_local.genui.starters import starter_for
from mol_local.genui.store import GenUIStore
from mol_local.turn.about import command_turn
from mol_local.turn.result import TurnResult
from mol_local.turn.ui import UI_SLOT

if TYPE_CHECKING:
    from mol_local.turn.session import Session

LIST_EDIT = "/list-edit"  # the route record's raw output for this command turn
_POLITE = r"^(?:(?:ok(?:ay)?|oh|and|also|actually|great|thanks)[,!.]?\s+)*(?:(?:please|can you|could you|would you)\s+)*"
_THE_LIST = r"(?:my|the|our|that|this)\s+(?:[\w'-]+\s+){0,2}?(?:check\s*list|to-?do(?:\s+list)?|list)"
_END = r"(?:,?\s*(?:please|thanks|thank you))?[\s.!]*$"
_ADD = re.compile(rf"{_POLITE}(?:add|put|include)\s+(?P<items>.+?)\s+(?:to|on|onto|in|into)\s+{_THE_LIST}(?:\s+too|\s+as well)?{_END}", re.I)
_ADD_IT = re.compile(rf"{_POLITE}(?:add|put|include)\s+(?P<items>.+?)\s+(?:to|on|onto|in|into)\s+(?:it|that|this(?:\s+one)?)"
                     rf"(?:\s+too|\s+as well)?{_END}", re.I)  # right after the list: 'Add "cancel the gym" to it' went to L0
_ADD_BARE = re.compile(rf"{_POLITE}(?:add|put|include)\s+(?P<items>.+?)(?:\s+too|\s+as well)?{_END}", re.I)  # right after the list
_REMOVE = re.compile(rf"{_POLITE}(?:remove|delete|take|drop)\s+(?P<items>.+?)\s+(?:off|from|out of)\s+{_THE_LIST}{_END}|"
                     rf"{_POLITE}(?:remove|delete|take out|drop|take off|get rid of|scratch)\s+(?P<items2>.+?){_END}|"
                     rf"{_POLITE}(?:take|knock|leave)\s+(?P<items3>.+?)\s+off(?:\s+it)?{_END}", re.I)  # "Take the flour off": L0 told a story
_TICK = re.compile(rf"{_POLITE}(?:tick|check|cross|mark|strike)\s+(?:off\s+|out\s+)?(?P<items>.+?)(?:\s+(?:off|as done|done))?"
                   rf"(?:\s+(?:on|from|off)\s+{_THE_LIST})?{_END}", re.I)
_DID = r"(?:finished|did|completed|packed|bought|booked|picked up|paid|called|rang|sent|posted|ordered|cleaned|washed|fixed|returned)"
_DONE = re.compile(rf"{_POLITE}i(?:'ve|\s+have)?\s+(?:just\s+|already\s+|finally\s+)?(?:done|{_DID})\s+(?P<items>.+?)"
                   rf"(?:\s+(?:now|already|today))?{_END}", re.I)  # "I finished cleaning the car": L0 congratulated, ticked nothing
_HAVE = re.compile(rf"{_POLITE}(?:i|we)\s+(?:already\s+)?(?:have|'ve got|have got|got)\s+(?:some\s+)?"
                   rf"(?P<items>.+?)(?:\s+(?:already|now))?{_END}", re.I)  # "Actually I already have bread": got, so ticked
_UNNEEDED = re.compile(rf"{_POLITE}(?:i|we)\s+(?:don't|do not)\s+need\s+(?:any\s+)?(?P<items>.+?)(?:\s+(?:any ?more|after all))?{_END}", re.I)
_CLEAR = re.compile(rf"{_POLITE}(?:clear|empty|wipe|reset)\s+(?:out\s+)?{_THE_LIST}{_END}", re.I)
_SHOW = re.compile(rf"{_POLITE}(?:what(?:'s|\s+is|\s+was)\s+(?:left\s+)?on|show(?:\s+me)?|read(?:\s+me)?|open)\s+{_THE_LIST}(?:\s+again)?{_END}|"
                   rf"{_POLITE}what(?:'s|\s+is)\s+left\s+(?:to do\s+)?on\s+{_THE_LIST}[\s?]*$|"
                   rf"{_POLITE}what(?:'s|\s+is)\s+(?:left|still)\s+to\s+(?:pack|buy|get|do)[\s?]*$|"  # "What's left to pack?": L0 had
                   rf"{_POLITE}what\s+(?:else\s+)?do\s+i\s+(?:still\s+)?(?:need|have)\s+to\s+(?:pack|buy|get)[\s?]*$", re.I)  # "You haven't told me anything yet"
_RENAME = re.compile(rf"{_POLITE}(?:(?:rename|retitle)\s+(?P<it>it|this|that|{_THE_LIST})\s+(?:to|as)|(?:call|name)\s+(?P<it2>it|this|that|{_THE_LIST})"
                     rf"|change\s+(?:the|its)\s+(?:title|name)(?:\s+of\s+(?P<it3>{_THE_LIST}))?\s+to)\s+['\"]?(?P<items>[^'\"]{{1,60}}?)['\"]?{_END}", re.I)
_LEFT = re.compile(rf"{_POLITE}(?:so\s+)?what(?:'s|\s+is|\s+are)\s+(?:left|remaining|still (?:open|to do)|the rest)(?:\s+now)?[\s?]*$", re.I)
_SPLIT = re.compile(r"\s*(?:;|,|\band\b|\bplus\b|&)\s*", re.I)
_ARTICLE = re.compile(r"^(?:a|an|some|the|my)\s+", re.I)


_PAST = re.compile(rf"^{_DID}\s+", re.I)
_NOT_ITEMS = re.compile(r"^(?:it|that|this|them|those|these|everything|all)$|\breminders?\b", re.I)


def _items(said: str, past: bool = False, longest: int = MAX_ITEM_WORDS) -> list[str]:
    """The items named, or [] when any is a pronoun ("tick that off") or a reminder: those are not this list's. `past`:
    each after a verb of doing ("I paid the rent and booked the flights") is the item without it."""
    parts = [_ARTICLE.sub("", (_PAST.sub("", p) if past else p).strip(" '\"")).strip() for p in _SPLIT.split(said)]
    parts = [p for p in parts if p]
    ok = parts and all(len(p.split()) <= longest and not _NOT_ITEMS.search(p) for p in parts)
    return parts if ok else []


def asked_edit(text: str, list_shown_last: bool = False) -> tuple[str, list[str]] | None:
    """("add" | "remove" | "tick", the items named) for a request that edits a list ("I already have bread" ticks it),
    ("show", []) for one that asks to see it ("What's on my list?"), ("clear", []) to empty it; None for any other. Right after a list was shown (`list_shown_last`), "Add call
    the plumber" needs no "to the list" (L0 had answered "The plumber performed a routine task for you.")."""
    said = " ".join(text.split())
    if _SHOW.match(said.rstrip("?")) or list_shown_last and _LEFT.match(said):  # "What's left?" right after a tick (L0: "You've done the car tax.")
        return "show", []
    if _CLEAR.match(said):
        return "clear", []  # L0 answered "Clear the list" with "Clear the list: the user told you to change the list 'Shop' …"
    if (named := _RENAME.match(said)) and (list_shown_last or _SAID_LIST.search(named[0])):  # "Rename it to …" (L0 had copied a summary)
        return "rename", [named["items"].strip()]
    bare = (("add", _ADD_IT), ("add", _ADD_BARE)) if list_shown_last else ()
    have = (("tick", _HAVE), ("remove", _UNNEEDED)) if len(said.split()) <= 8 else ()
    for op, pattern in (("add", _ADD), ("remove", _REMOVE), ("tick", _TICK), ("tick", _DONE), *have, *bare):
        if m := pattern.match(said):
            items = _items(m["items"] or m.groupdict().get("items2") or m.groupdict().get("items3") or "", past=pattern is _DONE,
                           longest=MAX_ITEM_WORDS + COLON_EXTRA_WORDS if pattern in (_ADD, _ADD_IT) else MAX_ITEM_WORDS)  # "to the list" said
            words = pattern not in (_ADD_BARE, _ADD_IT) or all(re.search(r"[^\W\d_]", i) for i in items)  # "Add 5 and 7" is a sum
            return (op, items) if items and words else None
    return None


def _match(name: str, items: list[dict[str, Any]]) -> int | None:
    """The index of the item `name` stands for: its words in the label, else the nearest spelling; None if none."""
    low = name.lower()
    inside = [i for i, it in enumerate(items) if low in str(it.get("label", "")).lower()]
    if inside:
        return inside[0]
    ratio = {i: difflib.SequenceMatcher(None, low, str(it.get("label", "")).lower()).ratio() for i, it in enumerate(items)}
    best = max(ratio, key=ratio.__getitem__, default=None)
    return best if best is not None and ratio[best] >= NEAR else None


def edited(doc: UIDocument, state: dict[str, Any], op: str, names: list[str]) -> tuple[dict[str, Any], str] | None:
    """(the new state, a line saying what changed) of the document's one bound checklist; None when it has none, or
    a remove or tick names none of its items."""
    lists = [c for c in doc.components if c.get("type") == "Checklist" and isinstance(state.get(c.get("bind")), list)]
    if len(lists) != 1:
        return None
    key = lists[0]["bind"]
    items = [dict(it) for it in state[key] if isinstance(it, dict)]
    if op == "rename":
        return state, f"Renamed it {names[0]}."
    if op == "show":
        open_items = [str(it.get("label", "")) for it in items if not it.get("done")]
        line = f"Still to do: {', '.join(open_items)}." if open_items else "Everything on it is done."
    elif op == "clear":
        line = f"Cleared {len(items)} item{'s' if len(items) != 1 else ''}." if items else "It was empty already."
        items = []
    elif op == "add":
        labels = {str(it.get("label", "")).lower() for it in items}
        new = [n[:1].upper() + n[1:] for n in names if n.lower() not in labels]
        items += [{"label": n, "done": False} for n in new]
        line = f"Added {', '.join(new)}." if new else "Already on the list."
    else:
        found = {i for n in names if (i := _match(n, items)) is not None}
        if not found:
            return None
        labels = [str(items[i]["label"]) for i in sorted(found)]
        if op == "remove":
            items = [it for i, it in enumerate(items) if i not in found]
            line = f"Removed {', '.join(labels)}."
        else:
            items = [{**it, "done": True} if i in found else it for i, it in enumerate(items)]
            line = f"Ticked off {', '.join(labels)}."
    return {**state, key: items}, line


def list_edit_turn(session: Session, text: str) -> TurnResult | None:
    """One committed L3 turn answering with the newest checklist the request means changed as asked (`_lists`); with
    none, an add to a named kind of list starts that list and any other add or a look asks or says there is none
    (`_no_list_turn`); None when the request is no list edit, or a remove or tick names none of the items."""
    shown_last = bool(session.tasks) and session.tasks[-1].slot == UI_SLOT
    bare = asked_edit(text, list_shown_last=True)  # the same, with "Add X" read as an add wherever it comes
    asked = bare if shown_last else asked_edit(text)
    rt = session.runtime
    if bare is None or UI_SLOT not in rt.hcp.slots or not shown_last and _LEFT.match(" ".join(text.split())):
        return None  # "What's left?" after anything but a list is about that
    store = GenUIStore(rt.db)
    docs = _lists(store, session.conversation_id, text)
    if not docs:
        return _no_list_turn(session, text, bare)
    if asked is None:
        return None
    for view_id, doc in docs:
        if (done := edited(doc, store.state(view_id), *asked)) is not None:
            break
    else:
        return None
    state, line = done
    doc = replace(doc, title=asked[1][0]) if asked[0] == "rename" else doc
    source = store.meta(view_id)["conversation_id"]
    raw = LIST_EDIT if source in (None, session.conversation_id) else f"{BORROWED}{source}"  # consent follows the list (memory.consent)
    result = view_turn(session, text, replace(doc, state=state), f"The user changed the list '{doc.title}': {line}", raw)
    result.notices.append(line)  # "Removed Flour.": the view alone showed nothing of what changed (TUI)
    return result


def view_turn(session: Session, text: str, doc: UIDocument, summary: str, raw: str = LIST_EDIT) -> TurnResult:
    """The committed L3 turn whose answer is `doc`, a new view in this conversation (the earlier one stays as shown)."""
    rt = session.runtime
    store = GenUIStore(rt.db)
    answer = doc.dumps()
    task = TaskRecord(new_id(), session.conversation_id, len(session.tasks), UI_SLOT, status="closed")
    route = RouteRecord(UI_SLOT, "command", raw, False, 0.0)
    ui_row = store.row(doc, conversation_id=session.conversation_id, task_id=task.id)
    new = [MessageRecord("user", text), MessageRecord("assistant", answer)]
    session.commit_turn(rt, text, task, new, route, list(session.tasks), summary=summary, writes=[store.writer(ui_row)])
    result = TurnResult(session.conversation_id, task.id, UI_SLOT, answer, route, summary)
    result.document, result.view_id = doc.to_json(), ui_row["id"]
    return result


_KIND = re.compile(r"\b(?:my|the|our|that|this)\s+(?P<kind>to-?do|[a-z][\w'-]*)\s+(?:check\s*)?list\b", re.I)
_SAME_KIND = {"grocery": "shopping", "groceries": "shopping", "food": "shopping", "shop": "shopping", "todo": "to-do", "pack": "packing"}
_SAID_LIST = re.compile(rf"\b{_THE_LIST}\b", re.I)


def named_kind(text: str) -> str | None:
    """The kind of list the request names ("my shopping list" -> "shopping", "the grocery list" -> "shopping"); None
    for "the list" or "my checklist"."""
    m = _KIND.search(text)
    kind = m["kind"].lower() if m else None
    return None if kind in (None, "whole", "new", "same", "old", "check") else _SAME_KIND.get(kind, kind)


def _is_kind(doc: UIDocument, kind: str) -> bool:
    said = " ".join([doc.title, *(str(c.get("label", "")) for c in doc.components if c.get("type") == "Checklist")]).lower()
    said = re.sub(r"\bto[ -]?do\b", "to-do", said)  # a list titled "To do"
    if kind == "packing" and (start := starter_for(said)) is not None and start.packing:  # "Beach holiday" is one
        return True
    return any(named_kind(f"my {w} list") == kind for w in re.findall(r"[a-z][\w'-]*", said))


def _lists(store: GenUIStore, conversation_id: str, text: str) -> list[tuple[str, UIDocument]]:
    """The checklists the request may mean, newest first: of the kind it names ("my shopping list") in this
    conversation, else in any (`mol chat` starts a new conversation each time: "Add bananas to my shopping list" the
    next day found no list), else this conversation's; and for a request that says "my list" with none here, the
    newest anywhere. A turn that changes another conversation's list says so in its route (`memory.consent.BORROWED`):
    its answer holds that list's items, so it is trained on only while that conversation has consent too."""
    def checklists(rows: list[dict]) -> list[tuple[str, UIDocument]]:
        docs = [(row["id"], store.document(row["id"])) for row in rows]
        return [(i, d) for i, d in docs if any(c.get("type") == "Checklist" for c in d.components)]

    here = checklists(store.list(conversation_id=conversation_id, limit=20))
    if (kind := named_kind(text)) is not None:
        anywhere = checklists(store.list(limit=200))
        if mine := [d for d in here if _is_kind(d[1], kind)] or [d for d in anywhere if _is_kind(d[1], kind)]:
            return mine
        return here
    return here or (checklists(store.list(limit=200))[:1] if _SAID_LIST.search(text) else [])


def _no_list_turn(session: Session, text: str, asked: tuple[str, list[str]]) -> TurnResult | None:
    """With no list the request can mean: an add to a named kind ("Add bananas to my shopping list") starts that list;
    another add ("Add milk") asks which list (L0 had written "The user's milk: the user's milk" forty times); a look
    ("What's on my shopping list?") says there is none (L0 had made one up: "bananas: strawberries, blueberries").
    None for anything else ("Add salt to the soup", "Add 5 and 7")."""
    kind = named_kind(text)
    if asked[0] == "show":
        which = f"a {kind} list" if kind else "a list"
        reply = (f"You don't have {which} yet. Say \"Make a {kind or 'shopping'} list: …\" with what goes on it and I'll start one.")
        return command_turn(session, text, reply, f"The user asked to see {which}; there was none.", LIST_EDIT)
    if asked[0] != "add" or any(len(i.split()) > 3 or re.search(r"\bto\b", i, re.I) for i in asked[1]):
        return None
    named = ", ".join(asked[1])
    if kind is not None:
        title = "To-do list" if kind == "to-do" else f"{kind.capitalize()} list"
        doc = parse_document({"catalog": "1", "title": title, "components": [{"id": "checklist", "type": "Checklist", "label": "Items", "bind": "items"}],
                              "state": {"items": [{"label": i[:1].upper() + i[1:], "done": False} for i in asked[1]]}, "actions": {}})
        return view_turn(session, text, doc, f"The user asked to add {named} to their {kind} list; there was none, so I started it.")
    reply = (f"There's no list in this conversation to add {named} to. Say \"Make a shopping list: {named}\" (or a to-do list, "
             "a packing list…) and I'll start one.")
    return command_turn(session, text, reply, f"The user asked to add {named} to a list; there was none, so I asked which.", LIST_EDIT)
