"""What a request states that the embedded L3 gets wrong: a timer's length, the items of a checklist.

"a 20 minute timer" came back as `"seconds": 20` — the model copies the number
and cannot multiply. As `harness/when.py` does for reminder times, the
arithmetic is done here: when the request names exactly one length of time,
every Timer in the document counts down that many seconds (its bound state
too). And "a checklist … with gloves, goggles and a helmet" came back with
"Helmage", or without an item named: the one checklist gets every named item,
spelt as the person wrote it. Applied to a valid document, so validity never
changes. The other parts a request can state (numbers, columns and rows, a
card's lines, switches, choices, fields, the person's own data) are applied
by `genui.ground_stated`.
"""

from __future__ import annotations

import difflib
import re
from datetime import datetime

from mol_local.genui.document import UIDocument
from mol_local.genui.grid import ground_grid
from mol_local.genui.rota import ground_whole
from mol_local.genui.starters import ground_starter
from mol_local.genui.ground_stated import (
    ground_card,
    ground_fields,
    ground_numbers,
    ground_options,
    ground_source,
    ground_switches,
    ground_table,
)

MAX_ITEMS = 50  # a checklist's items after grounding: a runaway request adds no more

_UNIT = {"s": 1, "sec": 1, "second": 1, "m": 60, "min": 60, "minute": 60, "h": 3600, "hr": 3600, "hour": 3600}
_LENGTH = re.compile(r"\b(\d+(?:\.\d+)?|an?|one|half an?)[\s-]*(seconds?|secs?|minutes?|mins?|hours?|hrs?|[smh])\b(\s+and a half)?", re.I)
_JOIN = re.compile(r"^(?:\s*,?\s*(?:and\s+)?)$", re.I)  # what may stand between the parts of one length: "1 hour 30 minutes"
_NUMBER_WORDS = {w: str(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())} | {"thirty": "30", "forty": "40", "forty-five": "45", "fifty": "50",
                                                      "sixty": "60", "ninety": "90"}
_NUMBER_WORD = re.compile(r"\b(" + "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True)) + r")\b(?=[\s-]*(?:seconds?|secs?|minutes?|mins?|hours?|hrs?)\b)", re.I)
_WORD = {"a": 1.0, "an": 1.0, "one": 1.0}


def stated_seconds(request: str) -> int | None:
    """The one length of time `request` names, in seconds ("20 minutes", "an hour and a half", "1 hour 15
    minutes", "ten minutes"); None when it names none or several."""
    text = _NUMBER_WORD.sub(lambda m: _NUMBER_WORDS[m[1].lower()], request)
    lengths: list[float] = []
    end = None
    for m in _LENGTH.finditer(text):
        amount, unit = m[1].lower(), m[2].lower().rstrip("s") or "s"
        size = _UNIT[unit if unit in _UNIT else unit[0]]
        value = (0.5 if amount.startswith("half") else _WORD.get(amount) or float(amount)) * size
        value += size / 2 if m[3] else 0
        if end is not None and _JOIN.match(text[end:m.start()]):
            lengths[-1] += value  # the next part of the same length
        else:
            lengths.append(value)
        end = m.end()
    found = {round(v) for v in lengths}
    return found.pop() if len(found) == 1 else None


def ground(doc: UIDocument, request: str, *, starters: bool = True, now: datetime | None = None) -> list[str]:
    """What the request states, applied to the document: a timer's length, a checklist's named items, a
    progress bar's and a slider's numbers, a table's columns and rows, the person's data a view shows
    (mol_local.genui.stated). Returns what changed (for the composition's fixes)."""
    spelt = ground_spelling(doc, request)
    if whole := ground_whole(doc, request, now):  # a chore chart, a countdown to a day: whatever the model drew
        return spelt + whole
    if (laid := ground_grid(doc, request)) is not None:  # a comparison or a day-by-day plan: laid out, or the model's kept whole
        return spelt + laid
    return spelt + (ground_timers(doc, request) + ground_items(doc, request) + ground_starter(doc, request, *named_list(request), starters)
            + ground_notes(doc, request)
            + ground_source(doc, request)
            + ground_numbers(doc, request) + ground_table(doc, request) + ground_card(doc, request)
            + ground_switches(doc, request) + ground_options(doc, request) + ground_fields(doc, request)
            + ground_list_title(doc, request) + ground_bar_label(doc, request) + drop_empty_boxes(doc))


