"""What a request states outright about the view it asks for: numbers, columns, rows, a data source.

The embedded L3 writes a valid Slider or ProgressBar but copies numbers badly
("(1 to 10) set to 8" came back as min 8; "2,715/5000" as a checklist item
"2"), leaves a table's listed rows out, and builds a table of made-up rows for
"what you know about me, as a table". These readers take only what the
person wrote in an unambiguous form; `genui.ground` applies it to a valid
document. Each returns None (or empty) when the request does not settle it.
"""

from __future__ import annotations

import re

NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_N = rf"(-?(?:{NUMBER}))"
_FRACTION = re.compile(rf"{_N}\s*(?:/|\bout of\b|\bof\b)\s*{_N}", re.I)
_HIGH = re.compile(rf"\b(?:out of|goal of|target(?: of)?|toward(?:s)?|aiming for|up to)\s+{_N}", re.I)
_LOW = re.compile(rf"(?:\bi'?m at|\bi am at|\bcurrently(?: at)?|\bso far:?)\s+{_N}|{_N}\s+(?:[a-z]+\s+)?"
                  r"(?:saved|done|so far|read|walked|completed|drunk)\b", re.I)
_RANGE = re.compile(rf"\bbetween\s+{_N}\s+and\s+{_N}|{_N}\s*(?:to|-|–)\s*{_N}", re.I)
_START = re.compile(rf"\b(?:set (?:to|at)|start(?:ing|s)? (?:at|on)|defaults? (?:to|of|at)|initially(?: at)?)\s+{_N}",
                    re.I)


def number(text: str) -> float | int:
    value = float(text.replace(",", ""))
    return int(value) if value.is_integer() else value


def progress(request: str) -> tuple[float | int | None, float | int | None]:
    """(done so far, the goal) a progress request states: "4 out of 10 glasses", "2,715/5000", "a goal of
    12,000 steps; I'm at 4728", "out of 250 pages" (no value). A value above the goal is not taken, and a
    request stating two goals ("… out of 10000 and a water bar out of 8") settles neither."""
    goals = {number(g[2]) for g in _FRACTION.finditer(request)} | {number(g[1]) for g in _HIGH.finditer(request)}
    if len(goals) > 1:
        return None, None
    m = _FRACTION.search(request)
    if m:
        value, high = number(m[1]), number(m[2])
    else:
        hi, lo = _HIGH.search(request), _LOW.search(request)
        high = number(hi[1]) if hi else None
        value = number(lo[1] or lo[2]) if lo else None
    if high is not None and (high <= 0 or (value is not None and not 0 <= value <= high)):
        return None, None
    return value, high


def slider(request: str) -> tuple[float | int | None, float | int | None, float | int | None]:
    """(min, max, start) a slider request states: "between 0 and 10, starting at 9", "(1 to 10) set to 8",
    "0-500". A start outside the range is not taken."""
    m = _RANGE.search(request)
    low = high = start = None
    if m:
        a, b = (m[1], m[2]) if m[1] is not None else (m[3], m[4])
        low, high = number(a), number(b)
        if low >= high:
            low = high = None
    s = _START.search(request)
    if s:
        start = number(s[1])
        if low is not None and high is not None and not low <= start <= high:
            start = None
    return low, high, start


_LOGGED = re.compile(r"\b(?:trackers?|logs?|logbook)\b", re.I)


def logged_fields(request: str) -> list[str]:
    """What each entry of a tracker or log holds, when the request names two or more things and no numbers ("a
    reading tracker with title, author and pages read": a Title | Author | Pages read table to fill in; it had drawn
    one "Pages read" progress bar out of 100). "A water tracker: 3 of 8 glasses" has numbers and is progress."""
    if not _LOGGED.search(request) or re.search(r"\d", request):
        return []
    return columns(request)


