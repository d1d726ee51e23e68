"""A pasted text summarized: "Summarize this: The council will close the Elm Street car park …".

Tried with `mol chat` on the embedded default: in a conversation the request got "Noted."; on its own, the text's
first two sentences with "residents" lower-cased. The 135M model cannot be trusted to keep a date or a name right,
so on it the summary is the text's own central sentences, word for word, in their order: each sentence is scored by
how many of the text's frequent words it carries (the opening one a little more, as it usually says what the text is
about), and about a third are kept, at most five, or the number asked ("in 2 sentences", "in one line",
"3 bullet points"). The reply says it is the text's own words. A larger model answers itself.
"""

from __future__ import annotations

import math
import re
from collections import Counter

from mol_local.number_words import said_number

_ASK = re.compile(r"^(?:(?:please|can you|could you|would you)\s+)*(?:summari[sz]e|sum up|give me (?:a|the) (?:short |quick |brief )?(?:summary|gist)|"
                  r"tl;?dr|what(?:'s| is) the gist)(?:\s+(?:of\s+)?(?:this|that|the following|it|this text|this article|this email|for me))*"
                  r"(?:\s+(?:in|into|as)\s+(?P<n>\d+|one|two|three|four|five|a single|a few)\s+(?P<unit>sentences?|lines?|bullet points?|bullets?|points?))?"
                  r"(?:\s+please)?\s*[:\-—]\s*(?P<text>.+)$", re.IGNORECASE | re.DOTALL)
_SENTENCE = re.compile(r"(?<=[.!?])[\"”')]?\s+(?=[\"“(]?[A-Z0-9])")
_STOP = frozenset("the and for are was were will would with that this from have has had not but they their them there then than "
                  "its into also can could should may might been being which who whom whose what when where while about after "
                  "before over under more most some such only own same very just your you our out off any each other how all "
                  "his her she him one two does did doing instead".split())
MAX_KEPT = 5
LEAD = 1.25


def gist_answer(text: str) -> str | None:
    """The central sentences of the pasted text, or None when the request is not to summarize a given text."""
    m = _ASK.match(text.strip())
    if m is None:
        return None
    body = " ".join(m["text"].split()).strip('"“” ')
    sentences = [s.strip() for s in _SENTENCE.split(body) if s.strip()]
    if len(body.split()) < 12:
        return None
    asked = _asked_count(m["n"])
    keep = min(asked or max(1, round(len(sentences) / 3)), MAX_KEPT, len(sentences))
    if keep == len(sentences) and asked is None and len(sentences) > 1:
        keep -= 1
    counts = Counter(w for s in sentences for w in _words(s))
    scores = [(_score(s, counts) * (LEAD if i == 0 else 1.0), -i) for i, s in enumerate(sentences)]
    kept = sorted(i for _, i in (((sc, -neg) for sc, neg in sorted(scores, reverse=True)[:keep])))
    chosen = [sentences[i] for i in kept]
    of = f"{keep} of its {len(sentences)} sentences" if len(sentences) > 1 else "its one sentence"
    if m["unit"] and m["unit"].lower().startswith(("bullet", "point")):
        return "\n".join(f"- {s}" for s in chosen) + f"\n\n({of}, in its own words.)"
    return f"In short: {' '.join(chosen)}\n\n({of}, in its own words.)"


def _asked_count(said: str | None) -> int | None:
    if said is None:
        return None
    if said.lower() == "a single":
        return 1
    if said.lower() == "a few":
        return 3
    return int(said) if said.isdigit() else said_number(said)


def _words(sentence: str) -> list[str]:
    return [w for w in re.findall(r"[a-z][a-z'-]{2,}", sentence.lower()) if w not in _STOP]


def _score(sentence: str, counts: Counter[str]) -> float:
    """How much of the text's repeated vocabulary the sentence carries, not rewarding length alone."""
    words = set(_words(sentence))
    return sum(counts[w] for w in words) / math.sqrt(len(words) + 1) if words else 0.0