_SPELT = re.compile(r"[A-Za-z]{3,}")
_NEAR_SPELLING = 0.5


def ground_spelling(doc: UIDocument, request: str) -> list[str]:
    """A word of the title or a label that the request nearly has, spelt as the request spells it: "a table of my
    weekly workouts" was titled "Wirkey workouts", "a form to collect RSVP names" "RSP" (`mol chat`). Nearly: the same
    first letter, a length within one, half the letters shared, and not a word the text has already ("Chore chart" stays);
    a word the request has, or another form of one ("Workout" for "workouts"), stays."""
    said = {w.lower(): w for w in _SPELT.findall(request)}
    fixes: list[str] = []

    def respelt(text: str) -> str:
        has = {w.lower() for w in _SPELT.findall(text)}

        def one(m: re.Match[str]) -> str:
            word = m[0].lower()
            if len(word) < 4 and not m[0].isupper() or word in said \
                    or any(w[:4] == word[:4] or w.startswith(word) or word.startswith(w) for w in said):
                return m[0]  # "Tea" is no "the"; "Run" is "runs"
            near = [w for w in said if w[0] == word[0] and abs(len(w) - len(word)) <= 1 and w not in has  # not "Chore chore"
                    and (len(w) >= 4 or said[w].isupper())
                    and difflib.SequenceMatcher(None, word, w).ratio() >= _NEAR_SPELLING]
            if len(near) != 1:
                return m[0]
            fixes.append(f"{m[0]!r} spelt {said[near[0]]!r} as the request has it")
            return said[near[0]] if m[0].isupper() or said[near[0]].isupper() else m[0][0] + near[0][1:]
        return _SPELT.sub(one, text)

    doc.title = respelt(doc.title)
    for comp in doc.components:
        if isinstance(comp.get("label"), str):
            comp["label"] = respelt(comp["label"])
    return fixes


def drop_empty_boxes(doc: UIDocument) -> list[str]:
    """A Card, Grid or Tabs holding nothing, and text of only punctuation, beside components that show something, is
    dropped: "Track my water intake: 3 of 8 glasses today" drew an empty "Items" box above its progress bar (the app).
    Kept when an action names it or it is all there is."""
    targets = {str(a.get("target")) for a in doc.actions.values() if isinstance(a, dict)}
    gone: set[str] = set()
    while empty := [c for c in doc.components if c["id"] not in gone | targets and _shows_nothing(c, gone)]:
        gone |= {c["id"] for c in empty}  # a box whose only child was a line of dashes is empty too
    if not gone or len(gone) == len(doc.components):
        return []
    doc.components = [c for c in doc.components if c["id"] not in gone]
    for c in doc.components:
        if isinstance(c.get("children"), list):
            c["children"] = [k for k in c["children"] if k not in gone]
    return [f"dropped the empty {', '.join(sorted(gone))}"]


def _shows_nothing(c: dict, gone: set[str]) -> bool:
    """A box with no child left, or unbound text with no letter or digit in it ("- - - - - -" under a wedding checklist, `mol chat`)."""
    if c.get("type") in ("Card", "Grid", "Tabs"):
        return not [k for k in c.get("children") or [] if k not in gone]
    return c.get("type") in ("Text", "Markdown") and not c.get("bind") and not re.search(r"[^\W_]", str(c.get("text", "")))


def _stems(text: str) -> set[str]:
    return {w[:4] for w in re.findall(r"[a-z]{3,}", text.lower())}


def ground_bar_label(doc: UIDocument, request: str) -> list[str]:
    """A progress bar or slider labelled with a word from nowhere ("Track my water intake: 3 of 8 glasses today" drew
    a bar labelled "Gratitude") takes the view's title when the title is the request's ("Water intake")."""
    said = _stems(request)
    if not said & _stems(doc.title):
        return []
    fixes = []
    for comp in doc.components:
        label = str(comp.get("label", ""))
        if comp.get("type") in ("ProgressBar", "Slider") and _stems(label) and not _stems(label) & said:
            comp["label"] = doc.title
            fixes.append(f"{comp['type']} {comp['id']!r} labelled {doc.title!r}, not {label!r}")
    return fixes