_SPLIT = re.compile(r"\s*(?:;|,(?!\d{3}\b)|\band\b|\|)\s*", re.I)
_COLUMNS = (
    re.compile(r"\bwith\s+(?P<list>(?:(?!\bwith\b)[^:.?!()])+?)\s+columns\b", re.I),
    re.compile(r"\bcolumns?\s*(?::|-)?\s*(?P<list>[^:.?!()]+?)(?=\s+and these rows\b|\s*[:.?!(]|\s+please\b|$)", re.I),
    re.compile(r"\btable\s*\((?P<list>[^()]+)\)", re.I),
    re.compile(r"\btable\b[^:|]*?(?::|\bwith\b)\s*(?P<list>[^:.?!()]+?)(?=\s*[:.?!(]|\s+please\b|$)", re.I),
    re.compile(r"(?P<list>\b[\w ]{1,24}(?:\s*\|\s*[\w ]{1,24})+)", re.I),
    re.compile(r"\b(?:trackers?|logs?|logbook)\b[^:|]*?(?::|\bwith\b)\s*(?P<list>[^:.?!()]+?)(?=\s*[:.?!(]|\s+please\b|$)", re.I),
)
MAX_COLUMN_WORDS = 3


def _parts(text: str) -> list[str]:
    parts = [re.sub(r"^(?:the|a|an)\s+", "", p.strip(" '\""), flags=re.I) for p in _SPLIT.split(text)]
    return [p for p in parts if p]


def columns(request: str) -> list[str]:
    """The column names a table request lists ("with columns company, role and status", "with title and
    author columns", "columns: day; dinner", "as a table (day, activity)", "city | country", "a reading tracker
    with title, author and pages read"); [] if none."""
    for pattern in _COLUMNS:
        for m in pattern.finditer(request):
            parts = _parts(m["list"])
            if pattern.pattern.startswith(r"(?P<list>") and "|" not in m["list"]:
                continue
            if len(parts) >= 2 and all(len(p.split()) <= MAX_COLUMN_WORDS for p in parts):
                return [re.sub(r"^.*\btable\s+", "", p, flags=re.I) if "|" in m["list"] else p for p in parts]
    return []


_ROWS = re.compile(r"\brows?\s*:\s*(?P<rows>.+?)\s*(?:\bplease\b)?\s*[.?!]?\s*$", re.I)
_PAIR_LIST = re.compile(r"\bcolumns?\s*(?:\([^()]*\))?\s*:\s*(?P<rows>.+?)\s*[.?!]?\s*$", re.I)
_PAREN = re.compile(r"\s*(?:[,;]\s*)?(?:and\s+)?(?P<a>[^,;()]+?)\s*\((?P<b>[^()]+)\)")


