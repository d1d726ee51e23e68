"""A person the question names by a name the memory gives a relation for, said as that relation.

`mol chat -c`: after "My wife's name is Elena" and "Her birthday is on the 2nd of February" (kept as "The user's
wife's birthday is …"), "When is Elena's birthday?" got "Your wife is called Elena.": the fact is stored under
"wife", and nothing about Elena but her name reads like the question. Read as "When is my wife's birthday?" it
finds the birthday, in recall (turn/recall.py) and when choosing which fact answers (`told.echoed_answer`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory.store import MemoryStore
from mol_local.statements import key_of

_NAME = re.compile(r"(?<!^)(?<![.?!]\s)\b(?P<name>[A-Z][a-z]{2,})(?P<s>'s|’s)?\b")


def by_relation(text: str, store: MemoryStore | Sequence[str]) -> str | None:
    """The text with each person it names by a name the memory (a store, or facts) gives a relation for said as that
    relation ("When is Elena's birthday?" with "The user's wife is called Elena." -> "When is my wife's birthday?"), or
    None: the fact about her was stored under "wife" (`mol chat -c`: "When is Elena's birthday?" got "Your wife is
    called Elena.")."""
    out, changed = text, False
    for m in _NAME.finditer(text):
        facts = [r.text for r in store.containing(m["name"], said=False)] if isinstance(store, MemoryStore) \
            else [f for f in store if m["name"].lower() in f.lower()]
        relation = next((key[3:] for f in facts if (kv := key_of(f)) and (key := kv[0] or "").startswith("my:") and "'s " not in key
                         and kv[1].strip(" .").lower() == m["name"].lower()), None)
        if relation:
            out, changed = out.replace(m[0], f"my {relation}{m['s'] or ''}", 1), True
    return out if changed else None
