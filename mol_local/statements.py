"""What a person says about themselves, read by rules: "My name is Ada", "I moved to Leeds", "my dog is called Biscuit".

On the embedded 135M base the model's JSON proposal (recall.propose) almost
never fired: across ~30 turns with "My name is Ada", "My favourite fruit is
mango" and "Remember that my dog is called Biscuit", automatic extraction
stored nothing. Statements about oneself come in a small number of English
forms, so they are read here directly, and each gets a *key* — the attribute
it sets ("name", "home", "my:dog", "favourite:fruit") — so a later statement
with the same key updates the memory instead of contradicting it. The same
key is read back from a stored memory's text (first person, or the third
person memories are written in: "The user lives in York").

Never from a question or a request; the caller passes only the person's own
message, never the assistant's words.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

_LEAD = re.compile(
    r"^(?:(?:ok(?:ay)?|oh|and|also|so|well|actually|hey|hi|mol|btw|by the way|just so you know|just fyi|fyi|for the record|"
    r"for (?:future )?reference|(?:please |can you |could you )?remember(?: this)?(?: that)?|(?:please )?don'?t forget(?: that)?|"
    r"(?:please |can you |could you )?(?:keep|bear) in mind(?: that)?|i want you to know(?: that)?|i (?:need|want|would like|'d like) (?:you )?to remember that|you should know(?: that)?|"
    r"store this(?: about me)?|learn this(?: about me)?|note to self)[,:!.\-—]*\s+)+",
    re.IGNORECASE,
)
_EXPLICIT = re.compile(r"\b(remember|don'?t forget|keep in mind|bear in mind|for (?:future )?reference|store this|learn this)\b", re.I)
_QUESTION = re.compile(
    r"^(?:what|who|whom|whose|where|when|why|how|which|do|does|did|is|are|am|was|were|can|could|would|will|should|shall|"
    r"have|has|may|might|tell me|remind me|show me|list|find|search|look up|set|make|create|build|write|give|help|"
    r"please|add|delete|remove|cancel|book|plan|schedule)\b",
    re.IGNORECASE,
)
_TRAILING = re.compile(
    r"(?:[\s,—–-]+(?:by the way|btw|now|recently|last (?:week|month|year)|this (?:week|month|year)|yesterday|today|"
    r"a (?:few )?(?:days|weeks|months) ago|a while (?:ago|back)|again|too|as well|anymore|any more|though|then|thanks?|thank you|please|"
    r"ok(?:ay)?|(?:please |can you |could you )?(?:remember|note|keep|save|store) (?:that|this|it)(?: in mind)?(?: for me)?|"
    r"(?:please )?don'?t forget(?: that| it)?|(?:keep|bear) (?:that|this|it) in mind))+$",
    re.IGNORECASE,
)
_PRONOUN_VALUE = re.compile(r"^(?:it|that|this|them|those|these|you|him|her|so|too|very|really|not)\b", re.I)
# The things "my X is Y" is taken to describe lastingly; anything else ("my code is broken") is a passing state.
ATTRIBUTES = frozenset("""
name surname last name middle name nickname full name age birthday date of birth anniversary wedding anniversary blood type
shoe size dress size size height weight phone number number email email address address postcode zip code hometown
home town city home job profession occupation title role employer company team football team club star sign pronouns
partner wife husband girlfriend boyfriend fiance fiancee spouse son daughter kid kids child children sister brother
mother mum mom father dad parents grandmother grandma grandfather grandpa aunt uncle cousin niece nephew baby
dog cat pet puppy kitten horse rabbit hamster parrot fish best friend friend boss manager colleague flatmate roommate
neighbour neighbor doctor gp dentist therapist landlord car bike gym locker locker code wifi password gate code
first language language native language religion diet allergy nationality favourite favorite
""".split()) | frozenset({"last name", "middle name", "full name", "date of birth", "wedding anniversary", "blood type",
                           "shoe size", "dress size", "phone number", "email address", "zip code", "home town",
                           "football team", "star sign", "best friend", "locker code", "wifi password", "gate code",
                           "first language", "native language"})
DIETS = ("vegetarian", "vegan", "pescatarian", "gluten-free", "gluten free", "lactose intolerant", "teetotal", "coeliac", "celiac")


@dataclass(frozen=True)
class Statement:
    key: str | None  # the attribute it sets; None for facts that add up ("I'm allergic to X" twice is two facts)
    value: str
    text: str  # the memory as stored, about the user in the third person
    kind: str = "fact"  # fact | preference | event
    op: str = "add"  # add (or update the memory with the same key) | delete (the memory with this key)


def _clean(value: str) -> str:
    value = value.strip().strip("\"'“”")
    value = _TRAILING.sub("", value).strip().rstrip(".!,;:—–-").strip()  # "Olive — thank you": not "Olive —"
    return value[:100]


def _norm_noun(noun: str) -> str:
    noun = " ".join(w if len(w) > 1 and w.isupper() else w.lower() for w in noun.split())  # "my car's MOT" keeps its MOT
    return {"favorite": "favourite", "fave": "favourite", "mom": "mum", "neighbor": "neighbour"}.get(noun, noun).replace("favorite ", "favourite ").replace("fave ", "favourite ")


def sentences(text: str) -> list[str]:
    """The message cut into sentences (and lines); a statement never spans two."""
    parts = re.split(r"(?<=[.!?;])\s+|\n+|,?\s+(?:and|but)\s+(?=(?:i|i'm|i've|my|our|we|he|she|it|they|he's|she's|it's|they're|his|her|its|their)\b)"
                     r"|,\s+(?=(?:i|i'm|i've|i'd|my|we|we're|we've|our)\s)",  # "I'm Sam, I just moved to Bristol"
                     text.strip(), flags=re.IGNORECASE)
    return [p.strip() for p in parts if p and p.strip()]


Make = Callable[[str, dict[str, str]], list[Statement]]


def _one(key: str | None, text: str, kind: str = "fact") -> Make:
    return lambda v, _g: [Statement(key, v, text.format(v=v), kind)]


def _favourite(v: str, g: dict[str, str]) -> list[Statement]:
    what = _norm_noun(g["x"])
    return [Statement(f"favourite:{what}", v, f"The user's favourite {what} is {v}.", "preference")]


def _called(v: str, g: dict[str, str]) -> list[Statement]:
    what = _norm_noun(g.get("x") or g.get("y") or "")
    return [Statement(f"my:{what}", v, f"The user's {what} is called {v}.")] if what else []


def _likes(v: str, g: dict[str, str]) -> list[Statement]:
    verb = g["verb"].lower()
    said = verb if verb == "can't stand" else verb + "s"
    return [Statement(None, v, f"The user {said} {v}.", "preference")]


def _attribute(v: str, g: dict[str, str]) -> list[Statement]:
    what = re.sub(r"^(?:new|current|latest|updated)\s+", "", _norm_noun(g["x"]))  # "my new phone number is …": mol chat kept nothing
    whose = re.split(r"'s |’s ", what, maxsplit=1)[0]  # "my dentist's office is …": about the dentist
    if (what not in ATTRIBUTES and whose not in ATTRIBUTES) or v.split(" ", 1)[0].lower() in _PASSING:
        return []  # "my code is broken", "my train is late": a passing state, not a fact about the person
    key = f"my:{what}"
    if re.fullmatch(_KIN, what, re.IGNORECASE) and not v[:1].isupper():
        key = None  # "My son is allergic to nuts" says something of him, not who he is: it had replaced "… is called Leo."
    return [Statement(key, v, f"The user's {what} {'are' if what.endswith('s') and not what.endswith('ss') else 'is'} {v}.")]


_KIN = ("partner|wife|husband|girlfriend|boyfriend|fianc[eé]e?|spouse|son|daughter|kid|child|sister|brother|mother|mum|mom|father|dad|"
        "grandmother|grandma|granny|grandfather|grandpa|grandson|granddaughter|aunt|uncle|cousin|niece|nephew|baby|dog|cat|puppy|"
        "kitten|horse|rabbit|hamster|parrot|best friend|friend|boss|manager|colleague|flatmate|roommate|neighbou?r|doctor|dentist|"
        "therapist|landlord|landlady|teacher|coach")
_NAMED_KIN = re.compile(rf"^(?i:my|our)\s+(?P<x>(?i:(?:(?:little|older|younger|big|eldest|oldest|youngest|baby|new)\s+)?(?:{_KIN})))\s+"
                        r"(?P<n>[A-Z][a-z'’-]+)\s+(?P<v>(?i:is|was|has|had|just|will|can|turned|turns|got|gets|moved|started|"
                        r"starts|lives|works|loves|likes|hates|goes|went|plays|studies|teaches|needs|wants|comes|came|joined|joins|"
                        r"finished|finishes|graduated|graduates|retired|retires|passed)\b.+)$")


def _named_kin(sentence: str) -> list[Statement]:
    """ "My daughter Lily starts school on 8 January": her name (key my:daughter) and what was said of her. No rule
    read it: nothing was kept, and "What's my daughter's name?" got "I don't know your daughter's name yet"."""
    m = _NAMED_KIN.match(sentence)
    if m is None:
        return []
    who, name, said = _norm_noun(m["x"]), m["n"], _clean(m["v"])
    named = Statement(f"my:{who}", name, f"The user's {who} is called {name}.")
    said = _AGED.sub(r"\g<0> years old", said)
    return [named, Statement(None, said, f"The user's {who} {name} {said}.")] if said else [named]


_PASSING = frozenset({"not", "broken", "down", "late", "busy", "sick", "ill", "tired", "being", "getting", "still", "so", "too", "very", "really"})
_I = re.IGNORECASE
RULES: tuple[tuple[re.Pattern[str], Make], ...] = (
    (re.compile(r"^(?:my name is|my name's|i'm called|i am called|call me|you can call me|people call me)\s+(?P<v>[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,2})\b", _I),
     _one("name", "The user's name is {v}.")),
    (re.compile(r"^(?:I'm|I am|i'm|i am)\s+(?P<v>[A-Z][a-z'’-]+)$"),  # case matters: "I'm Mei", not "I'm tired"
     _one("name", "The user's name is {v}.")),
    (re.compile(r"^(?:i|we)\s*(?:'ve|’ve| have)?\s*(?:just |recently |finally )?(?:moved|relocated) to\s+(?P<v>.+)$", _I),
     _one("home", "The user lives in {v}.")),
    (re.compile(r"^(?:i|we)\s+(?:now |currently )?live in\s+(?P<v>.+)$|^(?:i'm|i am|we're|we are)\s+(?:now )?(?:living|based) in\s+(?P<w>.+)$", _I),
     _one("home", "The user lives in {v}.")),
    (re.compile(r"^(?:i'm|i am|i come)\s+(?:originally )?from\s+(?P<v>.+)$", _I),
     _one("from", "The user is from {v}.")),
    (re.compile(r"^i\s+(?:now |currently )?work\s+(?:at|for)\s+(?P<v>.+)$|^i\s*(?:'ve|’ve| have)?\s*(?:just )?(?:started|got|landed) (?:a (?:new )?job|working) (?:at|for|with)\s+(?P<w>.+)$", _I),
     _one("employer", "The user works at {v}.")),
    (re.compile(r"^i\s+(?:now )?work as\s+(?P<v>.+)$", _I), _one("my:job", "The user works as {v}.")),
    (re.compile(r"^(?:i'm|i am)\s+(?P<v>\d{1,3})(?:\s+years?\s+old|\s*yo)?$", _I), _one("my:age", "The user is {v} years old.")),
    (re.compile(r"^(?:i'm|i am)\s+(?:severely |very |mildly )?allergic to\s+(?P<v>.+)$", _I), _one(None, "The user is allergic to {v}.")),
    (re.compile(r"^(?:i'm|i am)\s+(?:a |an )?(?P<v>" + "|".join(DIETS) + r")$", _I), _one("diet", "The user is {v}.", "preference")),
    (re.compile(r"^i\s+(?:don't|do not|never|can't|cannot)\s+eat\s+(?P<v>.+)$", _I), _one(None, "The user doesn't eat {v}.", "preference")),
    (re.compile(r"^my\s+(?:favourite|favorite|fave)\s+(?P<x>[a-z][\w '’-]{0,30}?)\s+(?:is|are)\s+(?P<v>.+)$", _I), _favourite),
    (re.compile(r"^(?:my|our)\s+(?P<x>[a-z][\w '’-]{0,30}?)(?:'s|’s)\s+name\s+is\s+(?P<v>.+)$|^(?:my|our)\s+(?P<y>[a-z][\w '’-]{0,30}?)\s+(?:is|are)\s+(?:called|named)\s+(?P<w>.+)$", _I),
     _called),
    (re.compile(r"^i\s+have\s+an?\s+(?P<x>[a-z][\w '’-]{0,20}?)\s+(?:called|named)\s+(?P<v>.+)$", _I), _called),
    (re.compile(r"^(?:my|our)\s+(?P<x>[a-z][\w '’-]{0,30}?)\s+(?:is|are)\s+(?:on\s+)?(?P<v>.+)$", _I), _attribute),
    (re.compile(r"^i\s+(?:really\s+)?(?P<verb>love|like|enjoy|hate|dislike|prefer|adore|can't stand)\s+(?P<v>.+)$", _I), _likes),
)


def _first_person(sentence: str) -> list[Statement]:
    s = _TRAILING.sub("", sentence.strip().rstrip(".!")).rstrip(",")
    for pattern, make in RULES:
        m = pattern.match(s)
        if not m:
            continue
        groups = {k: v for k, v in m.groupdict().items() if v}
        value = _clean(groups.get("v") or groups.get("w") or "")
        if not value or _PRONOUN_VALUE.match(value):
            return []
        return make(value, groups)
    return []


def _forgetting(sentence: str) -> list[Statement]:
    """ "I don't work at the bakery anymore", "I no longer live in York": the memory with that key goes."""
    s = sentence.strip().rstrip(".!")
    m = re.match(r"^i\s+(?:no longer|don't|do not|stopped)\s+(?P<verb>live in|living in|work at|work for|working at|working for)\s+(?P<v>.+?)(?:\s+any\s*more)?$", s, re.I)
    if not m:
        return []
    key = "home" if "liv" in m.group("verb").lower() else "employer"
    value = _clean(m.group("v"))
    return [Statement(key, value, "", op="delete")] if value else []


_FILLER = re.compile(r"(?:for me|for later|for now|please|thanks?|thank you|ok(?:ay)?|[\s,.!—-])+", re.I)


_AUX = {"am": "is", "have": "has", "do": "does", "don't": "doesn't", "was": "was", "can": "can", "could": "could", "will": "will",
        "would": "would", "should": "should", "must": "must", "might": "might", "may": "may", "did": "did"}
_ADVERBS = ("always", "usually", "often", "never", "also", "just", "really", "sometimes", "normally", "still")


def _third_person(verb: str) -> str:
    """ "take" -> "takes", "watch" -> "watches", "carry" -> "carries"; auxiliaries and adverbs as they are."""
    low = verb.lower()
    if low in _AUX:
        return _AUX[low]
    if re.search(r"(?:s|sh|ch|x|z|o)$", low):
        return verb + "es"
    return verb[:-1] + "ies" if re.search(r"[^aeiou]y$", low) else verb + "s"


def _explicit_fallback(sentence: str) -> list[Statement]:
    """ "remember that the gate code is 4471" with no known form: kept as said, in the third person."""
    s = sentence.strip().rstrip(".!")
    if len(s) < 6 or _QUESTION.match(s) or _FILLER.fullmatch(s):  # "Remember this for me please": nothing said yet
        return []
    out = re.sub(r"^i'm\b|^i am\b", "the user is", s, flags=re.I)
    out = re.sub(r"^i've\b|^i have\b", "the user has", out, flags=re.I)
    out = re.sub(rf"^i\s+((?:{'|'.join(_ADVERBS)})\s+)?([a-z]+)\b", lambda m: f"the user {m[1] or ''}{_third_person(m[2])}", out,
                 flags=re.I)  # "I take" -> "the user takes", "I always park" -> "the user always parks"
    out = re.sub(r"^i\b", "the user", out, flags=re.I)
    out = re.sub(r"\bmy\b", "the user's", out, flags=re.I)
    out = re.sub(r"\bme\b", "the user", out, flags=re.I)
    return [Statement(None, s, out[:1].upper() + out[1:] + ".")]


_THEIR = re.compile(r"^(?:his|her|their|its)\s+(?P<x>[a-z][\w '’-]{0,30}?)\s+(?P<be>is|are)\s+(?P<v>.+)$", _I)
_AGED = re.compile(r"^(?:is|was|turned|turns|is turning|will be)\s+\d{1,3}$", _I)
_THEY = re.compile(r"^(?:he|she|they|it)\s+(?P<v>(?:lives|live|works|work|is|are|was born|comes|come|teaches|studies|goes|plays|turned|turns)\b.+)$", _I)


def _theirs(sentence: str, owner: str) -> list[Statement]:
    """ "her office is on Elm Street" right after "My dentist is Dr Patel": a fact about the user's dentist.

    Without it the second half of "My dentist is Dr Patel and her office is on Elm Street" was lost, and
    "Where is my dentist's office?" was answered "Your dentist is Dr Patel."
    """
    s = _TRAILING.sub("", sentence.strip().rstrip(".!")).rstrip(",")
    s = re.sub(r"^(he|she|it)['’]s\b", r"\1 is", re.sub(r"^they['’]re\b", "they are", s, flags=_I), flags=_I)  # "and he's a beagle"
    if m := _THEIR.match(s):
        what, value = _norm_noun(m.group("x")), _clean(m.group("v"))
        if not value or _PRONOUN_VALUE.match(value) or value.split(" ", 1)[0].lower() in _PASSING:
            return []
        return [Statement(f"my:{owner}'s {what}", value, f"The user's {owner}'s {what} {m.group('be').lower()} {value}.")]
    if m := _THEY.match(s):
        value = _AGED.sub(r"\g<0> years old", _clean(m.group("v")))  # "and she is 7": "How old is Lily?" reads "old"
        return [Statement(None, value, f"The user's {owner} {value}.")] if value and len(value.split()) > 1 else []
    return []


_I_AM_BOTH = re.compile(r"^(?P<am>i'm|i’m|i am)\s+(?P<a>.+?)\s+and\s+(?:(?:i'm|i’m|i am)\s+)?(?P<b>.+)$", _I)


def _both_about_me(sentence: str) -> list[Statement]:
    """ "I'm vegetarian and allergic to peanuts": each half read as its own "I'm …" when both are statements (the whole
    matched no form, so nothing was kept and meal ideas could not keep to either)."""
    m = _I_AM_BOTH.match(sentence.strip().rstrip(".!"))
    if m is None:
        return []
    a, b = _first_person(f"{m['am']} {m['a']}"), _first_person(f"{m['am']} {m['b']}")
    return a + b if a and b else []


def statements(message: str, before: str = "") -> list[Statement]:
    """Every statement the person made about themselves in `message` (none from questions or requests).

    "his / her / their …" and "he / she / they …" in a sentence after one about the user's X (a key
    "my:X") are read as about X: "My mum is called Ann and she lives in Leeds"; so is one at the start of the
    message when `before` (their previous message) ended on X: "My wife's name is Elena" then "Her birthday is
    on the 2nd of February" (`mol chat -c`: nothing was kept, and "When is Elena's birthday?" got her name).
    """
    out: list[Statement] = []
    owner: str | None = _last_owner(statements(before)) if before else None
    for sentence in sentences(message):
        if sentence.endswith("?"):
            continue
        explicit = bool(_EXPLICIT.search(sentence[:48]))
        body = _LEAD.sub("", sentence).strip()
        if not body or _QUESTION.match(body):
            continue
        found = _forgetting(body) or _named_kin(_TRAILING.sub("", body.rstrip(".!"))) or _first_person(body) \
            or _both_about_me(body) or (_theirs(body, owner) if owner else [])
        if not found and explicit:
            found = _explicit_fallback(body)
        for st in found:
            if st.key and st.key.startswith("my:") and "'s " not in st.key:
                owner = st.key[3:]
        out.extend(found)
    return out


def _last_owner(found: list[Statement]) -> str | None:
    return next((st.key[3:] for st in reversed(found) if st.key and st.key.startswith("my:") and "'s " not in st.key), None)


_ASKING = re.compile(r"^(?:what|who|whom|whose|where|when|why|how|which|do|does|did|is|are|am|was|were|can|could|would|"
                     r"will|should|shall|have|has|may|might)\b", re.IGNORECASE)


def is_question(message: str) -> bool:
    """Does the message ask something (rather than say or request it)?"""
    body = _LEAD.sub("", message.strip()).strip()
    return body.endswith("?") or bool(_ASKING.match(body))


# Requests beyond `_QUESTION`'s forms; kept apart from it because statements() must still read "You can call me Ada".
_ASKED_TO = re.compile(
    r"^(?:(?:you can|you could|you may|feel free to|go ahead and|i need you to|i want you to|i'd like you to|let's|lets)\b|"
    r"(?:tick|mark|cross|check|translate|explain|summari[sz]e|rewrite|fix|draft|tell|show|open|start|launch|pull up|"
    r"bring up|put|pop up|note|make a note|jot|write down|convert|calculate|compute|generate|send|email|compose|sort|"
    r"refactor|debug|implement|run|get|clear|complete|finish|alert|ping|notify|wake|save|keep)\b)",
    re.IGNORECASE,
)
_ACTION = re.compile(r"\b(?:remind me|set an? (?:reminder|alarm|timer)|off my (?:reminders|list|to-?do)|(?:tick|cross) (?:it|them|that) off|"
                     r"mark (?:it|them|that) (?:as )?done)\b", re.IGNORECASE)


def is_request(message: str) -> bool:
    """Is the message a question or a request to do something (nothing about the person to keep)?

    "I need to call Sam at 3, remind me" asks too: a reminder, a tick-off or an alarm named anywhere makes a request."""
    body = _LEAD.sub("", message.strip()).strip()
    return body.endswith("?") or bool(_QUESTION.match(body) or _ASKED_TO.match(body) or _ACTION.search(body))


_YOU = {"is": "are", "was": "were", "has": "have", "does": "do", "doesn't": "don't", "isn't": "aren't", "wasn't": "weren't"}


_FIRST = re.compile(r"^(?:i|i'm|i've|i'd|i'll|my|our|we|we're|we've)\b", re.I)
_TO_YOU = {"i": "you", "i'm": "you're", "i've": "you've", "i'd": "you'd", "i'll": "you'll", "me": "you", "my": "your", "mine": "yours",
           "myself": "yourself", "our": "your", "we": "you", "we're": "you're", "we've": "you've", "us": "you", "am": "are"}
_MID_FIRST = re.compile(r"\b(?:I'm|I've|I'd|I'll|I)\b|\b(?:me|my|mine|myself|our|we're|we've|we)\b|(?<=\bI )am\b")  # case kept: not "US"
_FIRST_WORD = re.compile(r"\b(?:i'm|i've|i'd|i'll|i|me|my|mine|myself|our|we're|we've|we|(?-i:us))\b|(?<=\bi )am\b", re.I)  # "the US" is no "you"


def second_person(fact: str) -> str:
    """ "The user's dentist is Dr Patel." -> "your dentist is Dr Patel."; "The user is allergic to X." -> "you are allergic to X.";
    a fact kept in the person's words ("I lent my ladder to Priya", added with `mol memory add`) -> "you lent your ladder to Priya"."""
    if _FIRST.match(fact.strip()):
        return _FIRST_WORD.sub(lambda m: _TO_YOU[m[0].lower()], fact.strip())
    if not re.match(r"the user\b", fact.strip(), re.I) and _MID_FIRST.search(fact):  # "Dr Hughes said I should …" (said weeks before)
        return _MID_FIRST.sub(lambda m: _TO_YOU[m[0].lower()], fact.strip())
    text = re.sub(r"\bthe user's\b", "your", fact.strip(), flags=re.I)  # "The user takes the user's coffee …": both
    if m := re.match(rf"^the user\s+((?:{'|'.join(_ADVERBS)})\s+)?([\w']+)", text, flags=re.I):
        verb = m.group(2).lower()
        verb = _YOU.get(verb) or (verb[:-3] + "y" if verb.endswith("ies") else verb[:-2] if re.search(r"(?:s|sh|ch|x|z|o)es$", verb)
                                   else verb[:-1] if verb.endswith("s") and not verb.endswith("ss") else verb)
        text = f"you {m.group(1) or ''}{verb}{text[m.end():]}"
    return text