def rows(request: str, width: int) -> list[list[str]]:
    """The rows a table request writes out for `width` columns: "rows: Lima, Peru; Oslo, Norway" or, after
    "… columns:", pairs as "Accra (Ghana), Lima (Peru)", "Dracula - Bram Stoker, …" or "Lima: Peru, …".
    [] unless every row has exactly `width` cells."""
    m = _ROWS.search(request)
    if m:
        found = [[c.strip() for c in r.split(",")] for r in re.split(r"\s*;\s*", m["rows"]) if r.strip()]
        return found if found and all(len(r) == width and all(r) for r in found) else []
    m = _PAIR_LIST.search(request)
    if not m or width != 2:
        return []
    text = m["rows"]
    paren = [[p["a"].strip(), p["b"].strip()] for p in _PAREN.finditer(text)]
    if paren and "".join(p[0] + p[1] for p in paren).replace(" ", "") == re.sub(r"[\s,;()]|\band\b", "", text):
        return paren
    for sep in (" - ", ": "):
        items = [i for i in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+(?=[^,]*" + re.escape(sep.strip()) + ")", text) if i]
        cells = [[c.strip() for c in i.split(sep.strip(), 1)] for i in items]
        if len(items) >= 1 and all(sep.strip() in i and len(c) == 2 and all(c) for i, c in zip(items, cells)):
            return cells
    return []


_DAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|weekends?|weekdays?"
_KEYED_LIST = re.compile(r"(?:\b(?P<pre>[a-z]+)\s+)?\b(?P<kind>table|schedule|timetable|rota|budget)\b(?P<head>[^:]*?)(?::|\bwith\b|\bfor\b)\s*"
                         r"(?P<list>(?:[^:.?!()]|(?<=\d)\.(?=\d))+?)\s*(?:\bplease\b)?\s*[.?!]*\s*$", re.I)  # "£300.50"
SCHEDULE = re.compile(r"\b(?:schedule|timetable|rota)\b", re.I)
_OF = re.compile(r"\b(?:of|for)\s+(?:my|our|the|his|her|their)?\s*(?:[a-z]+\s+)*?(?P<noun>[a-z]+)\s*$", re.I)
_BY_DAY = re.compile(rf"^(?P<k>{_DAY})\s*(?::|-|–)?\s+(?P<v>.+)$|^(?P<v2>.+?)\s+(?:on\s+)?(?P<k2>{_DAY})$", re.I)
_BY_NUMBER = re.compile(rf"^(?P<k>.+?)(?:\s*(?::|-|–|=)|\s+(?:at|for|costs?|is))?\s+(?P<v>[$£€]?\s?(?:{NUMBER})\s*(?:%|[a-z]{{1,6}})?)$", re.I)
_COMPARING = re.compile(r"\bcompar\w*\s+(?:(?:two|three|four|five|six|\d+)\s+)?(?:[a-z]+\s+)?(?P<noun>[a-z]{3,}s)\b", re.I)  # "comparing three phones"
_PRICED = re.compile(r"^[$£€]")


_BY_WHOM = re.compile(r"^(?P<k>.+?)\s+by\s+(?P<v>[^\d].*)$", re.I)
_MAKER = {"book": "Author", "novel": "Author", "poem": "Poet", "song": "Artist", "album": "Artist", "track": "Artist",
          "painting": "Artist", "film": "Director", "movie": "Director", "play": "Playwright"}
_NOT_NOUNS = frozenset("table me it this day days week weeks weekend month year a an my our the your weekly daily new".split())


def _singular(word: str) -> str:
    word = word.lower()
    return word[:-3] + "y" if word.endswith("ies") else word[:-1] if word.endswith("s") and not word.endswith("ss") else word


_SUMMED = re.compile(r"\b(?:budget|costs?|expenses?|spending|bills|outgoings)\b", re.I)
_AMOUNT = re.compile(rf"^(?P<c>[$£€]?)\s?(?P<n>{NUMBER})$")


def _total(cells: list[list[str]]) -> str | None:
    """The sum of amounts that are plain numbers in one currency ("£900", "300"), written as they are; None otherwise."""
    amounts = [_AMOUNT.match(v.strip()) for _, v in cells]
    if not all(amounts) or len({a["c"] for a in amounts if a and a["c"]}) > 1:
        return None
    total = sum(float(a["n"].replace(",", "")) for a in amounts if a)
    sign = next((a["c"] for a in amounts if a and a["c"]), "")
    return f"{sign}{total:,.2f}".replace(".00", "") if any("." in (a["n"] if a else "") for a in amounts) else f"{sign}{round(total):,}"


def keyed_rows(request: str) -> tuple[list[str], list[list[str]]]:
    """A table (or a schedule, timetable or rota) asked for a list whose items each pair a day with a thing ("a
    table of my weekly workouts: Monday run, Wednesday swim, Friday yoga"), a thing with an amount ("my monthly costs: rent 900, food
    300"; costs and a budget get a Total row, the sum, which `mol chat` had not) or a work with its maker ("books: Dune by Frank Herbert, Emma by Jane Austen"): two columns (Day |
    Workout, Item | Cost, Book | Author) and one row per item. ([], []) unless every item pairs the same way;
    the model had made the items the table's columns and written no row."""
    m = _KEYED_LIST.search(request)
    parts = _parts(m["list"]) if m else []
    if len(parts) < 2:
        return [], []
    of = _OF.search(m["head"]) if m else None
    if of is None and m and m["kind"].lower() != "table" and m["pre"]:  # "a weekly workout schedule with …": Day | Workout
        of = {"noun": m["pre"]}
    noun = _singular(of["noun"]).capitalize() if of and of["noun"].lower() not in _NOT_NOUNS and m and m["kind"].lower() != "budget" else ""
    compared = _COMPARING.search(m["head"]) if m else None
    for pattern, first, default in ((_BY_DAY, "Day", "Plan"), (_BY_NUMBER, "Item", "Amount")):
        pairs = [pattern.match(p) for p in parts]
        if all(pairs):
            cells = [[(q["k"] or q["k2"]).capitalize(), q["v"] or q["v2"]] if pattern is _BY_DAY else [q["k"], q["v"]]
                     for q in pairs if q]
            summed = m is not None and bool(_SUMMED.search(f"{m['pre'] or ''} {m['kind']} {m['head']}"))
            if pattern is _BY_NUMBER and summed and (total := _total(cells)):
                cells.append(["Total", total])
            if pattern is _BY_NUMBER and compared:  # "comparing three phones: iPhone 15 at £799, …": Phone | Price
                return [_singular(compared["noun"]).capitalize(), "Price" if all(_PRICED.match(v) for _, v in cells) else "Amount"], cells
            return [first, noun if noun and noun.lower() != first.lower() else default], cells
    made = [_BY_WHOM.match(p) for p in parts]
    if all(made):
        return [noun or "Title", _MAKER.get(noun.lower(), "By")], [[q["k"], q["v"]] for q in made if q]
    return [], []


_COUNTED_LIST = re.compile(r"\btable\s+(?:of|with)\s+(?:my|our|the|your)?\s*(?P<n>two|three|four|five|six|seven|eight|nine|ten|\d{1,2})\s+"
                           r"(?:[a-z]+\s+){0,2}?(?P<noun>[a-z]{3,}s)\s*:\s*(?P<list>[^:]+?)\s*[.?!]?\s*$", re.I)
_COUNT_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}


