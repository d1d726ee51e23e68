"""Answers from what the person told: a question about them, or about a thing they said, answered from the memories
recall put in the tail when the model's answer denies, misses or adds to them (`told_answer`).

The embedded L0 often answers a question about the person with the wrong memory, a denial beside the right one, or
the right one with words nothing said ("… has been cancelled"). Each function here reads one such case and returns
the answer from the memory itself, or None to keep the model's. Split from turn/recall.py, which finds the memories.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime, timedelta

from memory import fts
from memory.bank import Recalled
from memory.store import SAID, MemoryRow, said_words
from mol_local.statements import is_question, is_request, key_of, second_person, statements
from mol_local.turn.dates import DAY_MONTH
from mol_local.turn.ground import content_stems
from mol_local.turn.not_known import DENIED, loose, unknown_answer
from mol_local.turn.recall import KNOWN_SAID, asks_what_you_know, same_thing
from mol_local.turn.relations import by_relation


def known_all_answer(text: str, recalled: Sequence[Recalled]) -> str | None:
    """The facts in the tail, said back, for "What do you know about me?", then the newest things the person told in
    their words with their days: with four facts stored, the embedded L0 answered "I don't know your name yet — tell
    me and I'll remember it."; with seven things said weeks before and no fact, "I don't know your name or office
    yet." (`mol chat`). None when it asks something else or the tail holds nothing (the model's answer stands)."""
    facts = [r.memory.text for r in recalled if r.memory.kind != SAID]
    said = sorted((r.memory for r in recalled if r.memory.kind == SAID), key=lambda m: m.said_at or m.created_at, reverse=True)
    if not asks_what_you_know(text) or not (facts or said):
        return None
    told = [f"- {datetime.fromisoformat((m.said_at or m.created_at)[:19]):%a %-d %b}: \"{said_words(m.text)}\"" for m in said[:KNOWN_SAID]]
    lines = ["Here is what I know about you:", *(f"- {second_person(f).rstrip('.')}" for f in facts)] if facts else []
    if told:
        lines += ["", "You also told me:", *told] if facts else ["You told me:", *told]
    return "\n".join(lines + (["(and more — ask me about any of it)"] if len(said) > len(told) else []))


_TOLD_ASK = re.compile(r"\b(?:what|anything) (?:did|have) I (?:tell|told|say|said|mention|mentioned) (?:to )?(?:you )?(?:about|regarding|of|on) "
                       r"(?P<topic>.+?)[\s?.!]*$|\bremind me what I (?:told|said to) you about (?P<t2>.+?)[\s?.!]*$", re.IGNORECASE)

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
            or keyed_answer(text, answer, recalled) or personal_answer(text, answer, recalled) or made_up_day_answer(text, answer, recalled) \
            or heard_answer(text, answer)
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


_YOU = re.compile(r"^(?:You|Your)\b")  # "I know that you said …", not "… You said …" (`mol bench specialists`)


def _quoted(told: Sequence[MemoryRow], here: Sequence[str]) -> str:
    """What the person said, in their words where they were kept, each with its day; else the facts known."""
    if here:
        return "\n".join(f'You told me: "{said}"' for said in here[-2:])
    lines = []
    for row in told[:3]:
        day = datetime.fromisoformat((row.said_at or row.created_at)[:19]).strftime("%a %-d %b %Y")
        lines.append(f'On {day} you told me: "{said_words(row.text)}"' if row.kind == SAID else f"I know that {_YOU.sub(lambda w: w[0].lower(), second_person(row.text))}")
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


_PERSONAL = re.compile(r"\b(?:my|mine|i|me|we|our|us)\b", re.I)  # "What kind of dog were we thinking of getting?"
_ASKS_ABOUT_ME = re.compile(r"^(?:so\s+|and\s+)?(?:what|which|who|whom|where|when|how (?:much|many|long))\b", re.I)
_SHORT = 4  # shorter stems are too common to tie a question to a memory ("go", "day")


_GLUE = frozenset("been being will also still did does yes sure there here said sai told tell know remember remind "
                  "think believe maybe probably could might wrong but about actually".split())  # a hedge adds nothing


