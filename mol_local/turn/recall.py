"""Memory in the turn loop: recall before the answer and `/remember` (extraction after it: mol_local/extract.py)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from memory.bank import MemoryBank, Recalled
from memory.store import SAID, MemoryRow, MemoryStore, insert_rows, new_memory, said_text, said_words
from memory.timeline import MessageRecord, RouteRecord, TaskRecord, new_id
from memory.timewords import TIME_QUESTION, Window, in_window, time_window
from mol_local.extract import supersede
from mol_local.statements import is_request, second_person
from mol_local.turn.ground import content_stems
from mol_local.turn.notes_asked import asks_for_a_note, note_call
from mol_local.turn.relations import by_relation
from mol_local.turn.not_known import DENIED, loose
from mol_local.turn.result import TurnResult

if TYPE_CHECKING:
    from sqlite_utils import Database

    from mol_local.runtime import Runtime
    from mol_local.turn.session import Session

REMEMBER = "/remember"
RECALL_MIN_SIMILARITY = 0.25
SAID_MIN_SIMILARITY = 0.40  # a whole message is loosely like many: MiniLM put unrelated ones at 0.25-0.33, the asked-about at 0.50-0.67
# below it, a said message that shares a word of at least KEYWORD_MIN letters with the question is kept: "What language did I
# want to learn?" put "I'm thinking of learning Portuguese …" (said weeks before) at 0.37, and L0 denied being told
KEYWORD_MIN = 5
_ASKING_WORDS = frozenset(content_stems("remember think thinking thing anything something about there would could should"))
SAID_MIN_WORDS = 4  # "ok thanks" is not worth finding again
SAID_MAX_CHARS = 600  # a pasted page is kept as its start: the conversation itself holds the rest


def remember_text(text: str) -> str | None:
    """The text after `/remember`, or None when the message is not that command."""
    stripped = text.strip()
    if stripped == REMEMBER or stripped.startswith(REMEMBER + " "):
        return stripped[len(REMEMBER) :].strip()
    return None


def recall(runtime: Runtime, text: str, conversation_id: str | None = None) -> list[Recalled]:
    """Pinned memories first, then the top-k (HCP memory.top_k) others for this turn; free when there are none.

    With `conversation_id` they start that conversation's turn's list of memories in view
    (`MemoryBank.viewing`), which the commit records and a tool's `memory.remember` inherits sources from.

    Pinned memories (at most memory.store.PINNED_MAX) are always in the view,
    whatever the message, on top of the k: pinning says "this always matters".
    Their score is their similarity when the search reached them, else 0.0.
    Unpinned memories below RECALL_MIN_SIMILARITY are unrelated to the message
    and would only spend context; they are left out even if fewer than k remain.
    What the person said (`said_row`) competes with the facts, in this conversation too: the words are in
    the view already, verbatim or as another slot's summary, but "What did I tell you about the plumber?"
    two turns after saying it got "You haven't told me anything" on the embedded default, and the tail is
    where L0 was trained to read what was said. A message a fact was extracted from shows as that fact only.
    """
    pinned = runtime.memory.store.pinned()
    k = runtime.hcp.memory.top_k
    if asks_what_you_know(text):  # every fact is the answer, not those most like "what do you know about me"
        k = max(k, KNOWN_MAX)
        found = [Recalled(row, 1.0) for row in runtime.memory.store.list(limit=k + len(pinned))]
        said = [row for row in runtime.memory.store.latest_said(KNOWN_MAX * 4) if row.kind == SAID and not _was_request(row.text)]
        found += [Recalled(row, 1.0) for row in said[: KNOWN_SAID + 1]]  # told weeks ago, in their words: one more says "and more"
    elif (window := asked_window(text, runtime.clock())) is not None:  # what was said then, not what reads like the question
        found = [Recalled(row, 1.0) for row in runtime.memory.store.latest_said() if in_window(row.said_at or row.created_at, window)]
    else:
        found = runtime.memory.search(text, k + len(pinned), min_score=RECALL_MIN_SIMILARITY, now=runtime.clock())
        if (named := by_relation(text, runtime.memory.store)) is not None:  # "Elena's birthday" is "my wife's birthday"
            seen = {r.memory.id for r in found}
            found += [r for r in runtime.memory.search(named, k, min_score=RECALL_MIN_SIMILARITY, now=runtime.clock()) if r.memory.id not in seen]
            found.sort(key=lambda r: -r.score)
    facts_from = {r.memory.source_message_id for r in found if r.memory.kind != SAID and r.memory.source_message_id}
    keywords = {w for w in content_stems(text) if len(w) >= KEYWORD_MIN} - _ASKING_WORDS
    found = [r for r in found if r.memory.kind != SAID  # a said message: only when close, sharing a telling word or a thing, once (as its fact, if one was read)
             or ((r.score >= SAID_MIN_SIMILARITY or loose(keywords) & loose(content_stems(r.memory.text)) or same_thing(text, r.memory.text))
                 and r.memory.source_message_id not in facts_from and not _was_request(r.memory.text))]  # never a request
    scores = {r.memory.id: r.score for r in found}
    first = [Recalled(row, scores.get(row.id, 0.0)) for row in pinned]
    out = first + [r for r in found if not r.memory.pinned][:k]
    if conversation_id is not None:
        runtime.memory.viewing(conversation_id, out, fresh=True)
    return out


KNOWN_MAX = 12  # facts in the tail of "what do you know about me?"
KNOWN_SAID = 6  # and the newest things said, in their words
_ABOUT_ME = re.compile(r"\b(?:what (?:else )?(?:do|did) you (?:know|remember) about me|what have you (?:learned|learnt|remembered|got) "
                       r"(?:about|on) me|(?:tell|show) me (?:everything |all |what )?(?:that )?you (?:know|remember) about me|"
                       r"what do you know of me)\b", re.IGNORECASE)


def asks_what_you_know(text: str) -> bool:
    """"What do you know about me?": the tail holds the stored facts (up to KNOWN_MAX), not the nearest few."""
    return bool(_ABOUT_ME.search(text))


_REMIND = re.compile(r"\b(?:remind me|set (?:a|an|the|me a) reminder|add a reminder|ping me|alert me|give me a nudge|"
                     r"don't let me forget)\b", re.IGNORECASE)
_ASKS_BACK = re.compile(r"\bremind me,?\s+(?:what|who|whom|where|when|which|how|of|about)\b", re.IGNORECASE)


def acts_on_its_own_words(text: str) -> bool:
    """A reminder or a note to make, whose every argument is in the message: its tail gets no memories.

    The embedded L0 (v3) read a memory beside such a request as a question about the person: with "The
    user's mum is called Ann." stored, "Remind me on Friday at 6pm to call mum" got "I don't know your
    mother yet — tell me and I'll remember it." and no reminder, every time (also "walk Biscuit", "buy dog
    food" with the dog remembered). "Remind me, what's my locker code?" asks back, so it keeps them.
    """
    return bool(_REMIND.search(text) or asks_for_a_note(text)) and not _ASKS_BACK.search(text)


def said_before(history: Sequence[TaskRecord]) -> list[str]:
    """What the person said earlier in the conversation that is not a question (`told_answer`'s `seen`)."""
    return [m.content for t in history for m in t.messages if m.role == "user" and not m.content.rstrip().endswith("?")]


def said_last(history: Sequence[TaskRecord]) -> str:
    """The person's previous message in the conversation ('' for none): "Her birthday is …" is about whom it named."""
    return next((m.content for m in history[-1].messages if m.role == "user"), "") if history else ""


_ASKS_DONE = re.compile(r"^(?:so\s+|and\s+)?(?:what|anything)\s+(?:did|have|had)\s+i\s+(?:do|done|tell you|told you|say|said|mention|"
                        r"mentioned|talk about|talked about|share|shared|plan|planned|write down|note|noted)\b", re.IGNORECASE)
_WHEN_PHRASE = re.compile(r"\b(?:yesterday|today|this morning|tonight|(?:last|this) (?:week|weekend|month|year)|"
                          r"(?:\d+|a|an|one|two|three|four|five|six|ten|a couple of|a few) (?:days?|weeks?|months?|years?) ago|"
                          r"in (?:january|february|march|april|may|june|july|august|september|october|november|december))\b", re.IGNORECASE)


_TOLD_THEN = re.compile(r"\b(?:tell you|told you|say|said|mention|mentioned|share|shared|write down|note|noted)\b", re.IGNORECASE)


def asked_window(text: str, now: datetime) -> Window | None:
    """From the start of the dates "What did I do last week?" asks about until now (told today about last Sunday is
    an answer too); just those dates for what was told then ("What did I tell you in October?" had listed November's
    too, `mol chat`); None for other questions."""
    asked = _ASKS_DONE.match(text.strip())
    window = time_window(text, now) if asked else None
    if window is None or asked is None:
        return None
    return (window[0], min(window[1], now)) if _TOLD_THEN.search(asked[0]) else (window[0], now)


def said_then_answer(text: str, answer: str, recalled: Sequence[Recalled], seen: Sequence[str], now: datetime) -> str | None:
    """What the person told since the time "What did I do last week?" asks about, one line each with its day, or
    plainly that they told nothing then: on a fresh home L0 answered "Noted — your last week was filled with
    tasks.", and with "I ran a half marathon in Leeds on Sunday" said it searched the notes for "birthday". None
    for any other question, when the answer already uses what was told ("You ran a half marathon in Leeds on
    Sunday."), and when only this conversation holds what they said (its view shows it)."""
    window = asked_window(text, now)
    if window is None:
        return None
    then = [r.memory for r in recalled if in_window(r.memory.said_at or r.memory.created_at, window)]
    phrase = m[0].lower() if (m := _WHEN_PHRASE.search(text)) else "then"
    if not then:
        return None if seen else f"You haven't told me anything from {phrase}, so I don't know — I only know what you tell me here."
    if content_stems(" ".join(r.text for r in then)) - content_stems(text) & content_stems(answer) and not DENIED.search(answer):
        return None  # it uses what was told ("You haven't told me anything about learning Portuguese" does not)
    lines = []
    for row in sorted(then, key=lambda r: r.said_at or r.created_at):
        day = datetime.fromisoformat((row.said_at or row.created_at)[:19]).strftime("%a %-d %b")
        lines.append(f'- {day}: "{said_words(row.text)}"' if row.kind == SAID else f"- {day}: {second_person(row.text)}")
    head = f"Since {window[0]:%a %-d %b}" if window[1] == now or m is None else m[0][:1].upper() + m[0][1:]  # "In October"
    return f"{head} you told me:\n" + "\n".join(lines)


_DEFINITE = re.compile(r"\b(?:the|my|our)\s+([a-z]{3,})\b", re.IGNORECASE)
_NOT_A_THING = frozenset("user user's day time way end best same first next last other one rest whole most week weekend month year".split())


def same_thing(question: str, said: str) -> bool:
    """Whether a question names a thing ("the car") the person's words named too ("The car needs new tyres before winter"):
    at 0.36 that message was below SAID_MIN_SIMILARITY and shared no long word, so "What does the car need?" got
    "The car needs a fuel tank." (`mol chat`)."""
    things = lambda text: {w.lower() for w in _DEFINITE.findall(text)} - _NOT_A_THING  # noqa: E731
    return bool(things(question) & things(said))


def _was_request(said: str) -> bool:
    """A "said" row of a request, stored before said_row skipped them: in a tail it read as a fact ("You told me
    to buy milk on Saturday" instead of setting the reminder), so it is never shown."""
    return is_request(said_words(said))


def tail_notes(recalled: Sequence[Recalled], text: str, now: datetime) -> list[str]:
    """The recalled memories as the tail shows them; for a question about time, each with the day it was said."""
    if not (TIME_QUESTION.search(text) or time_window(text, now)):
        return [r.memory.text for r in recalled]
    return [f"(said {(r.memory.said_at or r.memory.created_at)[:10]}) {r.memory.text}" for r in recalled]


def said_row(runtime: Runtime, text: str, conversation_id: str, *, source: str | None = None) -> MemoryRow | None:
    """The person's message as a memory of kind "said", so "what did I tell you about the plumber?" finds it
    weeks later even when extraction read no fact in it; None for questions, commands and a few words, with
    HCP memory.auto_extract off, and for an API client's turn (`source`). A request is no fact and, once in a
    later tail, was answered instead of done: "Remind me to buy milk on Saturday at 10am" after an earlier
    reminder request got "You told me to buy milk on Saturday at 10am." on the embedded default, with no reminder.

    Only the person's words are kept, not the answer: a small base's answer is no evidence of anything, and
    the row is shown as it is in a later tail. It is stored by the turn's commit (`remember_writer`), so it
    has the turn's consent and goes with any forget of that turn or conversation. A note asked for ("Note that
    the boiler was serviced on 2 November") is kept as its words: weeks later "When was the boiler serviced?"
    had got "The boiler serviced on Dec 5 2026." with nothing of it in the tail."""
    words = " ".join(text.split())
    noted = note_call(words) if is_request(words) else None  # a note's words are what was said ("When was the boiler serviced?")
    words = str(noted.arguments["body"]) if noted is not None else words
    if not runtime.hcp.memory.auto_extract or source or len(words.split()) < SAID_MIN_WORDS or words.startswith("/") or is_request(words):
        return None
    return new_memory(said_text(words[:SAID_MAX_CHARS]), kind=SAID, origin="said", conversation_id=conversation_id,
                      said_at=runtime.clock().isoformat(timespec="seconds"))


def uses_writer(bank: MemoryBank, task_id: str, used: Sequence[Recalled]):
    """A commit-time write recording which memories this turn's view held: `used` (recall's tail) and every
    other the bank noted for the task's conversation meanwhile (a tool's `memory.search` result is in the view
    too). Training eligibility is decided from these (memory.consent.tainted_tasks)."""

    def write(db: Database, _message_ids: list[str]) -> None:
        held = {r.memory.id: r.score for r in used}
        row = db.execute("select conversation_id from tasks where id = ?", [task_id]).fetchone()
        for memory_id, score in bank.take_viewing(row[0]) if row else []:
            held.setdefault(memory_id, score)
        bank.store.record_uses(db, task_id, list(held.items()))

    return write


def remember_writer(row: MemoryRow, user_index: int):
    """A commit-time write storing `row`, linked to the turn's user message; it carries the sources of what
    the conversation's earlier views held (the words may be copied from an answer that recalled them)."""

    def write(db: Database, message_ids: list[str]) -> None:
        linked = MemoryRow(**{**row.__dict__, "source_message_id": message_ids[user_index]})
        insert_rows(db, [linked], MemoryStore(db).view_sources(row.conversation_id) if row.conversation_id else ())

    return write


def remember_turn(session: Session, fact: str, text: str) -> TurnResult:
    """`/remember FACT`: one committed turn on the entry slot that stores the memory in the same transaction."""
    rt = session.runtime
    row = new_memory(fact, origin="explicit", conversation_id=session.conversation_id)  # validates before anything is written
    slot = rt.hcp.entry_slot
    task = TaskRecord(new_id(), session.conversation_id, len(session.tasks), slot, status="closed")
    reply = f"I'll remember that: {row.text}"
    summary = f"The user asked me to remember: {row.text}"
    route = RouteRecord(slot, "command", REMEMBER, False, 0.0)
    new = [MessageRecord("user", text), MessageRecord("assistant", reply)]
    session.commit_turn(rt, text, task, new, route, list(session.tasks), summary=summary, writes=[remember_writer(row, 0)])
    rt.memory.index_rows([rt.memory.store.get(row.id)], index_now=False)
    supersede(rt.memory, rt.memory.store.get(row.id))
    return TurnResult(session.conversation_id, task.id, slot, reply, route, summary, memories_written=[row.id])