_NAMED_LIST = re.compile(r"\b(?:a|an|my|the|our)\s+(?:(?P<name>[a-z-]+)\s+)?(?P<kind>check\s*list|list)\b", re.IGNORECASE)
_FOR = re.compile(r"\s+for\s+(?:a\s+|an\s+|the\s+|my\s+)?(?P<what>[\w' -]{3,40}?)[\s.!?]*$", re.IGNORECASE)


def ground_list_title(doc: UIDocument, request: str) -> list[str]:
    """A checklist titled with a cut-off word of the list the request names: "Make a shopping list: eggs, milk" was
    titled "Shop". The title becomes "Shopping list"; a title of its own ("Weekend", "Groceries") stays. One that shares
    no word with the request ("Theater" for "a shopping list for a vegetarian lasagne") is named by what it is for."""
    m = _NAMED_LIST.search(request)
    title = doc.title.strip().lower()
    if m is None or not title or not any(c.get("type") == "Checklist" for c in doc.components):
        return []
    name = (m["name"] or "").lower()
    named = f"{name[:1].upper()}{name[1:]} {'checklist' if 'check' in m['kind'].lower() else 'list'}"
    if not _stems(title) & _stems(request) and (purpose := _FOR.match(request[m.end():])):  # "Theater" for "… for a vegetarian lasagne"
        what = purpose["what"]  # "Chef's menu" for "a checklist for cleaning the kitchen": "Cleaning the kitchen"
        doc.title = f"{named} for {what}" if name else what[:1].upper() + what[1:]
        return [f"title {title!r} named as the request names the list"]
    if not name:
        return []
    if title == name or not name.startswith(title) or name in ("to-do", "todo"):
        return []
    doc.title = named
    return [f"title {title!r} named as the request names the list"]


_BARE_TIMER = {"", "timer", "a timer", "countdown", "count down", "count-down"}
_TIMER_WORDS = frozenset("set start make create give me a an the timer countdown count down please for of minute minutes min mins "
                         "second seconds sec secs hour hours".split())


def _bare_timer(label: object) -> bool:
    """A label that says no more than "timer" or the request's verb ("Set" for "Set a timer for 5 minutes")."""
    words = re.findall(r"[a-z]+", str(label).lower())
    return str(label).strip().lower() in _BARE_TIMER or all(w in _TIMER_WORDS for w in words)


def ground_timers(doc: UIDocument, request: str) -> list[str]:
    """Set every Timer to the length the request names; a timer (and a title) that says no more than "timer"
    says its length."""
    seconds = stated_seconds(request)
    fixes: list[str] = []
    if seconds is None or seconds <= 0:
        return fixes
    for comp in doc.components:
        if comp.get("type") == "Timer" and _bare_timer(comp.get("label", "")):
            comp["label"] = f"Timer: {spoken_length(seconds)}"  # "Start a 10 minute timer" was titled " timer"
            fixes.append(f"timer {comp['id']!r} labelled with its length")
        if comp.get("type") != "Timer" or comp.get("seconds") == seconds:
            continue
        comp["seconds"] = seconds
        bind = comp.get("bind")
        if isinstance(bind, str) and isinstance(doc.state.get(bind), (int, float)) and not isinstance(doc.state[bind], bool):
            doc.state[bind] = seconds
        fixes.append(f"timer {comp['id']!r} set to the {seconds} s the request named")
    if _bare_timer(doc.title) and any(c.get("type") == "Timer" for c in doc.components):
        doc.title = f"Timer: {spoken_length(seconds)}"
    return fixes