_DOUBLED = re.compile(r"\b(\w+)['’]s \1\b", re.I)
_THE_USER = re.compile(r"\bthe user\b", re.I)
_YOU_SAID_I = re.compile(r"\b(?i:you) (?:told me|said)(?: that)? (?:I|I'd|I'm|I've|I'll|my)\b")  # "You told me I'd allow myself two cups of coffee."
_WHEN_DID = re.compile(r"^(?:so\s+|and\s+)?when did (?:i|we)\b", re.I)
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
    on Thursday at 2pm has been cancelled." (nothing said it was). "the car" said of a thing the person told about ("The
    car needs new tyres before winter") makes the question theirs: "What does the car need?" got "The car needs a fuel tank."."""
    about_me = as_relation or text
    personal = bool(_ASKS_ABOUT_ME.search(about_me.strip()) and _PERSONAL.search(about_me))
    if not is_question(text):
        return None
    asked = {w for w in content_stems(f"{text} {as_relation or ''}") if len(w) >= _SHORT}
    about = {w for w in content_stems(as_relation) if len(w) >= _SHORT} if as_relation else asked  # not "Leo" of "Leo's practice"
    every = content_stems(f"{text} {as_relation or ''}")  # a tie goes to the memory that shares short words too ("live")
    scored = [(len(loose(content_stems(r.memory.text)) & loose(about)), len(content_stems(r.memory.text) & every), -i)
              for i, r in enumerate(recalled)]  # "insurer": "insurance"
    if not scored or max(scored)[0] == 0:
        return None
    best = recalled[-max(scored)[2]].memory
    if not personal and not (best.kind == SAID and same_thing(text, best.text)) and (best.kind != SAID or max(scored)[0] < _SAID_SHARED):
        return None  # "How much will the boiler valve cost?" is about what they said only when it shares that many words
    added = content_stems(answer) - asked - content_stems(best.text) - _GLUE
    garbled = any(p.search(answer) and not p.search(text) for p in (_DOUBLED, _THE_USER)) or bool(_YOU_SAID_I.search(answer))  # "Your sister's sister live in Leeds."
    # and "You know the user's sister live in Leeds." (mol chat -c, the memory's own third person)
    if (content_stems(answer) - every) & (content_stems(best.text) - every) - _GLUE and not added and not garbled \
            and not _names_nobody(text, answer, best.text):
        return None  # the answer says what the memory says, and nothing more
    day = datetime.fromisoformat((best.said_at or best.created_at)[:19]).strftime("%a %-d %b %Y")
    what = second_person(said_words(best.text) if best.kind == SAID else best.text).rstrip(".")
    what = re.sub(r"^(?:The|A|An|Our|It|There|This|That)\b", lambda w: w[0].lower(), what)  # "you said the plumber …"
    told = f"on {day} you said {what}{_weekday_meant(what, datetime.fromisoformat((best.said_at or best.created_at)[:19]))}."
    hedged = DENIED.search(answer) and not _WHEN_DID.match(text.strip())  # the day said answers "When did I talk to the plumber?"
    return f"I'm not sure that answers it, but {told}" if hedged else told[:1].upper() + told[1:]


_ON_WEEKDAY = re.compile(r"\b(?:on|this)\s+(?P<d>monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b", re.IGNORECASE)
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def _weekday_meant(what: str, said: datetime) -> str:
    """" (Wednesday 9 December)" for "… on Wednesday at 2pm" said on Saturday 5 December: the weekday after the day it
    was said ("What time is my interview?" had only the weekday back). '' without one."""
    m = _ON_WEEKDAY.search(what)
    if m is None:
        return ""
    day = (said + timedelta(days=(_WEEKDAYS.index(m["d"].lower()) - said.weekday()) % 7 or 7)).date()
    return f" ({day:%A} {day.day} {day:%B})"


_WHO = re.compile(r"^(?:so\s+|and\s+)?(?:who|whom)\b", re.I)
_NAMED = re.compile(r"(?<=\s)[A-Z][a-z]+\b")


def _names_nobody(text: str, answer: str, memory: str) -> bool:
    """Whether a "who" question's answer leaves out every person the memory names: with "I lent Marco my drill, he'll
    return it after his kitchen is done" said weeks before, "Who has my drill?" got "Your drill will return to your
    kitchen after it's done." (`mol chat`)."""
    names = {n for n in _NAMED.findall(memory) if n not in text}
    return bool(_WHO.search(text.strip()) and names and not any(re.search(rf"\b{n}\b", answer) for n in names))


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


_DAY_IN = re.compile(rf"\b{DAY_MONTH}", re.IGNORECASE)  # "June 20", "2 March" (turn/dates.py reads them too)


def made_up_day_answer(text: str, answer: str, recalled: Sequence[Recalled]) -> str | None:
    """What was said, when a "when" question is answered with a day of a month that no recalled memory names while one
    names that month: with "We're getting married next June in Lisbon" said weeks before, "When is the wedding?" got
    "The wedding is on June 20 in Lisbon." (`mol chat`). None otherwise."""
    m = _DAY_IN.search(answer)
    if not re.match(r"^(?:so\s+|and\s+)?when\b", text.strip(), re.IGNORECASE) or m is None:
        return None
    day, month = m["d1"] or m["d2"], (m["m1"] or m["m2"]).lower()[:3]
    if any(re.search(rf"\b{day}(?:st|nd|rd|th)?\b", r.memory.text) for r in recalled):
        return None  # a day someone said
    told = [r.memory for r in recalled if re.search(rf"\b{month}", r.memory.text, re.IGNORECASE)]
    if len(told) != 1:
        return None
    row = told[0]
    day_said = datetime.fromisoformat((row.said_at or row.created_at)[:19]).strftime("%a %-d %b %Y")
    what = second_person(said_words(row.text) if row.kind == SAID else row.text).rstrip(".")
    return f"On {day_said} you said {what}" + ("." if _DAY_IN.search(row.text) else " — you didn't say which day.")


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
