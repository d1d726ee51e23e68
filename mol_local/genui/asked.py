"""Which component kinds a request names ("a countdown of 20 minutes", "a form: age and a toggle for …").

The embedded L3 specialist writes valid documents but often of the wrong kind
(a Checklist for "count down an hour", a Select for "a toggle"): the words that
name a kind are rare in its data next to the checklists. What a person named
is not the model's to choose, so `generate.document_grammar(kinds)` makes the
named kinds the document's first components (after an optional Card), and the
model writes their ids, labels, numbers and items as before.

Conservative on purpose: only words that name a view ("timer", "table",
"slider", "tracker", …) count, and "how far am I", which asks for progress.
The first named kind is required; a later one only when it is introduced as
another part ("… and a toggle for …"), so "a checklist for sending the tax
form" asks for a Checklist, not a Form.
"""

from __future__ import annotations

import re

from mol_local.genui.catalog import COMPONENTS
from mol_local.genui.ground import named_items
from mol_local.genui.stated import SCHEDULE, keyed_rows, logged_fields, progress

_THING_CARDS = ("birthday", "christmas", "greeting", "greetings", "thank-you", "thank you", "credit", "debit", "gift", "library",
                "business", "sim", "post", "report", "bank", "id", "loyalty", "membership", "sd", "memory", "get well", "wedding")
_KIND_WORDS: dict[str, str] = {
    "Checklist": r"check-?lists?|to-?do lists?|packing lists?|shopping lists?|habit trackers?",
    "Table": r"tables?|(?:chore|cleaning|housework) (?:charts?|rotas?|schedules?)|rotas?",
    "Form": r"forms?",
    "Select": r"polls?|drop-?downs?|pickers?",
    "Toggle": r"toggles?|on/off switch(?:es)?|switch(?:es)?",
    "Slider": r"sliders?",
    "ProgressBar": r"progress bars?|progress|trackers?|how far am i",
    "Timer": r"timers?|count-?downs?|count down",
    "Tabs": r"tabs",
    "Grid": r"grid",
    "Card": "".join(rf"(?<!{q} )" for q in _THING_CARDS) + r"cards?",
    "Button": r"buttons?",
}
_ANY = re.compile("|".join(f"(?P<{k}>\\b(?:{w})\\b)" for k, w in _KIND_WORDS.items()), re.I)
_ANOTHER = re.compile(r"\b(?:and|plus|with)\s+(?:also\s+)?(?:an?|one)\s+(?:on/off\s+)?$", re.I)
MAX_KINDS = 3
_TRACK = re.compile(r"\btrack(?:ing|s)?\b", re.I)


_NEXT_KIND = re.compile(r"\s+(?:(?!(?:with|and|or|for|of|plus|a|an|the|to|in|on)\b)[\w'-]+\s+)?(?:"
                        + "|".join(_KIND_WORDS.values()) + r")\b", re.I)


def asked_kinds(request: str) -> tuple[str, ...]:
    """The component kinds `request` names, containers first (they hold the rest), at most MAX_KINDS.
    A kind word that only qualifies the next one ("a table booking form") or is part of a listed item
    ("a prep list with raincoat, consent form and bus money") names no view."""
    items = " | ".join(named_items(request)).lower()
    found: list[str] = []
    for m in _ANY.finditer(request):
        kind = m.lastgroup or ""
        another = _ANOTHER.search(request[max(0, m.start() - 24):m.start()])
        if kind in found or _NEXT_KIND.match(request, m.end()) or (items and m[0].lower() in items and not another):
            continue
        if found and not another:
            continue
        found.append(kind)
    if found in ([], ["ProgressBar"]) and not re.search(r"\bprogress\b", request, re.I) and logged_fields(request):
        found = ["Table"]  # "a reading tracker with title, author and pages read", "a workout log with exercise, sets and reps"
    if not found and _day_schedule(request):
        found.append("Table")
    if not found and _TRACK.search(request) and None not in progress(request):  # "Track my water intake: 3 of 8 glasses"
        found.append("ProgressBar")  # (drew a checklist of "Glasses" and "Liquorics" in the app)
    found.sort(key=lambda k: not COMPONENTS[k].container)
    return tuple(found[:MAX_KINDS])


def _day_schedule(request: str) -> bool:
    """"A weekly workout schedule with running on Monday, swimming on Wednesday and yoga on Friday": a table of
    days (L1 had set a reminder called "a weekly workout plan" for Sunday; L3 drew three toggles and no day)."""
    return bool(SCHEDULE.search(request)) and keyed_rows(request)[0][:1] == ["Day"]


_VIEW_WORDS = "|".join(w for k, w in _KIND_WORDS.items() if k not in ("Button", "Grid", "Tabs"))
_VIEW = re.compile(r"(?:\b(?:an?)\s+|(?:^|[-:;,]\s*))(?:[\w'/-]+\s+){0,4}?(?:" + _VIEW_WORDS + r")\b"
                   r"|\bhow far am i\b|^count ?down\b", re.I)
_NOT_A_VIEW = re.compile(
    r"\b(?:remind(?:ed|ing|s)?|(?:set|add|create|schedule|make) (?:me )?(?:an? )?reminders?|"
    r"reminders? (?:for|at|to|on)|ping me|alert me|tell me to|note (?:that|down)|note(?=\s*:)|write down|jot|"
    r"remember (?:that|this|my)|save (?:a|this) note|book (?:a|the) table|reserve|"
    r"python|function|script|code|regex|sql|class|javascript|bash|shell|html|css|json|implement|program|app|api|"
    r"flask|django|php|react|rust|java|game)\b"
    r"|\b\w+\([\w, ]*\)"  # a call written out: code
    r"|^(?:what|what's|how (?:do|does|can|to)|why|who|explain|is|are|does|do|tell me)\b", re.I)


def names_a_view(request: str) -> bool:
    """Does `request` ask for a view by name ("a checklist for the move: …", "count down ten minutes", "what
    you know about me, as a table", "how far am I: 2,715/5000")? The router sends it to the UI slot whatever
    the route adapter says (it sent 12 of 30 held-out view requests elsewhere). Not when the request also
    asks for an action the agent slots do ("remind me … a checklist"), for code ("a Python function that
    prints a table"), or is a question about a view ("what is a progress bar?")."""
    tracked = bool(_TRACK.search(request)) and None not in progress(request)
    return bool(_VIEW.search(request) or _day_schedule(request) or tracked) and not _NOT_A_VIEW.search(request)