def counted_list(request: str) -> tuple[list[str], list[list[str]]] | None:
    """"a table of my three favourite films: Alien, Heat, Up": one column named for the things, a row for each (the
    model had made the films the columns); only when the count said is the count listed."""
    m = _COUNTED_LIST.search(request)
    if m is None:
        return None
    items = _parts(m["list"])
    said = int(m["n"]) if m["n"].isdigit() else _COUNT_WORDS[m["n"].lower()]
    if len(items) != said:
        return None
    return [_singular(m["noun"]).capitalize()], [[item] for item in items]


def table(request: str) -> tuple[list[str], list[list[str]]]:
    """(columns, rows) a table request states: columns it lists and rows it writes out, or the two columns and
    rows of a keyed list (`keyed_rows`), under the columns the request names if it names two; or a counted list of
    things as one column (`counted_list`)."""
    if (listed := counted_list(request)) is not None:
        return listed
    cols = columns(request)
    keyed_cols, keyed = keyed_rows(request)
    if not keyed:
        return cols, rows(request, len(cols)) if cols else []
    body = keyed[:-1] if keyed[-1][0] == "Total" else keyed
    listed = len(cols) == len(body) and all(row[0].lower() in c.lower() for c, row in zip(cols, body))  # "food £300" of "£300.50"
    return (cols if len(cols) == 2 and not listed else keyed_cols), keyed


_SOURCES = (
    ("memories", re.compile(r"\b(?:what you know about me|(?:things )?you (?:remember|know) about me|my memories)\b", re.I)),
    ("notes", re.compile(r"\bmy (?:saved )?notes\b", re.I)),
    ("reminders", re.compile(r"\bmy reminders\b", re.I)),
)


def source(request: str) -> str | None:
    """The person's own data a view is asked to show ("a table of my notes", "what you know about me, as a
    table"); None when the request names none or several."""
    found = [name for name, pattern in _SOURCES if pattern.search(request)]
    return found[0] if len(found) == 1 else None


_END = r"\s*(?:\bplease\b)?\s*[.?!]*\s*$"
_CARD = (
    re.compile(r"\bcard (?:for|titled|called|named)\s+(?P<title>[^:]+?)\s+(?:with (?:these|the|those) lines|that says|"
               r"saying)\s*:?\s*(?P<lines>.+?)" + _END, re.I),
    re.compile(r"\bcard (?:called|titled|named|for)\s+(?P<title>[^:]+?):\s*(?P<lines>.+?)" + _END, re.I),
    re.compile(r"^(?P<title>[^:]+?) card(?::| saying| that says)\s*(?P<lines>.+?)" + _END, re.I),
)
_OPENER = re.compile(r"^(?:(?:please|can|could|would|you|i|i'd|like|need|want|get|give|me|show|make|build|create|set|up|"
                     r"put|together|a|an|the|my)\s+)+", re.I)
_ONE_LINE = re.compile(r"\b(?:says|saying)\b", re.I)
_LINE_SPLIT = re.compile(r"\s*(?:;|,(?!\d{3}\b)|\band\b)\s*", re.I)
MAX_LINES = 8


