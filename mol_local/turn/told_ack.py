"""The reply to a short statement about the person: "My name is Ada" → "Nice to meet you, Ada!".

Tried with `mol chat` on a fresh home: "My name is Ada" got "Nice to meet you, mate! Congratulations on naming it
Ada!", and "My sister's name is Priya" got "Nice to meet you, my sister's name is Priya." A new user's first
message is often one of these. When the message is only a statement about them (a few words, no question, no
request; `statements` reads a fact from it), the reply says back what was understood, from the same reading the
memory extraction uses, unless the model's reply is already in the plain form it was trained on ("Thanks for
letting me know: …", "Noted — …", "Got it …", "Good to know …") and carries each value said.
"""

from __future__ import annotations

import re

from mol_local.statements import is_question, is_request, second_person, statements
from mol_local.turn.recall import same_words

MAX_WORDS = 14
_PLAIN = re.compile(r"^(?:thanks for (?:letting me know|telling me)|noted|got it|good to know|ok(?:ay)?, noted)\b", re.IGNORECASE)
_ASKS = re.compile(r"\b(?:can you|could you|would you|please|help|remind|note|remember|write|make|tell me|what|how|why|when|where)\b", re.I)


def acked_answer(text: str, answer: str) -> str | None:
    """The plain reply to a short statement of facts about the person, when the model's reply is not one; None otherwise."""
    said = " ".join(text.split())
    if len(said.split()) > MAX_WORDS or is_question(said) or is_request(said) or _ASKS.search(said):
        return None
    facts = [st for st in statements(said) if st.op == "add" and st.value]
    if not facts or (_PLAIN.match(answer.strip()) and "?" not in answer and all(same_words(st.value, answer) for st in facts)):
        return None
    name = next((st.value for st in facts if st.key == "name"), None)
    others = [second_person(st.text).rstrip(".") for st in facts if st.key != "name"]
    head = f"Nice to meet you, {name}!" if name else ""
    rest = f"Got it — {' and '.join(others)}." if others else ""
    return " ".join(p for p in (head, rest) if p)
