"""Questions about the words the person typed, settled by one python call: sort them, count them, spell one backwards.

Tried with `mol chat` on a fresh home: "Sort these words alphabetically: pear, apple, fig, banana" got the
request said back ("Sort these words alphabetically: pear, apple, fig."), and "How many words are in "the
quick brown fox jumps over the lazy dog"?" got "There are 2 words: the.". The embedded model cannot see
letters or count tokens; Python can. A request that is only one of these forms is written as a few lines of
Python run in the conversation's sandbox (as turn/numbers.py does for number facts), the person's text passed
as a string literal:

- sort a list they give: "Sort these words alphabetically: …", "Put these in alphabetical order: …",
  "Sort these numbers from largest to smallest: 5, 12, 3" (numbers sort by value)
- count words or characters in a quoted or colon-led text: "How many words are in "…"?", "Count the letters in …"
- count one letter in a word: "How many r's are in strawberry?"
- reverse a word or phrase: "Spell 'stressed' backwards", "Reverse the word hello"

Anything else is the model's turn.
"""

from __future__ import annotations

import re

_LEAD = (r"^(?:(?:hey|hi|ok|okay|so|quick question)[,:!]?\s+)?(?:(?:can|could|would) you\s+)?(?:please\s+)?")
_END = r"(?:,?\s*(?:please|for me|thanks|thank you))?[\s?.!]*$"
_QUOTED = r"(?:[\"“](?P<q>[^\"”]{1,400})[\"”]|['‘](?P<s>[^'’]{1,400})['’])"
_TEXT = rf"(?:{_QUOTED}|:\s*(?P<c>.{{1,400}}?)|(?:the\s+(?:sentence|text|phrase)\s+)(?P<p>.{{1,400}}?))"
_SORT = re.compile(
    rf"{_LEAD}(?:sort|order|alphabeti[sz]e|arrange|put)\b\s*(?:these|the following|this list(?: of)?|this|the|my)?\s*"
    r"(?P<kind>words|names|items|numbers|fruits?|things|list)?\s*(?:in(?:to)?\s+)?(?:(?P<alpha>alphabetical(?:ly)?(?:\s+order)?)|"
    r"(?:order\s+)?from\s+(?P<from>smallest|lowest|largest|biggest|highest|a)\s+to\s+(?:smallest|lowest|largest|biggest|highest|z)|"
    rf"(?P<rev>reverse alphabetical(?: order)?))?\s*[:\-—]\s*(?P<items>.{{1,400}}?){_END}", re.IGNORECASE)
_COUNT = re.compile(
    rf"{_LEAD}(?:how many\s+(?P<unit>words|letters|characters)\s+(?:are\s+)?(?:there\s+)?(?:in|does)|"
    rf"count\s+the\s+(?P<unit2>words|letters|characters)\s+in)\s*{_TEXT}(?:\s+have)?{_END}", re.IGNORECASE)
_LETTER = re.compile(
    rf"{_LEAD}how many\s+(?:times does\s+)?(?:the\s+letter\s+)?[\"']?(?P<ch>[a-z])[\"']?(?:'?s)?\s+(?:are\s+)?(?:there\s+)?(?:appear\s+)?"
    rf"in\s+(?:the\s+word\s+)?[\"“']?(?P<word>[a-z][a-z'-]{{0,40}}?)[\"”']?{_END}", re.IGNORECASE)
_REVERSE = re.compile(
    rf"{_LEAD}(?:(?:spell|write)\s+(?:the\s+word\s+)?[\"“']?(?P<a>[^\"”']{{1,80}}?)[\"”']?\s+backwards|"
    rf"reverse\s+(?:the\s+(?:word|string|text)\s+)?[\"“'](?P<b>[^\"”']{{1,80}})[\"”']|"
    rf"reverse\s+the\s+word\s+(?P<c>[a-z]{{1,40}})){_END}", re.IGNORECASE)
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_SPLIT = re.compile(r"\s*(?:,\s*(?:and\s+)?|;\s*|\s+and\s+)\s*", re.IGNORECASE)


def text_code(request: str) -> str | None:
    """The sandbox code answering a question about the request's own words, its first line the answer with '{}'
    for the value; None for any other request."""
    text = " ".join(request.split())
    if not text or len(text) > 600:
        return None
    for read in (_sort_code, _count_code, _letter_code, _reverse_code):
        if (source := read(text)) is not None:
            return source
    return None


def _sort_code(text: str) -> str | None:
    m = _SORT.match(text)
    alphabetize = text.lower().lstrip().startswith(("alphabetize", "alphabetise"))
    if m is None or not (m["kind"] or m["alpha"] or m["from"] or m["rev"] or alphabetize):
        return None  # "Sort: …" alone could be anything
    items = [i.strip(" .\"'“”") for i in _SPLIT.split(m["items"]) if i.strip(" .\"'“”")]
    if len(items) < 2:
        return None
    numbers = all(_NUMBER.fullmatch(i) for i in items)
    down = (m["from"] or "").lower() in ("largest", "biggest", "highest") or bool(m["rev"])
    if numbers:
        key, order = "float", "from largest to smallest" if down else "from smallest to largest"
    elif m["kind"] and m["kind"].lower() == "numbers":
        return None
    else:
        key, order = "str.casefold", "in reverse alphabetical order" if down else "in alphabetical order"
    return (f"# answer: {order[:1].upper()}{order[1:]}: {{}}.\nitems = {items!r}\n"
            f"\", \".join(sorted(items, key={key}, reverse={down}))")


def _count_code(text: str) -> str | None:
    m = _COUNT.match(text)
    if m is None:
        return None
    said = (m["q"] or m["s"] or m["c"] or m["p"] or "").strip()
    unit = (m["unit"] or m["unit2"]).lower()
    if not said:
        return None
    count = {"words": "len(text.split())", "letters": "sum(ch.isalpha() for ch in text)", "characters": "len(text)"}[unit]
    shown = said if len(said) <= 60 else said[:57] + "…"
    return _counted(f"{unit} in \"{shown}\"", f"text = {said!r}\nn = {count}")


def _counted(what: str, body: str) -> str:
    """Code whose value is the whole answer, "There are 3 …" or "There is 1 …" (the plural "s" is `what`'s first
    word's, cut for one)."""
    first, _, rest = what.partition(" ")
    one = f"{first[:-1]} {rest}" if first.endswith("s") else what
    return (f"# answer: {{}}\n{body}\none, many = {one!r}, {what!r}  # what is counted, said for one and for more\n"
            "f\"There is 1 {one}.\" if n == 1 else f\"There are {n} {many}.\"")


def _letter_code(text: str) -> str | None:
    m = _LETTER.match(text)
    if m is None:
        return None
    ch, word = m["ch"].lower(), m["word"]
    return _counted(f"\"{ch}\"s in \"{word}\"", f"word = {word!r}\nn = word.lower().count({ch!r})")


def _reverse_code(text: str) -> str | None:
    m = _REVERSE.match(text)
    if m is None:
        return None
    said = (m["a"] or m["b"] or m["c"]).strip()
    if "{" in said:
        return None  # the answer's template holds it before the value's "{}"
    return f"# answer: \"{said}\" backwards is \"{{}}\".\ntext = {said!r}\ntext[::-1]"
