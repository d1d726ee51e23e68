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
from collections.abc import Sequence
from datetime import datetime

from memory.bank import Recalled
from memory.timeline import TaskRecord
from mol_local.statements import is_question, is_request, second_person, statements
from mol_local.turn.event_before import told_event
from mol_local.turn.recall import said_before, said_last, said_then_answer
from mol_local.turn.told import same_words, told_answer
from mol_local.turn.told_time import until_answer
from mol_local.turn.tasks import WRITES

MAX_WORDS = 14
ADDED_MAX = 2  # a plain acknowledgement adding this many words of its own is replaced by ours
_FIRST_PERSON = re.compile(r"^(?:i|i've|i'm|my|we|we've|our)\b", re.IGNORECASE)
_BACK = {"i": "you", "i've": "you've", "i'm": "you're", "my": "your", "me": "you", "we": "you", "we've": "you've", "our": "your",
         "mine": "yours", "myself": "yourself"}
_REMEMBER_THAT = re.compile(r"^(?:(?:please|and|also)\s+)*(?:remember|don't forget|do not forget|keep in mind)(?:\s+that)?[,:]?\s+(?=(?:i|i'm|i've|my|our|we)\b)",
                            re.IGNORECASE)
_PLAIN = re.compile(r"^(?:thanks for (?:letting me know|telling me)|noted|got it|good to know|ok(?:ay)?, noted)\b", re.IGNORECASE)
_ASKS = re.compile(r"\b(?:can you|could you|would you|please|help|remind|note|remember|write|make|tell me|what|how|why|when|where)\b", re.I)


def statement_reply(text: str, answer: str, tool_calls: Sequence[dict], before: str = "") -> str | None:
    """`acked_answer` for a turn that wrote nothing (its tool calls only read, or their writes were refused)."""
    if any(c["name"] in WRITES and not c["result"].startswith("Error") for c in tool_calls):
        return None
    return acked_answer(text, answer, read_only=bool(tool_calls), before=before)


def acked_answer(text: str, answer: str, read_only: bool = False, before: str = "") -> str | None:
    """The plain reply to a short statement of facts about the person, when the model's reply is not one; None otherwise.
    With `read_only` (the model only read, or tried a write that was refused) a first-person statement with no fact this reads
    is said back too: "I parked the car on level 3, spot 42" went to L1, which listed the reminders and answered "No
    reminders for the plan: - Reminders.create(text, …)"; so is one the model acknowledged with other words, and one
    telling an event at a time, with how to get a reminder for it ("I have a dentist appointment on Thursday at 2pm"
    got "… has been approved")."""
    said = _REMEMBER_THAT.sub("", " ".join(text.split()))  # "Remember that my car's MOT is …" states it as plainly
    if len(said.split()) > MAX_WORDS or is_question(said) or is_request(said) or _ASKS.search(said):
        return None
    facts = [st for st in statements(said, before) if st.op == "add" and st.value]  # `before`: "Her birthday …" after "My wife's …"
    event = told_event(said) is not None
    if not facts and _FIRST_PERSON.match(said) and (read_only and not _PLAIN.match(answer.strip()) or event or _acks_other(answer, said)):
        offer = ' Say "remind me the day before" (or "an hour before") and I\'ll set a reminder.' if event else ""
        return f"Noted — {_said_back(said.rstrip('.!'))}.{offer}"
    if not facts or (_PLAIN.match(answer.strip()) and "?" not in answer and all(same_words(st.value, answer) for st in facts)
                     and len(_added(answer, said)) < ADDED_MAX):
        return None
    name = next((st.value for st in facts if st.key == "name"), None)
    others = [second_person(st.text).rstrip(".") for st in facts if st.key != "name"]
    head = f"Nice to meet you, {name}!" if name else ""
    rest = f"Got it — {' and '.join(_same_subject(others))}." if others else ""
    return " ".join(p for p in (head, rest) if p)


_VERB = re.compile(r"^(?:is|are|was|lives|works|turned|turns|studies|plays|goes|comes)\b")


def _same_subject(said: list[str]) -> list[str]:
    """Each fact after the first without the subject it shares with the one before ("your daughter is called Lily and
    is 7 years old"; it had said "… and your daughter is 7")."""
    out = said[:1]
    for before, line in zip(said, said[1:]):
        words = line.split(" ", 2)
        same = len(words) == 3 and words[0] == "your" and before.split(" ", 2)[:2] == words[:2] and _VERB.match(words[2])
        out.append(words[2] if same else line)
    return out


_GLUE = frozenset("a an the is are was on at in to of for and your you it that".split())


def _acks_other(answer: str, said: str) -> bool:
    """Whether the answer is a plain acknowledgement ("Good to know — …") of something the person did not say: "I parked
    on level 3, row F" got "Good to know — your sister's birthday is on March 3rd." (an earlier fact, `mol chat -c`)."""
    m = _PLAIN.match(answer.strip())
    if m is None:
        return False
    words = lambda text: set(re.findall(r"[a-z0-9]+", text.lower())) - _GLUE  # noqa: E731
    return bool(words(answer.strip()[m.end():]) - words(_said_back(said)))


def _added(answer: str, said: str) -> set[str]:
    """The words of a plain acknowledgement that the person did not say: "I'm allergic to peanuts" got "Thanks for
    letting me know: your allergy to peanuts is a serious issue." (allergy, serious, issue)."""
    m = _PLAIN.match(answer.strip())
    words = lambda text: set(re.findall(r"[a-z0-9']+", text.lower())) - _GLUE  # noqa: E731
    return words(answer.strip()[m.end():] if m else answer) - words(_said_back(said)) - words(said)


def _said_back(said: str) -> str:
    """The person's words in the second person ("I parked my car" -> "you parked your car")."""
    return re.sub(r"\b(?:i've|i'm|i|my|me|we've|we|our|mine|myself)\b", lambda m: _BACK[m[0].lower()], said, flags=re.IGNORECASE)


def said_back(text: str, answer: str, recalled: Sequence[Recalled], history: Sequence[TaskRecord], now: datetime,
              tool_calls: Sequence[dict]) -> str | None:
    """What they told, when the model denied or missed it (turn/told.py, turn/recall.said_then_answer), or a statement's
    plain reply; None keeps the model's answer."""
    return (until_answer(text, recalled, history, now) or said_then_answer(text, answer, recalled, said_before(history), now)
            or (not tool_calls and told_answer(text, answer, recalled, said_before(history)))
            or statement_reply(text, answer, tool_calls, said_last(history)))
