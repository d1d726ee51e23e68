"""Which component kinds a request names ("a countdown of 20 minutes", "a form: age and a toggle for …").

The embedded L3 specialist writes valid documents but often of the wrong kind
(a Checklist for "count down an hour", a Select for "a toggle"): the words that
name a kind are rare in its data next to the checklists. What a person named
is not the model's to choose, so `generate.document_grammar(kinds)` makes the
named kinds the document's first components (after an optional Card), and the
model writes their ids, labels, numbers and items as before.

Conservative on purpose: only words that name a view ("timer", "table",
"slider", …) count. The first named kind is required; a later one only when it
is introduced as another part ("… and a toggle for …"), so "a checklist for
sending the tax form" asks for a Checklist, not a Form.
"""

from __future__ import annotations

import re

from mol_local.genui.catalog import COMPONENTS

_KIND_WORDS: dict[str, str] = {
    "Checklist": r"check-?lists?|to-?do lists?|packing lists?|shopping lists?",
    "Table": r"tables?",
    "Form": r"forms?",
    "Select": r"polls?|drop-?downs?|pickers?",
    "Toggle": r"toggles?|on/off switch(?:es)?|switch(?:es)?",
    "Slider": r"sliders?",
    "ProgressBar": r"progress bars?|progress",
    "Timer": r"timers?|count-?downs?|count down",
    "Tabs": r"tabs",
    "Grid": r"grid",
    "Card": r"cards?",
    "Button": r"buttons?",
}
_ANY = re.compile("|".join(f"(?P<{k}>\\b(?:{w})\\b)" for k, w in _KIND_WORDS.items()), re.I)
_ANOTHER = re.compile(r"\b(?:and|plus|with)\s+(?:also\s+)?(?:an?|one)\s+(?:on/off\s+)?$", re.I)
MAX_KINDS = 3


def asked_kinds(request: str) -> tuple[str, ...]:
    """The component kinds `request` names, containers first (they hold the rest), at most MAX_KINDS."""
    found: list[str] = []
    for m in _ANY.finditer(request):
        kind = m.lastgroup or ""
        if kind in found:
            continue
        if found and not _ANOTHER.search(request[max(0, m.start() - 24):m.start()]):
            continue
        found.append(kind)
    found.sort(key=lambda k: not COMPONENTS[k].container)
    return tuple(found[:MAX_KINDS])
