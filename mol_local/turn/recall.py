"""Memory in the turn loop: recall before the answer and `/remember` (extraction after it: mol_local/extract.py)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from memory.bank import MemoryBank, Recalled
from memory.store import SAID, MemoryRow, MemoryStore, insert_rows, new_memory, said_text, said_words
from memory.timeline import MessageRecord, RouteRecord, TaskRecord, new_id
from memory import fts
from memory.timewords import TIME_QUESTION, Window, in_window, time_window
from mol_local.extract import supersede
from mol_local.statements import is_question, is_request, key_of, second_person, statements
from mol_local.turn.ground import content_stems
from mol_local.turn.notes_asked import asks_for_a_note, note_call
from mol_local.turn.relations import by_relation
from mol_local.turn.not_known import DENIED, loose, unknown_answer
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
    found = [r for r in found if r.memory.kind != SAID  # a said message: only when close (or sharing a telling word), once
             or ((r.score >= SAID_MIN_SIMILARITY or loose(keywords) & loose(content_stems(r.memory.text)))  # (as its fact, if one was read),
                 and r.memory.source_message_id not in facts_from and not _was_request(r.memory.text))]  # never a request
    scores = {r.memory.id: r.score for r in found}
    first = [Recalled(row, scores.get(row.id, 0.0)) for row in pinned]
    out = first + [r for r in found if not r.memory.pinned][:k]
    if conversation_id is not None:
        runtime.memory.viewing(conversation_id, out, fresh=True)
    return out


KNOWN_MAX = 12  # facts in the tail of "what do you know about me?"
_ABOUT_ME = re.compile(r"\b(?:what (?:else )?(?:do|did) you (?:know|remember) about me|what have you (?:learned|learnt|remembered|got) "
                       r"(?:about|on) me|(?:tell|show) me (?:everything |all |what )?(?:that )?you (?:know|remember) about me|"
                       r"what do you know of me)\b", re.IGNORECASE)


def asks_what_you_know(text: str) -> bool:
    """"What do you know about me?": the tail holds the stored facts (up to KNOWN_MAX), not the nearest few."""
    return bool(_ABOUT_ME.search(text))


def known_all_answer(text: str, recalled: Sequence[Recalled]) -> str | None:
    """The facts in the tail, said back, for "What do you know about me?": with four stored, the embedded L0
    answered "I don't know your name yet — tell me and I'll remember it." None when it asks something else or
    the tail holds no fact (the model's answer stands)."""
    facts = [r.memory.text for r in recalled if r.memory.kind != SAID]
    if not asks_what_you_know(text) or not facts:
        return None
    return "\n".join(["Here is what I know about you:"] + [f"- {second_person(f).rstrip('.')}" for f in facts])


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


_TOLD_ASK = re.compile(r"\b(?:what|anything) (?:did|have) I (?:tell|told|say|said|mention|mentioned) (?:to )?(?:you )?(?:about|regarding|of|on) "
                       r"(?P<topic>.+?)[\s?.!]*$|\bremind me what I (?:told|said to) you about (?P<t2>.+?)[\s?.!]*$", re.IGNORECASE)
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


def asked_window(text: str, now: datetime) -> Window | None:
    """From the start of the dates "What did I do last week?" / "What did I tell you yesterday?" ask about until now
    (told today about last Sunday is an answer too); None for other questions."""
    window = time_window(text, now) if _ASKS_DONE.match(text.strip()) else None
    return None if window is None else (window[0], now)


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
    return f"Since {window[0]:%a %-d %b} you told me:\n" + "\n".join(lines)


def told_answer(text: str, answer: str, recalled: Sequence[Recalled], seen: Sequence[str] = ()) -> str | None:
    """What the person said about X, from the tail, when they ask "What did I tell you about X?" and the answer
    denies being told, or says none of it, while the tail holds it ("Thanks for asking … What was it about the
    dentist that caught your attention?" with the dentist's date in the tail): three weeks after "The plumber Dave is coming on Tuesday to fix the
    kitchen sink", its said memory was in the tail and L0 answered "You haven't told me anything about the plumber
    Dave yet." Everything known for "what do you know about me?" (`known_all_answer`), nothing made up about
    what nothing says (`unknown_answer`, given what the conversation `seen` holds); else `known_answer`.
    None otherwise (the model's answer stands)."""
    if everything := known_all_answer(text, recalled):
        return everything
    if unknown := unknown_answer(text, answer, recalled, seen):
        return unknown
    m = _TOLD_ASK.search(text.strip())
    if m is None:
        return known_answer(answer, recalled) or echoed_answer(text, answer, recalled) or denied_answer(text, answer, recalled) \
            or keyed_answer(text, answer, recalled) or personal_answer(text, answer, recalled) or heard_answer(text, answer)
    topic = fts.terms(m["topic"] or m["t2"] or "")
    told = [r.memory for r in recalled if topic and fts.says_any(r.memory.text, topic)]
    here = [said for said in seen if topic and fts.says_any(said, topic)] if not told else []  # said in this conversation
    if not (told or here):  # their own words are the answer: L0 had retold "I lent my drill to Marco" as "Marco lent your drill to Marco"
        if DENIED.search(answer):
            return None
        # "What did I tell you about my sister?" on a fresh home: "Congratulations on discovering and telling me about your sister!"
        about = re.sub(r"\b(?:my|your)\b", lambda w: "your" if w[0].lower() == "my" else "my", (m["topic"] or m["t2"]).strip(), flags=re.I)
        return known_answer(answer, recalled) or f"You haven't told me anything about {about} yet — tell me and I'll remember it."
    return _quoted(told, here)


def _quoted(told: Sequence[MemoryRow], here: Sequence[str]) -> str:
    """What the person said, in their words where they were kept, each with its day; else the facts known."""
    if here:
        return "\n".join(f'You told me: "{said}"' for said in here[-2:])
    lines = []
    for row in told[:3]:
        day = datetime.fromisoformat((row.said_at or row.created_at)[:19]).strftime("%a %-d %b %Y")
        lines.append(f'On {day} you told me: "{said_words(row.text)}"' if row.kind == SAID else f"I know that {second_person(row.text)}")
    return "\n".join(lines)


_NOT_KNOWN = re.compile(r"\bI don't know (?:your|the user's) (?P<x>[\w' -]{1,30}?)(?: yet)?\b(?:\s*[—,.-]|$)", re.IGNORECASE)


def known_answer(answer: str, recalled: Sequence[Recalled]) -> str | None:
    """The fact from the tail, when the answer says "I don't know your X yet" and the tail says what the user's X is:
    held-out L0 answered "OK, tell me the name of my cat, thanks" so with "The user's cat is called Tiger." in its tail
    (the form it was trained on for an unknown X). None otherwise."""
    m = _NOT_KNOWN.search(answer)
    if m is None:
        return None
    thing = f"my:{m['x'].strip().lower()}"
    fact = next((r.memory.text for r in recalled if r.memory.kind != SAID and key_of(r.memory.text)[0] == thing), None)
    if fact is None:
        return None
    said = second_person(fact)
    return said[:1].upper() + said[1:]


_ASKS_VALUE = re.compile(r"^(?:so\s+|and\s+)?(?:what|which|who|where|when)\b(?!.*\b(?:should|could|would|think|recommend|suggest|best)\b)", re.I)


def keyed_answer(text: str, answer: str, recalled: Sequence[Recalled]) -> str | None:
    """The remembered fact whose subject the question names, when the answer does not give its value: "What car do
    I drive?" with "The user's car is a blue 2015 Honda Civic" in the tail got "You are a car." (L0, `mol chat`).
    Only a question asking for a value (what, which, who, where, when; no advice), one fact whose subject's
    words are all in it, and an answer that names no remembered word the question does not. None otherwise."""
    if not _ASKS_VALUE.search(text.strip()):
        return None
    asked = content_stems(text)
    if (content_stems(answer) - asked) & set().union(*(content_stems(r.memory.text) for r in recalled if r.memory.kind != SAID)):
        return None  # the answer gives another fact's words ("Where does my sister live?": "Your sister lives in Berlin.")
    keyed = [(r.memory.text, value) for r in recalled if r.memory.kind != SAID for key, value in [key_of(r.memory.text)]
             if key and key.startswith("my:") and (subject := content_stems(key[3:])) and subject <= asked and value]
    if len(keyed) != 1 or same_words(keyed[0][1], answer):
        return None
    said = second_person(keyed[0][0]).rstrip(".")
    return f"{said[:1].upper()}{said[1:]}."


_PERSONAL = re.compile(r"\b(?:my|mine|i|me)\b", re.I)
_ASKS_ABOUT_ME = re.compile(r"^(?:so\s+|and\s+)?(?:what|which|who|whom|where|when|how (?:much|many|long))\b", re.I)
_SHORT = 4  # shorter stems are too common to tie a question to a memory ("go", "day")


_GLUE = frozenset("been being will also still did does yes sure there here said sai told tell know remember remind "
                  "think believe maybe probably could might wrong but about actually".split())  # a hedge adds nothing


_SAID_SHARED = 3  # content words a question without "my"/"I" shares with a thing the person said, to be about it


def personal_answer(text: str, answer: str, recalled: Sequence[Recalled]) -> str | None:
    """`_personal_answer` of the question, or of it with a person it names said as their relation to the person
    (`relations.by_relation`): "What time is Leo's football practice?" is a question about the person's son."""
    as_relation = by_relation(text, [r.memory.text for r in recalled if r.memory.kind != SAID])
    return _personal_answer(text, answer, recalled, as_relation)


def _personal_answer(text: str, answer: str, recalled: Sequence[Recalled], as_relation: str | None = None) -> str | None:
    """What the person said, quoted, when a question about them shares a word with a recalled memory and the answer
    uses none of that memory's own words: with "I lent my ladder to my neighbour Priya" in the tail, "Who has my
    ladder?" got "Your ladder is mine." (`mol chat`, a memory added weeks before). An answer that denies knowing is
    kept unless a memory shares a word with the question, and then it is said with a hedge ("What language did I
    want to learn?" got "You haven't told me anything about language yet" beside "… learning Portuguese …"). An
    answer that adds to the memory is quoted over too: "When is my dentist appointment?" got "Your dentist appointment
    on Thursday at 2pm has been cancelled." (nothing said it was)."""
    about_me = as_relation or text
    personal = bool(_ASKS_ABOUT_ME.search(about_me.strip()) and _PERSONAL.search(about_me))
    if not is_question(text):
        return None
    asked = {w for w in content_stems(f"{text} {as_relation or ''}") if len(w) >= _SHORT}
    about = {w for w in content_stems(as_relation) if len(w) >= _SHORT} if as_relation else asked  # not "Leo" of "Leo's practice"
    scored = [(len(loose(content_stems(r.memory.text)) & loose(about)), -i) for i, r in enumerate(recalled)]  # "insurer": "insurance"
    if not scored or max(scored)[0] == 0:
        return None
    best = recalled[-max(scored)[1]].memory
    if not personal and (best.kind != SAID or max(scored)[0] < _SAID_SHARED):
        return None  # "How much will the boiler valve cost?" is about what they said only when it shares that many words
    added = content_stems(answer) - asked - content_stems(best.text) - _GLUE
    if (content_stems(answer) - asked) & (content_stems(best.text) - asked) and not added:
        return None  # the answer says what the memory says, and nothing more
    day = datetime.fromisoformat((best.said_at or best.created_at)[:19]).strftime("%a %-d %b %Y")
    what = second_person(said_words(best.text) if best.kind == SAID else best.text).rstrip(".")
    what = re.sub(r"^(?:The|A|An|Our|It|There|This|That)\b", lambda w: w[0].lower(), what)  # "you said the plumber …"
    told = f"on {day} you said {what}."
    return f"I'm not sure that answers it, but {told}" if DENIED.search(answer) else told[:1].upper() + told[1:]


def same_words(value: str, answer: str) -> bool:
    """Whether the answer holds the value's words (case, punctuation and spacing aside)."""
    norm = lambda v: " " + re.sub(r"[^a-z0-9]+", " ", v.lower()).strip() + " "  # noqa: E731
    return norm(value) in norm(answer)


_AROUND_ECHO = 4  # words an echoed fact may carry around it ("You know that …")


def echoed_answer(text: str, answer: str, recalled: Sequence[Recalled]) -> str | None:
    """The remembered fact that answers the question, said to the person, when the answer only repeated a memory
    word for word in the third person it is stored in: asked "When does Lily start school?" with "The user's daughter
    is called Lily." and "The user's daughter Lily starts school on 8 January." in the tail, L0 answered the first,
    verbatim (or with a few words around it: "When is Sara's birthday?" got "You know that the user's wife's birthday
    is 12 May."), or said to the person but not what was asked ("Where does Tom live?": "Your best friend is called
    Tom."). Of the facts, the one sharing the most content words with the question (the echoed one on a tie).
    None when the answer is anything else."""
    said = " ".join(answer.split()).rstrip(".").lower()
    facts = [r.memory for r in recalled if r.memory.kind != SAID]
    echoed = next((m for m in facts for told in (m.text, second_person(m.text))
                   if (fact := " ".join(told.split()).rstrip(".").lower()) in said
                   and len(said.split()) <= len(fact.split()) + _AROUND_ECHO), None)
    if echoed is None or not is_question(text):
        return None
    asked = content_stems(by_relation(text, [m.text for m in facts]) or text)  # "Elena's birthday": the wife's, not her name
    best = max(facts, key=lambda m: (len(content_stems(m.text) & asked), m is echoed))
    out = second_person(best.text)
    return None if out.rstrip(".").lower() == said else out[:1].upper() + out[1:]


def denied_answer(text: str, answer: str, recalled: Sequence[Recalled]) -> str | None:
    """What the person said, quoted, when the answer to their question denies being told ("You haven't told me anything
    about the plumber coming …", "I don't know your flight to Lisbon yet") while a recalled memory shares at least two
    of the question's content words: both were answered so with the words said three turns before in the tail.
    None otherwise."""
    if not DENIED.search(answer) or not is_question(text):
        return None
    asked = content_stems(text)
    scored = sorted(((len(content_stems(r.memory.text) & asked), i) for i, r in enumerate(recalled)), reverse=True)
    if not scored or scored[0][0] < 2:
        return None
    best = [recalled[i].memory for n, i in scored if n == scored[0][0]][:2]
    return _quoted(best, [])


def heard_answer(text: str, answer: str) -> str | None:
    """What the person said about themselves, said back, when the answer to a message that only states it names none
    of it: held-out L0 answered "Oh, and I just moved to Valencia last month." with "Thanks for letting me know: your
    move has been confirmed.". None for a question or request, and when the answer names what was said."""
    said = [st for st in statements(text) if st.op == "add"]
    if not said or is_request(text) or any(st.value.lower() in answer.lower() for st in said):
        return None
    return "Thanks for letting me know: " + "; ".join(second_person(st.text).rstrip(".") for st in said) + "."


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