def spoken_length(seconds: int) -> str:
    """"25 minutes", "1 hour 30 minutes", "45 seconds"."""
    parts = [(seconds // 3600, "hour"), (seconds % 3600 // 60, "minute"), (seconds % 60, "second")]
    return " ".join(f"{n} {unit}{'s' if n != 1 else ''}" for n, unit in parts if n)


_LIST_START = re.compile(r"(?::|\b(?:with|covering|including|containing|items?)\b|\b(?:check)?list of\b|\btrackers? (?:for|of)\b|"
                         r"\s-(?=\s)|\()\s*", re.I)
_LIST_REST = re.compile(r"(?:(?!,\s*(?:with|plus)\b|\s-\s|\s+please\b)[^:?!.()])+")  # ", with a button …" ends it
_VIEW_PART = re.compile(r"\b(?:check-?list|timer|progress bar|slider|button|dropdown|picker|toggle)\b", re.I)
_LIST_FIRST = re.compile(r"^(?P<rest>[^:?!.()]+?)\s+(?:-\s+[\w ]*\blist|as an? (?:check-?)?list)\b", re.I)  # "eggs; milk - shopping list"
_ADD_TO = re.compile(r"^(?:(?:please|can you|could you)\s+)?(?:add|put)\s+(?P<items>.+?)\s+(?:to|on|onto|in|into)\s+"
                     r"(?:my|the|our)\s+[\w' -]{0,30}?\b(?:check)?list\b", re.IGNORECASE)
_SPLIT = re.compile(r"\s*(?:;|,(?!\d{3}\b)|\band\b|\bor\b|\bplus\b)\s*", re.I)
_ARTICLE = re.compile(r"^(?:a|an|some|my)\s+", re.I)
MAX_ITEM_WORDS = 5
COLON_EXTRA_WORDS = 3  # a list written out after a colon may hold longer items: "…: email Sarah, buy a birthday card for Tom"
NEAR = 0.6  # difflib ratio at which a label is taken for a named item the model misspelt ("Helmage" for helmet)


def named_items(request: str) -> list[str]:
    """The items a request lists ("… with gloves, goggles and a helmet", "…: hand back keys; redirect mail"):
    the last enumeration of at least two short parts after a colon or a listing word; [] when there is none."""
    return named_list(request)[0]


_MAKE_LIST = re.compile(r"^(?:(?:please|can you|could you|would you)\s+)*(?:make|create|start|build|write|draw up|give|put together|do)\s+"
                        r"(?:me\s+|us\s+)?(?:a|an|my|the|our)\s+(?:[\w'-]+\s+){0,3}?(?:check\s*list|to-?do(?:\s+list)?|list(?!\s+of\b))\b", re.I)


def asks_for_a_list(request: str) -> bool:
    """Whether the request asks for a list and names what goes on it ("Make a grocery list: oat milk, bananas, …", which
    the router had sent to L1: "All the orders are ready, so no reminders needed.")."""
    return bool(_MAKE_LIST.match(request.strip())) and len(named_items(request)) >= 2


def named_list(request: str) -> tuple[list[str], bool]:
    """(the named items, whether they are the whole list): after a colon the person wrote out the list
    itself; after "with", "including", "covering" the items are ones it must hold, among any others."""
    if added := _ADD_TO.match(request.strip()):  # "Add milk to my shopping list": one item is a list too
        parts = [p for p in (_ARTICLE.sub("", p.strip(" '\"")).strip() for p in _SPLIT.split(added["items"])) if p]
        if parts and all(len(p.split()) <= MAX_ITEM_WORDS for p in parts):
            return parts, True
    found: list[str] = []
    whole = False
    taken = 0  # a listing word inside a list already read starts no list of its own ("bread with butter, jam")
    first = _LIST_FIRST.match(request)
    starts = [(0, first, True)] if first else []
    starts += [(m.start(), _LIST_REST.match(request, m.end()), ":" in m[0] or "-" in m[0])
               for m in _LIST_START.finditer(request)]
    for start, rest, colon in starts:
        if start < taken or rest is None:
            continue
        if rest is first:
            rest = _LIST_REST.match(first["rest"])
        parts = [_ARTICLE.sub("", p.strip(" '\"")).strip() for p in _SPLIT.split(rest[0])]
        parts = [p for p in parts if p]
        longest = MAX_ITEM_WORDS + COLON_EXTRA_WORDS if colon else MAX_ITEM_WORDS
        if len(parts) >= 2 and all(len(p.split()) <= longest and not _VIEW_PART.search(p) for p in parts):
            found, whole, taken = parts, colon, start + len(rest[0]) if rest.string is not request else rest.end()
    return found, whole


def ground_items(doc: UIDocument, request: str) -> list[str]:
    """The one checklist holds every item the request named, in the person's words and order: a label that
    nearly matches a named item takes its spelling, a named item with no label is added (not done). When
    the request wrote the list out after a colon, that is the whole list: `mol chat` "Make a checklist for a
    picnic: blanket, sandwiches, lemonade, frisbee" came back with Bacon, Chicken and Frozen yogurt among them.
    Otherwise what the model added follows the named items."""
    named, whole = named_list(request)
    lists = [c for c in doc.components if c.get("type") == "Checklist" and isinstance(doc.state.get(c.get("bind")), list)]
    fixes: list[str] = _one_checklist(doc, lists) if named and len(lists) > 1 else []
    if not named or len(lists) < 1:
        return []
    items = doc.state[lists[0]["bind"]]
    match: dict[str, int] = {}  # named item -> the label that stands for it
    for exact in (True, False):  # the person's words inside a label first, then a near spelling ("Helmage")
        for name in (n for n in named if n not in match):
            free = [i for i in range(len(items)) if i not in match.values()]
            ratio = {i: difflib.SequenceMatcher(None, name.lower(), str(items[i]["label"]).lower()).ratio() for i in free}
            if exact:
                close = [i for i in free if name.lower() in str(items[i]["label"]).lower()]
            else:
                close = [i for i in free if ratio[i] >= NEAR]
            if close:
                match[name] = max(close, key=ratio.__getitem__)
    ordered: list[dict] = []
    for name in named:
        want = name[:1].upper() + name[1:]
        if name in match:
            item = items[match[name]]
            if str(item["label"]).lower() != name.lower():
                fixes.append(f"item {item['label']!r} spelt as asked: {want!r}")
                item = {**item, "label": want}
            ordered.append(item)
        else:
            ordered.append({"label": want, "done": False})
            fixes.append(f"added the named item {want!r}")
    others = [items[i] for i in range(len(items)) if i not in match.values()]
    if whole and others:
        fixes.append("left out what the list did not name: " + ", ".join(repr(str(i["label"])) for i in others))
        others = []
    if [id(i) for i in ordered] != [id(i) for i in items[: len(ordered)]] and not fixes:
        fixes.append("named items put in the order they were named")
    items[:] = (ordered + others)[:MAX_ITEMS]
    return fixes


def _one_checklist(doc: UIDocument, lists: list[dict]) -> list[str]:
    """One checklist for a request that named its items, holding what every checklist held: "Make a checklist for the
    wedding with a card, a gift and my suit" drew three empty checklists in nested cards (`mol chat`), so none got the
    items. The others go; a box left empty goes with `drop_empty_boxes`."""
    keep, others = lists[0], lists[1:]
    items = doc.state[keep["bind"]]
    for other in others:
        if other["bind"] != keep["bind"]:
            items += [i for i in doc.state.pop(other["bind"], []) if isinstance(i, dict) and i not in items]
    gone = {c["id"] for c in others}
    doc.components = [c for c in doc.components if c["id"] not in gone]
    for c in doc.components:
        if isinstance(c.get("children"), list):
            c["children"] = [k for k in c["children"] if k not in gone]
    return [f"one checklist for the named items, not {len(lists)}"]


def ground_notes(doc: UIDocument, request: str) -> list[str]:
    """The one Markdown block of a notes card holds every point the request lists, as a bulleted list ("a
    markdown card with notes from the review: launch in May, new logo ok" came back with one point)."""
    blocks = [c for c in doc.components if c.get("type") == "Markdown"]
    named = named_items(request)
    if len(blocks) != 1 or not named:
        return []
    text = str(blocks[0].get("text", ""))
    if all(n.lower() in text.lower() for n in named):
        return []
    blocks[0]["text"] = "\n".join(f"- {n[:1].upper()}{n[1:]}" for n in named)
    return [f"markdown {blocks[0]['id']!r} lists the {len(named)} points the request named"]

