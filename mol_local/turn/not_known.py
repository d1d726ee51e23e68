"""Nothing made up about what nobody said: "Do you know my car?" after the car was forgotten, "Where do I live?"
after "Forget where I live". With no fact of that kind in the tail and nothing said in the conversation, an
answer that claims one is replaced with "I don't know … yet"."""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory.bank import Recalled
from memory.store import SAID, said_words
from mol_local.statements import key_of, statements
from mol_local.turn.ground import content_stems


DENIED = re.compile(r"\b(?:haven't|have not|hasn't|didn't|did not|never)\s+(?:\w+\s+)?(?:told|tell|said|say|mentioned|mention)\b|"
                    r"\b(?:don't|do not) know\b|\bno record\b", re.IGNORECASE)


def loose(stems: set[str]) -> set[str]:
    """Stems of six letters or more cut to their first five, so a word meets its kin: "Who is my insurer?" had not met
    "Our car insurance renews on 14 January with Aviva" (`mol chat`, said weeks before: "I don't know your insurer")."""
    return {w[:5] if len(w) >= 6 else w for w in stems}


_ASKS_MINE = re.compile(r"^(?:(?:and|so|ok|hey)[,]?\s+)?(?:do you (?:know|remember)|what(?:'s| is| was)|who(?:'s| is)|tell me|"
                        r"remind me (?:of|what))\s+(?:what\s+)?my\s+(?P<x>[\w' -]{1,30}?)(?:\s+(?:is|was|called|named))?[\s?.!]*$",
                        re.IGNORECASE)


_ASKS_KEYED = ((re.compile(r"^(?:so\s+|and\s+)?where do i (?:live|stay)\b", re.I), "home", "where you live"),
               (re.compile(r"^(?:so\s+|and\s+)?where do i work\b", re.I), "employer", "where you work"),
               (re.compile(r"^(?:so\s+|and\s+)?where am i (?:from|originally from)\b", re.I), "from", "where you're from"),
               (re.compile(r"^(?:so\s+|and\s+)?how old am i\b", re.I), "my:age", "how old you are"),
               (re.compile(r"^(?:so\s+|and\s+)?(?:what(?:'s| is) my name|who am i|(?:do you )?(?:know|remember) my name)\b", re.I), "name",
                "your name"))  # "Thanks! What's my name?" got "Your name is Danielle." (mol chat -c)
_THANKS = re.compile(r"^(?:(?:thanks|thank you|ok(?:ay)?|great|cool|nice|hi|hello|hey|perfect)\b[\s,!.]*)+", re.I)


def _asked_key(text: str) -> tuple[str, str] | None:
    """(the key, how it is said) of a question `_ASKS_KEYED` reads, after a leading "Thanks!"; None for any other."""
    said = _THANKS.sub("", text.strip())
    return next(((key, words) for q, key, words in _ASKS_KEYED if q.search(said)), None)


def _unknown_keyed(asked: tuple[str, str], answer: str, recalled: Sequence[Recalled], seen: Sequence[str]) -> str | None:
    """"Where do I live?" right after the home fact was forgotten got "You live in New York City.": with no fact of
    that key in the tail or said in the conversation, an answer that does not say so is replaced."""
    if DENIED.search(answer):
        return None
    key, said = asked
    said_rows = [said_words(r.memory.text) for r in recalled if r.memory.kind == SAID]
    if any(key_of(r.memory.text)[0] == key for r in recalled) or any(st.key == key for line in [*seen, *said_rows] for st in statements(line)):
        return None
    return f"I don't know {said} yet — tell me and I'll remember it."


def unknown_answer(text: str, answer: str, recalled: Sequence[Recalled], seen: Sequence[str]) -> str | None:
    """"I don't know your car yet" for "Do you know my car?" when nothing in the tail or what the person said in
    the conversation (`seen`: their messages that are not questions) names it and the answer claims to know: after the car was forgotten, L0 answered "Your
    car is the user's sister." from a tail holding only the sister. None otherwise."""
    if (asked := _asked_key(text)) is not None:
        return _unknown_keyed(asked, answer, recalled, seen)  # "I'm Sam" said here names no "name": the key settles it
    m = _ASKS_MINE.match(text.strip())
    if m is None or not re.search(rf"\byour {re.escape(m['x'].strip())}(?:'s)?\s+(?:is|was|are|were|has|called|named)\b", answer, re.I):
        return None  # claims nothing about it
    thing = content_stems(m["x"])
    if not thing or any(loose(thing) & loose(content_stems(r.memory.text)) for r in recalled) or loose(thing) & loose(content_stems(" ".join(seen))):
        return None
    return f"I don't know your {m['x'].strip()} yet — tell me and I'll remember it."