def card_lines(request: str) -> tuple[str | None, list[str]]:
    """(title, lines) of a card whose text the request writes out: "a card for Today with these lines: pick up
    Leo at 4; call Mum", "Wi-Fi card: network Home5G, password on the fridge", 'a card titled Today that says
    "gym at 6"' (one line: what it says is not split). (None, []) when it writes none out."""
    for pattern in _CARD:
        m = pattern.search(request)
        if not m:
            continue
        text = m["lines"].strip()
        if _ONE_LINE.search(m[0][: m.start("lines") - m.start()]):
            lines = [text.strip(" '\"“”")]
        else:
            lines = [p.strip(" '\"“”") for p in _LINE_SPLIT.split(text)]
        lines = [line for line in lines if line][:MAX_LINES]
        title = _OPENER.sub("", m["title"].strip())
        if lines and title.lower() not in ("a", "the", "my"):
            return title, lines
    return None, []


_SWITCHES = (
    re.compile(r"\b(?:toggle|on/off switch|switch)\s+for\s+(?P<list>[\w' -]+?)(?=\s*[,;.?!()]|\s+please\b|$)", re.I),
    re.compile(r"\b(?:toggles|switches)\s*(?:for\s|:)\s*(?P<list>[^.?!():]+?)" + _END, re.I),
    re.compile(r"\bwith\s+(?P<list>[^.?!():]+?)\s+(?:switches|toggles)\b", re.I),
)


def switch_names(request: str) -> list[str]:
    """What each on/off switch a request names is for: "a toggle for gift wrap", "a settings panel with dark
    mode and location switches", "on/off switches: sounds, vibration"; [] when it names none."""
    for pattern in _SWITCHES:
        found = [p for m in pattern.finditer(request) for p in _parts(m["list"])]
        if found and all(len(p.split()) <= MAX_COLUMN_WORDS for p in found):
            return found
    return []


_OPTIONS = re.compile(r"(?:\b(?:from|options?|with)\s*:?|:)\s+", re.I)
_OPTION_REST = re.compile(r"[^.?!():]+")
_OPTION_SPLIT = re.compile(r"\s*(?:;|,(?!\d{3}\b)|\band\b|\bor\b)\s*", re.I)
_TAIL = re.compile(r"\s*,?\s*\b(?:plus|please)\b.*$", re.I)
MAX_OPTION_WORDS = 4


def options(request: str) -> list[str]:
    """The choices a picker request lists ("choose a weekend activity from museum; hiking; cinema", "help me
    pick the venue: the deli, the Thai place or the canteen", "a poll … with options terracotta or sage
    green"); the last such list, [] when there is none."""
    found: list[str] = []
    for m in _OPTIONS.finditer(request):
        rest = _OPTION_REST.match(request, m.end())
        if rest is None:
            continue
        text = _TAIL.sub("", rest[0])
        parts = [p.strip(" '\"") for p in _OPTION_SPLIT.split(text)]
        parts = [p for p in parts if p]
        if len(parts) >= 2 and all(len(p.split()) <= MAX_OPTION_WORDS for p in parts):
            found = parts
    return found


_FIELDS = re.compile(r"(?:\bform\s*(?::|-|\bwith\b(?!\s+fields\s+for))|\bfields? for|\bdetails\s*:|\)\s*:|"
                     r"\bwith\b(?!\s+fields\s+for))\s*", re.I)
_FIELD_END = re.compile(r",?\s*\b(?:and|plus)\s+(?:an?|one)\s|\(|[.?!:]|\s+please\b|\s+fields\b", re.I)


def fields(request: str) -> list[str]:
    """The text fields a form request names ("a guest book form with fields for hometown and name", "contact
    form - email, company, phone", "a sign-up form: skills and email, and a toggle for …"); a name written
    just before "(" is a dropdown's, not a field. [] when it names fewer than one."""
    for m in _FIELDS.finditer(request):
        end = _FIELD_END.search(request, m.end())
        text = request[m.end(): end.start() if end else len(request)]
        parts = _parts(text)
        if end is not None and end[0] == "(" and parts:
            parts = parts[:-1]
        if parts and all(len(p.split()) <= MAX_COLUMN_WORDS for p in parts) and "form" not in text.lower():
            return parts
    return []
