"""A message said more politely: "Rewrite this more politely: Send me the report now.".

Tried with `mol chat` on the embedded default: that request got "Thanks for letting me know:" and then "#" on
twenty-six lines. The 135M model cannot rewrite, and making a blunt message polite is mostly a few well-known moves,
so on it they are made here, sentence by sentence, keeping every word of what is asked: an order becomes a request
("Send me the report now." → "Could you please send me the report as soon as you can?"), "you need to / must / have
to X" becomes "could you please X?", "don't X" becomes "please don't X", "I want X" becomes "I'd like X, please",
shouting is lowered, and a thank-you closes it. Statements and questions stay as they are. A larger model answers
itself.
"""

from __future__ import annotations

import re

_ASK = re.compile(r"^(?:(?:please|can you|could you|would you)\s+)*(?:(?:re)?write|rephrase|reword|say|make|put|word)\s+"
                  r"(?:this|that|it|the following|my (?:message|email|text|note))?\s*(?:(?:a bit|a little|much)\s+)?"
                  r"(?:more\s+)?(?:politely|polite|nicer|nicely|kinder|kindly|friendlier|softer|gentler)(?:\s+for me)?\s*(?:please\s*)?"
                  r"[:\-—]\s*(?P<text>.+)$|"
                  r"^how (?:can|could|do|should) i (?:say|word|put|phrase) (?:this|that|it) (?:more\s+)?(?:politely|nicely|kindly)\s*\??\s*[:\-—]\s*(?P<text2>.+)$",
                  re.IGNORECASE | re.DOTALL)
_NOT_ORDER = frozenset("i i'm i've i'd i'll you you're you've we we're they he she it it's this that these those there there's my your our their his "
                       "her its the a an some all every no what why how when where who which is are was were do does did can could would "
                       "will should shall may might and but so also then please thanks thank hi hello dear sorry if as just yes ok okay"
                       .split())
_NOW = re.compile(r"\s*,?\s*\b(?:right now|now|immediately|asap|at once|straight away|right away)\b", re.IGNORECASE)
_MUST = re.compile(r"^you (?:need to|must|have to|should|gotta|better)\s+(?P<rest>.+)$", re.IGNORECASE)
_DONT = re.compile(r"^(?:don't|do not|never)\s+(?P<rest>.+)$", re.IGNORECASE)
_WANT = re.compile(r"^i (?:want|need)\s+(?P<rest>(?:the|a|an|my|your|this|that|some|it|them)\b.+)$", re.IGNORECASE)
_THANKS = re.compile(r"\b(?:thanks|thank you|cheers)\b", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=\S)")


def polite_answer(text: str) -> str | None:
    """The message said more politely, or None when the request is not to say a given message more politely."""
    m = _ASK.match(text.strip())
    said = (m["text"] or m["text2"]).strip().strip('"“”\'') if m else ""
    if not said or len(said) > 600:
        return None
    sentences = [_softer(s) for s in _SENTENCE.split(" ".join(said.split()))]
    if not _THANKS.search(said):
        sentences.append("Thank you!")
    return 'Here it is, more politely:\n\n"' + " ".join(s for s in sentences if s) + '"'


def _softer(sentence: str) -> str:
    """One sentence made polite; a statement or a question stays as it was (only its shouting and "!" go)."""
    end = sentence[-1] if sentence[-1:] in ".!?" else ""
    body = sentence[: -1 if end else None].strip()
    if body.isupper() and len(body) > 3:
        body = body.lower()
    body = body[:1].upper() + body[1:]
    if end == "?":
        return f"{body}?"
    if m := _MUST.match(body):
        return f"Could you please {_calm(m['rest'])}?"
    if m := _DONT.match(body):
        return f"Please don't {m['rest']}."
    if m := _WANT.match(body):
        return f"I'd like {m['rest']}, please."
    first = re.match(r"[A-Za-z']+", body)
    if first and first[0].lower() not in _NOT_ORDER and not body[1:2].isupper():
        return f"Could you please {_calm(body[:1].lower() + body[1:])}?"
    return f"{body}."


def _calm(request: str) -> str:
    """An order's "now" / "immediately" as "as soon as you can"."""
    calmed, n = _NOW.subn("", request)
    return f"{calmed.strip()} as soon as you can" if n else request