def key_of(memory_text: str) -> tuple[str | None, str]:
    """(key, value) of a stored memory, read from its first- or third-person text; (None, "") if it has none."""
    text = memory_text.strip().rstrip(".")
    third = re.sub(r"^the user's\b", "my", text, flags=re.I)
    third = re.sub(r"^the user (?:is|lives|works|has)\b", lambda m: {"is": "I am", "lives": "I live", "works": "I work", "has": "I have"}[m.group(0).split()[-1].lower()], third, flags=re.I)
    third = re.sub(r"^my name is\b", "my name is", third, flags=re.I)
    for s in _first_person(third) or _first_person(text):
        if s.key:
            return s.key, s.value
    return None, ""


def same_value(a: str, b: str) -> bool:
    norm = lambda v: re.sub(r"[^a-z0-9]+", " ", v.lower()).strip()  # noqa: E731
    return norm(a) == norm(b)


def facts_said(text: str) -> str:
    """ "The user's daughter is called Lily. The user's daughter Lily starts …" as "your daughter is called Lily and
    that your daughter Lily starts …" (each sentence in the second person; the second had stayed "The user's …")."""
    facts = [second_person(f).rstrip(".") for f in re.split(r"(?<=\.)\s+(?=The user\b)", text.strip()) if f.strip()]
    return " and that ".join(facts)
