"""Forget, asked in the chat: "Forget that my car is a red Honda Civic", "forget my sister's birthday".

Tried with `mol chat`: there was no way to take a fact back by asking — the model answered in words and the
memory stayed, so "Do you know my car?" still said it. A message that only asks to forget something is a
command turn like `/remember`: the memories it names — facts with the same key, and any memory (a fact or
what was said) holding every content word of it — go through the same forget as `mol memory forget`
(rows, vectors, the source turn's words, adapter marks), every turn whose words say it is redacted (the answer
"Your car is a red Honda Civic." would be in the next view), and the answer says how many went and whose they
were ("your car"), never the words themselves: the turn stores neither them nor the message that named them. Reminders, notes
and conversations have their own words ("cancel my dentist reminder"), so a request naming them is not this.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from memory.forget import redact_tasks
from memory.store import MemoryRow
from memory.timeline import MessageRecord, RouteRecord, TaskRecord, new_id
from mol_local.statements import key_of, statements
from mol_local.turn.ground import content_stems
from mol_local.turn.result import TurnResult

if TYPE_CHECKING:
    from sqlite_utils import Database

    from mol_local.turn.session import Session

FORGET = "/forget"
_ASK = re.compile(
    r"^(?:(?:ok(?:ay)?|actually|and|also|please)[,!]?\s+)*(?:(?:can|could|would) you\s+)?(?:please\s+)?"
    r"(?:forget|erase|delete|remove|wipe|unlearn|stop remembering)\s+"
    r"(?:(?:everything|anything|all|what)\s+(?:(?:that\s+)?i (?:told|said to) you|you know|you remember|you have)\s+(?:about|on)\s+|"
    r"(?:that|about|the (?:fact|memory) that)\s+)?(?P<what>.+?)[\s.!?]*$", re.IGNORECASE)
_NOT_MEMORY = re.compile(r"\b(?:reminders?|notes?|lists?|alarms?|files?|conversations?|chats?|messages?|history|to)\b|"
                         r"^(?:it|this|that|everything|all)$", re.IGNORECASE)
_NOT_ABOUT = frozenset({"user", "said", "told", "know", "remember", "memory", "wher", "what", "when", "which", "how"})
_PHRASE_KEYS = ((re.compile(r"\bwhere i (?:live|am living|'m living)\b|\bmy (?:home|address)\b", re.I), "home"),
                (re.compile(r"\bwhere i work\b|\bmy (?:employer|workplace)\b", re.I), "employer"),
                (re.compile(r"\bwhere i(?:'m| am) from\b", re.I), "from"),
                (re.compile(r"\bhow old i am\b", re.I), "my:age"),
                (re.compile(r"\bwhat i do for (?:a )?(?:living|work)\b", re.I), "my:job"))
SAID_AS = "[asked to forget something]"


def forget_what(text: str) -> str | None:
    """What a message asks to forget ("my car is a red Honda Civic"), or None when it asks something else
    ("don't let me forget to…", "delete my note about…", "forget it")."""
    m = _ASK.match(" ".join(text.split()))
    if m is None or _NOT_MEMORY.search(m["what"]) or not content_stems(m["what"]) - _NOT_ABOUT:
        return None
    return m["what"]


def _word_sets(what: str) -> list[set[str]]:
    """What naming `what` takes: all its content words, or all those of a value it states ("a red Honda Civic")."""
    sets = [content_stems(what) - _NOT_ABOUT] + [content_stems(st.value) - _NOT_ABOUT for st in statements(f"{what}.")]
    return [w for w in sets if w]


def named_memories(rows: list[MemoryRow], what: str) -> list[MemoryRow]:
    """The memories `what` names: the facts whose key a statement in it sets, and those holding all its words
    or all the words of the value it states."""
    phrased = _phrased(what)  # "Forget where I live": nothing had gone
    if phrased:  # that fact alone, not the sister who "lives in Berlin"
        return [r for r in rows if key_of(r.text)[0] in phrased]
    keys = {st.key for st in statements(f"{what}.") if st.key} | ({k} if (k := key_of(f"The user's {what}.")[0]) else set())
    sets = _word_sets(what)
    return [r for r in rows if key_of(r.text)[0] in keys or any(w <= content_stems(r.text) for w in sets)]


def _phrased(what: str) -> set[str]:
    return {key for said, key in _PHRASE_KEYS if said.search(what)}


def telling_turns(db: Database, what: str, forgotten: Sequence[MemoryRow] = ()) -> list[str]:
    """The turns, in any conversation, with a message that names `what` as `named_memories` reads it; for a fact
    named by a phrase ("where I live"), those that say a `forgotten` fact's value ("Leeds")."""
    found: set[str] = set()
    sets = [w for r in forgotten if (w := content_stems(key_of(r.text)[1]))] if _phrased(what) else _word_sets(what)
    for words in sets:
        ordered = sorted(words)
        where = " and ".join("lower(content) like ?" for _ in ordered)
        rows = db.query(f"select task_id, content from messages where {where}", [f"%{w}%" for w in ordered])
        found |= {r["task_id"] for r in rows if words <= content_stems(r["content"])}
    return sorted(found)


def _subject(key: str | None) -> str | None:
    """What a fact's key is about, in words that do not repeat it: "your car", "your favourite food", "where you live"."""
    if not key:
        return None
    kind, _, what = key.partition(":")
    return {"my": f"your {what}", "favourite": f"your favourite {what}"}.get(kind) if what else \
        {"name": "your name", "home": "where you live", "age": "your age", "job": "your job"}.get(kind)


def forget_turn(session: Session, what: str) -> TurnResult:
    """One committed command turn that forgets the memories `what` names, then says which went."""
    from mol_local.adapters.registry import Registry
    from mol_local.forget import forget_memories

    rt = session.runtime
    found = named_memories(rt.memory.store.list(said=True), what)
    if found:
        forget_memories(rt, [r.id for r in found])
    saying = telling_turns(rt.db, what, found)  # "Your car is a red Honda Civic." two turns on: the view would say it again
    if saying:
        redact_tasks(rt.memory, saying, Registry(rt.adapters_root()))
    about = sorted({said for r in found if (said := _subject(key_of(r.text)[0]))})  # what it was about, never what it said
    count = f"{len(found)} memor{'y' if len(found) == 1 else 'ies'}"
    if found:
        reply = f"Forgotten: {count}" + (f" ({', '.join(about)})" if about else "") + ". I no longer know it."
    else:
        reply = "I had nothing stored about that, so there was nothing to forget."
    slot = rt.hcp.entry_slot
    task = TaskRecord(new_id(), session.conversation_id, len(session.tasks), slot, status="closed")
    summary = f"The user asked me to forget {len(found)} memor{'y' if len(found) == 1 else 'ies'}."
    route = RouteRecord(slot, "command", FORGET, False, 0.0)
    new = [MessageRecord("user", SAID_AS), MessageRecord("assistant", reply)]  # the words asked to go are not kept again
    session.commit_turn(rt, SAID_AS, task, new, route, list(session.tasks), summary=summary)
    return TurnResult(session.conversation_id, task.id, slot, reply, route, summary)
