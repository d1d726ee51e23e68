"""A short email or message drafted from what the person said it should say: "Write a short email to my landlord
saying the heater is broken".

Tried with `mol chat` on the embedded default: that request got "Dear landlord,\n\nDear,\n\nThanks for letting me
know about the heater: the heater is broken." The 135M base cannot hold a letter's shape, but the request already
holds everything a short one needs: who it is to, and what it says, asks or is about. Those words are put into a
plain draft (greeting, the message in the person's own words, a closing), with the person's name when a recalled
memory holds it; nothing is added that they did not say. A request with more in it than one such clause ("… and
make it funny", a second sentence) stays the model's, as does a letter, a poem or a story.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mol_local.statements import key_of

_ASK = re.compile(
    r"^(?:(?:hey|hi|ok(?:ay)?|so|please)[,!]?\s+)?(?:(?:can|could|would) you\s+)?(?:please\s+)?(?:help me\s+)?"
    r"(?:write|draft|compose|send|prepare)\s+(?:me\s+)?(?:up\s+)?an?\s+(?:(?P<tone>short|quick|brief|polite|formal|friendly)\s+)?"
    r"(?:(?P<occasion>thank[- ]?you|thanks|apology|sorry|congratulations|congrats)\s+)?"
    r"(?P<kind>email|e-mail|message|text|note|card)\s+(?:for me\s+)?to\s+(?P<who>(?:my|our|the)\s+[a-z][a-z' -]{1,30}?|[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\s+"
    r"(?:(?P<for>for|on)\s+(?=\S)"
    r"|(?P<say>saying|telling (?:him|her|them)|to (?:say|tell (?:him|her|them))|letting (?:him|her|them) know)\s+(?:that\s+)?"
    r"|(?P<ask>asking)\s+(?:(?:him|her|them)\s+)?(?P<how>for|to|if|whether|about)\s+"
    r"|(?P<about>about|regarding)\s+|that\s+)"
    r"(?P<what>[^.?!\n]{3,200}?)[\s.!]*$", re.IGNORECASE)
_CLOSING = {"formal": "Kind regards", "polite": "Kind regards", "friendly": "Thanks"}


_VERB = re.compile(r"^((?:(?:hey|hi|ok(?:ay)?|so|please)[,!]?\s+)?(?:(?:can|could|would) you\s+)?(?:please\s+)?)(email|e-mail|message|text)\s+"
                   r"(?=(?:my|our|the)\s+[a-z]|[A-Z][a-z]+\s)", re.IGNORECASE)


def _asked(request: str) -> re.Match[str] | None:
    """The request read by _ASK, "Email my boss that …" first said as "write an email to my boss that …" (`mol chat`:
    it got "Thanks for letting me know: your boss will be late if you're late.")."""
    said = " ".join(request.split())
    said = _VERB.sub(lambda m: f"{m[1]}write {'an' if m[2].lower().startswith('e') else 'a'} {m[2].lower()} to ", said, count=1)
    return _ASK.match(said)


def asks_draft(request: str) -> bool:
    return _asked(request) is not None


def draft_answer(request: str, facts: Sequence[str] = ()) -> str | None:
    """The draft for a request to write a short email or message saying, asking or about one thing; None otherwise."""
    m = _asked(request)
    if m is None:
        return None
    who, what = m["who"], m["what"].strip().rstrip(",;")
    if re.search(r"\b(?:and (?:make|keep|add)|funny|poem|in (?:french|spanish|german|italian))\b", what, re.IGNORECASE):
        return None  # more asked than one message: the model's
    if m["for"] and not m["occasion"] and not _OCCASION_OF.match(what):
        return None  # "an email to my boss for a day off" is no thank-you
    named = who[:1].isupper() and not who.lower().startswith(("my ", "our ", "the "))
    plain = re.sub(r"^(?:my|our|the)\s+", "", who)
    greeting = f"Hi {who}," if named else (f"Dear {plain[:1].upper()}{plain[1:]}," if (m["tone"] or "").lower() == "formal" else "Hello,")
    body = _body(m, what)
    closing = "Best wishes" if m["for"] else _CLOSING.get((m["tone"] or "").lower(), "Thanks")
    name = _own_name(facts) or "[your name]"
    subject = "" if m["kind"].lower() in ("message", "text", "note", "card") else f"Subject: {_subject(m, what)}\n\n"
    lines = f"{subject}{greeting}\n\n{body}\n\n{closing},\n{name}"
    return f"Here's a draft — change anything before you send it:\n\n{lines}"


_TO_YOU = ((re.compile(r"\b(?:he|she|they)\s+(?:is|are)\b", re.I), "you are"), (re.compile(r"\b(?:he|she|they)\s+(?:was|were)\b", re.I), "you were"),
           (re.compile(r"\b(?:he|she|they)\s+(?:has|have)\b", re.I), "you have"), (re.compile(r"\b(?:he|she|they)\b", re.I), "you"),
           (re.compile(r"\b(?:his|their)\b", re.I), "your"))


_OCCASION = {"thank": "Thank you so much for {what}. I really appreciate it.", "apology": "I'm so sorry for {what}.",
             "sorry": "I'm so sorry for {what}.", "congratulations": "Congratulations on {what}!", "congrats": "Congratulations on {what}!"}


_OCCASION_OF = re.compile(r"^(?:(?:her|his|their|your|the)\s+)?(?:big\s+)?(?P<event>wedding|birthday|anniversary|graduation|retirement|engagement|"
                          r"promotion|new (?:job|baby|home|house))$", re.IGNORECASE)  # "a card to my sister for her wedding"
_WISHES = {"birthday": "Happy birthday! I hope you have a wonderful day.", "anniversary": "Happy anniversary! Wishing you many more happy years together.",
           "wedding": "Congratulations on your wedding! Wishing you both every happiness."}


def _body(m: re.Match[str], what: str) -> str:
    if m["for"] and not m["occasion"] and (event := _OCCASION_OF.match(what)):
        said = event["event"].lower()
        return _WISHES.get(said, f"Congratulations on your {said}!")
    if m["for"]:  # "a thank-you message to my neighbour for feeding the cat": the occasion says what the body is
        occasion = re.sub(r"[- ]?you$", "", (m["occasion"] or "").lower()).replace("thanks", "thank")
        said = _OCCASION.get(occasion) or ("Congratulations on {what}!" if m["for"].lower() == "on" else "Thank you so much for {what}.")
        if m["for"].lower() == "on":  # "on her new baby" is the reader's
            what = re.sub(r"\bher\b", "your", what, flags=re.IGNORECASE)
        return said.format(what=_addressed(what))  # "for his help" is "your help"
    if m["ask"]:  # asked of the one it is to: "asking if she is free" is "if you are free"
        what = _addressed(what)
        how = m["how"].lower()
        if how == "for":
            return f"Could I ask for {what}? Please let me know."
        if how == "to":
            return f"Could you please {what}?"
        if how == "about":
            return f"Could you tell me about {what}?"
        return f"Could you let me know {how} {what}?"
    if m["about"]:
        return f"I'm writing about {what}. Could you get back to me about it when you have a moment?"
    return f"I wanted to let you know that {what}."


def _addressed(what: str) -> str:
    for pattern, said in _TO_YOU:
        what = pattern.sub(said, what)
    return what


def _subject(m: re.Match[str], what: str) -> str:
    if m["for"]:
        occasion = (m["occasion"] or "c").lower()
        return {"a": "Sorry", "s": "Sorry"}.get(occasion[:1], "Congratulations" if occasion[:1] == "c" else "Thank you")
    if m["ask"] and m["how"].lower() in ("if", "whether"):
        return "A quick question"
    words = (["Request:"] if m["ask"] and m["how"].lower() in ("for", "to") else []) + what.split()
    short = " ".join(words[:8]) + ("…" if len(words) > 8 else "")
    return short[:1].upper() + short[1:]


def _own_name(facts: Sequence[str]) -> str | None:
    """The person's name from a recalled memory ("The user's name is Ada."), for the signature."""
    for fact in facts:
        key, value = key_of(fact)
        if key in ("name", "my:name") and value.strip() and len(value.split()) <= 3:
            return value.strip().rstrip(".")
    return None
